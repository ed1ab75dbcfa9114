// The programmatic entry (`import { lint } from 'validate-workflow'`): the check command's own code path
// (engine/run.ts judgeAndReport), so a script, an editor extension or a CI step gets exactly what
// `validate-workflow --format json` prints. The types a consumer sees are declared here, plainly, so the published
// declarations need nothing of the model (nor mdast's types, a dev dependency) to type-check.
import { resolve } from 'node:path';
import { judgeAndReport, parseRange, scopeOf, type JudgeOptions, type Report } from '../engine/run.js';
import { RULES } from '../engine/catalog.js';
import { render } from '../report/index.js';
import { jsonReport } from '../report/json.js';
import { FORMATS as REPORT_FORMATS, type Format } from '../report/names.js';
import type { Finding } from '../model/finding.js';
import { docsBase, toolVersion } from '../shared/version.js';
import { loadParsers } from '../read/lazy.js';

// The API reads files wherever a caller asks (every door, the review): the parsers are loaded with it.
await loadParsers();

export type Preset = 'recommended' | 'strict';
export type Severity = 'error' | 'warning' | 'info';
/** A rule's level in a preset; `info` is a preset's only (its findings are notes), never a config setting. */
export type RuleSeverity = 'off' | 'info' | 'warn' | 'error';
/** The names of the output formats (`--format`). */
export type FormatName = Format;

export interface LintOptions {
  /** The folder to judge from, as the CLI's working directory (default: process.cwd()). */
  cwd?: string;
  /** Report only files under these paths, relative to cwd (the whole workspace is still read). */
  paths?: string[];
  /** Rule preset, over the config's. */
  preset?: Preset;
  /** A config file, relative to cwd (default: validate-workflow.config.json, or "validateWorkflow" in package.json). */
  config?: string;
  /** Replay git history (default true); false judges the files as they are now. */
  history?: boolean;
  /** Judge history from this commit on, or `root` for all of it. */
  since?: string;
  /** Judge the change from HEAD to the index, as the pre-commit hook does. */
  staged?: boolean;
  /** Judge the commits of `<from>..<to>`, as pre-push and pull requests do. */
  range?: string;
  /** Judge the staged change with this commit message file's trailers, as the commit-msg hook does. */
  commitMessage?: string;
  /** Errors only. */
  quiet?: boolean;
  /**
   * With `range`: also read the history before the range, so that `format(result, 'markdown')` says who completed
   * or confirmed what before it (as the CLI does for `--format markdown`). Costs a walk of the earlier history.
   */
  review?: boolean;
}

/**
 * One finding, as the JSON contract has it (convention section 7). Declared again here rather than taken from
 * report/json.ts: that module's declarations reach the whole model and Node's types, which a consumer without
 * @types/node does not have. lint() assigns the formatter's object to LintResult, so the two cannot drift apart.
 */
export interface LintMessage {
  ruleId: string;
  severity: Severity;
  /** Repository-relative with `/` separators; null for a finding about the repository as a whole. */
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  fix?: string;
  /** History findings: the commit judged, and its subject. */
  commit?: string;
  subject?: string;
}

/** Exactly the object `validate-workflow --format json` prints. */
export interface LintResult {
  version: 1;
  results: LintMessage[];
  summary: { errors: number; warnings: number; infos: number; files: number; commits: number };
}

export interface RuleInfo {
  id: string;
  severities: Record<Preset, RuleSeverity>;
  description: string;
  fix: string;
  /** The rule's page: docs/rules/<id>.md in the repository, at this version's tag. */
  docs: string;
}

export const FORMATS: readonly FormatName[] = REPORT_FORMATS;

export const version: string = toolVersion();

export const rules: readonly RuleInfo[] = RULES.map((r) => ({
  id: r.meta.id,
  severities: { ...r.meta.severities },
  description: r.meta.description,
  fix: r.meta.fix,
  docs: `${docsBase()}/docs/rules/${r.meta.id}.md`,
}));

/**
 * What lint() found beyond the contract (the workspace and timeline the markdown review draws, the adoption point),
 * kept beside the result it returned rather than on it, so the result stays exactly the contract's object.
 */
const reports = new WeakMap<LintResult, Report>();

/**
 * The options a JavaScript caller (no type checker to stop it) got wrong, as the CLI says them: an Error naming the
 * option, what it takes and what it got, never a TypeError from deep inside.
 */
