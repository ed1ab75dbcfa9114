// Where a workflow file sits says what it is: the session of a handoff is its folder below the handoffs root,
// the task number of a task handoff is the `NN` of `task-NN-<desc>.md`.
import { posix } from 'node:path';

export interface HandoffLocation {
  path: string;
  root: string;
  session: string | null;
  fileName: string;
  fileTask: number | null;
}

export function handoffLocation(path: string, root: string): HandoffLocation {
  const rel = root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  const segments = rel.split('/');
  const fileName = segments[segments.length - 1]!;
  const taskMatch = /^task-(\d+)(?:-|\.)/i.exec(fileName);
  return {
    path,
    root,
    session: segments.length >= 2 ? segments[0]! : null,
    fileName,
    fileTask: taskMatch ? Number(taskMatch[1]) : null,
  };
}

/** `CONTINUITY_CLAUDE-<session>.md` or `CONTINUITY_<session>.md` -> session. */
export function ledgerSessionFromName(path: string): string | null {
  const name = posix.basename(path).replace(/\.md$/i, '');
  const m = /^CONTINUITY_(?:CLAUDE-)?(.+)$/i.exec(name);
  return m ? m[1]! : null;
}

/**
 * An orchestration state file by its name (`orchestration.yaml`, `orchestration-state.yml`, `state.yaml`): the
 * orchestrator's bookkeeping in a session folder, not a handoff. Decided by name so every door (discovery, the
 * history classifier, the hooks) agrees without reading the file; the reader also recognizes one by content.
 */
export function isStateFileName(path: string): boolean {
  const name = posix.basename(path);
  return /^orchestrat(?:ion|or)(?:[-_.][\w-]+)?\.ya?ml$/i.test(name) || /^(?:[\w-]+[-_])?state\.ya?ml$/i.test(name);
}
