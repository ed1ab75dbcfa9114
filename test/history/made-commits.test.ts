// The commits Repo.commit reuses (test/helpers/made-commits.ts) are the commits git made: the same shas, a
// repository git finds whole and clean, and nothing reused where the state differs.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { allTracked, indexPaths, reusedCommits } from '../helpers/made-commits.js';
import { ANA, CLAUDE, LEDGER, PLAN, Repo, handoffPath, ledgerDoc, planDoc, taskHandoff } from './helpers.js';

function history(repo: Repo): string[] {
  return [
    repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA }),
    repo.commit(
      'Task 1',
      { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
      { author: CLAUDE },
    ),
  ];
}

/** What git says of the repository: every object reachable and sound, nothing staged or changed. */
function sound(repo: Repo): void {
  const fsck = spawnSync('git', ['fsck', '--strict', '--no-dangling'], { cwd: repo.dir, encoding: 'utf8' });
  expect(fsck.status, fsck.stderr).toBe(0);
  expect(repo.git('status', '--porcelain', '-uall')).toBe('');
}

describe('a commit made again', () => {
  it('has the sha git gave it, in a repository git finds sound', () => {
    const first = Repo.create();
    const made = history(first);
    const again = Repo.create();
    const before = reusedCommits();
    expect(history(again)).toEqual(made);
    expect(reusedCommits() - before).toBe(process.env.VALIDATE_WORKFLOW_TEST_REUSE === '0' ? 0 : 2);
    expect(again.git('log', '--format=%H %an %s').trim().split('\n')).toEqual([
      `${made[1]} ${CLAUDE.name} Task 1`,
      `${made[0]} ${ANA.name} Plan the auth flow`,
    ]);
    sound(again);
    // A later commit git makes itself sits on the reused one.
    const next = again.commit('Task 2', { [PLAN]: planDoc({ tasks: [1, 2] }) }, { author: CLAUDE, args: ['-q'] });
    expect(again.git('rev-parse', `${next}^`).trim()).toBe(made[1]);
    sound(again);
  });

  it('carries the blobs it uses when git had them from an earlier `git add` only', () => {
    const first = Repo.create();
    first.stage({ 'notes.md': 'staged, not committed\n' });
    first.write({ 'notes.md': 'committed\n' });
    first.stage({ 'notes.md': 'staged, not committed\n' });
    const made = first.commit('Notes', {}, { author: ANA });
    const again = Repo.create();
    const before = reusedCommits();
    expect(again.commit('Notes', { 'notes.md': 'staged, not committed\n' }, { author: ANA })).toBe(made);
    expect(reusedCommits() - before).toBe(process.env.VALIDATE_WORKFLOW_TEST_REUSE === '0' ? 0 : 1);
    sound(again);
    expect(again.show('HEAD', 'notes.md')).toBe('staged, not committed\n');
  });

  it('is not reused when anything in the state differs: a file, the author, the clock', () => {
    const first = Repo.create();
    const [plan] = history(first);
    const other = Repo.create();
    other.write({ 'README.md': '# App\n' });
    const mine = other.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
    expect(mine).not.toBe(plan);
    expect(other.git('ls-files').trim().split('\n')).toContain('README.md');
    const bob = Repo.create();
    expect(
      bob.commit(
        'Plan the auth flow',
        { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() },
        { author: { name: 'Bob Builder', email: 'bob@example.com' } },
      ),
    ).not.toBe(plan);
    const later = Repo.create();
    later.commit('Something first', { 'a.md': 'a\n' }, { author: ANA });
    later.git('rm', '-q', 'a.md');
    expect(later.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA })).not.toBe(
      plan,
    );
    sound(other);
    sound(later);
  });
});

// A commit of tracked files only goes through `git commit -a` (one process, not `add -A` and `commit`): that is only
// the same commit when every file of the work tree is in the index, which the helper reads from git's index file.
describe('the index as the helper reads it', () => {
  it('lists the paths `git ls-files` lists, whatever their names and depth', () => {
    const repo = Repo.create();
    const deep = `${'nested/'.repeat(40)}file.md`;
    repo.write({ 'a b.md': 'x\n', 'ünï/cödé.md': 'x\n', [deep]: 'x\n', 'z.md': 'x\n', '.hidden': 'x\n' });
    repo.git('add', '-A');
    const listed = repo.git('-c', 'core.quotepath=off', 'ls-files', '-z').split('\0').filter(Boolean);
    expect([...indexPaths(join(repo.dir, '.git'))!].sort()).toEqual(listed.sort());
    expect(listed).toHaveLength(5);
    expect(allTracked(repo.dir)).toBe(true);
    repo.write({ 'new.md': 'x\n' });
    expect(allTracked(repo.dir)).toBe(false);
  });

  it('commits a change of tracked files as `git add -A` and `git commit` commit it, the same sha', () => {
    const viaAll = Repo.create();
    const viaAdd = Repo.create();
    for (const repo of [viaAll, viaAdd]) history(repo);
    // The second through `git add -A` and `git commit`, as the helper commits a change that adds a file.
    const change = { [PLAN]: planDoc({ tasks: [1, 2] }) };
    // Every file of the change is tracked: the helper takes `git commit -a`.
    viaAll.write(change);
    expect(allTracked(viaAll.dir)).toBe(true);
    const a = viaAll.commit('Task 2', change, { author: CLAUDE });
    viaAdd.write(change);
    viaAdd.git('add', '-A');
    const b = viaAdd.commitStaged('Task 2', { author: CLAUDE });
    expect(a).toBe(b);
    sound(viaAll);
  });
});
