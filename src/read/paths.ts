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
