// One engine, three doors: the fold over the trace (full history or a range), the pre-commit transition (HEAD ->
// index) and the commit-msg transition (the same, with the message's trailers). Every door runs the same
// transition function: (snapshot before, snapshot after, commit) -> findings.
import { CONFIG_FILE, type Config } from '../config/config.js';
import type { Change, Commit, Event, Identity } from '../model/history.js';
import { classifier, pathspecs, type Classifier } from '../read/classify.js';
import { RULES, RULE_IDS } from '../rules/index.js';
import type { RawFinding, Rule, TransitionContext } from '../rules/types.js';
import { severityOf } from '../engine/snapshot.js';
import type { Finding } from '../engine/finding.js';
import { eventKey, fileEvents } from './events.js';
import { gitSync } from './git.js';
import { readTrace, parseTrailers, type TraceEntry } from './log.js';
import { BASELINE_FILE, Overlay, Snapshot, TRUST_FILES } from './snapshot.js';
import { ModelStore } from './store.js';
import { jobs } from '../read/parallel.js';
import { agentIdentities, confirmation, type Confirmation } from './trust.js';

export type Stage = TransitionContext['stage'];

export interface HistoryOptions {
  /** The current config: paths to classify files; its preset is used only when the CLI forced one. */
  config: Config;
  presetOverride?: Config['preset'];
}

export interface HistoryResult {
  findings: Finding[];
  commits: number;
  /** Workflow files the judged commits changed. */
  changed?: string[];
  store?: ModelStore;
}

/** The workspace as a commit holds it, for the snapshot findings of a range. */
export function snapshotAt(root: string, commit: string, config: Config, store: ModelStore): Snapshot {
  return new Snapshot(filesAt(root, commit, config, store.classify), store);
}

const ZERO = /^0+$/;

export function newStore(root: string, config: Config): ModelStore {
  return new ModelStore(root, classifier(config.paths), config.maxFileBytes);
}

function relevant(classify: Classifier, path: string): boolean {
  return TRUST_FILES.includes(path) || classify(path) !== null;
}

/** path -> blob of the workflow and trust files in a tree-ish (a commit) or, with null, in the index. */
export function filesAt(root: string, treeish: string | null, config: Config, classify: Classifier): Map<string, string> {
  const specs = [...pathspecs(config.paths), ...TRUST_FILES];
  const res = treeish ? gitSync(root, ['ls-tree', '-r', '-z', '--full-tree', treeish, '--', ...specs]) : gitSync(root, ['ls-files', '-s', '-z', '--', ...specs]);
  const files = new Map<string, string>();
  if (!res.ok) return files;
  for (const rec of res.out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const meta = rec.slice(0, tab).split(' ');
    const path = rec.slice(tab + 1);
    // ls-tree: mode type blob; ls-files -s: mode blob stage.
    const blob = treeish ? meta[2]! : meta[1]!;
    if (!treeish && meta[2] !== '0') continue;
    if (relevant(classify, path)) files.set(path, blob);
  }
  return files;
}

function trustEvents(change: Change, before: Snapshot, after: Snapshot): Event[] {
  if (change.path === CONFIG_FILE) return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'config' }];
  if (change.path === BASELINE_FILE) return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'baseline' }];
  if (change.path === 'package.json') {
    const key = (s: Snapshot) => {
      const blob = s.files.get('package.json');
      if (!blob) return undefined;
      try {
        return JSON.stringify((JSON.parse(s.store.text(blob)) as Record<string, unknown>).validateWorkflow);
      } catch {
        return undefined;
      }
    };
    if (key(before) !== key(after)) return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'config' }];
  }
  return [];
}

/** Events of a set of changes between two snapshots. */
export function eventsBetween(changes: Change[], before: Snapshot, after: Snapshot): Event[] {
  const events: Event[] = [];
  for (const c of changes) {
    if (TRUST_FILES.includes(c.path)) {
      events.push(...trustEvents(c, before, after));
      continue;
    }
    const kind = after.kindOf(c.path) ?? before.kindOf(c.from ?? c.path);
    if (!kind || kind === 'searchable') continue;
    const old = before.model(c.from ?? c.path);
    const now = c.status === 'D' ? null : after.model(c.path);
    if (c.status === 'D' && kind === 'handoff') {
      events.push({ type: 'handoff-deleted', file: c.path, line: 1 });
      continue;
    }
    if (c.status === 'R' && after.kindOf(c.path) !== 'handoff' && before.kindOf(c.from!) === 'handoff') {
      events.push({ type: 'handoff-deleted', file: c.from!, line: 1 });
      continue;
    }
    events.push(...fileEvents(c.path, old, now, c.status === 'R' ? c.from : null));
  }
  return events;
}

/** Changes between two path -> blob maps (no rename detection: used for the index and for merge parents). */
export function diffFiles(before: Map<string, string>, after: Map<string, string>): Change[] {
  const out: Change[] = [];
  for (const [path, blob] of after) {
    const was = before.get(path);
    if (was !== blob) out.push({ status: was ? 'M' : 'A', path, from: null, oldBlob: was ?? null, newBlob: blob });
  }
  for (const [path, blob] of before) if (!after.has(path)) out.push({ status: 'D', path, from: null, oldBlob: blob, newBlob: null });
  return out;
}

