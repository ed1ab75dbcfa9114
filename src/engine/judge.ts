// THE runner. Every door (the full run's fold, --range, --staged, commit-msg, the Claude Code hook, the rule tester)
// is a way to build a pair of snapshots (before, after) and commit metadata; this module runs every rule kind over
// them (core snapshot, core transition, pack snapshot, pack transition) with one policy: severities and trust from
// the parent commit (the `before` snapshot), inline disables from the version judged, one message catalogue.
import type { Config, Preset } from '../config/config.js';
import type { Change, Commit, Event, Identity } from '../model/history.js';
import type { WorkflowFile, Workspace } from '../model/types.js';
import type { Snapshot } from '../history/snapshot.js';
import { diffFiles, eventsBetween } from '../history/events.js';
import { isLinkValue } from '../history/links.js';
import { agentIdentities, confirmation, factsOf, guidance, type Confirmation } from '../history/trust.js';
import { resolutionKey, writtenResolutions } from '../history/resolutions.js';
import { earlierPlans } from '../history/past.js';
import type { RawFinding, Rule, RuleContext, TransitionContext } from '../rules/types.js';
import type { Pack, PackChange, PackFile, PackWorkspace } from '../packs/types.js';
import { PACKS } from '../packs/registry.js';
import { RULES, RULE_IDS } from './catalog.js';
import { compareFindings, oneCause, type Finding } from '../model/finding.js';
import { severityOf, toFinding } from './findings.js';
import picomatch from 'picomatch';
import { performance } from 'node:perf_hooks';
import { since, timing } from '../shared/timing.js';

export type Stage = TransitionContext['stage'];

// ---------------------------------------------------------------------------------------------------------------
// Packs: which files are whose, and their models in a snapshot

interface ActivePack {
  pack: Pack;
  match: (path: string) => boolean;
  /** Static folders of the globs: pathspecs for git. */
  bases: string[];
  /** A glob has none (a memory pack rooted at `.`): git is asked about the whole tree. */
  baseless: boolean;
}

export function activePacks(config: Config): ActivePack[] {
  const out: ActivePack[] = [];
  for (const pack of PACKS) {
    const globs = pack.globs(config);
    if (globs.length === 0) continue;
    // Every judged commit asks this of its config, which is almost always the last one's: the matchers are compiled
    // once per pack and globs (compiling them per commit was 450 ms of a 3.7 s fold of 1,554 commits).
    const k = `${pack.id}\0${globs.join('\0')}`;
    let active = compiledPacks.get(k);
    if (!active) {
      active = {
        pack,
        match: picomatch(globs, { dot: true }),
        bases: [...new Set(globs.map((g) => picomatch.scan(g).base).filter(Boolean))],
        baseless: globs.some((g) => !picomatch.scan(g).base),
      };
      if (compiledPacks.size >= 64) compiledPacks.clear();
      compiledPacks.set(k, active);
    }
    out.push(active);
  }
  return out;
}

const compiledPacks = new Map<string, ActivePack>();

/** The pack whose globs hold this path, under this config. */
export function packOf(active: readonly ActivePack[], path: string): Pack | null {
  return active.find((a) => a.match(path))?.pack ?? null;
}

/** Pack files of a snapshot, read with their packs' readers. */
export function packWorkspace(snapshot: Snapshot, config: Config): PackWorkspace {
  const ws: PackWorkspace = new Map();
  const active = activePacks(config);
  if (active.length === 0) return ws;
  for (const path of snapshot.files.keys()) {
    const pack = packOf(active, path);
    if (!pack) continue;
    const file = readPackFile(pack, snapshot, path);
    if (!file) continue;
    const list = ws.get(pack.id);
    if (list) list.push(file);
    else ws.set(pack.id, [file]);
  }
  for (const list of ws.values()) list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return ws;
}

function readPackFile(pack: Pack, snapshot: Snapshot, path: string): PackFile | null {
  const bytes = snapshot.bytes(path);
  return bytes ? readPack(pack, path, () => bytes) : null;
}

