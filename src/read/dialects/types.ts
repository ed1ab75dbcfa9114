// The shape of a dialect module (convention section 4): what every plan or handoff dialect tells the readers.
import type { HandoffDialect, PlanDialect } from '../../model/types.js';
import type { CriteriaKind } from '../criteria.js';

/**
 * A label as written: digits with an optional letter (`2A`), sub-numbers after `.` or `-` (`3.1`, `3-28`, `0.5`),
 * or a letter followed by sub-numbers (`R.1`).
 */
export const LABEL = String.raw`(\d+[A-Za-z]?(?:[.\-]\d+[A-Za-z]?)*|[A-Za-z](?:[.\-]\d+[A-Za-z]?)+)`;

/** What a heading is to a plan's phase sequence. */
export type PhaseHeadingRole =
  | { role: 'phase'; label: string; title: string }
  | { role: 'criteria'; label: string; kind: CriteriaKind }
  | { role: 'none' };

/** What the plan reader found, from which the plan's dialect is decided. */
export interface PlanShape {
  /** No checkbox, no criteria heading, no task, no `type: plan`: a note in the plans folder. */
  notAPlan: boolean;
  /** The reader would have to guess the phase sequence (a label repeated, two lists of phases). */
  unstructured: boolean;
  /** The dialects whose phase headings make the plan's sequence. */
  sequenceBy: ReadonlySet<PlanDialect>;
  /** A `### Task N:` heading task outside any phase sequence. */
  headingTasks: boolean;
}

export interface PlanDialectModule {
  name: PlanDialect;
  /** Whether a plan of this shape is of this dialect; asked in the registry's order, the first that says yes wins. */
  detect(shape: PlanShape): boolean;
  /**
   * The role this dialect gives a heading at levels 2 to 4 (only for dialects that write phases as headings);
   * `parent` is the title of the heading the heading stands under.
   */
  phaseHeading?(text: string, parent: string | null): PhaseHeadingRole;
}

export interface HandoffDialectModule {
  name: HandoffDialect;
  /** Whether a file of this name in a handoffs folder is of this dialect; asked in the registry's order. */
  detect(fileName: string): boolean;
  /** Which reader reads it: Markdown (frontmatter, sections, body markers) or YAML documents. */
  format: 'markdown' | 'yaml';
}
