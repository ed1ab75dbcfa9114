// One run of the default command, for every caller alike (the CLI's check, the programmatic API; the Action runs
// the CLI): which repository and config, which door builds (before, after), what is found and counted. Formats and
// exit codes are the callers'; everything that decides a finding is here, so no door can disagree with another.
import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { CONFIG_FILE, DEFAULT_PATHS, loadConfig, type Config, type Preset } from '../config/config.js';
import { whereWorkflowWent } from '../history/moved.js';
import type { TimelineEntry } from '../model/history.js';
import type { Rerun } from '../model/verification.js';
import type { Workspace } from '../model/types.js';
import { compareFindings, type Finding } from '../model/finding.js';
import { UsageError } from '../shared/errors.js';
import { repositoryAndHead, repositoryRoot } from '../shared/git.js';
import { writeBaseline } from './baseline.js';
import { RULES, RULE_IDS } from './catalog.js';
import { severityOf } from './findings.js';
import { activePacks, packOf } from './judge.js';
import { repositoryProfile } from './lint.js';
import { classifier } from '../read/classify.js';
import { personalPlans } from '../read/discover.js';
import { forgetInstructions } from '../read/profile.js';
import { judgeDoor, type Door, type Progress } from './doors.js';
import { summarize, type Summary } from './summary.js';
import { timing } from '../shared/timing.js';

export type { Door, Progress };

/** What decides what is judged and found: the check command's options and the API's alike. */
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
  door: Door;
  /**
   * The markdown review will be written (`--format markdown`, `--summary`): a range's review then also reads the
   * history before the range, to say who confirmed what before it.
   */
  review?: boolean;
}

/**
 * Where a run looks, resolved once from the options and the working directory: the repository (or the folder,
 * outside git), its config with the preset applied, and the paths the report is narrowed to. `--fix` writes the
 * working tree against this same scope before the run judges it.
 */
