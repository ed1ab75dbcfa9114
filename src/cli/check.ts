// The default command and its history doors: read the workflow files, judge them (snapshot rules over the files,
// transition rules over history, the index or a range), report, and pick the exit code.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { loadConfig, type Config, type Preset } from '../config/config.js';
import { repositoryRoot } from '../read/discover.js';
import { compareFindings, type Finding } from '../model/finding.js';
import { RULES, RULE_IDS } from '../engine/catalog.js';
import { judgePending, judgeRange, judgeRepository, type Judged } from '../engine/doors.js';
import { summarize } from '../report/summary.js';
import { BASELINE_FILE, writeBaseline } from '../engine/baseline.js';
import { FORMATS, FORMATTERS, type Format, type ReportInput } from '../report/index.js';
import { toolVersion } from '../shared/version.js';
import { EXIT, UsageError, type Io } from './io.js';
import { defineCommand, oneOf } from './command.js';
import { progressLine } from './progress.js';
import { FIX_TYPES, fixWorkingTree, type FixType } from '../fix/index.js';

export { FORMATS, type Format };

export interface CheckOptions {
  paths: string[];
  format: Format;
  /** Also append the markdown report to $GITHUB_STEP_SUMMARY. */
  summary: boolean;
  preset?: Preset;
  /** `--since <rev>|root`: where history judgement starts. */
  since?: string;
  config?: string;
  maxWarnings?: number;
  quiet: boolean;
  history: boolean;
  /** Record today's findings as the baseline instead of reporting them. */
  baselineWrite?: boolean;
  /** Which door: the whole repository, the index (pre-commit), a message (commit-msg), or a range (pre-push, PRs). */
  door: { kind: 'repository' } | { kind: 'staged' } | { kind: 'commit-msg'; file: string } | { kind: 'range'; from: string | null; to: string };
  /** `--fix` / `--fix-dry-run`: repair the working tree (or show the diff) before judging it (src/fix/). */
  fix?: { dryRun: boolean; types: FixType[] };
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

async function judge(opts: CheckOptions, root: string, inGit: boolean, config: Config, io: Io): Promise<Judged> {
  const door = opts.door;
  const progress = progressLine(io, { quiet: opts.quiet });
  const onProgress = (p: { commits: number; total: number; parsed: number }) => progress.update(p);
  try {
    if (door.kind === 'repository') return await judgeRepository(root, inGit, { config, presetOverride: opts.preset, history: opts.history, since: opts.since, baselineWrite: opts.baselineWrite, onProgress });
    if (!inGit) throw new UsageError(`${door.kind === 'range' ? '--range' : door.kind === 'staged' ? '--staged' : 'commit-msg'} needs a git repository`);
    if (door.kind === 'range') return await judgeRange(root, config, door, opts.preset, opts.since, onProgress);
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

/** Where rule pages can be read: the published package's files, at this version. */
export function docsBase(): string {
  return `https://unpkg.com/validate-workflow@${toolVersion()}`;
}

/** What was found, in the format asked for: a lookup in the formatters (src/report/index.ts). */
function render(format: Format, report: Pick<ReportInput, 'findings' | 'summary' | 'workspace' | 'timeline' | 'note'>, io: Io): string {
  return FORMATTERS[format].format({ ...report, rules: RULES, version: toolVersion(), docsBase: docsBase(), color: io.color });
}

export async function check(opts: CheckOptions, io: Io): Promise<number> {
  const inGit = repositoryRoot(io.cwd);
  const root = inGit ?? io.cwd;
  const config = loadConfig(root, opts.config ? resolve(io.cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const scopes = opts.paths.map((p) => toRepoPath(root, io.cwd, p));

  if (opts.fix) await fixWorkingTree({ root, inGit: inGit !== null, config, ...opts.fix, inScope: (f) => within(f, scopes), say: opts.format === 'stylish' ? io.stdout : io.stderr });
  const judged = await judge(opts, root, inGit !== null, config, io);
  if (opts.baselineWrite) {
    if (opts.door.kind !== 'repository' || scopes.length) throw new UsageError('--baseline-write records the whole repository: drop paths, --staged, --range and commit-msg');
    const { entries } = writeBaseline(root, judged.findings);
    io.stdout(`validate-workflow: wrote ${BASELINE_FILE} with ${entries} entr${entries === 1 ? 'y' : 'ies'} (${judged.findings.length} findings); later runs report only what is new.\n`);
    return EXIT.ok;
  }
  const files = judged.files.filter((f) => within(f, scopes));
  if (!judged.anything || (scopes.length > 0 && files.length === 0 && opts.door.kind === 'repository')) {
    const where = [...config.paths.plans, ...config.paths.handoffs, ...config.paths.ledgers].join(', ');
    const note = `validate-workflow: no workflow files found${scopes.length ? ` under ${opts.paths.join(', ')}` : ''} (looked for ${where}).\n`;
    if (opts.format !== 'stylish') {
      io.stderr(note);
      io.stdout(render(opts.format, { findings: [], summary: summarize([], 0, 0), workspace: null, timeline: [], note }, io));
    } else io.stdout(note);
    return EXIT.ok;
  }
  let findings = judged.findings.filter((f) => within(f.file, scopes)).sort(compareFindings);
  if (opts.quiet) findings = findings.filter((f) => f.severity === 'error');
  const summary = { ...summarize(findings, files.length, judged.commits), ...(judged.judgedFrom ? { judgedFrom: judged.judgedFrom } : {}) };
  const report = { findings, summary, workspace: judged.workspace ?? null, timeline: judged.timeline ?? [] };
  io.stdout(render(opts.format, report, io));
  if (opts.summary) {
    const target = io.env.GITHUB_STEP_SUMMARY;
    if (!target) io.stderr('validate-workflow: --summary: GITHUB_STEP_SUMMARY is not set, no summary written.\n');
    else appendFileSync(target, `${render('markdown', report, io)}\n`);
  }

  if (summary.errors > 0) return EXIT.findings;
  if (opts.maxWarnings !== undefined && summary.warnings > opts.maxWarnings) {
    const note = `validate-workflow: ${summary.warnings} warnings exceed --max-warnings ${opts.maxWarnings}.\n`;
    if (opts.format === 'stylish') io.stdout(note);
    else io.stderr(note);
    return EXIT.findings;
  }
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
        fix,
      },
      io,
    );
  },
});