function checkOptions(options: LintOptions): void {
  if (options === null || typeof options !== 'object')
    throw new Error(`lint() takes an options object (got ${options === null ? 'null' : typeof options})`);
  const got = (v: unknown) => (typeof v === 'string' ? `"${v}"` : Array.isArray(v) ? 'a list' : String(v));
  if (options.preset !== undefined && !(['recommended', 'strict'] as unknown[]).includes(options.preset))
    throw new Error(`preset must be "recommended" or "strict" (got ${got(options.preset)})`);
  for (const key of ['cwd', 'config', 'since', 'range', 'commitMessage'] as const)
    if (options[key] !== undefined && typeof options[key] !== 'string')
      throw new Error(`${key} must be a string (got ${got(options[key])})`);
  for (const key of ['history', 'staged', 'quiet', 'review'] as const)
    if (options[key] !== undefined && typeof options[key] !== 'boolean')
      throw new Error(`${key} must be true or false (got ${got(options[key])})`);
  if (
    options.paths !== undefined &&
    !(Array.isArray(options.paths) && options.paths.every((p) => typeof p === 'string'))
  )
    throw new Error(`paths must be a list of strings (got ${got(options.paths)})`);
}

function doorOf(options: LintOptions): JudgeOptions['door'] {
  const doors = [
    options.staged ? '`staged`' : null,
    options.range !== undefined ? '`range`' : null,
    options.commitMessage !== undefined ? '`commitMessage`' : null,
  ].filter(Boolean);
  if (doors.length > 1)
    throw new Error(`lint() takes one of staged, range and commitMessage (got ${doors.join(' and ')})`);
  if (options.commitMessage !== undefined)
    return { kind: 'commit-msg', file: resolve(options.cwd ?? process.cwd(), options.commitMessage) };
  if (options.staged) return { kind: 'staged' };
  if (options.range !== undefined) return { kind: 'range', ...parseRange(options.range) };
  return { kind: 'repository' };
}

/**
 * Judge a repository as `validate-workflow --format json` does and return the object it prints. Bad options or a
 * bad config throw an Error with the message the CLI would print.
 */
export async function lint(options: LintOptions = {}): Promise<LintResult> {
  checkOptions(options);
  const cwd = resolve(options.cwd ?? process.cwd());
  const judge: JudgeOptions = {
    paths: options.paths ?? [],
    preset: options.preset,
    config: options.config,
    history: options.history ?? true,
    since: options.since,
    quiet: options.quiet ?? false,
    door: doorOf(options),
    review: options.review ?? false,
  };
  const outcome = await judgeAndReport(judge, scopeOf(judge, cwd));
  // judgeAndReport writes a baseline only when asked to, and lint() never asks.
  if (outcome.kind === 'baseline') throw new Error('unreachable: lint() wrote a baseline');
  const result: LintResult = jsonReport(outcome.report.findings, outcome.report.summary);
  reports.set(result, outcome.report);
  return result;
}

/**
 * The result in one of the CLI's formats, the same text `--format <name>` prints. A result lint() returned gives
 * the full markdown review (plans and their timeline); one read back from JSON gives its findings only.
 */
export function format(result: LintResult, name: FormatName, options: { color?: boolean } = {}): string {
  if (!(REPORT_FORMATS as readonly string[]).includes(name))
    throw new Error(`format must be one of ${REPORT_FORMATS.join(', ')} (got "${String(name)}")`);
  // The findings are the result's own, so a caller who filtered them formats what it kept.
  const findings: Finding[] = result.results.map((r) => ({ ...r }));
  const full = reports.get(result);
  return render(
    name,
    {
      findings,
      summary: { ...full?.summary, ...result.summary },
      workspace: full?.workspace ?? null,
      timeline: full?.timeline ?? [],
    },
    options.color ?? false,
  );
}

// The rule tester, for pack authors: it takes rule objects, so its types are the engine's own rule and pack model
// (declarations that need no package a consumer lacks; test/api/package.test.ts compiles them without @types).
export { RuleTester } from '../engine/rule-tester.js';
export type {
  CommitInput,
  Expected,
  ExpectedFinding,
  Files,
  InvalidRuleTesterCase,
  RuleTesterCase,
  RuleTesterCases,
  SnapshotCase,
  TestFunction,
  TransitionCase,
  Who,
} from '../engine/rule-tester.js';
export type { RawFinding, Rule, RuleContext, RuleMeta, TransitionContext } from '../rules/types.js';
export type { Pack, PackChange, PackFile, PackWorkspace } from '../packs/types.js';
