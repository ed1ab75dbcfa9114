// What the hook tests share: this package packed as npm would publish it, installed into fresh repositories the way
// a user installs it, and real `git commit` / `git push` calls whose hooks are the ones `init` wrote. Not a test file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '../helpers/scratch.js';
import { DEV_DEPENDENCIES } from '../../src/cli/init/package-json.js';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { publishedManifest } from '../../scripts/pack-manifest.mjs';

export const PROJECT = fileURLToPath(new URL('../..', import.meta.url));

export function tempDir(prefix = 'vw-hooks-'): string {
  return scratchDir(prefix);
}

/**
 * The environment of every process a test starts: nothing of the test runner's own git or husky state leaks in
 * (GIT_DIR from an enclosing hook would point git at the wrong repository; HUSKY=0 would switch the hooks off).
 */
export function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^GIT_/.test(k) || k === 'HUSKY' || k === 'VALIDATE_WORKFLOW_BIN' || k === 'VALIDATE_WORKFLOW_CONFIG' || k === 'VALIDATE_WORKFLOW_LINT_STAGED') continue;
    // `npm test` exports its own settings as npm_config_*; the installs below must behave as a user's would.
    if (/^npm_/.test(k) && !/^npm_config_(cache|registry|userconfig)$/.test(k)) continue;
    out[k] = v;
  }
  return { ...out, NO_COLOR: '1', ...extra };
}

export interface Run {
  code: number | null;
  out: string;
  stdout: string;
  stderr: string;
}

export function run(cwd: string, cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Run {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: env(opts.env), input: opts.input, maxBuffer: 1 << 28 });
  if (res.error) throw res.error;
  return { code: res.status, out: `${res.stdout}${res.stderr}`, stdout: res.stdout, stderr: res.stderr };
}

