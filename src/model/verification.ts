// What `validate-workflow verify` did with one claim: an automated item's command re-run at the commit that ticked
// it, or why it was not. The reports show these (the markdown review's verification column); verify/claim's
// findings say the same in words.

export type RerunStatus = 'passed' | 'failed' | 'timed-out' | 'not-run';

/** Why a command was not run: not in `verify.allow`, the set-up step failed, or the commit could not be checked out. */
export type NotRunReason = 'not-allowed' | 'setup-failed' | 'unavailable';

export interface Rerun {
  plan: string;
  line: number;
  phase: number;
  /** The item as its plan writes it, backticks kept. */
  item: string;
  command: string;
  commit: string;
  subject: string;
  status: RerunStatus;
  reason?: NotRunReason;
  /** The exit code of a failed command (null when a signal ended it). */
  code?: number | null;
  /** How long it ran, in milliseconds (the run that made the verdict, when it came from the cache). */
  ms?: number;
  /** The verdict came from an earlier run on the same tree (nothing was run). */
  cached?: boolean;
  /** The last lines of its output, for a failed or stopped command. */
  output?: string[];
}