export function judgeTransition(
  root: string,
  stage: Stage,
  commit: Commit,
  before: Snapshot,
  after: Snapshot,
  events: Event[],
  opts: HistoryOptions,
  signed: () => boolean,
): Finding[] {
  const trust = before.config(RULE_IDS);
  if (opts.presetOverride) trust.preset = opts.presetOverride;
  const agents: Identity[] = agentIdentities(commit, trust);
  let conf: Confirmation | null = null;
  const ctx: TransitionContext = {
    stage,
    commit,
    events,
    before,
    after,
    agents,
    preset: trust.preset,
    config: trust,
    knownRules: RULE_IDS,
    confirmation: () => (conf ??= confirmation(commit, trust, trust.preset, signed)),
  };
  const out: Finding[] = [];
  for (const rule of RULES as Rule[]) {
    if (!rule.transition) continue;
    const level = severityOf(rule, trust);
    if (level === 'off') continue;
    for (const raw of rule.transition(ctx)) out.push(toFinding(rule, raw, level, commit));
  }
  return out;
}

function toFinding(rule: Rule, raw: RawFinding, level: 'warn' | 'error', commit: Commit | null): Finding {
  const f: Finding = {
    ruleId: rule.meta.id,
    severity: raw.info ? 'info' : level === 'error' ? 'error' : 'warning',
    file: raw.file,
    line: raw.line,
    column: raw.column ?? (raw.line === null ? null : 1),
    message: raw.message,
    fix: raw.fix ?? rule.meta.fix,
  };
  if (commit && commit.sha) {
    f.commit = commit.sha;
    f.subject = commit.subject;
  }
  return f;
}

export function incomplete(message: string): Finding {
  const rule = RULES.find((r) => r.meta.id === 'history/incomplete')!;
  return { ruleId: rule.meta.id, severity: 'error', file: null, line: null, column: null, message, fix: rule.meta.fix };
}

function verifyCommit(root: string, sha: string): boolean {
  return gitSync(root, ['verify-commit', sha]).ok;
}

/**
 * Fold the transition over the trace of `to` (HEAD by default), or of the commits in `from..to` starting from the
 * model at merge-base(from, to).
 */
export async function judgeHistory(root: string, opts: HistoryOptions & { from?: string | null; to?: string }): Promise<HistoryResult> {
  const to = opts.to ?? 'HEAD';
  if (!gitSync(root, ['rev-parse', '--verify', '-q', `${to}^{commit}`]).ok) {
    // No commits yet (or an unborn branch): history starts empty and there is nothing to judge.
    if (to === 'HEAD') return { findings: [], commits: 0 };
    return { findings: [incomplete(`The range end ${to} is not a commit in this repository.`)], commits: 0 };
  }
  if (gitSync(root, ['rev-parse', '--is-shallow-repository']).out.trim() === 'true') {
    return { findings: [incomplete('This is a shallow clone: the history rules cannot judge commits they cannot see.')], commits: 0 };
  }
  const config = opts.config;
  const store = newStore(root, config);
  const revs = [to];
  let initial = new Map<string, string>();
  let initialSha: string | null = null;
  if (opts.from && !ZERO.test(opts.from)) {
    if (!gitSync(root, ['rev-parse', '--verify', '-q', `${opts.from}^{commit}`]).ok) {
      return { findings: [incomplete(`The range base ${opts.from} is not in this repository (fetch it, or fetch the whole history).`)], commits: 0 };
    }
    const base = gitSync(root, ['merge-base', opts.from, to]);
    if (base.ok) {
      const sha = base.out.trim();
      revs.push(`^${sha}`);
      initial = filesAt(root, sha, config, store.classify);
      initialSha = sha;
    }
  }
  const trace = await readTrace(root, revs, [...pathspecs(config.paths), ...TRUST_FILES]);
  const refs = [
    ...[...initial].map(([path, blob]) => ({ path, blob })),
    ...trace.flatMap((t) => t.changes.filter((c) => c.newBlob).map((c) => ({ path: c.path, blob: c.newBlob! }))),
  ];
  await store.loadParallel(refs, jobs(refs.length));
    const changed = [...new Set(trace.flatMap((t) => t.changes.map((c) => c.path)))].filter((p) => store.classify(p));
  return { findings: fold(root, trace, initialSha, initial, store, opts), commits: trace.length, changed, store };
}

