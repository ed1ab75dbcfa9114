// The rule tester (ESLint's RuleTester): one rule judged in memory over files given as strings, through the same
// runner every door uses (judge.ts), with no git repository and no process. No test framework here: `RuleTester`
// (exported to pack authors by the package) registers its cases with whichever `describe` / `it` it is given or
// finds, and asserts with node:assert, whose errors every runner shows with a diff. This project's own rule tests
// use it through test/helpers/rule-tester.ts.
//
// A snapshot case is a working tree: files by path. A transition case is one commit: the files before and after it
// and the commit's metadata. Trust settings (preset, severities, agents, confirmers) come from the `before`
// snapshot's validate-workflow.config.json, exactly as at the real doors.
import { AssertionError, deepStrictEqual } from 'node:assert';
import { CONFIG_FILE, configFromObject, defaultConfig, type Config, type Preset } from '../config/config.js';
import type { Change, Commit, Event, Identity, Trailer } from '../model/history.js';
import { classifier } from '../read/classify.js';
import { MemorySource } from '../history/memory.js';
import type { Snapshot } from '../history/snapshot.js';
import { diffFiles } from '../history/events.js';
import type { Rule } from '../rules/types.js';
import { RULE_IDS } from './catalog.js';
import type { Finding } from '../model/finding.js';
import { judgeSnapshot, judgeTransition, packWorkspace, type Stage } from './judge.js';

/** Files of a case: repository path -> content (text, or bytes for binary and bad encodings). */
export type Files = Record<string, string | Uint8Array>;

/** Where the in-memory repository pretends to live; rules never read it. */
export const TESTER_ROOT = '/rule-tester';

export interface SnapshotCase {
  files: Files;
  /** Merged over `defaultConfig()` (`paths` key by key). */
  config?: Partial<Config>;
}

/** `Name <email>`, or an identity. */
export type Who = string | Identity;

export interface CommitInput {
  /** Default: a human, `Test Human <human@example.com>`. */
  author?: Who;
  /** Default: the author. */
  committer?: Who;
  subject?: string;
  /** `Key: value` lines or trailers: `Confirmed-by: Ana <ana@example.com>`, `Co-authored-by: Claude <noreply@anthropic.com>`. */
  trailers?: (string | Trailer)[];
  sha?: string;
}

export interface TransitionCase {
  before: Files;
  after: Files;
  commit?: CommitInput;
  /** The door: the full history (default), pre-commit (`staged`, no message yet) or commit-msg. */
  stage?: Stage;
  /**
   * The repository's config file (validate-workflow.config.json, as JSON), written into both `before` and `after`
   * unless they hold one already. Trust comes from `before`'s file, so to test a config change give the files
   * yourself.
   */
  config?: Record<string, unknown>;
  /** A preset forced on the command line (`--preset`). */
  preset?: Preset;
  /** Whether the commit carries a good signature (`git verify-commit`). */
  signed?: boolean;
  /** Judge as an audit of a history that never adopted the convention (TransitionContext.audit). */
  audit?: boolean;
  /** Files moved in this commit, `[from, to]`: a rename instead of a deletion and an addition. */
  renames?: [string, string][];
}

export const HUMAN: Identity = { name: 'Test Human', email: 'human@example.com' };

export function identity(who: Who): Identity {
  if (typeof who !== 'string') return who;
  const m = /^\s*(.*?)\s*<([^>]*)>\s*$/.exec(who);
  if (!m) throw new Error(`rule tester: "${who}" is not of the form \`Name <email>\``);
  return { name: m[1]!, email: m[2]! };
}

function trailer(t: string | Trailer): Trailer {
  if (typeof t !== 'string') return t;
  const at = t.indexOf(':');
  if (at <= 0) throw new Error(`rule tester: trailer "${t}" is not of the form \`Key: value\``);
  return { key: t.slice(0, at).trim(), value: t.slice(at + 1).trim() };
}