/** A command that must succeed. */
export function must(cwd: string, cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): string {
  const res = run(cwd, cmd, args, opts);
  if (res.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.code}) in ${cwd}:\n${res.out}`);
  return res.stdout;
}

export const git = (cwd: string, ...args: string[]) => must(cwd, 'git', args);

/** Quiet, offline-first npm: the packages the tests need are in the npm cache after the first run. */
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/**
 * This package as a tarball, as `npm publish` would ship it: the files package.json lists and the package.json that
 * scripts/pack-manifest.mjs publishes, packed from a copy. dist/ must be built already (`npm test` builds first):
 * packing a copy runs no scripts, so it never rebuilds dist/ nor rewrites package.json under the feet of test files
 * running in parallel. (The real `npm pack`, with its prepack and postpack, is install.test.ts's subject.)
 * Packed once per run and build (onceForBuild): the tarball is the same for every test file and worker (the hook
 * tests of both workers used to pack it each, a second of npm's CPU).
 */
export function pack(): string {
  const dest = onceForBuild('vw-pack-', packInto);
  const [tarball] = readdirSync(dest).filter((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`no tarball in ${dest}`);
  return join(dest, tarball);
}

/**
 * A project where npm installed pack()'s tarball as a user's project installs it (`npm i -D`), beside the husky and
 * lint-staged versions init pins: installed once per run and build (onceForBuild), where chain.test, e2e.test and
 * api/package.test each ran its own `npm install`, seconds of npm on both cores. A test links its node_modules into a
 * repository of its own (linkInstalled); nothing writes into it (the installs a user's own `npm install` makes are
 * test/install/'s subject). Its package.json is the one npm wrote.
 */
export function installed(): string {
  return onceForBuild('vw-installed-', (dir) => {
    const tarball = pack();
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
    npm(dir, 'i', '-D', tarball, ...Object.entries(DEV_DEPENDENCIES).map(([name, version]) => `${name}@${version}`));
  });
}

/** installed()'s node_modules in `dir`, as a symbolic link: the package where npm put it, without an install. */
export function linkInstalled(dir: string): void {
  symlinkSync(join(installed(), 'node_modules'), join(dir, 'node_modules'));
}

/**
 * A folder `make` fills once per run and build, kept in the run's folder (test/global-setup.ts) under the build's
 * id: the first worker to need it makes it while the other waits for it. `make` fills a new folder, renamed to the
 * kept one once complete, so a waiting worker never sees it half made. It outlives the test files (so not a
 * tempDir); it goes with the run's folder.
 */
function onceForBuild(prefix: string, make: (dir: string) => void): string {
  const buildId = join(PROJECT, 'dist', 'bundle', 'BUILD_ID');
  if (!existsSync(buildId)) throw new Error('dist/ is missing: run `npm run build` first');
  const dest = join(tmpdir(), `${prefix}${createHash('sha1').update(readFileSync(buildId)).digest('hex').slice(0, 16)}`);
  const lock = `${dest}.lock`;
  const deadline = Date.now() + 240_000;
  while (!existsSync(dest)) {
    if (Date.now() > deadline) throw new Error(`nothing in ${dest}: the worker making it stopped (${lock})`);
    try {
      mkdirSync(lock);
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50); // another worker is making it
      continue;
    }
    try {
      if (!existsSync(dest)) {
        const made = mkdtempSync(`${dest}.tmp-`);
        make(made);
        renameSync(made, dest);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dest;
}

/** The tarball packed into `dest`. */
function packInto(dest: string): void {
  const copy = tempDir('vw-copy-');
  const pkg = JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')) as { files: string[] };
  // A `!` entry takes files out of what npm packs (the code cache fast-start.ts keeps beside the bundle): npm applies it.
  for (const entry of [...pkg.files.filter((f) => !f.startsWith('!')), 'README.md', 'LICENSE'])
    cpSync(join(PROJECT, entry), join(copy, entry), { recursive: true });
  writeFileSync(join(copy, 'package.json'), `${JSON.stringify(publishedManifest(pkg), null, 2)}\n`);
  must(copy, 'npm', ['pack', '--ignore-scripts', '--pack-destination', dest, '--json', '--loglevel=error']);
}

let initialised: string | undefined;

/**
 * `git init -q -b main` in `dir`: a copy of the .git folder git made once for this worker (gone with the run's folder), the
 * same files without a git process per repository.
 */
export function gitInit(dir: string): void {
  if (initialised === undefined || !existsSync(initialised)) {
    const made = mkdtempSync(join(tmpdir(), 'vw-init-'));
    git(made, 'init', '-q', '-b', 'main');
    initialised = join(made, '.git');
  }
  cpSync(initialised, join(dir, '.git'), { recursive: true });
}

/** A fresh repository with a package.json, Ana at the keyboard, no commits. */
export function freshRepo(): string {
  const dir = tempDir();
  gitInit(dir);
  identity(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
  // No trailing slash: clones link node_modules/ to the installed one, and a link is not a folder to git.
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
  return dir;
}

/**
 * Ana's identity and no signing, written into the repository's config file in git's format (no `git config`
 * processes). No automatic maintenance: every `git commit` would start a `git maintenance run --auto` that finds
 * nothing to do in a repository of a few commits.
 */
export function identity(dir: string): void {
  appendFileSync(join(dir, '.git', 'config'), '[user]\n\tname = Ana Human\n\temail = ana@example.com\n[commit]\n\tgpgsign = false\n[maintenance]\n\tauto = false\n');
}

export function npm(dir: string, ...args: string[]): string {
  return must(dir, 'npm', [...args, ...NPM_FLAGS]);
}

/** `npx validate-workflow init` in a repository where the package is installed. */
export function init(dir: string, ...args: string[]): Run {
  return run(dir, 'npx', ['--no-install', 'validate-workflow', 'init', ...args]);
}

/** `npx validate-workflow ...` as a user types it. */
export function vw(dir: string, ...args: string[]): Run {
  return run(dir, 'npx', ['--no-install', 'validate-workflow', ...args]);
}

/**
 * The installed package's bin (node_modules/.bin/validate-workflow, the file npx ends up running), without npx's
 * own second of node: for tests whose subject is what init writes and the hooks do, not how npx finds the bin
 * (e2e.test.ts goes through npx).
 */
export function bin(dir: string, ...args: string[]): Run {
  return run(dir, join(dir, 'node_modules', '.bin', 'validate-workflow'), args);
}

/**
 * A copy of an installed repository, its git folder and the hooks folder husky wrote (`.husky/_`, which git ignores)
 * included, that shares its node_modules (a symbolic link: no second install): the repository as `git clone` and
 * `npm install` would leave it, without their processes (e2e.test.ts checks the prepare script that sets the hooks
 * up, and npm runs it there). No remote: a test that pushes adds its own. The tool's cache under .git/ is
 * left behind, as a clone would.
 */
export function clone(base: string): string {
  const dir = tempDir();
  const skip = new Set([join(base, 'node_modules'), join(base, '.git', 'validate-workflow')]);
  cpSync(base, dir, { recursive: true, filter: (src) => !skip.has(src) });
  symlinkSync(join(base, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** `git commit` as a person types it: hooks run. */
export function commit(dir: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Run {
  return run(dir, 'git', ['commit', '-q', ...args], { env: extraEnv });
}

/**
 * Everything init could touch, as path -> content hash (and the executable bit): the work tree (without .git/ and
 * node_modules/), the hooks folder and git's config. Two equal trees mean nothing was written.
 */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name);
      const key = rel ? `${rel}/${name}` : name;
      if (key === '.git' || key === 'node_modules') continue;
      const st = lstatSync(path);
      if (st.isSymbolicLink()) out[key] = `link:${readlinkSync(path)}`;
      else if (st.isDirectory()) walk(path, key);
      else out[key] = `${createHash('sha1').update(readFileSync(path)).digest('hex')}${st.mode & 0o111 ? ' x' : ''}`;
    }
  };
  walk(dir, '');
  const hooks = join(dir, '.git', 'hooks');
  if (existsSync(hooks)) for (const name of readdirSync(hooks).sort()) if (statSync(join(hooks, name)).isFile()) out[`.git/hooks/${name}`] = createHash('sha1').update(readFileSync(join(hooks, name))).digest('hex');
  out['.git/config'] = readFileSync(join(dir, '.git', 'config'), 'utf8');
  return out;
}

/** What a refused commit must leave exactly as it was: HEAD, the index, the work tree, the stash. */
export function state(dir: string): Record<string, string> {
  return {
    head: git(dir, 'rev-parse', 'HEAD'),
    status: git(dir, 'status', '--porcelain=v1', '-uall'),
    staged: git(dir, 'diff', '--cached', '--binary'),
    unstaged: git(dir, 'diff', '--binary'),
    stash: git(dir, 'stash', 'list'),
    files: JSON.stringify(tree(dir)),
  };
}
