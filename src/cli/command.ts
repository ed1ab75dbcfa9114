// What every command is: a name, a one-line summary, its own options (node:util parseArgs spec), its usage text and
// a run function that gets the arguments after the command word. main.ts only picks the command; the command parses
// its own options, strictly, so a flag of another command or a typo is a usage error with a suggestion.
import { closest, levenshtein } from '../shared/text.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT, type Io } from './io.js';
import { UsageError } from '../shared/errors.js';
import { toolVersion } from '../shared/version.js';

type OptionsSpec = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  /** The word that selects it (`check` is also the default command, without a word). */
  name: string;
  /** One line for the list of commands in `validate-workflow --help`. */
  summary: string;
  /** Its own options; --help and --version are added to every command. */
  options: OptionsSpec;
  /** What `validate-workflow <name> --help` prints. */
  usage: string;
  run(args: string[], io: Io): Promise<number>;
}

/** Every command understands these two; --version prints the same as `validate-workflow --version`. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/**
 * A flag the command does not know. main.ts completes the message: which other commands have it (it knows all of
 * them; a command knows only itself).
 */
export class UnknownOptionError extends UsageError {
  constructor(
    /** As typed, with its dashes: `--fromat`, `-x`. */
    readonly option: string,
    readonly command: string,
    /** A close flag of this command, with its dashes, or null. */
    readonly suggestion: string | null,
  ) {
    super(`unknown option ${option}${suggestion ? `; did you mean ${suggestion}?` : ''}`);
  }
}

/** Parse a command's arguments with its own options only (strict): unknown flags throw UnknownOptionError. */
export function parseCommand<const O extends OptionsSpec>(
  command: { name: string; options: O },
  args: string[],
): ReturnType<
  typeof parseArgs<{ args: string[]; options: O & typeof COMMON_OPTIONS; allowPositionals: true; strict: true }>
> {
  const options = { ...command.options, ...COMMON_OPTIONS };
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const unknown = firstUnknown(options, args);
      // --help and --version are left out: every command has them, and `--session` is not a typo of `--version`.
      if (unknown)
        throw new UnknownOptionError(unknown, command.name, suggestFlag(unknown, Object.keys(command.options)));
    }
    if (code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((err as Error).message);
    throw err;
  }
}

/** The first option token the spec does not know, as typed (`--name` or `-x`), found with parseArgs' own tokens. */
function firstUnknown(options: OptionsSpec, args: string[]): string | null {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  // A known short flag comes back under its long name; an unknown one under its letter.
  for (const t of tokens) if (t.kind === 'option' && !(t.name in options)) return t.rawName;
  return null;
}

export { closest, levenshtein };

/** A close long flag among `names` (option names without dashes), with its dashes. */
export function suggestFlag(flag: string, names: readonly string[]): string | null {
  if (!flag.startsWith('--')) return null;
  const found = closest(
    flag.slice(2),
    names.filter((n) => n !== flag.slice(2)),
  );
  return found === null ? null : `--${found}`;
}

/** A string option's value checked against its allowed values. */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

type Parsed<O extends OptionsSpec> = ReturnType<typeof parseCommand<O>>;

/**
 * A command from its parts: run parses the arguments with the command's options, answers --help and --version,
 * and hands the rest to `action`.
 */
export function defineCommand<const O extends OptionsSpec>(spec: {
  name: string;
  summary: string;
  usage: string;
  options: O;
  action: (parsed: Parsed<O>, io: Io) => Promise<number> | number;
}): Command {
  const command: Command = {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage,
    options: spec.options,
    async run(args, io) {
      const parsed = parseCommand(spec, args);
      const values = parsed.values as { help?: boolean; version?: boolean };
      if (values.help) {
        io.stdout(spec.usage.endsWith('\n') ? spec.usage : `${spec.usage}\n`);
        return EXIT.ok;
      }
      if (values.version) {
        io.stdout(`${toolVersion()}\n`);
        return EXIT.ok;
      }
      return spec.action(parsed, io);
    },
  };
  return command;
}

/** Everything on standard input (the Claude Code hook's payload). */
export function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (data += chunk));
    process.stdin.on('end', () => resolve(data));
    process.stdin.on('error', () => resolve(data));
  });
}