export interface Scope {
  root: string;
  inGit: boolean;
  config: Config;
  /** Repository-relative paths the report is narrowed to (empty: all). */
  scopes: string[];
  /**
   * HEAD's commit as the scope was made (null outside git or without commits), asked with the repository in one git
   * process: for a run that judges right away, not for a scope kept while commits are made.
   */
  head?: string | null;
  /** Whether the clone was shallow as the scope was made, asked in the same git process as `head`. */
  shallow?: boolean;
  inScope: (file: string | null) => boolean;
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

export function scopeOf(opts: Pick<JudgeOptions, 'paths' | 'config' | 'preset'>, cwd: string): Scope {
  const repo = repositoryAndHead(cwd);
  const inGit = repo?.info.root ?? null;
  const root = inGit ?? cwd;
  const config = loadConfig(root, opts.config ? resolve(cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const scopes = opts.paths.map((p) => toRepoPath(root, cwd, p));
  return {
    root,
    inGit: inGit !== null,
    config,
    scopes,
    inScope: (f) => within(f, scopes),
    head: repo?.head ?? null,
    shallow: repo?.shallow ?? false,
  };
}

/** `A..B`, `A...B` or `..B`; a missing or all-zero A means "from the beginning" (a push to an empty remote). */
export function parseRange(range: string): { from: string | null; to: string } {
  const m = /^(.*?)\.\.\.?(.*)$/.exec(range);
  if (!m || !m[2]) throw new UsageError(`--range needs <from>..<to> (got "${range}")`);
  return { from: m[1] || null, to: m[2] };
}

/** What a run found, before any format is chosen (report/formatter.ts ReportInput adds what a format needs). */
export interface Report {
  findings: Finding[];
  summary: Summary;
  /** For the markdown review: the workspace judged, or null (a range of commits), and what history says of it. */
  workspace: Workspace | null;
  timeline: TimelineEntry[];
  /** `verify`: each claim's command re-run at the commit that ticked it, or why not (the markdown review shows them). */
  verifications?: Rerun[];
}

/** The baseline was written, there was nothing to judge (why, and the empty report), or the report. */
export type Outcome =
  | { kind: 'baseline'; entries: number; findings: number }
  | { kind: 'nothing'; note: string; report: Report }
  | { kind: 'report'; report: Report; note?: string; digest?: string };

/**
 * The one code path from options to findings. `scope` is scopeOf's (the CLI resolves it first, to fix the working
 * tree within it); `progress` draws how far a long history fold is.
 */
export async function judgeAndReport(opts: JudgeOptions, scope: Scope, progress?: Progress): Promise<Outcome> {
  const { root, inGit, config, scopes } = scope;
  // Since the process started: the command's modules loaded and the settings read (scopeOf).
  timing('modules loaded, settings read', performance.now());
  const judged = await judgeDoor(opts.door, {
    root,
    inGit,
    config,
    presetOverride: opts.preset,
    history: opts.history,
    since: opts.since,
    baselineWrite: opts.baselineWrite,
    explicitConfig: opts.config !== undefined,
    progress,
    review: opts.review,
    head: scope.head,
    shallow: scope.shallow,
  });
  if (opts.baselineWrite) {
    if (opts.door.kind !== 'repository' || scopes.length)
      throw new UsageError(
        '--baseline-write records the whole repository: drop paths, --staged, --range and commit-msg',
      );
    const { entries } = writeBaseline(root, judged.findings);
    return { kind: 'baseline', entries, findings: judged.findings.length };
  }
  const files = judged.files.filter((f) => scope.inScope(f));
  // No workflow file where the config looks: say where they went when a commit moved them (issue 19).
  const moved =
    inGit && scopes.length === 0 && opts.door.kind === 'repository' && files.length === 0
      ? whereWorkflowWent(root, config.paths)
      : null;
  const went = moved
    ? ` Workflow files moved to ${moved.to}/ in ${moved.sha.slice(0, 7)} (${moved.count} files): set \`paths\` in ${CONFIG_FILE} to judge them there.`
    : '';
  const where = [...config.paths.plans, ...config.paths.handoffs, ...config.paths.ledgers].join(', ');
  // Plans in people's own folders (`thoughts/<user>/plans/`) that the default globs leave out: said, not judged.
  const personal =
    opts.door.kind === 'repository' &&
    scopes.length === 0 &&
    config.paths.plans.join('\n') === DEFAULT_PATHS.plans.join('\n')
      ? personalPlans(root)
      : { people: [], plans: 0 };
  const personalNote =
    personal.plans > 0
      ? `validate-workflow: ${personal.plans} plan${personal.plans === 1 ? '' : 's'} in personal folders (${personal.people.map((p) => `thoughts/${p}/plans/`).join(', ')}) ${personal.plans === 1 ? 'is' : 'are'} not judged: add \`thoughts/*/plans/**/*.md\` to \`paths.plans\` in ${CONFIG_FILE} to judge them.\n`
      : '';
  if (!judged.anything || (scopes.length > 0 && files.length === 0 && opts.door.kind === 'repository')) {
    const note = `validate-workflow: no workflow files found${scopes.length ? ` under ${opts.paths.join(', ')}` : ''} (looked for ${where}).${went}\n${personalNote}`;
    return {
      kind: 'nothing',
      note,
      report: { findings: [], summary: summarize([], 0, 0), workspace: null, timeline: [] },
    };
  }
  let findings = judged.findings.filter((f) => scope.inScope(f.file)).sort(compareFindings);
  if (opts.quiet) findings = findings.filter((f) => f.severity === 'error');
  const summary = {
    ...summarize(findings, files.length, judged.commits),
    ...(judged.judgedFrom ? { judgedFrom: judged.judgedFrom } : {}),
  };
  const notes = [
    moved ? `validate-workflow: no workflow files found at HEAD (looked for ${where}).${went}\n` : '',
    personalNote,
    // Outside git the run cannot replay history: say so, rather than let a clean report read as a clean history.
    !inGit && opts.history && opts.door.kind === 'repository'
      ? `validate-workflow: ${root} is not in a git repository: history rules skipped, the files are judged as they are.\n`
      : '',
  ].join('');
  const note = notes || undefined;
  return {
    kind: 'report',
    report: {
      findings,
      summary,
      // A getter: the workspace of an unchanged tree is built only for the review (engine/lint.ts Verdict).
      get workspace() {
        return judged.workspace ?? null;
      },
      timeline: judged.timeline ?? [],
    },
    ...(note ? { note } : {}),
    ...(judged.digest ? { digest: judged.digest } : {}),
  };
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
export function configFor(
  file: string | undefined,
  cwd: string,
  opts: { config?: string; preset?: Preset },
): Record<string, unknown> {
  const abs = file === undefined ? null : resolve(cwd, file);
  const inGit = repositoryRoot(abs === null ? cwd : existingFolder(abs));
  const root = inGit ?? cwd;
  // The promise printed is the tree's as it is now, also in a process that printed it before (engine/doors.ts).
  forgetInstructions(root);
  const config = loadConfig(root, opts.config ? resolve(cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const path = abs === null ? null : relative(root, abs).split(sep).join('/');
  if (path !== null && (path.startsWith('../') || path === '..'))
    throw new UsageError(`${file} is outside the repository at ${root}`);
  const kind =
    path === null ? null : (classifier(config.paths)(path)?.kind ?? packOf(activePacks(config), path)?.id ?? null);
  const rules = Object.fromEntries(RULES.map((r) => [r.meta.id, severityOf(r, config)]));
  const { source, ...rest } = config;
  // The promise the structure rules hold this repository to, and where each part of it came from (section 4b).
  const { applies: profile, dialects } = repositoryProfile(root, config, inGit !== null);
  // Which dialect the file was read as (convention section 4b), or how many files of each dialect the repository has.
  const dialect =
    path === null
      ? { dialects: { plans: dialects.plans, handoffs: dialects.handoffs } }
      : { dialect: dialects.byPath.get(path) ?? null };
  return { file: path, kind, ...dialect, source, ...rest, profile, rules };
}
