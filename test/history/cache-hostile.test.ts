// The cache under .git/ is a file anything that can run git can write: whatever it holds, a run judges as it would
// without it (a bad cache is no cache), ends, and never fails with the tool's own exit code 2.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/repo.js';
import { cli, door, messageFile, taskOneDone, type CliJson } from './helpers.js';

const cacheOf = (dir: string) => join(dir, '.git/validate-workflow/cache.pack');
const verdict = (r: CliJson) => ({ code: r.code, results: r.results });

describe('a hostile cache file', () => {
  it('is no cache when it is larger than a run may read, in a full run and in a hook', () => {
    const repo = taskOneDone();
    const cold = cli(repo.dir);
    expect(cold.code, cold.stderr).not.toBe(2);
    const staged = cli(repo.dir, ['--staged']);
    expect(existsSync(cacheOf(repo.dir))).toBe(true);
    // A sparse file: 5 GB on paper, no disk used.
    truncateSync(cacheOf(repo.dir), 5 * 2 ** 30);
    const full = cli(repo.dir);
    expect(full.stderr).not.toMatch(/internal error/);
    expect(verdict(full)).toEqual(verdict(cold));
    const hook = cli(repo.dir, ['--staged']);
    expect(hook.stderr).not.toMatch(/internal error/);
    expect(verdict(hook)).toEqual(verdict(staged));
  });

  // Linux shows a process's descriptors under /proc; elsewhere the count is not asked.
  it.runIf(existsSync('/proc/self/fd'))(
    'is closed after each run: the lint() API judging again and again keeps no descriptor per run',
    async () => {
      const repo = taskOneDone();
      repo.stage({ 'notes.md': 'x\n' });
      const open = () => readdirSync('/proc/self/fd').length;
      const doors = [[], ['--staged'], ['--range', 'HEAD~1..HEAD']];
      // Warm: each door has its cache and whatever a first run keeps open for good (a worker's own files).
      for (const args of doors) expect((await door(repo.dir, args)).code).not.toBe(2);
      const before = open();
      // Twelve rounds: a descriptor kept per run would leave 24 or more open (the leak kept two a round).
      for (let i = 0; i < 12; i++) for (const args of doors) await door(repo.dir, args);
      expect(open() - before).toBeLessThan(5);
    },
    120_000,
  );

  it('is no cache when its head is not a commit id, which git would read as an option', () => {
    const repo = taskOneDone();
    cli(repo.dir);
    // HEAD moves on after the cache was written: a commit's doors then ask git about the cache's head.
    repo.commit('Notes', { 'notes.md': 'a note\n' });
    repo.stage({ 'more.md': 'another note\n' });
    const clean = [cli(repo.dir, ['--staged']), cli(repo.dir)].map(verdict);
    cli(repo.dir);
    const bytes = readFileSync(cacheOf(repo.dir), 'latin1');
    const head = /"head":"([0-9a-f]+)"/.exec(bytes)?.[1];
    expect(head).toBeDefined();
    const injected = join(repo.dir, 'injected');
    writeFileSync(cacheOf(repo.dir), bytes.replace(`"head":"${head}"`, `"head":"--output=${injected}"`), 'latin1');
    repo.commit('More', { 'later.md': 'later\n' });
    repo.stage({ 'more.md': 'another note\n' });
    const hostile = [cli(repo.dir, ['--staged']), cli(repo.dir)];
    for (const r of hostile) expect(r.stderr).not.toMatch(/internal error/);
    expect(readdirSync(repo.dir).filter((f) => f.startsWith('injected'))).toEqual([]);
    expect(hostile.map((r) => r.code)).toEqual(clean.map((r) => r.code));
  });

  it('leaves no temporary copy behind when it cannot be replaced', () => {
    const repo = taskOneDone();
    const cold = cli(repo.dir);
    // A folder where the cache goes: every write of a new cache fails at the rename.
    rmSync(cacheOf(repo.dir));
    mkdirSync(cacheOf(repo.dir));
    writeFileSync(join(cacheOf(repo.dir), 'keep'), '');
    for (let i = 0; i < 2; i++) {
      const run = cli(repo.dir);
      expect(verdict(run)).toEqual(verdict(cold));
    }
    expect(readdirSync(join(repo.dir, '.git/validate-workflow')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  // A named pipe blocks whoever opens it for reading until a writer comes: a hook that never returns.
  const mkfifo = spawnSync('mkfifo', ['--version']).status === 0;
  it.runIf(mkfifo)(
    'is no cache when it is a named pipe, nor are the other files of its folder',
    () => {
      const repo = taskOneDone();
      repo.stage({ 'notes.md': 'x\n' });
      const message = messageFile('Add notes');
      const doors = [[], ['--staged'], ['commit-msg', message]];
      const cold = doors.map((args) => verdict(cli(repo.dir, args)));
      const folder = join(repo.dir, '.git/validate-workflow');
      for (const name of ['cache.pack', 'staged-verdict.json', 'snapshot-findings.json']) {
        rmSync(join(folder, name), { force: true });
        expect(spawnSync('mkfifo', [join(folder, name)]).status).toBe(0);
      }
      // Hooks first: they read the folder and (but for pre-commit's record) write nothing over the pipes.
      for (const i of [2, 1, 0]) {
        const res = spawnSync(process.execPath, [CLI, '--format', 'json', ...doors[i]!], {
          cwd: repo.dir,
          encoding: 'utf8',
          timeout: 30_000,
          env: { ...process.env, NO_COLOR: '1' },
        });
        expect(res.error, `validate-workflow ${doors[i]!.join(' ')} did not end`).toBeUndefined();
        expect({ code: res.status, results: JSON.parse(res.stdout).results }).toEqual(cold[i]);
      }
    },
    150_000,
  );
});
