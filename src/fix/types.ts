// What a fix is: a module per fixable rule that turns that rule's findings into edits of the working tree, or says
// why a finding cannot be fixed safely. Fixers read the model and the file texts; they never write (index.ts does).
import type { Finding } from '../model/finding.js';
import type { Workspace } from '../model/types.js';

/**
 * ESLint's fix types, in this tool's words: `problem` repairs what is mechanical and certain (a name, a missing
 * key, a ledger out of step with its plan); `scaffold` adds structure a human must fill in (criteria headings with
 * a placeholder item), so it runs only when asked for.
 */
export type FixType = 'problem' | 'scaffold';
export const FIX_TYPES: readonly FixType[] = ['problem', 'scaffold'];

/** Replace `[start, end)` of a file's original text (offsets in UTF-16 code units, as JavaScript strings count). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** One change a fixer makes to one file, as the user is told it: `file: says`. */
export interface Change {
  ruleId: string;
  /** The file's path as it is now (before any rename of this run). */
  file: string;
  edits: TextEdit[];
  /** A new repository-relative path for the file. */
  renameTo?: string;
  says: string;
}

/** A finding the fixer left alone, and why a human has to decide it. */
export interface Skip {
  ruleId: string;
  file: string;
  why: string;
}

export interface FixContext {
  workspace: Workspace;
  /** The file's current text (read once per run). */
  text(path: string): string;
  /** Whether the path is in HEAD: a committed handoff is fixed history (history/handoff-deleted, -rewritten). */
  committed(path: string): boolean;
  /** Whether a repository-relative path exists in the working tree (a rename must not overwrite it). */
  exists(path: string): boolean;
  /** Renames earlier fixers of this run decided (old path -> new path), for fixers that name files. */
  renames: Map<string, string>;
}

export interface FixResult {
  changes: Change[];
  skipped: Skip[];
}

export interface Fixer {
  ruleId: string;
  type: FixType;
  /** Findings of another rule this fixer also repairs (one cause reported by one rule, repaired by two fixers). */
  alsoFixes?: (f: Finding) => boolean;
  fix(findings: Finding[], ctx: FixContext): FixResult;
}
