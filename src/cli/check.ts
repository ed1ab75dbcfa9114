// The default command: parse its options, ask the engine (engine/run.ts) for the outcome of the door they name,
// print it in the format asked for, and pick the exit code. `--fix` writes the working tree first, within the same
// scope the engine then judges; `--print-config` prints what the engine would use.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Preset } from '../config/config.js';
import { configFor, judgeAndReport, parseRange, scopeOf, type JudgeOptions } from '../engine/run.js';
import { BASELINE_FILE } from '../engine/baseline.js';
import { FORMATS, render, type Format } from '../report/index.js';
import { EXIT, wantsColor, type Io } from './io.js';
import { UsageError } from '../shared/errors.js';
import { defineCommand, oneOf } from './command.js';
import { progressLine } from './progress.js';
import { FIX_TYPES, type FixType } from '../fix/types.js';
import { loadParsers } from '../read/lazy.js';
import { gitSync } from '../shared/git.js';
import { plural } from '../shared/text.js';

export interface CheckOptions extends JudgeOptions {
  format: Format;
  /** Also append the markdown report to $GITHUB_STEP_SUMMARY. */
  summary: boolean;
  maxWarnings?: number;
  /** `-o`: the report goes to this file (folders created), not to stdout. */
  outputFile?: string;
  /** `--color` / `--no-color`; unset: the environment and the terminal decide (io.ts wantsColor). */
  color?: boolean;
  /** `--fix` / `--fix-dry-run`: repair the working tree (or show the diff) before judging it (src/fix/). */
  fix?: { dryRun: boolean; types: FixType[] };
}

/**
 * Where the report goes: stdout, or the `-o` file (its folders created); a file that cannot be written is a usage
 * error. A file written is named on stderr (stdout stays empty), so the user knows where to look.
 */
function reportSink(opts: CheckOptions, io: Io): (text: string) => void {
  if (opts.outputFile === undefined) return io.stdout;
  const file = resolve(io.cwd, opts.outputFile);
  return (text) => {
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    } catch (err) {
      throw new UsageError(`cannot write --output-file ${opts.outputFile}: ${(err as Error).message}`);
    }
    io.stderr(`validate-workflow: wrote the ${opts.format} report to ${file}\n`);
  };
}

export async function check(opts: CheckOptions, io: Io): Promise<number> {
  const scope = scopeOf(opts, io.cwd);
  const review = opts.format === 'markdown' || opts.summary;
  // The repository door parses only what its cache does not answer, and loads the parsers then (engine/); every other
  // door, --fix and the review read files anyway.
  if (opts.door.kind !== 'repository' || opts.fix || review || opts.baselineWrite) await loadParsers();
  // What --fix changed goes with a stylish report; any other format keeps stdout parseable.
  if (opts.fix)
    await (
      await import('../fix/index.js')
    ).fixWorkingTree({
      root: scope.root,
      inGit: scope.inGit,
      config: scope.config,
      ...opts.fix,
      inScope: scope.inScope,
      say: opts.format === 'stylish' ? io.stdout : io.stderr,
    });
  const outcome = await judgeAndReport({ ...opts, review }, scope, progressLine(io, { quiet: opts.quiet }));
  if (outcome.kind === 'baseline') {
    io.stdout(
      `validate-workflow: wrote ${BASELINE_FILE} with ${outcome.entries} entr${outcome.entries === 1 ? 'y' : 'ies'} (${plural(outcome.findings, 'finding')}); later runs report only what is new.\n`,
    );
    return EXIT.ok;
  }
  // A file is no terminal: it gets colours only when asked for (flag or FORCE_COLOR), whatever stdout is.
  const color = opts.color ?? (opts.outputFile === undefined ? io.color : wantsColor({ env: io.env, tty: false }));
  const emit = reportSink(opts, io);
  if (outcome.kind === 'nothing') {
    const { note } = outcome;
    if (opts.format !== 'stylish') {
      io.stderr(note);
      emit(render(opts.format, { ...outcome.report, note }, color));
    } else {
      // In stylish the note is the report; with -o the file says so and the terminal too.
      emit(note);
      if (opts.outputFile !== undefined) io.stdout(note);
    }
    return EXIT.ok;
  }
  const { report } = outcome;
  const { summary } = report;
  if (outcome.note) io.stderr(outcome.note);
  emit(render(opts.format, report, color));
  if (opts.summary) {
    const target = io.env.GITHUB_STEP_SUMMARY;
    if (!target) io.stderr('validate-workflow: --summary: GITHUB_STEP_SUMMARY is not set, no summary written.\n');
    else appendFileSync(target, `${render('markdown', report, false)}\n`);
  }

  if (summary.errors > 0) return EXIT.findings;
  if (opts.maxWarnings !== undefined && summary.warnings > opts.maxWarnings) {
    const note = `validate-workflow: ${plural(summary.warnings, 'warning')} exceed${summary.warnings === 1 ? 's' : ''} --max-warnings ${opts.maxWarnings}.\n`;
    if (opts.format === 'stylish') io.stdout(note);
    else io.stderr(note);
    return EXIT.findings;
  }
  if (opts.door.kind === 'commit-msg' && outcome.digest) sealConfirmation(opts.door.file, outcome.digest, io);
  return EXIT.ok;
}

