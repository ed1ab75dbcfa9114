// Real repositories in temporary folders, and the real CLI: tests see what a user sees.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scratchDir } from './scratch.js';
import { defaultConfig, type Config } from '../../src/config/config.js';
import { lintRepository } from '../../src/engine/lint.js';
import type { Finding } from '../../src/model/finding.js';
import { run as runCommandLine } from '../../src/cli/run.js';
import { wantsColor } from '../../src/cli/io.js';

export const CLI = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));

/** A repository's create_plan command that promises split criteria (read/profile.ts learns the promise from it). */
export const CREATE_PLAN_COMMAND = [
  '# Create a plan',
  '',
  '```markdown',
  '## Phase 1: <name>',
  '',
  '#### Automated Verification:',
  '- [ ] <command>',
  '',
  '#### Manual Verification:',
  '- [ ] <what a person checks>',
  '```',
  '',
].join('\n');

export function git(cwd: string, ...args: string[]): string {
  const res = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

let template: string | undefined;
/**
 * The .git folder of an empty repository `git init -b main` made, once per worker. It outlives the test files (so not
 * a scratchDir) and goes with the run's folder (test/global-setup.ts): a stopped worker runs no exit handler. Without
 * the template's sample hooks and description, which git never reads (a repository `git init --template=` makes
 * has none): 15 files fewer to copy and delete per repository, about a third of the copy's CPU.
 */
function initialised(): string {
  if (template === undefined || !existsSync(template)) {
    const dir = mkdtempSync(join(tmpdir(), 'vw-init-'));
    git(dir, 'init', '-q', '-b', 'main');
    template = join(dir, '.git');
    for (const name of readdirSync(join(template, 'hooks')))
      if (name.endsWith('.sample')) rmSync(join(template, 'hooks', name));
    rmSync(join(template, 'description'), { force: true });
  }
  return template;
}

/** A fresh git repository with the given files (text or bytes), optionally committed. */
export function makeRepo(files: Record<string, string | Uint8Array>, opts: { commit?: boolean } = {}): string {
  const dir = scratchDir('vw-test-');
  // A copy of the .git folder `git init` made once for this worker: the same files, one git process fewer per test.
  cpSync(initialised(), join(dir, '.git'), { recursive: true });
  // The identity written into the repository's own config file, in git's format, rather than by three more `git
  // config` processes (one git process costs a test milliseconds, a loaded machine far more). No automatic
  // maintenance: every `git commit` would otherwise start a `git maintenance run --auto` that finds nothing to do.
  appendFileSync(
    join(dir, '.git', 'config'),
    '[user]\n\tname = Test Human\n\temail = human@example.com\n[commit]\n\tgpgsign = false\n[maintenance]\n\tauto = false\n',
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

/**
 * The CLI in this process: the `run` the built CLI's entry point calls, with the streams captured and the exit code
 * returned, as runCli gives them, without a node process per call. For tests where the process is not the point;
 * each door keeps a test through the built CLI. `env` is set in process.env for the call (git hands a hook the
 * committing identity that way, and the engine's git processes inherit it); no stdin.
 */
export async function runCliHere(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const extra: NodeJS.ProcessEnv = { NO_COLOR: '1', ...env };
  const saved = new Map(Object.keys(extra).map((k) => [k, process.env[k]]));
  const set = (k: string, v: string | undefined) => {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  };
  for (const [k, v] of Object.entries(extra)) set(k, v);
  let stdout = '';
  let stderr = '';
  try {
    const ioEnv = { ...process.env };
    const code = await runCommandLine(args, {
      cwd,
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      color: wantsColor({ env: ioEnv, tty: false }),
      env: ioEnv,
      stderrTTY: false,
    });
    return { code, stdout, stderr };
  } finally {
    for (const [k, v] of saved) set(k, v);
  }
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
