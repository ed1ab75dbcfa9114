// The hooks' start (dist/bundle/fast-start.js): the command line loaded from dist/bundle/cli.cjs with V8's code cache.
// What a user sees must not depend on the cache: each case runs the bin and fast-start on the same staged change in
// a real repository and compares their reports and exit codes, with no cache, with one taken, and with one that V8
// refuses. The package is copied (bundle, package.json, schemas) so that the cache it writes stays in the copy.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { git, makeRepo } from '../helpers/repo.js';
import { scratchDir } from '../helpers/scratch.js';
import { PLAN, plan } from '../rules/fixtures.js';

const PROJECT = fileURLToPath(new URL('../..', import.meta.url));

/** The built package as the hooks find it, without any cache the project's own runs left in dist/bundle/. */
function packageCopy(): string {
  const dir = scratchDir('vw-fast-');
  cpSync(join(PROJECT, 'dist/bundle'), join(dir, 'dist/bundle'), {
    recursive: true,
    filter: (src) => !src.includes('.code-cache'),
  });
  for (const entry of ['package.json', 'schemas']) cpSync(join(PROJECT, entry), join(dir, entry), { recursive: true });
  return dir;
}

function node(cwd: string, file: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const res = spawnSync(process.execPath, [file, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', VALIDATE_WORKFLOW_TIMING: '1', ...env },
  });
  const timings = res.stderr.split('\n').filter((l) => l.startsWith('timing '));
  return {
    status: res.status,
    stdout: res.stdout,
    stderr: res.stderr
      .split('\n')
      .filter((l) => !l.startsWith('timing '))
      .join('\n'),
    cache: /code cache (\w+)/.exec(timings.join('\n'))?.[1] ?? null,
  };
}

/** A repository whose index checks Phase 1's manual item: an unconfirmed check-off, refused at commit-msg. */
function stagedRepo(): { repo: string; message: string } {
  const repo = makeRepo({ [PLAN]: plan() });
  writeFileSync(join(repo, PLAN), plan({ checked: [1], verified: [1] }));
  git(repo, 'add', PLAN);
  const message = join(repo, '.git', 'MSG');
  writeFileSync(message, 'Check task 1\n');
  return { repo, message };
}

describe('fast-start.js, the hooks’ start', () => {
  it('reports what the bin reports, with no cache, with its cache taken, and with a cache V8 refuses', () => {
    const pkg = packageCopy();
    const fast = join(pkg, 'dist/bundle/fast-start.js');
    const bin = join(pkg, 'dist/bundle/main.js');
    const { repo, message } = stagedRepo();
    const cacheDir = join(pkg, 'dist/bundle/.code-cache');
    for (const args of [['--staged'], ['commit-msg', message]]) {
      const expected = node(repo, bin, args);
      const first = node(repo, fast, args);
      const second = node(repo, fast, args);
      for (const got of [first, second])
        expect({ status: got.status, stdout: got.stdout, stderr: got.stderr }).toEqual({
          status: expected.status,
          stdout: expected.stdout,
          stderr: expected.stderr,
        });
      expect([first.cache, second.cache]).toEqual(['none', 'taken']);
    }
    // pre-commit leaves the manual item to commit-msg, which refuses it: the two doors report differently, so the
    // comparison above could not pass with one door's report for the other.
    const doors = [node(repo, bin, ['--staged']), node(repo, bin, ['commit-msg', message])];
    expect(doors.map((d) => d.status)).toEqual([0, 1]);
    expect(doors[0]!.stdout).not.toBe(doors[1]!.stdout);
    expect(readdirSync(cacheDir).sort()).toEqual([
      `commit-msg-${process.version}-${process.arch}.bin`,
      `staged-${process.version}-${process.arch}.bin`,
    ]);

    const file = join(cacheDir, `staged-${process.version}-${process.arch}.bin`);
    writeFileSync(file, 'not a code cache');
    const refused = node(repo, fast, ['--staged']);
    expect(refused.cache).toBe('rejected');
    expect(refused.stdout).toBe(node(repo, bin, ['--staged']).stdout);
    // Written again from that run, and taken by the next.
    expect(readFileSync(file, 'utf8')).not.toBe('not a code cache');
    expect(node(repo, fast, ['--staged']).cache).toBe('taken');
  });

  it('keeps no cache for a command the hooks do not run, nor when told not to, and still runs it', () => {
    const pkg = packageCopy();
    const fast = join(pkg, 'dist/bundle/fast-start.js');
    const { repo } = stagedRepo();
    const version = node(repo, fast, ['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version);
    const off = node(repo, fast, ['--staged'], { VALIDATE_WORKFLOW_CODE_CACHE: '0' });
    expect(off.status).toBe(node(repo, join(pkg, 'dist/bundle/main.js'), ['--staged']).status);
    expect(off.cache).toBeNull();
    expect(existsSync(join(pkg, 'dist/bundle/.code-cache'))).toBe(false);
  });

  it('runs the bin’s modules where the CommonJS file is missing or exports no command line', () => {
    const pkg = packageCopy();
    const { repo, message } = stagedRepo();
    const expected = node(repo, join(pkg, 'dist/bundle/main.js'), ['commit-msg', message]);
    expect(expected.status).toBe(1);
    const cjs = join(pkg, 'dist/bundle/cli.cjs');
    rmSync(cjs);
    const missing = node(repo, join(pkg, 'dist/bundle/fast-start.js'), ['commit-msg', message]);
    writeFileSync(cjs, '');
    const empty = node(repo, join(pkg, 'dist/bundle/fast-start.js'), ['commit-msg', message]);
    for (const got of [missing, empty]) {
      expect({ status: got.status, stdout: got.stdout }).toEqual({ status: expected.status, stdout: expected.stdout });
      expect(got.cache).toBeNull();
    }
  });
});
