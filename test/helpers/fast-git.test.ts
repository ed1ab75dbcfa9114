// The history helpers write add and commit in this process (fast-git.ts); git must not be able to tell. The same
// history built by git processes and in this process gives the same commit ids (every byte of every tree, blob and
// commit), and git finds the repository sound: objects, index, reflog.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANA, BOB, CLAUDE, Repo, type CommitOpts } from '../history/helpers.js';
import { written } from './fast-git.js';

type Step = { subject: string; files?: Record<string, string>; opts?: CommitOpts; exec?: string };

const HISTORY: Step[] = [
  { subject: 'First', files: { 'README.md': '# Hi\n', 'a/b/c.md': 'deep\n', 'a/b.md': 'b\n', 'a.b': 'x\n' } },
  { subject: 'Second  ', files: { 'a/b/c.md': 'deeper\n', 'z.txt': 'é ünïcode\n' }, opts: { author: BOB } },
  {
    subject: 'Third, by an agent',
    files: { 'run.sh': '#!/bin/sh\necho hi\n' },
    exec: 'run.sh',
    opts: { author: CLAUDE, committer: ANA, coAuthors: [BOB], trailers: ['Task: 3'] },
  },
  { subject: 'Moves and removals', opts: { rename: [['a/b.md', 'moved/b.md']], remove: ['z.txt'] } },
  { subject: 'Skip the hooks', files: { 'README.md': '# Hi again\n' }, opts: { args: ['--no-verify'] } },
];

function build(realGit: boolean): { repo: Repo; shas: string[] } {
  const repo = Repo.create({ realGit });
  const shas = HISTORY.map((step) => {
    repo.stage(step.files, step.opts);
    if (step.exec) {
      chmodSync(join(repo.dir, step.exec), 0o755);
      repo.stage();
    }
    return repo.commitStaged(step.subject, step.opts);
  });
  return { repo, shas };
}

describe('commits written in this process', () => {
  it('are the commits git writes, byte for byte, in a repository git finds sound', () => {
    const real = build(true);
    const before = { ...written };
    const fast = build(false);
    // Every add and commit of the second history was written here (stage() twice for the executable file).
    expect(written.staged - before.staged).toBe(HISTORY.length + 1);
    expect(written.committed - before.committed).toBe(HISTORY.length);
    expect(fast.shas).toEqual(real.shas);
    const { repo } = fast;
    expect(repo.git('fsck', '--strict', '--no-dangling', '--no-progress')).toBe('');
    // The index matches HEAD and the working tree, by its stat data alone (diff-files refreshes nothing).
    expect(repo.git('diff-index', '--cached', 'HEAD')).toBe('');
    expect(repo.git('diff-files')).toBe('');
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(repo.git('ls-files', '-s', 'run.sh')).toMatch(/^100755 /);
    expect(repo.git('log', '-g', '--format=%gs', 'HEAD').trim().split('\n').reverse()).toEqual([
      'commit (initial): First',
      'commit: Second',
      'commit: Third, by an agent',
      'commit: Moves and removals',
      'commit: Skip the hooks',
    ]);
    expect(repo.git('log', '-1', '--format=%an|%cn|%(trailers:key=Task,valueonly)', real.shas[2]!).trim()).toBe(
      'Claude|Ana Human|3',
    );
  });

  it('leave to git what they cannot be sure of: an ignored file stays out, an empty commit is refused', () => {
    const shas = [true, false].map((realGit) => {
      const repo = Repo.create({ realGit });
      const before = { ...written };
      const sha = repo.commit('Ignore logs', { '.gitignore': '*.log\n', 'kept.md': 'k\n', 'noise.log': 'n\n' });
      expect(repo.git('ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n')).toEqual(['.gitignore', 'kept.md']);
      expect(() => repo.commit('Nothing')).toThrow(/git commit/);
      expect(repo.head()).toBe(sha);
      // A .gitignore: git stages; the commit of the index it wrote needs no git.
      expect(written).toEqual(realGit ? before : { staged: before.staged, committed: before.committed + 1 });
      return sha;
    });
    expect(shas[1]).toBe(shas[0]);
  });
});
