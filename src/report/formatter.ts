// The one interface every output format implements: a pure function from what a run found to the text it prints.
import type { Finding } from '../model/finding.js';
import type { TimelineEntry } from '../model/history.js';
import type { Workspace } from '../model/types.js';
import type { Rule } from '../rules/types.js';
import type { Summary } from './summary.js';
import type { Format } from './names.js';

/** Everything a format may use; each takes what it needs. */
export interface ReportInput {
  findings: Finding[];
  summary: Summary;
  /** The rule catalogue (SARIF descriptors, markdown rule headings). */
  rules: readonly Rule[];
  /** The tool's version (package.json). */
  version: string;
  /** Where the package's files are browsable: rule pages are `${docsBase}/docs/rules/<id>.md`. */
  docsBase: string;
  /** ANSI colours (a terminal that wants them). */
  color: boolean;
  /** For the markdown review: the workspace judged, or null (a range of commits), and what history says of it. */
  workspace: Workspace | null;
  timeline: TimelineEntry[];
  /**
   * Set when there was nothing to judge: why (ends with a newline). Formats with a prose report (markdown) show it;
   * the others report no findings.
   */
  note?: string;
}

export interface Formatter {
  name: Format;
  format(input: ReportInput): string;
}
