// Workflow folders move (`thoughts/` renamed to `docs/notes/`, plans moved to `docs/plans/`): a run that finds no
// workflow file where the config looks should say where they went, not report a clean repository.
import { posix } from 'node:path';
import type { Paths } from '../config/config.js';
import { pathspecs } from '../read/classify.js';
import { gitSync } from '../shared/git.js';
import { parseRaw } from './log.js';

export interface Moved {
  /** The folder most of the moved files went to. */
  to: string;
  sha: string;
  count: number;
}

/**
 * The last commit that took workflow files out of the configured folders, and where most of them went (git's rename
 * detection over the whole commit). Null when none did, or they were deleted rather than moved.
 */
export function whereWorkflowWent(root: string, paths: Paths): Moved | null {
  const bases = pathspecs(paths);
  if (bases.length === 0) return null;
  const last = gitSync(root, ['log', '-1', '--diff-filter=D', '--format=%H', '--no-renames', '--', ...bases]);
  const sha = last.ok ? last.out.trim() : '';
  if (!sha) return null;
  const shown = gitSync(root, ['show', '-M', '--raw', '-z', '--no-abbrev', '--format=', sha]);
  if (!shown.ok) return null;
  const to = new Map<string, number>();
  for (const c of parseRaw(shown.out)) {
    if (c.status !== 'R' || !bases.some((b) => c.from!.startsWith(`${b}/`) || c.from === b)) continue;
    const dir = posix.dirname(c.path);
    to.set(dir, (to.get(dir) ?? 0) + 1);
  }
  const best = [...to.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? { to: best[0], sha, count: [...to.values()].reduce((a, b) => a + b, 0) } : null;
}
