// The output formats by name: `--format <name>` is a lookup here. Adding a format is a module in src/report/ that
// exports a Formatter, its name in names.ts (the one list the CLI, the Action and the API take), and its line below.
import type { Formatter, ReportInput } from './formatter.js';
import type { Report } from '../engine/run.js';
import { RULES } from '../engine/catalog.js';
import { docsBase, toolVersion } from '../shared/version.js';
import type { Format } from './names.js';
import { stylish } from './stylish.js';
import { json } from './json.js';
import { sarif } from './sarif.js';
import { github } from './github.js';
import { markdown } from './markdown.js';

export { type Formatter, type ReportInput } from './formatter.js';

export { FORMATS, type Format } from './names.js';

export const FORMATTERS: Readonly<Record<Format, Formatter>> = { stylish, json, sarif, github, markdown };

/** What a run found, in the format asked for, with what every format may use (the rule catalogue, the version). */
export function render(format: Format, report: Report & Pick<ReportInput, 'note'>, color: boolean): string {
  // The report's own properties as they are: its workspace may be a getter, built only for the format that reads it
  // (engine/run.ts), which a spread would call for every format.
  const input = Object.defineProperties(
    { rules: RULES, version: toolVersion(), docsBase: docsBase(), color },
    Object.getOwnPropertyDescriptors(report),
  ) as ReportInput;
  return FORMATTERS[format].format(input);
}
