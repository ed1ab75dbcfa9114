// The default command and its history doors: read the workflow files, judge them (snapshot rules over the files,
// transition rules over history, the index or a range), report, and pick the exit code.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { CONFIG_FILE, loadConfig, type Config, type Preset } from '../config/config.js';
import { whereWorkflowWent } from '../history/moved.js';
import { repositoryRoot, ask, gitSync } from '../shared/git.js';
import { compareFindings, type Finding } from '../model/finding.js';
import { RULES, RULE_IDS } from '../engine/catalog.js';
import { judgePending, judgeRange, judgeRepository, type Judged } from '../engine/doors.js';
import { summarize } from '../report/summary.js';
import { BASELINE_FILE, writeBaseline } from '../engine/baseline.js';
import { FORMATS, FORMATTERS, type Format, type ReportInput } from '../report/index.js';
import { docsBase, toolVersion } from '../shared/version.js';
import { classifier } from '../read/classify.js';
import { activePacks, packOf } from '../engine/judge.js';
import { repositoryProfile } from '../engine/lint.js';
import { severityOf } from '../engine/findings.js';
import { EXIT, wantsColor, type Io } from './io.js';
import { UsageError } from '../shared/errors.js';
import { defineCommand, oneOf } from './command.js';
import { progressLine } from './progress.js';
import { FIX_TYPES, fixWorkingTree, type FixType } from '../fix/index.js';

export { FORMATS, type Format };

/** What decides what is judged and found: shared by the check command and the programmatic API (src/api). */
export interface JudgeOptions {
  paths: string[];
  preset?: Preset;
  /** `--since <rev>|root`: where history judgement starts. */
  since?: string;
  config?: string;
  quiet: boolean;
  history: boolean;
  /** Record today's findings as the baseline instead of reporting them. */
  baselineWrite?: boolean;
  /** Which door: the whole repository, the index (pre-commit), a message (commit-msg), or a range (pre-push, PRs). */
  door: { kind: 'repository' } | { kind: 'staged' } | { kind: 'commit-msg'; file: string } | { kind: 'range'; from: string | null; to: string };
  /** `--fix` / `--fix-dry-run`: repair the working tree (or show the diff) before judging it (src/fix/). */
  fix?: { dryRun: boolean; types: FixType[]; say?: (text: string) => void };
}

export interface CheckOptions extends JudgeOptions {
  format: Format;
  /** Also append the markdown report to $GITHUB_STEP_SUMMARY. */
  summary: boolean;
  maxWarnings?: number;
  /** `-o`: the report goes to this file (folders created), not to stdout. */
  outputFile?: string;
  /** `--color` / `--no-color`; unset: the environment and the terminal decide (io.ts wantsColor). */
  color?: boolean;
}

function toRepoPath(root: string, cwd: string, path: string): string {
  const abs = resolve(cwd, path);
  if (!existsSync(abs)) throw new UsageError(`no such file or directory: ${path}`);
  return relative(root, abs).split(sep).join('/');
}

function within(file: string | null, scopes: string[]): boolean {
  if (file === null || scopes.length === 0) return true;
  return scopes.some((s) => s === '' || file === s || file.startsWith(`${s}/`));
}

/** A hexadecimal object name (abbreviated or full): it may name a commit a shallow clone does not have. */
const OBJECT_NAME = /^[0-9a-f]{7,64}$/i;

/** `A..B`, `A...B` or `..B`; a missing or all-zero A means "from the beginning" (a push to an empty remote). */
export function parseRange(range: string): { from: string | null; to: string } {
  const m = /^(.*?)\.\.\.?(.*)$/.exec(range);
  if (!m || !m[2]) throw new UsageError(`--range needs <from>..<to> (got "${range}")`);
  return { from: m[1] || null, to: m[2] };
}

function commentFree(message: string): string {
  // Git strips these lines after the hook runs; they are not part of the message.
  return message
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .trim();
}