/** One version of a pack file through its pack's reader; a failure to get or read the bytes is the file's problem. */
export function readPack(pack: Pack, path: string, bytes: () => Uint8Array): PackFile {
  try {
    return pack.read(path, bytes());
  } catch (err) {
    return {
      pack: pack.id,
      path,
      model: null,
      problems: [{ line: 1, column: 1, message: `File could not be read: ${(err as Error).message}` }],
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Snapshot rules

export interface SnapshotInput {
  workspace: Workspace;
  packs?: PackWorkspace;
  /** Severities and preset: the parent commit's at a door, the working tree's in a plain run. */
  config: Config;
  /** Default: every rule of the catalog. */
  rules?: readonly Rule[];
  /** When set, only findings in these files are kept (per-file checks may skip the others). */
  focus?: ReadonlySet<string>;
  /** Blocked handoffs the user gave guidance for in history (engine/guidance.ts). */
  guidance?: ReadonlyMap<string, string>;
  /** Resolutions an agent's commit wrote (engine/guidance.ts): they resolve nothing. */
  selfResolved?: ReadonlySet<string>;
}

function disabledIn(file: WorkflowFile | undefined, ruleId: string): boolean {
  // History rules judge what was committed; a comment in today's file cannot excuse yesterday's commit. And a
  // disable cannot silence the rule that reports disables, or a reasonless disable would hide itself.
  if (!file || ruleId.startsWith('history/') || ruleId === 'disable/directive') return false;
  return file.disables.some((d) => d.ruleIds.includes(ruleId));
}

export function judgeSnapshot(input: SnapshotInput): Finding[] {
  const { workspace: ws, config, focus } = input;
  const ctx: RuleContext = {
    preset: config.preset,
    config,
    knownRules: RULE_IDS,
    focus,
    guidance: input.guidance,
    selfResolved: input.selfResolved,
  };
  const files = new Map<string, WorkflowFile>([...ws.plans, ...ws.handoffs, ...ws.ledgers].map((f) => [f.path, f]));
  const packs = input.packs ?? new Map();
  const out: Finding[] = [];
  for (const rule of input.rules ?? RULES) {
    if (!rule.snapshot && !rule.packSnapshot) continue;
    const level = severityOf(rule, config);
    if (level === 'off') continue;
    const raws: RawFinding[] = [];
    if (rule.snapshot) raws.push(...rule.snapshot(ws, ctx));
    if (rule.packSnapshot && packs.size > 0) raws.push(...rule.packSnapshot(packs, ctx));
    for (const raw of raws) {
      if (focus && raw.file !== null && !focus.has(raw.file)) continue;
      if (raw.file && disabledIn(files.get(raw.file), rule.meta.id)) continue;
      out.push(toFinding(rule, raw, level));
    }
  }
  return out.sort(compareFindings);
}

// ---------------------------------------------------------------------------------------------------------------
// Transitions

export interface TransitionInput {
  stage: Stage;
  commit: Commit;
  before: Snapshot;
  after: Snapshot;
  /** Path-level changes between the two; computed from the snapshots when left out (no rename detection). */
  changes?: readonly Change[];
  /** Events already computed (the fold filters a merge's events against its other parents). */
  events?: readonly Event[];
  /** Whether the commit carries a good signature; asked only when a confirmation needs it. */
  signed?: () => boolean;
  /** A preset forced on the command line; severities otherwise come from the parent commit. */
  presetOverride?: Preset;
  rules?: readonly Rule[];
  /** Judging a history that never adopted the convention (see TransitionContext.audit). */
  audit?: boolean;
}

export interface TransitionResult {
  findings: Finding[];
  events: readonly Event[];
  /** The confirmation the commit carries (computed only when asked), for the review report's timeline. */
  confirmation: () => Confirmation;
  /** The commit's `Guidance-by:`, checked like a confirmation (computed only when asked). */
  guidanceGiven: () => Confirmation;
  agents: readonly Identity[];
  /** The parent commit's settings, which judged this commit. */
  trust: Config;
}

/** The settings a commit is judged by: its parent's (a commit cannot vouch for itself). */
export function trustOf(before: Snapshot, presetOverride?: Preset): Config {
  const trust = before.config(RULE_IDS);
  if (presetOverride) trust.preset = presetOverride;
  return trust;
}

export function judgeTransition(input: TransitionInput): TransitionResult {
  const { stage, commit, before, after } = input;
  const trust = trustOf(before, input.presetOverride);
  const changes = input.changes ?? diffFiles(before.fileMap(), after.fileMap());
  const events = input.events ?? eventsBetween([...changes], before, after);
  const agents = agentIdentities(commit, trust);
  let conf: Confirmation | null = null;
  const facts = factsOf(commit, events, changes, before, after);
  const confirm = () => (conf ??= confirmation(commit, trust, trust.preset, input.signed ?? (() => false), facts));
  let guided: Confirmation | null = null;
  const guidanceGiven = () =>
    (guided ??= guidance(
      commit,
      trust,
      trust.preset,
      input.signed ?? (() => false),
      factsOf(commit, [], changes, before, after),
    ));
  const ctx: TransitionContext = {
    stage,
    commit,
    events,
    changes,
    before,
    after,
    agents,
    audit: input.audit ?? false,
    preset: trust.preset,
    config: trust,
    knownRules: RULE_IDS,
    confirmation: confirm,
    guidanceGiven,
    documentsOnly: facts.documentsOnly,
    // Kept once per run for a parent and path (history/past.ts): every preset and door asks the same.
    earlierPlans: (file) => earlierPlans(before, commit.parents[0], file),
  };
  const packChanges = packChangesOf(changes, before, after, commit, trust);
  const out: Finding[] = [];
  for (const rule of input.rules ?? RULES) {
    if (!rule.transition && !rule.packTransition) continue;
    const level = severityOf(rule, trust);
    if (level === 'off') continue;
    // A change with no event (a section appended to a handoff's body) can still matter: a resolution written in it.
    if (rule.transition && (events.length > 0 || changes.length > 0))
      for (const raw of rule.transition(ctx)) out.push(toFinding(rule, raw, level, commit));
    if (rule.packTransition)
      for (const change of packChanges)
        for (const raw of rule.packTransition(change, ctx)) out.push(toFinding(rule, raw, level, commit));
  }
  return { findings: out, events, confirmation: confirm, guidanceGiven, agents, trust };
}

function packChangesOf(
  changes: readonly Change[],
  before: Snapshot,
  after: Snapshot,
  commit: Commit,
  config: Config,
): PackChange[] {
  const active = activePacks(config);
  if (active.length === 0) return [];
  const out: PackChange[] = [];
  for (const c of changes) {
    const pack = packOf(active, c.path) ?? (c.from !== null ? packOf(active, c.from) : null);
    if (!pack) continue;
    const oldPath = c.from ?? c.path;
    const oldBytes = c.oldBlob ? before.bytesOf(c.oldBlob) : null;
    const newBytes = c.newBlob && c.status !== 'D' ? after.bytesOf(c.newBlob) : null;
    out.push({
      pack: pack.id,
      path: c.path,
      before: oldBytes ? readPack(pack, oldPath, () => oldBytes) : null,
      after: newBytes ? readPack(pack, c.path, () => newBytes) : null,
      beforeText: oldBytes ? Buffer.from(oldBytes).toString('utf8') : null,
      afterText: newBytes ? Buffer.from(newBytes).toString('utf8') : null,
      commit,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// A change at a door: its transition findings plus every snapshot finding it introduces

/** What makes two snapshot findings the same problem, wherever its line moved. */
function identity(f: Finding): string {
  return `${f.ruleId}\0${f.file ?? ''}\0${f.message}`;
}

/**
 * The snapshot findings present after the change and absent before it, wherever they land: a staged plan change
 * that puts the ledger out of sync is refused at pre-commit, not first in CI (convention section 6). Findings are
 * counted per identity, so a second copy of a problem that already existed is new too.
 */
export function introduced(before: readonly Finding[], after: readonly Finding[]): Finding[] {
  const seen = new Map<string, number>();
  for (const f of before) seen.set(identity(f), (seen.get(identity(f)) ?? 0) + 1);
  const out: Finding[] = [];
  for (const f of after) {
    const k = identity(f);
    const left = seen.get(k) ?? 0;
    if (left > 0) seen.set(k, left - 1);
    else out.push(f);
  }
  return out;
}

export interface ChangeInput extends TransitionInput {
  /** Repository root: workspaces resolve plan references against it. */
  root: string;
  /** Blocked handoffs the user gave guidance for (history and this commit's own `Guidance-by`). */
  guidance?: ReadonlyMap<string, string>;
  /**
   * Applied to each side's snapshot findings before they are compared (the door's baseline): both sides settled
   * the same way, so an entry that covers a finding before and after neither hides a new one nor looks stale.
   */
  settle?: (findings: Finding[]) => Finding[];
  /** Resolutions agents' commits wrote in history (engine/guidance.ts selfResolvedIn); this commit's are added here. */
  selfResolved?: ReadonlySet<string>;
  /**
   * Snapshot findings judged before (engine/snapshot-memory.ts): the `before` side's are taken from it when everything
   * the snapshot rules are given is what they were judged from; both sides' are kept in it. Never asked for the
   * `after` side: that side is judged afresh, or, when it reads to the `before` side's models (judgedAlike), is given
   * the `before` side's findings, which then introduce nothing whatever the memory held. Unused with `rules` (a rule
   * set that is not the build's).
   */
  memory?: SnapshotMemory;
}

/** Everything a snapshot judgement is given besides the snapshot and the repository root (SnapshotMemory). */
export interface SnapshotGiven {
  /** The parent's settings: they choose the rule packs and read their files (packWorkspace). */
  trust: Config;
  /** The policy the snapshot rules run under (changePolicy of `trust`). */
  config: Config;
  guidance: ReadonlyMap<string, string>;
  selfResolved: ReadonlySet<string>;
}

/** Snapshot findings by what they were judged from: the snapshot and what it was given (see ChangeInput.memory). */
export interface SnapshotMemory {
  recall(snapshot: Snapshot, given: SnapshotGiven): Finding[] | undefined;
  keep(snapshot: Snapshot, given: SnapshotGiven, findings: Finding[]): void;
}

export interface ChangeResult extends TransitionResult {
  /** The part of `findings` that are snapshot findings the change introduces (the rest are transition findings). */
  introduced: Finding[];
}

/**
 * The policy for the snapshot findings a change introduces: a rule the preset reports as notes (info) reports at its
 * `introducedAs` level, unless the config sets it (plan/phase-order: the boxes at HEAD are a state, a commit that
 * starts phase 2 with phase 1's checks open is an act).
 */
export function changePolicy(config: Config, rules: readonly Rule[] = RULES): Config {
  const raised = rules
    .filter((r) => r.meta.introducedAs && r.meta.severities[config.preset] === 'info')
    .map((r) => [r.meta.id, r.meta.introducedAs!] as const);
  return raised.length === 0 ? config : { ...config, rules: { ...Object.fromEntries(raised), ...config.rules } };
}

/** One change as a hook sees it: transition findings, and the snapshot findings the change introduces. */
export function judgeChange(input: ChangeInput): ChangeResult {
  const result = judgeTransition(input);
  const trust = result.trust;
  const selfResolved = new Set([...(input.selfResolved ?? []), ...selfWritten(input, result)]);
  const given: SnapshotGiven = {
    trust,
    config: changePolicy(trust, input.rules),
    guidance: input.guidance ?? new Map(),
    selfResolved,
  };
  const memory = input.rules === undefined ? input.memory : undefined;
  const snap = (s: Snapshot, side: 'before' | 'after') => {
    const t = performance.now();
    const kept = side === 'before' ? memory?.recall(s, given) : undefined;
    const found =
      kept ??
      judgeSnapshot({
        workspace: s.workspace(input.root),
        packs: packWorkspace(s, trust),
        config: given.config,
        rules: input.rules,
        guidance: input.guidance,
        selfResolved,
      });
    if (!kept) memory?.keep(s, given, found);
    timing(`snapshot rules, ${side}${kept ? ' (remembered)' : ''}`, since(t));
    return found;
  };
  const settle = input.settle ?? ((f: Finding[]) => f);
  const before = snap(input.before, 'before');
  let after: Finding[];
  if (judgedAlike(input.before, input.after, trust)) {
    // The rules are given what they were given for `before`: they find what they found there. Kept for the `after`
    // side as a judgement of its own, under its own digest, for the next commit's `before`.
    const t = performance.now();
    after = before;
    memory?.keep(input.after, given, after);
    timing('snapshot rules, after (the models of before)', since(t));
  } else after = snap(input.after, 'after');
  const added = introduced(settle(before), settle(after));
  return {
    ...result,
    findings: oneCause(result.findings, added).sort(compareFindings),
    introduced: added,
  };
}

/**
 * Whether the snapshot rules are given the same on both sides of a change: the same paths in the same order, and
 * every version that differs a workflow file read to the same model (a sentence added to a plan's prose), neither a
 * link nor a pack's file. The workspace, the pack workspace and everything else the rules are given (judgeChange's
 * `given`, the tree's instruction files) are then the same, and the rules, pure functions of them, find the same.
 * Models are compared as values (sameValue): a cached model and a fresh parse of the same version may differ in form
 * (a key left undefined, say), and then the change is judged in full rather than taken as alike.
 */
export function judgedAlike(before: Snapshot, after: Snapshot, trust: Config): boolean {
  // One store: the same classification of every path (the sight it learned is both sides').
  if (before.store !== after.store) return false;
  const changed: string[] = [];
  const was = before.files.keys()[Symbol.iterator]();
  for (const path of after.files.keys()) {
    const other = was.next();
    if (other.done || other.value !== path) return false;
    if (before.files.get(path) !== after.files.get(path)) changed.push(path);
  }
  if (!was.next().done) return false;
  const packs = activePacks(trust);
  for (const path of changed) {
    const item = before.store.classify(path);
    if (!item || item.kind === 'searchable' || packOf(packs, path) !== null) return false;
    if (isLinkValue(before.files.get(path)) || isLinkValue(after.files.get(path))) return false;
    const a = before.model(path);
    const b = after.model(path);
    if (!a || !b || !sameValue(a, b)) return false;
  }
  return true;
}

/**
 * Whether two models are the same value: the same keys (one set to undefined is a key), numbers by Object.is (NaN is
 * NaN, not JSON's null), arrays element by element, plain objects field by field in any order. Anything else (a Map,
 * a Date) is the same only as the same object: never a false "same".
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  const plain = (o: object) => Object.getPrototypeOf(o) === Object.prototype || Object.getPrototypeOf(o) === null;
  if (!plain(a) || !plain(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every(
    (k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/**
 * The same change judged at another door (pre-commit's record of what commit-msg will find, engine/handover.ts): the
 * transition rules again, for `stage`; the snapshot findings it introduces are the first judgement's, since they
 * depend on the commit and its trailers, not on the door.
 */
export function judgeChangeAt(input: ChangeInput, stage: ChangeInput['stage'], first: ChangeResult): Finding[] {
  const result = judgeTransition({ ...input, stage });
  return oneCause(result.findings, first.introduced).sort(compareFindings);
}

/**
 * The resolutions the change being judged writes when it is an agent's commit without the human's word in it
 * (`Confirmed-by` or `Guidance-by` that counts): they do not resolve the blocked handoff after it either.
 */
function selfWritten(input: ChangeInput, result: TransitionResult): string[] {
  if (result.agents.length === 0) return [];
  const changes = input.changes ?? diffFiles(input.before.fileMap(), input.after.fileMap());
  const written = writtenResolutions(changes, input.before, input.after);
  if (written.length === 0 || result.confirmation().ok || result.guidanceGiven().ok) return [];
  return written.map((w) => resolutionKey(w.file, w.text));
}
