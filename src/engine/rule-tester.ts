// The rule tester (ESLint's RuleTester): one rule judged in memory over files given as strings, through the same
// runner every door uses (judge.ts), with no git repository and no process. Pure: no test framework here; the
// vitest wrapper (test/helpers/rule-tester.ts) turns cases into `it` blocks.
//
// A snapshot case is a working tree: files by path. A transition case is one commit: the files before and after it
// and the commit's metadata. Trust settings (preset, severities, agents, confirmers) come from the `before`
// snapshot's validate-workflow.config.json, exactly as at the real doors.
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
export const CANONICAL_PROTOCOL: NonNullable<Config['protocol']> = { automatedCriteria: true, manualCriteria: true, taskNumbering: 'global', taskHandoffs: true, handoffChain: true, handoffLayout: 'sessions' };

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
  return judgeSnapshot({ workspace: snap.workspace(TESTER_ROOT), packs: packWorkspace(snap, config), config, rules: rulesOf(rule) });
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
  const withConfig = (files: Files): Files => (test.config && !(CONFIG_FILE in files) ? { ...files, [CONFIG_FILE]: JSON.stringify(test.config, null, 2) } : files);
  const before = withConfig(test.before);
  const after = withConfig(test.after);
  // The classifier (which path is a plan, a handoff, a ledger) follows the repository's config, as at the doors.
  const own = before[CONFIG_FILE];
  const config = own === undefined ? defaultConfig() : configFromObject(JSON.parse(typeof own === 'string' ? own : Buffer.from(own).toString('utf8')), CONFIG_FILE, RULE_IDS);
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
    if (!del || !add) throw new Error(`rule tester: rename ${from} -> ${to} needs ${from} in before only and ${to} in after only`);
    out = out.filter((c) => c !== del && c !== add);
    out.push({ status: 'R', path: to, from, oldBlob: del.oldBlob, newBlob: add.newBlob });
  }
  return out;
}

/** `{{name}}` placeholders a message still holds: a rule that forgot a value in `data`. */
export function unfilledPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
}
