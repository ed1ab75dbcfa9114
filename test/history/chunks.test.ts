// The fold parses new file versions in chunks. A range (pre-push) or a resumed run (the cache) starts from a state
// that can hold more files than a chunk; every chunk must still fold at least one commit, or the run never ends.
// Found on the 10,000-commit bench repository: `--range HEAD~20..HEAD` over a base of 2,333 files parsed the base
// again and again.
import { describe, expect, it } from 'vitest';
import { foldHistory } from '../../src/history/fold.js';
import { defaultConfig } from '../../src/config/config.js';
import { CLAUDE, LEDGER, PLAN, Repo, handoffPath, ledgerDoc, planDoc, taskHandoff } from './helpers.js';

describe('chunks of the fold', () => {
  it('a range whose base holds more files than a chunk folds every commit of the range', async () => {
    const repo = Repo.create();
    repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() });
    const base = repo.commit(
      'Task 1',
      { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
      { author: CLAUDE },
    );
    repo.commit(
      'Task 2',
      { [PLAN]: planDoc({ tasks: [1, 2] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
      { author: CLAUDE },
    );
    repo.commit(
      'Task 3',
      { [PLAN]: planDoc({ tasks: [1, 2, 3] }), [handoffPath(3)]: taskHandoff(3), [LEDGER]: ledgerDoc([1, 2, 3]) },
      { author: CLAUDE },
    );
    const seen: string[] = [];
    const progress: number[] = [];
    // The base holds three workflow files, a chunk takes one: without at least one commit per chunk this never ends.
    const result = await Promise.race([
      foldHistory(repo.dir, {
        config: defaultConfig(),
        from: base,
        to: 'HEAD',
        chunk: 1,
        onStep: (s) => seen.push(s.commit.subject),
        onProgress: (p) => progress.push(p.commits),
      }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
    ]);
    expect(result, 'the fold did not end').not.toBeNull();
    expect(seen).toEqual(['Task 2', 'Task 3']);
    expect(result!.commits).toBe(2);
    expect(Math.max(...progress)).toBeLessThanOrEqual(2);
  });
});
