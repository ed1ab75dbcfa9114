// The output formats by name: `--format <name>` is a lookup here. Adding a format is a module in src/report/ that
// exports a Formatter, its name in names.ts (the one list the CLI, the Action and the API take), and its line below.
import type { Formatter } from './formatter.js';
import type { Format } from './names.js';
import { stylish } from './stylish.js';
import { json } from './json.js';
import { sarif } from './sarif.js';
import { github } from './github.js';
import { markdown } from './markdown.js';

export { type Formatter, type ReportInput } from './formatter.js';

export { FORMATS, type Format } from './names.js';

export const FORMATTERS: Readonly<Record<Format, Formatter>> = { stylish, json, sarif, github, markdown };
