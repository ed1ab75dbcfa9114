// The one interface every output format implements: a pure function from what a run found to the text it prints.
import type { Report } from '../engine/run.js';
import type { Rule } from '../rules/types.js';
import type { Format } from './names.js';

/** Everything a format may use; each takes what it needs. */
export interface ReportInput extends Report {
  /** The rule catalogue (SARIF descriptors, markdown rule headings). */
  rules: readonly Rule[];
  /** The tool's version (package.json). */
  version: string;
  /** Where the package's files are browsable: rule pages are `${docsBase}/docs/rules/<id>.md`. */
  docsBase: string;
  /** ANSI colours (a terminal that wants them). */
  color: boolean;
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