export function testCommit(input: CommitInput = {}): Commit {
  const author = identity(input.author ?? HUMAN);
  return {
    sha: input.sha ?? 'c0ffee0000000000000000000000000000000001',
    parents: ['c0ffee0000000000000000000000000000000000'],
    author,
    committer: input.committer ? identity(input.committer) : author,
    time: 1_800_000_000,
    subject: input.subject ?? 'Test commit',
    trailers: (input.trailers ?? []).map(trailer),
  };
}

/**
 * The in-memory tester judges one rule's logic on a few files, too few for the tool to learn a repository's promise
 * from (convention section 4b): its repository states the canonical promise in its config, as a repository that
 * follows the seed would. A case about learning passes `protocol: undefined`.
 */
export const CANONICAL_PROTOCOL: NonNullable<Config['protocol']> = {
  automatedCriteria: true,
  manualCriteria: true,
  taskNumbering: 'global',
  taskHandoffs: true,
  handoffChain: true,
  handoffLayout: 'sessions',
};

/** `defaultConfig()` with these settings on top. */
export function testConfig(config: Partial<Config> = {}): Config {
  const base = defaultConfig();
  return { ...base, protocol: CANONICAL_PROTOCOL, ...config, paths: { ...base.paths, ...config.paths } };
}

function source(config: Config): MemorySource {
  return new MemorySource(classifier(config.paths), config.maxFileBytes);
}

/** The in-memory snapshot of these files, as the judge sees them (for tests that want its models). */
export function snapshotOf(files: Files, config: Partial<Config> = {}): Snapshot {
  return source(testConfig(config)).snapshot(files);
}

/** One rule's findings on a working tree (or several rules', for tests of how rules meet: disables, links). */
export function runSnapshotCase(rule: Rule | readonly Rule[], test: SnapshotCase): Finding[] {
  const config = testConfig(test.config);
  const snap = source(config).snapshot(test.files);
  return judgeSnapshot({
    workspace: snap.workspace(TESTER_ROOT),
    packs: packWorkspace(snap, config),
    config,
    rules: rulesOf(rule),
  });
}

function rulesOf(rule: Rule | readonly Rule[]): readonly Rule[] {
  return 'meta' in rule ? [rule] : rule;
}

export interface TransitionOutcome {
  findings: Finding[];
  /** The events between the snapshots, for tests that check what the rule was given. */
  events: readonly Event[];
}

/** One rule's findings on one commit (before -> after); trust from `before`. */
export function runTransitionCase(rule: Rule | readonly Rule[], test: TransitionCase): Finding[] {
  return judgeTransitionCase(rule, test).findings;
}

export function judgeTransitionCase(rule: Rule | readonly Rule[], test: TransitionCase): TransitionOutcome {
  const withConfig = (files: Files): Files =>
    test.config && !(CONFIG_FILE in files) ? { ...files, [CONFIG_FILE]: JSON.stringify(test.config, null, 2) } : files;
  const before = withConfig(test.before);
  const after = withConfig(test.after);
  // The classifier (which path is a plan, a handoff, a ledger) follows the repository's config, as at the doors.
  const own = before[CONFIG_FILE];
  const config =
    own === undefined
      ? defaultConfig()
      : configFromObject(
          JSON.parse(typeof own === 'string' ? own : Buffer.from(own).toString('utf8')),
          CONFIG_FILE,
          RULE_IDS,
        );
  const src = source(config);
  const b = src.snapshot(before);
  const a = src.snapshot(after);
  const changes = test.renames ? renamed(diffFiles(b.fileMap(), a.fileMap()), test.renames) : undefined;
  const signed = test.signed ?? false;
  const result = judgeTransition({
    stage: test.stage ?? 'history',
    commit: testCommit(test.commit),
    before: b,
    after: a,
    changes,
    signed: () => signed,
    presetOverride: test.preset,
    rules: rulesOf(rule),
    audit: test.audit,
  });
  return { findings: result.findings, events: result.events };
}

