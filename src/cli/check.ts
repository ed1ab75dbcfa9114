// The default command: read the repository's workflow files, judge them, report, and pick the exit code.
import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { loadConfig, type Preset } from '../config/config.js';
import { repositoryRoot } from '../read/discover.js';
import { lintRepositoryParallel } from '../engine/lint.js';
import type { Finding } from '../engine/finding.js';
import { RULE_IDS } from '../rules/index.js';
import { summarize } from '../report/summary.js';
import { formatJson } from '../report/json.js';
import { formatStylish } from '../report/stylish.js';
import { EXIT, UsageError, type Io } from './io.js';

export interface CheckOptions {
  paths: string[];
  format: 'stylish' | 'json';
  preset?: Preset;
  config?: string;
  maxWarnings?: number;
  quiet: boolean;
}

function toRepoPath(root: string, cwd: string, path: string): string {
  const abs = resolve(cwd, path);
  if (!existsSync(abs)) throw new UsageError(`no such file or directory: ${path}`);
  return relative(root, abs).split(sep).join('/');
}

function within(file: string | null, scopes: string[]): boolean {
  if (file === null || scopes.length === 0) return true;
  return scopes.some((s) => s === '' || file === s || file.startsWith(`${s}/`));
}

export async function check(opts: CheckOptions, io: Io): Promise<number> {
  const inGit = repositoryRoot(io.cwd);
  const root = inGit ?? io.cwd;
  const config = loadConfig(root, opts.config ? resolve(io.cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const scopes = opts.paths.map((p) => toRepoPath(root, io.cwd, p));

  const result = await lintRepositoryParallel(root, config, inGit !== null);
  const inScope = result.discovered.filter((d) => within(d.path, scopes));
  if (inScope.length === 0) {
    const where = [...config.paths.plans, ...config.paths.handoffs, ...config.paths.ledgers].join(', ');
    const note = `validate-workflow: no workflow files found${scopes.length ? ` under ${opts.paths.join(', ')}` : ''} (looked for ${where}).\n`;
    if (opts.format === 'json') {
      io.stderr(note);
      io.stdout(formatJson([], summarize([], 0, 0)));
    } else io.stdout(note);
    return EXIT.ok;
  }

  let findings: Finding[] = result.findings.filter((f) => within(f.file, scopes));
  if (opts.quiet) findings = findings.filter((f) => f.severity === 'error');
  const summary = summarize(findings, inScope.length, 0);
  io.stdout(opts.format === 'json' ? formatJson(findings, summary) : formatStylish(findings, summary, { color: io.color }));

  if (summary.errors > 0) return EXIT.findings;
  if (opts.maxWarnings !== undefined && summary.warnings > opts.maxWarnings) {
    if (opts.format !== 'json') io.stdout(`validate-workflow: ${summary.warnings} warnings exceed --max-warnings ${opts.maxWarnings}.\n`);
    return EXIT.findings;
  }
  return EXIT.ok;
}
