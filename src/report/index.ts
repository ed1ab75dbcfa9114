// The output formats by name: `--format <name>` is a lookup here. Adding a format is a module in src/report/ that
// exports a Formatter, its name in FORMATS (formatter.ts), and its line below.
import type { Format, Formatter } from './formatter.js';
import { stylish } from './stylish.js';
import { json } from './json.js';
import { sarif } from './sarif.js';
import { github } from './github.js';
import { markdown } from './markdown.js';

export { FORMATS, type Format, type Formatter, type ReportInput } from './formatter.js';

export const FORMATTERS: Readonly<Record<Format, Formatter>> = { stylish, json, sarif, github, markdown };