/**
 * A human's confirmation accepted without a `Confirmed-items` digest gets one in its message (git's own trailer
 * tool writes it), so an amend, fixup or rebase that adds an item to the confirmed commit breaks it at every later
 * door (convention section 6, round 3). The message file is git's, not the user's work: nothing else is touched.
 */
function sealConfirmation(file: string, digest: string, io: Io): void {
  const res = gitSync(dirname(resolve(io.cwd, file)), [
    'interpret-trailers',
    '--in-place',
    '--if-exists',
    'addIfDifferent',
    '--trailer',
    `Confirmed-items: ${digest}`,
    resolve(io.cwd, file),
  ]);
  if (res.ok)
    io.stderr(
      `validate-workflow: added \`Confirmed-items: ${digest}\` to the message: it binds the confirmation to the manual items checked.\n`,
    );
  else
    io.stderr(
      `validate-workflow: could not add \`Confirmed-items: ${digest}\` to the message (${res.err.trim() || 'git interpret-trailers failed'}); the commit is accepted without it.\n`,
    );
}

/**
 * `--print-config [file]` (ESLint's): the configuration as a run over that file would use it (engine/run.ts
 * configFor), as JSON.
 */
async function printConfig(
  file: string | undefined,
  opts: { config?: string; preset?: Preset },
  io: Io,
): Promise<number> {
  await loadParsers();
  io.stdout(`${JSON.stringify(configFor(file, io.cwd, opts), null, 2)}\n`);
  return EXIT.ok;
}

// --- the command ----------------------------------------------------------------------------------------------------