async function judge(opts: JudgeOptions, root: string, inGit: boolean, config: Config, io: Io): Promise<Judged> {
  const door = opts.door;
  const progress = progressLine(io, { quiet: opts.quiet });
  const onProgress = (p: { commits: number; total: number; parsed: number }) => progress.update(p);
  try {
    if (door.kind === 'repository') return await judgeRepository(root, inGit, { config, presetOverride: opts.preset, history: opts.history, since: opts.since, baselineWrite: opts.baselineWrite, onProgress });
    if (!inGit) throw new UsageError(`${door.kind === 'range' ? '--range' : door.kind === 'staged' ? '--staged' : 'commit-msg'} needs a git repository`);
    if (door.kind === 'range') {
      // A base that names no revision at all (a mistyped branch) is the caller's mistake; an object name the clone
      // lacks may exist upstream (a shallow clone): that one is history/incomplete, judged by the fold.
      for (const [side, rev] of [['base', door.from], ['end', door.to]] as const) {
        if (rev === null || /^0+$/.test(rev) || OBJECT_NAME.test(rev)) continue;
        if (!(await ask(root, ['rev-parse', '--verify', '-q', `${rev}^{commit}`])).ok) throw new UsageError(`--range ${side} "${rev}" is no revision in this repository`);
      }
      return await judgeRange(root, config, door, opts.preset, opts.since, onProgress);
    }
  } finally {
    progress.done();
  }
  let message: string | undefined;
  if (door.kind === 'commit-msg') {
    if (!existsSync(door.file)) throw new UsageError(`no such message file: ${door.file}`);
    message = commentFree(readFileSync(door.file, 'utf8'));
  }
  return judgePending(root, config, { stage: door.kind, message, presetOverride: opts.preset, explicitConfig: opts.config !== undefined });
}

/** What a run found, before any format is chosen. */
export type Report = Pick<ReportInput, 'findings' | 'summary' | 'workspace' | 'timeline'>;

/**
 * The one code path from options to findings, for the check command and the programmatic API alike: the baseline
 * was written, there was nothing to judge (why, and the empty report), or the report.
 */
export type Outcome = { kind: 'baseline'; entries: number; findings: number } | { kind: 'nothing'; note: string; report: Report } | { kind: 'report'; report: Report; note?: string; digest?: string };

export async function judgeAndReport(opts: JudgeOptions, io: Io): Promise<Outcome> {
  const inGit = repositoryRoot(io.cwd);
  const root = inGit ?? io.cwd;
  const config = loadConfig(root, opts.config ? resolve(io.cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const scopes = opts.paths.map((p) => toRepoPath(root, io.cwd, p));

  if (opts.fix) await fixWorkingTree({ root, inGit: inGit !== null, config, ...opts.fix, inScope: (f) => within(f, scopes), say: opts.fix.say ?? io.stderr });
  const judged = await judge(opts, root, inGit !== null, config, io);
  if (opts.baselineWrite) {
    if (opts.door.kind !== 'repository' || scopes.length) throw new UsageError('--baseline-write records the whole repository: drop paths, --staged, --range and commit-msg');
    const { entries } = writeBaseline(root, judged.findings);
    return { kind: 'baseline', entries, findings: judged.findings.length };
  }
  const files = judged.files.filter((f) => within(f, scopes));
  // No workflow file where the config looks: say where they went when a commit moved them (issue 19).
  const moved = inGit !== null && scopes.length === 0 && opts.door.kind === 'repository' && files.length === 0 ? whereWorkflowWent(root, config.paths) : null;
  const went = moved ? ` Workflow files moved to ${moved.to}/ in ${moved.sha.slice(0, 7)} (${moved.count} files): set \`paths\` in ${CONFIG_FILE} to judge them there.` : '';
  const where = [...config.paths.plans, ...config.paths.handoffs, ...config.paths.ledgers].join(', ');
  if (!judged.anything || (scopes.length > 0 && files.length === 0 && opts.door.kind === 'repository')) {
    const note = `validate-workflow: no workflow files found${scopes.length ? ` under ${opts.paths.join(', ')}` : ''} (looked for ${where}).${went}\n`;
    return { kind: 'nothing', note, report: { findings: [], summary: summarize([], 0, 0), workspace: null, timeline: [] } };
  }
  let findings = judged.findings.filter((f) => within(f.file, scopes)).sort(compareFindings);
  if (opts.quiet) findings = findings.filter((f) => f.severity === 'error');
  const summary = { ...summarize(findings, files.length, judged.commits), ...(judged.judgedFrom ? { judgedFrom: judged.judgedFrom } : {}) };
  const note = moved ? `validate-workflow: no workflow files found at HEAD (looked for ${where}).${went}\n` : undefined;
  return { kind: 'report', report: { findings, summary, workspace: judged.workspace ?? null, timeline: judged.timeline ?? [] }, ...(note ? { note } : {}), ...(judged.digest ? { digest: judged.digest } : {}) };
}

/** What was found, in the format asked for: a lookup in the formatters (src/report/index.ts). */
export function render(format: Format, report: Report & Pick<ReportInput, 'note'>, color: boolean): string {
  return FORMATTERS[format].format({ ...report, rules: RULES, version: toolVersion(), docsBase: docsBase(), color });
}

/** Where the report goes: stdout, or the `-o` file (its folders created); a file that cannot be written is a usage error. */
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
  };
}

