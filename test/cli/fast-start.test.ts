// The hooks' start (dist/bundle/fast-start.cjs): the command line loaded from dist/bundle/cli.cjs with V8's code cache.
// What a user sees must not depend on the cache: each case runs the bin and fast-start on the same staged change in
// a real repository and compares their reports and exit codes, with no cache, with one taken, and with one that V8
// refuses. The package is copied (bundle, package.json, schemas) so that the cache it writes stays in the copy.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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
    lean: timings.some((l) => /code cache taken, lean/.test(l)),
    verdictTaken: timings.some((l) => l.includes("pre-commit's verdict taken")),
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

describe('fast-start.cjs, the hooks’ start', () => {
  it('reports what the bin reports, with no cache, with its cache taken, and with a cache V8 refuses', () => {
    const pkg = packageCopy();
    const fast = join(pkg, 'dist/bundle/fast-start.cjs');
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
    // commit-msg as real commits run it: taking the verdict --staged left (engine/handover.ts).
    const viaVerdict = [bin, fast].map((cli) => {
      node(repo, cli, ['--staged']);
      return node(repo, cli, ['commit-msg', message]);
    });
    expect(viaVerdict.map((r) => r.verdictTaken)).toEqual([true, true]);
    expect(viaVerdict[1]!.stdout).toBe(viaVerdict[0]!.stdout);
    expect(viaVerdict[1]!.status).toBe(viaVerdict[0]!.status);
    const names = readdirSync(cacheDir).sort();
    const suffix = `[0-9a-f]{16}-${process.version}-${process.arch}-[0-9a-f]{8}\\.bin$`;
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(new RegExp(`^commit-msg-${suffix}`));
    expect(names[1]).toMatch(new RegExp(`^staged-${suffix}`));
    const file = join(cacheDir, names[1]!);
    const staged = node(repo, bin, ['--staged']).stdout;

    // Bytes that are not what was written (a damaged file: V8 on Node 20 does not check them, and would crash or run
    // them) are no cache, and are written again from the run.
    writeFileSync(file, 'not a code cache, nor its checksum');
    const damaged = node(repo, fast, ['--staged']);
    expect([damaged.cache, damaged.stdout]).toEqual(['none', staged]);
    expect(readFileSync(file, 'utf8')).not.toContain('not a code cache');
    // Whole, but refused by V8 (made by another V8): rewritten too.
    const data = Buffer.from('made by some other V8');
    writeFileSync(file, Buffer.concat([createHash('sha1').update(data).digest(), data]));
    const refused = node(repo, fast, ['--staged']);
    expect([refused.cache, refused.stdout]).toEqual(['rejected', staged]);
    expect(node(repo, fast, ['--staged']).cache).toBe('taken');
  });

  it('reads the bundle, written in ASCII, as the bin does, and one patched with other characters as UTF-8', () => {
    const pkg = packageCopy();
    const fast = join(pkg, 'dist/bundle/fast-start.cjs');
    const cjs = join(pkg, 'dist/bundle/cli.cjs');
    const { repo, message } = stagedRepo();
    // The build escapes every other character (scripts/bundle.mjs), so fast-start reads the file as Latin-1.
    const source = readFileSync(cjs);
    expect(source.every((b) => b < 0x80)).toBe(true);
    const expected = node(repo, join(pkg, 'dist/bundle/main.js'), ['commit-msg', message]);
    expect(expected.stdout).toContain('\u2716');
    expect(node(repo, fast, ['commit-msg', message]).stdout).toBe(expected.stdout);
    // The report's mark written as the character itself (a file patched by hand): read as Latin-1 it would print
    // three other characters.
    const text = source.toString('latin1');
    expect(text).toContain('\\u2716');
    writeFileSync(cjs, text.replaceAll('\\u2716', '\u2716'), 'utf8');
    const patched = node(repo, fast, ['commit-msg', message]);
    expect({ status: patched.status, stdout: patched.stdout }).toEqual({
      status: expected.status,
      stdout: expected.stdout,
    });
  });

  it('takes no cache made for another source of the same length, and runs the bin’s modules where the file does not compile', () => {
    const pkg = packageCopy();
    const fast = join(pkg, 'dist/bundle/fast-start.cjs');
    const { repo, message } = stagedRepo();
    const before = node(repo, fast, ['commit-msg', message]);
    expect(before.stdout).toContain('history/manual-confirmation');
    // A file patched in place keeps its length (and BUILD_ID): V8 would take the old code for it.
    const cjs = join(pkg, 'dist/bundle/cli.cjs');
    const source = readFileSync(cjs, 'utf8');
    expect(source).toContain('history/manual-confirmation');
    writeFileSync(cjs, source.replaceAll('history/manual-confirmation', 'history/MANUAL-confirmation'));
    const patched = node(repo, fast, ['commit-msg', message]);
    expect(patched.cache).toBe('none');
    expect(patched.stdout).toContain('history/MANUAL-confirmation');

    const expected = node(repo, join(pkg, 'dist/bundle/main.js'), ['commit-msg', message]);
    expect(expected.status).toBe(1);
    writeFileSync(cjs, source.slice(0, source.length / 2));
    const cut = node(repo, fast, ['commit-msg', message]);
    rmSync(cjs);
    const missing = node(repo, fast, ['commit-msg', message]);
    writeFileSync(cjs, '');
    const empty = node(repo, fast, ['commit-msg', message]);
    for (const got of [cut, missing, empty]) {
      expect({ status: got.status, stdout: got.stdout }).toEqual({ status: expected.status, stdout: expected.stdout });
      expect(got.cache).toBeNull();
    }
  });

  it('replaces a cache made by a run that parsed no Markdown with the first one that does, once', () => {
    const pkg = packageCopy();
    const fast = join(pkg, 'dist/bundle/fast-start.cjs');
    const cacheDir = join(pkg, 'dist/bundle/.code-cache');
    const repo = makeRepo({ [PLAN]: plan() }, { commit: true });
    // The repository's models cached by a full run: a commit of no workflow file then parses nothing, and the code
    // cache it leaves lacks the parser's functions.
    expect(node(repo, join(pkg, 'dist/bundle/main.js'), []).status).toBe(0);
    writeFileSync(join(repo, 'README.md'), 'hello\n');
    git(repo, 'add', 'README.md');
    expect(node(repo, fast, ['--staged']).cache).toBe('none');
    const leanOnly = readdirSync(cacheDir);
    expect(leanOnly).toHaveLength(1);
    expect(leanOnly[0]).toMatch(/^staged-.*\.lean\.bin$/);
    const again = node(repo, fast, ['--staged']);
    expect([again.cache, again.lean]).toEqual(['taken', true]);
    expect(readdirSync(cacheDir)).toEqual(leanOnly);
    // The first commit that parses a plan: its cache replaces the lean one, and is kept from then on. A new section,
    // which is parsed (a box checked is derived from HEAD's model since round 23, and parses nothing).
    writeFileSync(join(repo, PLAN), `${plan({ checked: [1] })}\n## Notes\n\nThe rollout waits for the migration.\n`);
    git(repo, 'add', PLAN);
    const expected = node(repo, join(pkg, 'dist/bundle/main.js'), ['--staged']);
    const parsing = node(repo, fast, ['--staged']);
    expect([parsing.cache, parsing.lean, parsing.stdout, parsing.status]).toEqual([
      'taken',
      true,
      expected.stdout,
      expected.status,
    ]);
    const full = readdirSync(cacheDir);
    expect(full).toHaveLength(1);
    expect(full[0]).toMatch(/^staged-[0-9a-f]{16}-.*[0-9a-f]{8}\.bin$/);
    expect(full[0]).not.toContain('.lean.');
    const kept = node(repo, fast, ['--staged']);
    expect([kept.cache, kept.lean]).toEqual(['taken', false]);
    // A run that parses nothing takes the full cache and leaves it.
    git(repo, 'reset', '-q', PLAN);
    expect(node(repo, fast, ['--staged']).lean).toBe(false);
    expect(readdirSync(cacheDir)).toEqual(full);
  });

  it('keeps no cache for a command the hooks do not run, nor when told not to, and still runs it', () => {
    const pkg = packageCopy();
    const fast = join(pkg, 'dist/bundle/fast-start.cjs');
    const { repo } = stagedRepo();
    const version = node(repo, fast, ['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version);
    const off = node(repo, fast, ['--staged'], { VALIDATE_WORKFLOW_CODE_CACHE: '0' });
    expect(off.status).toBe(node(repo, join(pkg, 'dist/bundle/main.js'), ['--staged']).status);
    expect(off.cache).toBeNull();
    expect(existsSync(join(pkg, 'dist/bundle/.code-cache'))).toBe(false);
  });
});