function fold(root: string, trace: TraceEntry[], initialSha: string | null, initial: Map<string, string>, store: ModelStore, opts: HistoryOptions): Finding[] {
  const children = new Map<string, number>();
  const inTrace = new Set(trace.map((t) => t.commit.sha));
  for (const t of trace) for (const p of t.commit.parents) if (inTrace.has(p)) children.set(p, (children.get(p) ?? 0) + 1);
  const states = new Map<string, Map<string, string>>();
  // A parent outside the trace (the range base, or a commit an earlier run judged) is read from git once.
  const outside = new Map<string, Map<string, string>>();
  const stateOf = (sha: string | undefined): Map<string, string> => {
    if (!sha) return new Map();
    const known = states.get(sha) ?? outside.get(sha);
    if (known) return known;
    const files = sha === initialSha ? initial : filesAt(root, sha, opts.config, store.classify);
    outside.set(sha, files);
    return files;
  };
  const release = (sha: string) => {
    const left = (children.get(sha) ?? 0) - 1;
    children.set(sha, left);
    if (left <= 0) states.delete(sha);
  };

  const findings: Finding[] = [];
  for (const { commit, changes } of trace) {
    const first = commit.parents[0];
    const base = stateOf(first);
    const top = new Map<string, string | undefined>();
    for (const c of changes) {
      if (c.from) top.set(c.from, undefined);
      top.set(c.path, c.newBlob && relevant(store.classify, c.path) ? c.newBlob : undefined);
    }
    const beforeSnap = new Snapshot(base, store);
    const afterSnap = new Snapshot(new Overlay(base, top), store);
    let events = eventsBetween(changes, beforeSnap, afterSnap);
    // A merge has events only where it differs from every parent (git's combined diff).
    for (const other of commit.parents.slice(1)) {
      const otherState = stateOf(other);
      const otherSnap = new Snapshot(otherState, store);
      const keys = new Set(eventsBetween(diffFiles(otherState, new Map([...afterSnap.files.keys()].map((k) => [k, afterSnap.files.get(k)!]))), otherSnap, afterSnap).map(eventKey));
      events = events.filter((e) => keys.has(eventKey(e)));
    }
    if (events.length) findings.push(...judgeTransition(root, 'history', commit, beforeSnap, afterSnap, events, opts, () => verifyCommit(root, commit.sha)));
    // Reuse the parent's map when this commit is its only remaining child; copy when branches share it.
    const next = first && states.has(first) && children.get(first) === 1 ? base : new Map(base);
    for (const [path, blob] of top) {
      if (blob === undefined) next.delete(path);
      else next.set(path, blob);
    }
    for (const p of commit.parents) if (inTrace.has(p)) release(p);
    if ((children.get(commit.sha) ?? 0) > 0) states.set(commit.sha, next);
  }
  return findings;
}

function identity(root: string, variable: 'GIT_AUTHOR_IDENT' | 'GIT_COMMITTER_IDENT'): Identity {
  const raw = gitSync(root, ['var', variable]).out.trim();
  const lt = raw.indexOf('<');
  const gt = raw.indexOf('>', lt);
  return lt < 0 ? { name: raw, email: '' } : { name: raw.slice(0, lt).trim(), email: raw.slice(lt + 1, gt) };
}

export interface PendingResult extends HistoryResult {
  /** Paths the pending commit changes, so snapshot findings can be limited to them. */
  changed: string[];
  after: Snapshot;
}

/**
 * The commit being made: HEAD's model -> the index's model. For commit-msg, `message` carries the trailers.
 */
export function judgePending(root: string, opts: HistoryOptions & { stage: 'staged' | 'commit-msg'; message?: string }): PendingResult {
  const config = opts.config;
  const store = newStore(root, config);
  const hasHead = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).ok;
  const beforeFiles = hasHead ? filesAt(root, 'HEAD', config, store.classify) : new Map<string, string>();
  const afterFiles = filesAt(root, null, config, store.classify);
  const changes = diffFiles(beforeFiles, afterFiles);
  const before = new Snapshot(beforeFiles, store);
  const after = new Snapshot(afterFiles, store);
  store.load(changes.flatMap((c) => [c.oldBlob ? { path: c.path, blob: c.oldBlob } : null, c.newBlob ? { path: c.path, blob: c.newBlob } : null]).filter((x): x is { path: string; blob: string } => x !== null));
  const message = opts.message ?? '';
  const trailers = message ? parseTrailers(gitSync(root, ['interpret-trailers', '--parse'], message).out) : [];
  const commit: Commit = {
    sha: '',
    parents: hasHead ? [gitSync(root, ['rev-parse', 'HEAD']).out.trim()] : [],
    author: identity(root, 'GIT_AUTHOR_IDENT'),
    committer: identity(root, 'GIT_COMMITTER_IDENT'),
    time: Math.floor(Date.now() / 1000),
    subject: message.split('\n')[0] ?? '',
    trailers,
  };
  const events = eventsBetween(changes, before, after);
  // The commit does not exist yet, so its signature can only be promised: commit.gpgSign must be on.
  const willSign = () => gitSync(root, ['config', '--bool', 'commit.gpgsign']).out.trim() === 'true';
  const findings = events.length ? judgeTransition(root, opts.stage, commit, before, after, events, opts, willSign) : [];
  return { findings, commits: 0, changed: changes.map((c) => c.path), after };
}