export async function check(opts: CheckOptions, io: Io): Promise<number> {
  // What --fix changed goes with a stylish report; any other format keeps stdout parseable.
  const outcome = await judgeAndReport(opts.fix ? { ...opts, fix: { ...opts.fix, say: opts.format === 'stylish' ? io.stdout : io.stderr } } : opts, io);
  if (outcome.kind === 'baseline') {
    io.stdout(`validate-workflow: wrote ${BASELINE_FILE} with ${outcome.entries} entr${outcome.entries === 1 ? 'y' : 'ies'} (${outcome.findings} findings); later runs report only what is new.\n`);
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
    const note = `validate-workflow: ${summary.warnings} warnings exceed --max-warnings ${opts.maxWarnings}.\n`;
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
  const res = gitSync(dirname(resolve(io.cwd, file)), ['interpret-trailers', '--in-place', '--if-exists', 'addIfDifferent', '--trailer', `Confirmed-items: ${digest}`, resolve(io.cwd, file)]);
  if (res.ok) io.stderr(`validate-workflow: added \`Confirmed-items: ${digest}\` to the message: it binds the confirmation to the manual items checked.\n`);
  else io.stderr(`validate-workflow: could not add \`Confirmed-items: ${digest}\` to the message (${res.err.trim() || 'git interpret-trailers failed'}); the commit is accepted without it.\n`);
}

/** The nearest folder of a path that exists: a file not written yet still has its repository. */
function existingFolder(path: string): string {
  let dir = existsSync(path) && !statSync(path).isDirectory() ? dirname(path) : path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * `--print-config [file]` (ESLint's): the configuration as a run over that file would use it, with every rule's
 * severity resolved from the preset and the config's rules, and which kind of workflow file the path is.
 */
function printConfig(file: string | undefined, opts: { config?: string; preset?: Preset }, io: Io): number {
  const abs = file === undefined ? null : resolve(io.cwd, file);
  const inGit = repositoryRoot(abs === null ? io.cwd : existingFolder(abs));
  const root = inGit ?? io.cwd;
  const config = loadConfig(root, opts.config ? resolve(io.cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const path = abs === null ? null : relative(root, abs).split(sep).join('/');
  if (path !== null && (path.startsWith('../') || path === '..')) throw new UsageError(`${file} is outside the repository at ${root}`);
  const kind = path === null ? null : (classifier(config.paths)(path)?.kind ?? packOf(activePacks(config), path)?.id ?? null);
  const rules = Object.fromEntries(RULES.map((r) => [r.meta.id, severityOf(r, config)]));
  const { source, ...rest } = config;
  // The promise the structure rules hold this repository to, and where each part of it came from (section 4b).
  const { applies: profile, dialects } = repositoryProfile(root, config, inGit !== null);
  // Which dialect the file was read as (convention section 4b), or how many files of each dialect the repository has.
  const dialect = path === null ? { dialects: { plans: dialects.plans, handoffs: dialects.handoffs } } : { dialect: dialects.byPath.get(path) ?? null };
  io.stdout(`${JSON.stringify({ file: path, kind, ...dialect, source, ...rest, profile, rules }, null, 2)}\n`);
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
function fixOption(fix: boolean | undefined, dryRun: boolean | undefined, types: string | undefined, door: CheckOptions['door']['kind']): CheckOptions['fix'] {
  if (!fix && !dryRun) {
    if (types !== undefined) throw new UsageError('--fix-type needs --fix or --fix-dry-run');
    return undefined;
  }
  if (fix && dryRun) throw new UsageError('--fix and --fix-dry-run cannot be combined');
  if (door !== 'repository') throw new UsageError(`${fix ? '--fix' : '--fix-dry-run'} edits the working tree: it cannot be combined with --staged, --range or commit-msg`);
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
      return printConfig(positionals[0], { config: values.config, preset: oneOf<Preset>(values.preset, ['recommended', 'strict'], '--preset') }, io);
    }
    let maxWarnings: number | undefined;
    if (values['max-warnings'] !== undefined) {
      maxWarnings = Number(values['max-warnings']);
      if (!Number.isInteger(maxWarnings) || maxWarnings < 0) throw new UsageError(`--max-warnings needs a whole number (got "${values['max-warnings']}")`);
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
