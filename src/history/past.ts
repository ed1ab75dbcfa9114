// Earlier versions of a plan, for the rules whose formula looks back (`P`, convention section 5): a fact of the past
// that the parent's snapshot no longer shows (a phase verified, then unchecked by a worker writing over it from an
// older copy). Asked of git only when a rule needs it, never on every commit.
import type { Plan } from '../model/types.js';
import { COMMIT_ID, gitSync } from '../shared/git.js';
import { parseRaw } from './log.js';
import type { Snapshot } from './snapshot.js';
import { ModelStore } from './store.js';

/**
 * The versions of the plan at `path` that the commits from `parent` back made, newest first: the commits the fold
 * walks (`--full-history`: a side branch's commits are ancestors too), a merge's own resolution left out. The path
 * as it is now: a rename is not followed, so a plan that moved shows its versions since the move only. Empty where
 * the snapshots are not git's (the rule tester, an edit in memory) or without a parent.
 */
export function earlierPlans(before: Snapshot, parent: string | undefined, path: string): Plan[] {
  const store = before.store;
  if (!(store instanceof ModelStore) || !parent || !COMMIT_ID.test(parent)) return [];
  const res = gitSync(store.root, [
    'log',
    '--full-history',
    '--no-renames',
    '--format=',
    '--raw',
    '-z',
    '--no-abbrev',
    parent,
    '--',
    `:(literal)${path}`,
  ]);
  if (!res.ok) return [];
  // A version stored as a symbolic link is its target's text, which the link's blob does not hold.
  const blobs = [
    ...new Set(
      parseRaw(res.out)
        .filter((c) => c.path === path && c.newBlob !== null && !c.link)
        .map((c) => c.newBlob!),
    ),
  ];
  store.load(blobs.map((blob) => ({ blob, path })));
  return blobs.flatMap((blob) => {
    const m = store.get(blob, path);
    return m?.kind === 'plan' ? [m] : [];
  });
}
