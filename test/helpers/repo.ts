// Real repositories in temporary folders, and the real CLI: tests see what a user sees.
import { appendFileSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { defaultConfig, type Config } from '../../src/config/config.js';
import { lintRepository } from '../../src/engine/lint.js';
import type { Finding } from '../../src/model/finding.js';

export const CLI = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function git(cwd: string, ...args: string[]): string {
  const res = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

/** A fresh git repository with the given files (text or bytes), optionally committed. */
export function makeRepo(files: Record<string, string | Uint8Array>, opts: { commit?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'vw-test-'));
  made.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  // The identity written into the repository's own config file, in git's format, rather than by three more `git
  // config` processes (one git process costs a test milliseconds, a loaded machine far more).
  appendFileSync(
    join(dir, '.git', 'config'),
    '[user]\n\tname = Test Human\n\temail = human@example.com\n[commit]\n\tgpgsign = false\n',
  );
  writeFiles(dir, files);
  if (opts.commit) {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
  }
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Every file below `dir`, keyed by its path relative to `dir` with `/` separators: a fixture tree for makeRepo. */
export function readTree(dir: string): Record<string, Uint8Array>;
export function readTree(dir: string, encoding: 'utf8'): Record<string, string>;
export function readTree(dir: string, encoding?: 'utf8'): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  const walk = (abs: string, prefix: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(abs, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile())
        files[`${prefix}${entry.name}`] = encoding
          ? readFileSync(join(abs, entry.name), encoding)
          : readFileSync(join(abs, entry.name));
    }
  };
  walk(dir, '');
  return files;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** The engine in-process, for tests that assert many findings and need no process boundary. */
export function lint(dir: string, overrides: Partial<Config> = {}): Finding[] {
  return lintRepository(dir, { ...defaultConfig(), ...overrides }, true).findings;
}

export function ruleIds(findings: Finding[]): string[] {
  return [...new Set(findings.map((f) => f.ruleId))].sort();
}

export function of(findings: Finding[], ruleId: string): Finding[] {
  return findings.filter((f) => f.ruleId === ruleId);
}
