// Temporary git worktrees, one per commit whose claims are re-run, and the promise that none outlives the run: each is
// removed when its commands are done, and whatever is left when the process exits or is interrupted (Ctrl-C, a CI
// job cancelled) is removed then, with the commands still running stopped first. git is asked through shared/git.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitSync } from '../shared/git.js';
import { stopAll } from './process.js';

/** Worktrees made and not removed yet: worktree folder -> the repository it belongs to. */
const live = new Map<string, string>();

/** A detached worktree of `root` at `sha`, in a fresh temporary folder; null with git's reason when it fails. */
export function addWorktree(root: string, sha: string): { dir: string } | { error: string } {
  guard();
  const parent = mkdtempSync(join(tmpdir(), 'vw-verify-'));
  const dir = join(parent, 'tree');
  live.set(dir, root);
  const res = gitSync(root, ['worktree', 'add', '--detach', '--force', dir, sha]);
  if (!res.ok) {
    removeWorktree(dir);
    return { error: res.err.trim().split('\n').at(-1) || `git worktree add failed at ${sha.slice(0, 7)}` };
  }
  return { dir };
}

export function removeWorktree(dir: string): void {
  const root = live.get(dir);
  live.delete(dir);
  if (root !== undefined) {
    gitSync(root, ['worktree', 'remove', '--force', '--force', dir]);
    // The folder may hold what the commands wrote outside git's sight (node_modules): remove it all regardless,
    // then forget the worktree git may still list.
    rmSync(join(dir, '..'), { recursive: true, force: true });
    gitSync(root, ['worktree', 'prune']);
  }
  if (live.size === 0) unguard();
}

/** Remove every worktree still there (the process is ending). */
export function removeAll(): void {
  stopAll();
  for (const dir of [...live.keys()]) removeWorktree(dir);
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let guarded = false;

function onExit(): void {
  removeAll();
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll();
  // What the shell reports for a process a signal ended: 128 + its number (130 for Ctrl-C).
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
  process.exit(128 + (numbers[signal] ?? 1));
}

/** Listen for the end of the process while a worktree exists; a run without worktrees leaves signals alone. */
function guard(): void {
  if (guarded) return;
  guarded = true;
  process.on('exit', onExit);
  for (const s of SIGNALS) process.on(s, onSignal);
}

function unguard(): void {
  if (!guarded) return;
  guarded = false;
  process.off('exit', onExit);
  for (const s of SIGNALS) process.off(s, onSignal);
}