const OPTIONS = {
  format: { type: 'string' },
  summary: { type: 'boolean' },
  'baseline-write': { type: 'boolean' },
  preset: { type: 'string' },
  config: { type: 'string' },
  'max-warnings': { type: 'string' },
  quiet: { type: 'boolean' },
  'no-history': { type: 'boolean' },
  staged: { type: 'boolean' },
  range: { type: 'string' },
  since: { type: 'string' },
  'print-config': { type: 'boolean' },
  'output-file': { type: 'string', short: 'o' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  fix: { type: 'boolean' },
  'fix-dry-run': { type: 'boolean' },
  'fix-type': { type: 'string' },
} as const;

const USAGE = `Usage: validate-workflow [check] [paths...] [options]
       validate-workflow --staged | --range <from>..<to> | commit-msg <message-file>

Judges the workflow files (plans, task handoffs, ledgers) and their git history; the default command.
paths narrow the report to files under them (the whole workspace is still read).

Options:
  --format <${FORMATS.join('|')}>
                                output format (default: stylish)
  --summary                     also append the markdown review report to $GITHUB_STEP_SUMMARY
  --baseline-write              record today's findings in validate-workflow.baseline.json; later runs report
                                only what is new, and entries that no longer match
  --preset <recommended|strict> rule preset (default: the config's, else recommended)
  --config <file>               config file (default: validate-workflow.config.json, or "validateWorkflow" in package.json)
  --max-warnings <n>            exit 1 when there are more than n warnings
  --quiet                       report errors only (and no progress line on a terminal's stderr)
  --no-history                  judge the files as they are now, without replaying git history
  --staged                      pre-commit: judge the change from HEAD to the index (the index, not the working tree)
  --range <from>..<to>          pre-push and pull requests: judge the commits in the range, from merge-base(from, to)
  --since <rev>|root            judge history from this commit on (default: the adoption point, the first human
                                commit that added the config, or history.since); root judges all of it
  --fix                         repair what is mechanical in the working tree (nothing staged), then report
                                what is left; one line per change (docs/fix.md)
  --fix-dry-run                 print the fixes as a unified diff and write nothing
  --fix-type <problem,scaffold> which fixes (default: problem); scaffold adds missing criteria headings with a
                                placeholder item to fill in
  commit-msg <file>             commit-msg hook: the staged change with the message's trailers (Confirmed-by, ...)
  pre-commit                    pre-commit hook where lint-staged is installed: --staged, then lint-staged's
                                other tasks in the same process (a JavaScript or nested lint-staged config: as
                                lint-staged's task)
  --print-config [file]         print the configuration that applies to the file (or to the repository) as JSON:
                                every rule's resolved severity, the paths, the packs, the learned profile and
                                the dialect the file was read as (counts per dialect without a file); then exit 0
  -o, --output-file <path>      write the report to this file (folders are created) instead of stdout
  --color, --no-color           force colours on or off (default: on for a terminal; FORCE_COLOR and NO_COLOR are
                                honoured, the flags win)
  -h, --help                    show this help

Exit codes: 0 no errors, 1 errors (or too many warnings), 2 usage error or tool failure.
`;

/** ESLint's flags: `--fix` or `--fix-dry-run`, `--fix-type` a comma list; fixes edit the working tree only. */
function fixOption(
  fix: boolean | undefined,
  dryRun: boolean | undefined,
  types: string | undefined,
  door: CheckOptions['door']['kind'],
): CheckOptions['fix'] {
  if (!fix && !dryRun) {
    if (types !== undefined) throw new UsageError('--fix-type needs --fix or --fix-dry-run');
    return undefined;
  }
  if (fix && dryRun) throw new UsageError('--fix and --fix-dry-run cannot be combined');
  if (door !== 'repository')
    throw new UsageError(
      `${fix ? '--fix' : '--fix-dry-run'} edits the working tree: it cannot be combined with --staged, --range or commit-msg`,
    );
  const list = (types ?? 'problem').split(',').map((t) => oneOf<FixType>(t.trim(), FIX_TYPES, '--fix-type')!);
  return { dryRun: dryRun ?? false, types: list };
}

export const command = defineCommand({
  name: 'check',
  summary: 'judge the workflow files and their history (the default command; also --staged, --range, commit-msg)',
  usage: USAGE,
  options: OPTIONS,
  action: ({ values, positionals }, io) => {
    if (values.color && values['no-color']) throw new UsageError('--color and --no-color cannot be combined');
    if (values['print-config']) {
      if (positionals.length > 1) throw new UsageError('--print-config takes one file');
      return printConfig(
        positionals[0],
        { config: values.config, preset: oneOf<Preset>(values.preset, ['recommended', 'strict'], '--preset') },
        io,
      );
    }
    let maxWarnings: number | undefined;
    if (values['max-warnings'] !== undefined) {
      maxWarnings = Number(values['max-warnings']);
      if (!Number.isInteger(maxWarnings) || maxWarnings < 0)
        throw new UsageError(`--max-warnings needs a whole number (got "${values['max-warnings']}")`);
    }
    let door: CheckOptions['door'] = { kind: 'repository' };
    let paths = positionals;
    if (positionals[0] === 'commit-msg') {
      if (!positionals[1]) throw new UsageError('commit-msg needs the message file: validate-workflow commit-msg "$1"');
      door = { kind: 'commit-msg', file: positionals[1] };
      paths = positionals.slice(2);
    } else if (values.staged && values.range) throw new UsageError('--staged and --range cannot be combined');
    else if (values.staged) door = { kind: 'staged' };
    else if (values.range) door = { kind: 'range', ...parseRange(values.range) };
    const fix = fixOption(values.fix, values['fix-dry-run'], values['fix-type'], door.kind);
    return check(
      {
        paths,
        history: !values['no-history'],
        baselineWrite: values['baseline-write'] ?? false,
        door,
        format: oneOf(values.format, FORMATS, '--format') ?? 'stylish',
        summary: values.summary ?? false,
        preset: oneOf<Preset>(values.preset, ['recommended', 'strict'], '--preset'),
        config: values.config,
        maxWarnings,
        quiet: values.quiet ?? false,
        since: values.since,
        outputFile: values['output-file'],
        color: values.color ? true : values['no-color'] ? false : undefined,
        fix,
      },
      io,
    );
  },
});
