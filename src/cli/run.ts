// The command line without the process: pick the command by its word, hand it the rest of the arguments, map every
// failure to an exit code. main.ts gives it the process's streams; tests give it their own (one code path, no node
// process per run). Each command (src/cli/<command>.ts) parses its own options; this file knows only the command
// words, so the hook paths load nothing but the command they run. An unexpected error is a tool failure (exit 2)
// with a short message, not a stack trace.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, type Io } from './io.js';
import { UsageError } from '../shared/errors.js';
import { ConfigError } from '../config/config.js';
import { closest, UnknownOptionError, type Command } from './command.js';
import { toolVersion } from '../shared/version.js';
import { loadParsers } from '../read/lazy.js';

/** Every command by its word, loaded on demand: --help and --version should not pay for the Markdown parser. */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  check: async () => (await import('./check.js')).command,
  init: async () => (await import('./init/index.js')).command,
  confirm: async () => (await import('./confirm.js')).command,
  status: async () => (await import('./status.js')).command,
  explain: async () => (await import('./explain.js')).command,
  new: async () => (await import('./new.js')).command,
  'claude-hook': async () => (await import('./claude-hook.js')).command,
  verify: async () => (await import('./verify.js')).command,
};

/** The commands that load the parsers themselves, when they parse (read/lazy.ts). */
const LAZY_READERS = new Set(['check', 'status']);

/** Runs without a word: the arguments are its paths and options. */
const DEFAULT = 'check';
/** Words the default command reads itself (`commit-msg <file>`): not commands, not mistyped ones. */
const CHECK_WORDS = ['commit-msg'];

async function allCommands(): Promise<Command[]> {
  return Promise.all(Object.values(COMMANDS).map((load) => load()));
}

async function help(): Promise<string> {
  const commands = await allCommands();
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  const check = commands.find((c) => c.name === DEFAULT)!;
  return `Usage: validate-workflow [paths...] [options]        (the check command)
       validate-workflow <command> [arguments] [options]

Lints AI-agent workflow files (plans, task handoffs, ledgers) kept in git: phases done in order, manual checks
confirmed by a human, one handoff per task, ledgers in step with their plans.

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

Run validate-workflow <command> --help for the options of one command; -v, --version shows the version.

The default command, check:

${check.usage}`;
}

/** The command a word names, a mistyped command word (a usage error), or the default command with every argument. */
function pick(argv: string[], cwd: string): { name: string; args: string[]; named: boolean } {
  const word = argv[0];
  if (word === undefined || word.startsWith('-')) return { name: DEFAULT, args: argv, named: false };
  if (Object.hasOwn(COMMANDS, word)) return { name: word, args: argv.slice(1), named: true };
  // Anything else is a path for the check command, unless it is no path and looks like a command word mistyped.
  if (!CHECK_WORDS.includes(word) && /^[a-z][a-z-]*$/i.test(word) && !existsSync(resolve(cwd, word))) {
    const near = closest(word, Object.keys(COMMANDS));
    if (near) throw new UsageError(`unknown command "${word}"; did you mean "${near}"?`);
  }
  return { name: DEFAULT, args: argv, named: false };
}

/** An unknown flag, completed with the commands that do have it. */
async function unknownOption(err: UnknownOptionError): Promise<string> {
  if (!err.option.startsWith('--')) return err.message;
  const name = err.option.slice(2).replace(/=.*$/, '');
  const owners = (await allCommands())
    .filter((c) => c.name !== err.command && Object.hasOwn(c.options, name))
    .map((c) => c.name);
  if (owners.length === 0) return err.message;
  const quoted = owners.map((o) => `"${o}"`);
  const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : quoted[0];
  const belongs = `--${name} is an option of ${list}, not of "${err.command}"`;
  return err.suggestion ? `${belongs}; did you mean ${err.suggestion}?` : belongs;
}

export async function run(argv: string[], io: Io): Promise<number> {
  let usageHint = 'Run validate-workflow --help for usage.\n';
  try {
    if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      const about = argv[0] === 'help' && argv[1] !== undefined ? argv[1] : null;
      if (about !== null && !Object.hasOwn(COMMANDS, about)) {
        const near = closest(about, Object.keys(COMMANDS));
        throw new UsageError(`unknown command "${about}"${near ? `; did you mean "${near}"?` : ''}`);
      }
      io.stdout(about === null ? await help() : (await COMMANDS[about]!()).usage);
      return EXIT.ok;
    }
    if (argv[0] === '--version' || argv[0] === '-v') {
      io.stdout(`${toolVersion()}\n`);
      return EXIT.ok;
    }
    const picked = pick(argv, io.cwd);
    if (picked.named) usageHint = `Run validate-workflow ${picked.name} --help for usage.\n`;
    const command = await COMMANDS[picked.name]!();
    // Every command but these two reads files as it goes; check (its repository door) and status load the parsers
    // only when a file must be parsed (read/lazy.ts).
    if (!LAZY_READERS.has(picked.name)) await loadParsers();
    return await command.run(picked.args, io);
  } catch (err) {
    const e = err as Error & { code?: string };
    if (err instanceof UsageError || err instanceof ConfigError || e.code?.startsWith('ERR_PARSE_ARGS')) {
      const message = err instanceof UnknownOptionError ? await unknownOption(err) : e.message;
      io.stderr(`validate-workflow: ${message}\n${err instanceof ConfigError ? '' : usageHint}`);
      return EXIT.usage;
    }
    io.stderr(
      `validate-workflow: internal error: ${e.message}\n${io.env.VALIDATE_WORKFLOW_DEBUG ? `${e.stack}\n` : 'Set VALIDATE_WORKFLOW_DEBUG=1 for the stack trace, and please report it.\n'}`,
    );
    return EXIT.usage;
  }
}
