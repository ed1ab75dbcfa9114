// Where a workflow file sits says what it is: the session of a handoff is its folder below the handoffs root,
// the task number of a task handoff is the `NN` of `task-NN-<desc>.md`.
import { posix } from 'node:path';
import { refCandidates } from '../model/queries.js';

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

const TEMPLATE_WORD = /template/i;
const YAML_END = /\.ya?ml$/i;

/**
 * An orchestration state file by its name (`orchestration.yaml`, `orchestration-state.yml`, `state.yaml`): the
 * orchestrator's bookkeeping in a session folder, not a handoff. Decided by name so every door (discovery, the
 * history classifier, the hooks) agrees without reading the file; the reader also recognizes one by content.
 */
export function isStateFileName(path: string): boolean {
  // Asked of every path a door lists (thousands per commit): most are Markdown, decided here without the name.
  if (!YAML_END.test(path)) return false;
  const name = posix.basename(path);
  return /^orchestrat(?:ion|or)(?:[-_.][\w-]+)?\.ya?ml$/i.test(name) || /^(?:[\w-]+[-_])?state\.ya?ml$/i.test(name);
}

/** A repository-relative path that stays inside the repository (no leading `..`, not absolute, not the root). */
export function insideRepository(path: string): boolean {
  return path !== '' && path !== '.' && path !== '..' && !path.startsWith('../') && !posix.isAbsolute(path);
}

const MARKDOWN = /\.(?:md|markdown)$/i;

/**
 * The paths a plan reference names that could hold a plan the globs miss (convention section 6: a plan named by a
 * ledger or handoff outside the globs is read all the same): Markdown files, in any case (`.MD`), inside the
 * repository. Whether one exists is the caller's question (the working tree, or a commit's tree).
 */
export function namedPlanPaths(ref: string, from: string): string[] {
  return refCandidates(ref, from).filter((p) => insideRepository(p) && MARKDOWN.test(p));
}

/**
 * Where a symbolic link stored at `path` points, as a repository path, or null when it leaves the repository (an
 * absolute target, or one that climbs out): such a link is not followed.
 */
export function linkTarget(path: string, text: string): string | null {
  const t = text.trim();
  if (t === '' || posix.isAbsolute(t)) return null;
  const target = posix.normalize(posix.join(posix.dirname(path), t));
  return insideRepository(target) ? target : null;
}

/**
 * A template kept among the workflow files (`_TEMPLATE.md`, `handoff-template.md`, `TEMPLATE.yaml`): the protocol
 * the repository promised its agents (read/profile.ts), not a plan or handoff of its own. Never judged, and moving
 * it away is no deleted handoff.
 */
export function isTemplateName(path: string): boolean {
  // The name is a template's (`_TEMPLATE`, `handoff-template`, `template-plan`), not a task that is about templates
  // (`task-06-templates-and-the-new-command`).
  // Both names hold the word: a path without it anywhere is none (asked of every path a door lists).
  if (!TEMPLATE_WORD.test(path)) return false;
  const name = posix.basename(path).replace(/\.[^.]+$/, '');
  return /^_*(?:[a-z0-9]+[-_])?templates?$/i.test(name) || /^_*templates?[-_]/i.test(name);
}
