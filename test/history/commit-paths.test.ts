// What a commit changes, asked of git for many commits in one `diff-tree --stdin` (history/trust.ts commitsPaths,
// which the fold's rules use instead of a process per commit): the same answer as `diff-tree` asked of each commit,
// on random histories with root, empty and merge commits, deletions and awkward file names.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitsPaths } from '../../src/history/trust.js';
import { makeRepo } from '../helpers/repo.js';
import { propertyRuns } from '../helpers/runs.js';

const SEED = 2026_11_27;

const NAMES = ['a.md', 'dir/b.md', 'dir/sub/c.txt', 'with space.md', 'ünï/çödé.md', 'x'.repeat(40), 'src/main.ts'];

const step = fc.oneof(
  fc.record({
    kind: fc.constant('commit' as const),
    write: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 4 }),
    remove: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant('merge' as const) }),
);

function git(dir: string, ...args: string[]): string {
  const res = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
}

describe('the paths of many commits in one git process', () => {
  it('are what diff-tree says of each commit alone', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 7 }), fc.nat(), (steps, salt) => {
        const dir = makeRepo({});
        try {
          let n = 0;
          const commit = (write: string[], remove: string[]) => {
            for (const f of write) {
              mkdirSync(dirname(join(dir, f)), { recursive: true });
              writeFileSync(join(dir, f), `${f} ${++n} ${salt}\n`);
            }
            for (const f of remove) rmSync(join(dir, f), { force: true });
            git(dir, 'add', '-A');
            git(dir, 'commit', '-q', '--allow-empty', '-m', `step ${n}`);
          };
          for (const s of steps) {
            if (s.kind === 'commit') commit(s.write, s.remove);
            else {
              if (git(dir, 'rev-list', '--all').trim() === '') commit(['a.md'], []);
              const side = `side-${++n}`;
              git(dir, 'checkout', '-q', '-b', side);
              commit([`${side}.md`], []);
              git(dir, 'checkout', '-q', '-');
              commit([`main-${n}.md`], []);
              git(dir, 'merge', '-q', '--no-edit', side);
            }
          }
          const shas = git(dir, 'rev-list', '--reverse', '--topo-order', 'HEAD').split('\n').filter(Boolean);
          const alone = (sha: string) =>
            git(dir, 'diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', sha)
              .split('\0')
              .filter(Boolean);
          const batch = commitsPaths(dir, shas);
          expect([...batch.keys()]).toEqual(shas);
          for (const sha of shas) expect(batch.get(sha)).toEqual(alone(sha));
          // Any subset, in any order (a chunk of the fold starts anywhere).
          const some = shas.filter((_, i) => (salt >> i) & 1).reverse();
          expect(commitsPaths(dir, some)).toEqual(new Map(some.map((s) => [s, alone(s)])));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { seed: SEED, numRuns: propertyRuns(8) },
    );
  });

  it('leaves out what git cannot answer for, and answers for nothing when git fails', () => {
    const dir = makeRepo({ 'a.md': 'a\n' }, { commit: true });
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    expect(commitsPaths(dir, [head])).toEqual(new Map([[head, ['a.md']]]));
    expect(commitsPaths(dir, [head, '0'.repeat(40)]).has('0'.repeat(40))).toBe(false);
  });
});
