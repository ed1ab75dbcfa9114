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
 * as it is now, back to where it was added: a rename is not followed, so a plan that moved shows its versions since
 * the move only, and one deleted and written again, those since. Empty where the snapshots are not git's (the rule
 * tester, an edit in memory) or without a parent.
 */
export function earlierPlans(before: Snapshot, parent: string | undefined, path: string): Plan[] {
  const store = before.store;
  if (!(store instanceof ModelStore) || !parent || !COMMIT_ID.test(parent)) return [];
  // Once per run for a parent and path: each commit is judged under several presets and at more than one door.
  let asked = memo.get(store);
  if (!asked) memo.set(store, (asked = new Map()));
  const k = `${parent}\0${path}`;
  const known = asked.get(k);
  if (known) return known;
  const plans = versionsBefore(store, parent, path);
  asked.set(k, plans);
  return plans;
}

const memo = new WeakMap<ModelStore, Map<string, Plan[]>>();

function versionsBefore(store: ModelStore, parent: string, path: string): Plan[] {
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
  // Newest first, back to where the file was added, or deleted before: a plan deleted and written again at the same
  // path (or a one-file plan rewritten from scratch) is another plan, and its older verification is not this one's.
  const blobs: string[] = [];
  for (const c of parseRaw(res.out)) {
    if (c.path !== path || c.status === 'D' || c.newBlob === null) break;
    // A version stored as a symbolic link is its target's text, which the link's blob does not hold.
    if (!c.link && !blobs.includes(c.newBlob)) blobs.push(c.newBlob);
    if (c.status === 'A') break;
  }
  store.load(blobs.map((blob) => ({ blob, path })));
  return blobs.flatMap((blob) => {
    const m = store.get(blob, path);
    return m?.kind === 'plan' ? [m] : [];
  });
}
