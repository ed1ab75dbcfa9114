// The history model: commits as the trace sees them, and the events between two snapshots of the workspace.
import type { LedgerItemState } from './types.js';

export interface Identity {
  name: string;
  email: string;
}

export interface Trailer {
  key: string;
  value: string;
}

export interface Commit {
  sha: string;
  /** Parents as the trace sees them (rewritten to the nearest ancestors that touch workflow files). */
  parents: string[];
  author: Identity;
  committer: Identity;
  time: number;
  subject: string;
  trailers: Trailer[];
}

/** A file as it changed in one commit, against the commit's first parent. */
export interface Change {
  status: 'A' | 'M' | 'D' | 'R';
  path: string;
  /** For renames: where the file was. */
  from: string | null;
  oldBlob: string | null;
  newBlob: string | null;
  /** The new version is a symbolic link (git mode 120000): `newBlob` holds the link's text, not a file's content. */
  link?: boolean;
}

export type ItemKind = 'task' | 'step' | 'automated' | 'manual' | 'other';

interface At {
  /** The file the event is about, and the line in the version the event is judged on. */
  file: string;
  line: number;
}

export type Event =
  | (At & { type: 'item-checked'; kind: ItemKind; phase: number; text: string; checked: boolean })
  | (At & { type: 'task-completed'; phase: number; task: number; label: string; completed: boolean })
  | (At & {
      type: 'item-removed';
      kind: ItemKind;
      phase: number;
      text: string;
      /** Its words are still in the new version, read as this other kind (a heading renamed, the plan read otherwise). */
      kept?: ItemKind;
    })
  | (At & { type: 'item-made-na'; kind: ItemKind; phase: number; text: string })
  | (At & { type: 'item-added-na'; kind: ItemKind; phase: number; text: string })
  /**
   * A phase's criteria section written as plain bullets (no checkboxes, so no items to pair) is gone from a phase that
   * stays: the phase no longer lists criteria of that kind at all.
   */
  | (At & {
      type: 'criteria-removed';
      kind: 'automated' | 'manual';
      phase: number;
      /** The phase's label as written; null for a plan without phase headings (its one implicit phase). */
      label: string | null;
      title: string;
      /** The list is still there, but now only says there is nothing to check (`- N/A`). */
      na?: true;
    })
  | (At & { type: 'mode-set-by-user' })
  /** A plan's `mode` key changed (it decides which rules apply: handoffs and batching bind only orchestration). */
  | (At & { type: 'mode-changed'; from: string; to: string })
  /**
   * A plan the reader judged as a phase sequence became unreadable as one (a second `## Phase 1` heading): the order
   * rules skip a plan read as unstructured, so this too decides which rules apply.
   */
  | (At & { type: 'plan-unstructured'; reason: string })
  | (At & { type: 'handoff-added' })
  | (At & { type: 'handoff-deleted'; /** Left empty or unreadable rather than removed. */ emptied?: boolean })
  | (At & {
      type: 'handoff-renamed';
      from: string;
      /** Moved with its content unchanged: the record survives at the new path. */ intact?: boolean;
    })
  | (At & { type: 'handoff-frontmatter-changed'; keys: string[] })
  | (At & { type: 'ledger-item'; task: number; from: LedgerItemState | null; to: LedgerItemState | null })
  | (At & { type: 'disable-added'; ruleIds: string[] })
  | (At & { type: 'trust-file-changed'; what: 'config' | 'baseline' });

export type EventType = Event['type'];

/** What the review report shows per plan: which commit completed each task, who confirmed each manual item. */
export interface TimelineEntry {
  kind: 'task-completed' | 'manual-checked';
  plan: string;
  phase: number;
  task: number | null;
  text: string | null;
  commit: string;
  subject: string;
  author: Identity;
  /** For manual items: the human whose confirmation counted, or null when none did. */
  confirmedBy: Identity | null;
  /** The confirmation counted although an agent co-authored the commit (recommended relays the human's word). */
  relayed: boolean;
  /**
   * `--range`: the commit is older than the range judged (an ancestor of its base). The review shows the state the
   * pull request started from (who confirmed a phase on main), but none of it is judged in the range.
   */
  before?: boolean;
}