/** Pair each rename's deletion and addition into one `R` change, as git's rename detection would. */
function renamed(changes: Change[], renames: [string, string][]): Change[] {
  let out = changes;
  for (const [from, to] of renames) {
    const del = out.find((c) => c.status === 'D' && c.path === from);
    const add = out.find((c) => c.status === 'A' && c.path === to);
    if (!del || !add)
      throw new Error(`rule tester: rename ${from} -> ${to} needs ${from} in before only and ${to} in after only`);
    out = out.filter((c) => c !== del && c !== add);
    out.push({ status: 'R', path: to, from, oldBlob: del.oldBlob, newBlob: add.newBlob });
  }
  return out;
}

/** `{{name}}` placeholders a message still holds: a rule that forgot a value in `data`. */
export function unfilledPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
}

// ---------------------------------------------------------------------------------------------------------------
// Expectations

/** One finding an invalid case expects; the fields left out may be anything. */
export interface ExpectedFinding {
  messageId: string;
  file?: string | null;
  line?: number | null;
  column?: number | null;
  severity?: Finding['severity'];
  /** Values of the message's placeholders; the ones left out may be anything. */
  data?: Record<string, string | number>;
  /** The exact text (a string) or a pattern it matches. */
  message?: string | RegExp;
  fix?: string | RegExp;
}

/** An expected finding, or just its message id. */
export type Expected = ExpectedFinding | string;

/** A case: a working tree (`files`) or one commit (`before`, `after`), with an optional test title. */
export type RuleTesterCase = (SnapshotCase | TransitionCase) & { name?: string };

/** A case with exactly these findings, in the runner's order (file, line, column, rule). */
export type InvalidRuleTesterCase = RuleTesterCase & { errors: Expected[] };

export interface RuleTesterCases {
  /** Cases with no finding at all. */
  valid?: RuleTesterCase[];
  invalid?: InvalidRuleTesterCase[];
}

