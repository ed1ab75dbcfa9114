// The parsers (read/parsers.ts), loaded on demand. A warm run over an unchanged repository takes its verdicts and
// models from the cache and parses nothing; loading remark, micromark and yaml anyway was about a fifth of the code
// it loaded. Reading stays synchronous: whatever may read a file first awaits loadParsers() — the commands that read
// (cli/run.ts), the doors of the check command where they parse (engine/), the workers, the API and the tests'
// setup. A read before that is a bug of this tool, said as such, never a silent fallback.
import type * as Parsers from './parsers.js';
import type { YamlRead } from './yaml.js';

let loaded: typeof Parsers | undefined;

/** Load the parsers (once per thread); every later call returns at once. */
export async function loadParsers(): Promise<void> {
  loaded ??= await import('./parsers.js');
}

let markdownParsed = false;

/**
 * Whether this process parsed Markdown: the parser's functions are most of what a commit's check compiles, so the
 * hooks' start keeps a code cache made without them only until a run that has them (cli/fast-start.ts).
 */
export function parsedMarkdown(): boolean {
  return markdownParsed;
}

/** read/markdown.ts says so before each parse. */
export function noteMarkdownParse(): void {
  markdownParsed = true;
}

/** A read before loadParsers(): a bug of this tool. Readers that turn a parse error into "no signal" rethrow it. */
export class ParsersNotLoaded extends Error {}

/** The loaded parsers; throws when nothing awaited loadParsers() on this thread first. */
export function parsers(): typeof Parsers {
  if (!loaded) throw new ParsersNotLoaded('the parsers were used before they were loaded (read/lazy.ts loadParsers)');
  return loaded;
}

/** read/yaml.ts readYaml, through the loaded parsers. */
export function readYaml(text: string, lineOffset?: number, opts?: { comments?: boolean }): YamlRead {
  return parsers().readYaml(text, lineOffset, opts);
}
