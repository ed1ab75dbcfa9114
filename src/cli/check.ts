// The default command and its history doors: read the workflow files, judge them (snapshot rules over the files,
// transition rules over history, the index or a range), report, and pick the exit code.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { loadConfig, type Config, type Preset } from '../config/config.js';
import { repositoryRoot } from '../read/discover.js';
import { compareFindings, type Finding } from '../engine/finding.js';
import { RULES, RULE_IDS } from '../engine/catalog.js';
import { judgePending, judgeRange, judgeRepository, type Judged } from '../engine/doors.js';
import { summarize } from '../report/summary.js';
import { formatJson } from '../report/json.js';
import { formatStylish } from '../report/stylish.js';
import { BASELINE_FILE, writeBaseline } from '../engine/baseline.js';
import { formatSarif } from '../report/sarif.js';
import { formatGithub } from '../report/github.js';
import { formatMarkdown } from '../report/markdown.js';
import type { Summary } from '../report/summary.js';
import { EXIT, UsageError, type Io } from './io.js';

export const FORMATS = ['stylish', 'json', 'sarif', 'github', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

export interface CheckOptions {
  paths: string[];
  format: Format;
  /** Also append the markdown report to $GITHUB_STEP_SUMMARY. */
  summary: boolean;
  preset?: Preset;
  config?: string;
  maxWarnings?: number;
  quiet: boolean;
  history: boolean;
  /** Record today's findings as the baseline instead of reporting them. */
  baselineWrite?: boolean;
  /** Which door: the whole repository, the index (pre-commit), a message (commit-msg), or a range (pre-push, PRs). */
  door: { kind: 'repository' } | { kind: 'staged' } | { kind: 'commit-msg'; file: string } | { kind: 'range'; from: string | null; to: string };
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

/** `A..B`, `A...B` or `..B`; a missing or all-zero A means "from the beginning" (a push to an empty remote). */
export function parseRange(range: string): { from: string | null; to: string } {
  const m = /^(.*?)\.\.\.?(.*)$/.exec(range);
  if (!m || !m[2]) throw new UsageError(`--range needs <from>..<to> (got "${range}")`);
  return { from: m[1] || null, to: m[2] };
}

function commentFree(message: string): string {
  // Git strips these lines after the hook runs; they are not part of the message.
  return message
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .trim();
}

async function judge(opts: CheckOptions, root: string, inGit: boolean, config: Config): Promise<Judged> {
  const door = opts.door;
  if (door.kind === 'repository') return judgeRepository(root, inGit, { config, presetOverride: opts.preset, history: opts.history, baselineWrite: opts.baselineWrite });
  if (!inGit) throw new UsageError(`${door.kind === 'range' ? '--range' : door.kind === 'staged' ? '--staged' : 'commit-msg'} needs a git repository`);
  if (door.kind === 'range') return judgeRange(root, config, door, opts.preset);
  let message: string | undefined;
  if (door.kind === 'commit-msg') {
    if (!existsSync(door.file)) throw new UsageError(`no such message file: ${door.file}`);
    message = commentFree(readFileSync(door.file, 'utf8'));
  }
  return judgePending(root, config, { stage: door.kind, message, presetOverride: opts.preset });
}

/** Where rule pages can be read: the published package's files, at this version. */
export function docsBase(): string {
  return `https://unpkg.com/validate-workflow@${toolVersion()}`;
}

export function toolVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function render(format: Format, findings: Finding[], summary: Summary, io: Io, markdown: () => string): string {
  switch (format) {
    case 'json':
      return formatJson(findings, summary);
    case 'sarif':
      return formatSarif(findings, RULES, { version: toolVersion(), docsBase: docsBase() });
    case 'github':
      return formatGithub(findings, { reportHint: 'run `npx validate-workflow` locally, or see the job summary' });
    case 'markdown':
      return markdown();
    default:
      return formatStylish(findings, summary, { color: io.color });
  }
}

export async function check(opts: CheckOptions, io: Io): Promise<number> {
  const inGit = repositoryRoot(io.cwd);
  const root = inGit ?? io.cwd;
  const config = loadConfig(root, opts.config ? resolve(io.cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const scopes = opts.paths.map((p) => toRepoPath(root, io.cwd, p));

  const judged = await judge(opts, root, inGit !== null, config);
  if (opts.baselineWrite) {
    if (opts.door.kind !== 'repository' || scopes.length) throw new UsageError('--baseline-write records the whole repository: drop paths, --staged, --range and commit-msg');
    const { entries } = writeBaseline(root, judged.findings);
    io.stdout(`validate-workflow: wrote ${BASELINE_FILE} with ${entries} entr${entries === 1 ? 'y' : 'ies'} (${judged.findings.length} findings); later runs report only what is new.\n`);
    return EXIT.ok;
  }
  const files = judged.files.filter((f) => within(f, scopes));
  if (!judged.anything || (scopes.length > 0 && files.length === 0 && opts.door.kind === 'repository')) {
    const where = [...config.paths.plans, ...config.paths.handoffs, ...config.paths.ledgers].join(', ');
    const note = `validate-workflow: no workflow files found${scopes.length ? ` under ${opts.paths.join(', ')}` : ''} (looked for ${where}).\n`;
    if (opts.format !== 'stylish') {
      io.stderr(note);
      io.stdout(render(opts.format, [], summarize([], 0, 0), io, () => `## validate-workflow review\n\n${note}`));
    } else io.stdout(note);
    return EXIT.ok;
  }
  let findings = judged.findings.filter((f) => within(f.file, scopes)).sort(compareFindings);
  if (opts.quiet) findings = findings.filter((f) => f.severity === 'error');
  const summary = summarize(findings, files.length, judged.commits);
  const markdown = () => formatMarkdown({ findings, summary, workspace: judged.workspace ?? null, timeline: judged.timeline ?? [], rules: RULES, docsBase: docsBase() });
  io.stdout(render(opts.format, findings, summary, io, markdown));
  if (opts.summary) {
    const target = io.env.GITHUB_STEP_SUMMARY;
    if (!target) io.stderr('validate-workflow: --summary: GITHUB_STEP_SUMMARY is not set, no summary written.\n');
    else appendFileSync(target, `${markdown()}\n`);
  }

  if (summary.errors > 0) return EXIT.findings;
  if (opts.maxWarnings !== undefined && summary.warnings > opts.maxWarnings) {
    const note = `validate-workflow: ${summary.warnings} warnings exceed --max-warnings ${opts.maxWarnings}.\n`;
    if (opts.format === 'stylish') io.stdout(note);
    else io.stderr(note);
    return EXIT.findings;
  }
  return EXIT.ok;
}