/** The rule's findings on one case, snapshot or transition by the case's shape. */
export function runCase(rule: Rule | readonly Rule[], test: SnapshotCase | TransitionCase): Finding[] {
  return 'files' in test ? runSnapshotCase(rule, test) : runTransitionCase(rule, test);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The template as a pattern: the given placeholders by their values, the others by anything. */
function templatePattern(template: string, data: Record<string, string | number>): RegExp {
  const body = template
    .split(/(\{\{\s*\w+\s*\}\})/)
    .map((part) => {
      const m = /^\{\{\s*(\w+)\s*\}\}$/.exec(part);
      if (!m) return escapeRegExp(part);
      return m[1]! in data ? escapeRegExp(String(data[m[1]!])) : '[\\s\\S]*?';
    })
    .join('');
  return new RegExp(`^${body}$`);
}

function fail(message: string, actual?: unknown, expected?: unknown): never {
  throw new AssertionError({ message, actual, expected, operator: 'strictEqual' });
}

function same(actual: unknown, expected: string | RegExp, what: string): void {
  if (typeof expected === 'string' ? actual === expected : typeof actual === 'string' && expected.test(actual)) return;
  fail(`${what}: expected ${String(expected)}, got ${JSON.stringify(actual)}`, actual, expected);
}

/** Every finding's message and fix are filled in: a rule that forgot a placeholder's value fails here. */
export function assertFilled(found: readonly Finding[]): void {
  for (const f of found) {
    for (const [what, text] of [
      ['message', f.message],
      ['fix', f.fix ?? ''],
    ] as const) {
      const left = unfilledPlaceholders(text);
      if (left.length > 0)
        fail(`${f.ruleId}: unfilled placeholder ${left.map((p) => `{{${p}}}`).join(', ')} in the ${what} "${text}"`);
    }
  }
}

function line(f: Finding): string {
  return `${f.file ?? '(repository)'}${f.line === null ? '' : `:${f.line}`} ${f.messageId}: ${f.message}`;
}

/** The findings are exactly these, in the runner's order; throws an AssertionError saying what differs. */
export function assertFindings(rule: Rule, found: readonly Finding[], errors: readonly Expected[]): void {
  assertFilled(found);
  const want = errors.map((e) => (typeof e === 'string' ? { messageId: e } : e));
  deepStrictEqual(
    found.map((f) => f.messageId),
    want.map((e) => e.messageId),
    `${rule.meta.id}: expected ${want.length} finding(s) [${want.map((e) => e.messageId).join(', ')}], got ${found.length}${found.length ? `:\n  ${found.map(line).join('\n  ')}` : ''}`,
  );
  want.forEach((e, i) => {
    const f = found[i]!;
    const where = `${rule.meta.id}: finding ${i + 1} (${line(f)})`;
    if (f.ruleId !== rule.meta.id) fail(`${where}: reported by ${f.ruleId}`, f.ruleId, rule.meta.id);
    for (const key of ['file', 'line', 'column', 'severity'] as const) {
      if (e[key] !== undefined && f[key] !== e[key])
        fail(`${where}: expected ${key} ${JSON.stringify(e[key])}, got ${JSON.stringify(f[key])}`, f[key], e[key]);
    }
    if (e.data !== undefined) {
      const template = rule.meta.messages[e.messageId];
      if (template === undefined) fail(`${where}: the rule has no message "${e.messageId}"`);
      same(f.message, templatePattern(template, e.data), `${where}: message with ${JSON.stringify(e.data)}`);
    }
    if (e.message !== undefined) same(f.message, e.message, `${where}: message`);
    if (e.fix !== undefined) same(f.fix, e.fix, `${where}: fix`);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The tester

/** `describe` or `it` of a test framework: a title and a function to run (or register). */
export type TestFunction = (title: string, fn: () => void) => unknown;

function globalTest(name: 'describe' | 'it'): TestFunction | undefined {
  const fn = (globalThis as Record<string, unknown>)[name];
  return typeof fn === 'function' ? (fn as TestFunction) : undefined;
}

/**
 * ESLint's RuleTester for validate-workflow rules: `new RuleTester().run(rule, { valid, invalid })` judges each case
 * in memory, through the runner every door uses, and makes one test of it. A valid case has no finding; an invalid
 * one has exactly its `errors`. Cases are registered with `RuleTester.describe` / `RuleTester.it` when set, else
 * with the global `describe` / `it` (Mocha, Jest, vitest with globals); with neither, they run at once and the
 * first that fails throws.
 */
export class RuleTester {
  static describe: TestFunction | undefined;
  static it: TestFunction | undefined;

  run(rule: Rule, cases: RuleTesterCases): void {
    const describe = RuleTester.describe ?? globalTest('describe') ?? ((_title: string, fn: () => void) => fn());
    const it =
      RuleTester.it ??
      globalTest('it') ??
      ((title: string, fn: () => void) => {
        try {
          fn();
        } catch (err) {
          if (err instanceof Error) err.message = `${rule.meta.id} ${title}: ${err.message}`;
          throw err;
        }
      });
    describe(`${rule.meta.id} (rule tester)`, () => {
      (cases.valid ?? []).forEach((c, i) => {
        it(`valid: ${c.name ?? `#${i + 1}`}`, () => {
          const found = runCase(rule, c);
          assertFilled(found);
          deepStrictEqual(
            found.map(line),
            [],
            `${rule.meta.id}: expected no finding, got ${found.length}:\n  ${found.map(line).join('\n  ')}`,
          );
        });
      });
      (cases.invalid ?? []).forEach((c, i) => {
        it(`invalid: ${c.name ?? `#${i + 1}`}`, () => assertFindings(rule, runCase(rule, c), c.errors));
      });
    });
  }
}
