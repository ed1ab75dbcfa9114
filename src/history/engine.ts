// One engine, three doors: the fold over the trace (full history or a range), the pre-commit transition (HEAD ->
// index) and the commit-msg transition (the same, with the message's trailers). Every door runs the same
// transition function: (snapshot before, snapshot after, commit) -> findings.
import { performance } from 'node:perf_hooks';
import { CONFIG_FILE, type Config } from '../config/config.js';
import type { Change, Commit, Event, Identity, TimelineEntry } from '../model/history.js';
import type { WorkflowFile } from '../model/types.js';
import { classifier, pathspecs, type Classifier } from '../read/classify.js';
import { RULES, RULE_IDS } from '../engine/catalog.js';
import type { Rule, TransitionContext } from '../rules/types.js';
import { severityOf, toFinding } from '../engine/snapshot.js';
import type { Finding } from '../engine/finding.js';
import { diffFiles, eventKey, eventsBetween, fileEvents } from './events.js';
import { gitSync } from '../shared/git.js';
import { parseRaw, readTrace, parseTrailers, type TraceEntry } from './log.js';
import { BASELINE_FILE, Overlay, Snapshot, TRUST_FILES } from './snapshot.js';
import { ModelStore, key } from './store.js';
import { jobs } from '../read/parallel.js';
import { agentIdentities, confirmation, parseIdentity, type Confirmation } from './trust.js';

export type Stage = TransitionContext['stage'];

export interface HistoryOptions {
  /** The current config: paths to classify files; its preset is used only when the CLI forced one. */
  config: Config;
  presetOverride?: Config['preset'];
  /** Models already parsed (the working tree, the cache), by `blob:path`. */
  seed?: Map<string, WorkflowFile>;
  /** An earlier run judged history up to `sha`: continue from there. */
  since?: { sha: string; state: Map<string, string>; findings: Finding[]; commits: number; timeline?: TimelineEntry[] };
}

export interface HistoryResult {
  findings: Finding[];
  commits: number;
  /** Workflow files the judged commits changed. */
  changed?: string[];
  store?: ModelStore;
  /** path -> blob after the last judged commit. */
  state?: Map<string, string>;
  /** Task completions and manual check-offs with their commits, for the review report. */
  timeline?: TimelineEntry[];
}

/** The workspace as a commit holds it, for the snapshot findings of a range. */
export function snapshotAt(root: string, commit: string, config: Config, store: ModelStore): Snapshot {
  return new Snapshot(filesAt(root, commit, config, store.classify), store);
}

const ZERO = /^0+$/;
/** New file versions parsed per chunk of the fold. */
const CHUNK = 1500;
/** A chunk smaller than a worker's threshold is still worth the pool once the pool is running. */
const PARALLEL_ANYWAY = 1000;


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
    confirmation: () => (conf ??= strictOnlyManual(confirmation(commit, trust, trust.preset, signed), events, trust.preset)),
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

/** In `strict` a confirmation commit changes nothing but manual checkboxes, so nothing else rides on the human's word. */
function strictOnlyManual(c: Confirmation, events: Event[], preset: Config['preset']): Confirmation {
  if (!c.ok || preset !== 'strict') return c;
  const other = events.find((e) => !(e.type === 'item-checked' && e.kind === 'manual'));
  if (!other) return c;
  return { ok: false, by: c.by, reason: `in \`strict\` a confirmation commit changes nothing but manual checkboxes, and this one also has a ${other.type} event in ${other.file}` };
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
  for (const [k, m] of opts.seed ?? []) store.seed.set(k, m);
  const revs = [to];
  let initial = new Map<string, string>();
  let initialSha: string | null = null;
  if (opts.since && !opts.from) {
    revs.push(`^${opts.since.sha}`);
    initial = opts.since.state;
    initialSha = opts.since.sha;
  }
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
  const timing = process.env.VALIDATE_WORKFLOW_TIMING ? (label: string, ms: number) => process.stderr.write(`timing ${label}: ${ms.toFixed(0)} ms\n`) : () => {};
  let t0 = performance.now();
  const trace = await readTrace(root, revs, [...pathspecs(config.paths), ...TRUST_FILES]);
  timing(`trace (${trace.length} commits)`, performance.now() - t0);
  const folder = new Folder(root, trace, initialSha, initial, store, opts);
  // Parse and fold in chunks: each chunk's new contents are parsed on every core, then folded, then the models no
  // live snapshot refers to are dropped, so memory stays bounded by the workspace, not by the history.
  const initialRefs = [...initial].map(([path, blob]) => ({ path, blob }));
  let parseMs = 0;
  let foldMs = 0;
  let i = 0;
  let parsed = 0;
  while (i < trace.length) {
    const refs: { path: string; blob: string }[] = i === 0 ? initialRefs : [];
    let j = i;
    while (j < trace.length && refs.length < CHUNK) {
      for (const c of trace[j]!.changes) if (c.newBlob) refs.push({ path: c.path, blob: c.newBlob });
      j++;
    }
    let t = performance.now();
    parsed += await store.loadParallel(refs, jobs(Math.max(refs.length, trace.length > CHUNK ? PARALLEL_ANYWAY : 0)));
    parseMs += performance.now() - t;
    t = performance.now();
    for (; i < j; i++) folder.step(trace[i]!);
    store.retain(folder.liveKeys());
    foldMs += performance.now() - t;
  }
  await store.close();
  timing(`parse (${parsed} distinct versions)`, parseMs);
  timing('fold and rules', foldMs);
  const changed = [...new Set(trace.flatMap((t) => t.changes.map((c) => c.path)))].filter((p) => store.classify(p));
  const findings = folder.findings;
  const state = trace.length ? folder.last : initial;
  if (opts.since && !opts.from) {
    const s = opts.since;
    return { findings: [...s.findings, ...findings], commits: s.commits + trace.length, changed, store, state, timeline: [...(s.timeline ?? []), ...folder.timeline] };
  }
  return { findings, commits: trace.length, changed, store, state, timeline: folder.timeline };
}

/** The fold over the trace, one commit at a time, keeping only the snapshots later commits still need. */
class Folder {
  readonly findings: Finding[] = [];
  readonly timeline: TimelineEntry[] = [];
  private readonly children = new Map<string, number>();
  private readonly inTrace: Set<string>;
  private readonly states = new Map<string, Map<string, string>>();
  // A parent outside the trace (the range base, or a commit an earlier run judged) is read from git once.
  private readonly outside = new Map<string, Map<string, string>>();
  last: Map<string, string> = new Map();

  constructor(
    private readonly root: string,
    trace: TraceEntry[],
    private readonly initialSha: string | null,
    private readonly initial: Map<string, string>,
    private readonly store: ModelStore,
    private readonly opts: HistoryOptions,
  ) {
    this.inTrace = new Set(trace.map((t) => t.commit.sha));
    for (const t of trace) for (const p of t.commit.parents) if (this.inTrace.has(p)) this.children.set(p, (this.children.get(p) ?? 0) + 1);
  }

  private stateOf(sha: string | undefined): Map<string, string> {
    if (!sha) return new Map();
    const known = this.states.get(sha) ?? this.outside.get(sha);
    if (known) return known;
    const files = sha === this.initialSha ? this.initial : filesAt(this.root, sha, this.opts.config, this.store.classify);
    this.outside.set(sha, files);
    return files;
  }

  /** Model keys the snapshots still alive refer to: everything else may leave the store. */
  liveKeys(): Set<string> {
    const live = new Set<string>();
    for (const state of [...this.states.values(), ...this.outside.values(), this.last]) for (const [path, blob] of state) live.add(key(blob, path));
    return live;
  }

  private record(commit: Commit, events: Event[], before: Snapshot): void {
    let conf: Confirmation | null = null;
    let relayed = false;
    for (const e of events) {
      const base = { plan: e.file, commit: commit.sha, subject: commit.subject, author: commit.author };
      if (e.type === 'task-completed' && e.completed) this.timeline.push({ ...base, kind: 'task-completed', phase: e.phase, task: e.task, text: null, confirmedBy: null, relayed: false });
      if (e.type === 'item-checked' && e.kind === 'manual' && e.checked) {
        if (!conf) {
          const trust = before.config(RULE_IDS);
          if (this.opts.presetOverride) trust.preset = this.opts.presetOverride;
          conf = strictOnlyManual(confirmation(commit, trust, trust.preset, () => verifyCommit(this.root, commit.sha)), events, trust.preset);
          relayed = conf.ok && agentIdentities(commit, trust).length > 0;
        }
        this.timeline.push({ ...base, kind: 'manual-checked', phase: e.phase, task: null, text: e.text, confirmedBy: conf.ok ? conf.by : null, relayed });
      }
    }
  }

  step({ commit, changes }: TraceEntry): void {
    const { store, root } = this;
    const first = commit.parents[0];
    const base = this.stateOf(first);
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
      if (events.length === 0) break;
      const otherState = this.stateOf(other);
      const afterFiles = new Map([...afterSnap.files.keys()].map((k) => [k, afterSnap.files.get(k)!]));
      const keys = new Set(eventsBetween(diffFiles(otherState, afterFiles), new Snapshot(otherState, store), afterSnap).map(eventKey));
      events = events.filter((e) => keys.has(eventKey(e)));
    }
    if (events.length) {
      this.findings.push(...judgeTransition(root, 'history', commit, beforeSnap, afterSnap, events, this.opts, () => verifyCommit(root, commit.sha)));
      this.record(commit, events, beforeSnap);
    }
    // Reuse the parent's map when this commit is its only remaining child; copy when branches share it.
    const next = first && this.states.has(first) && this.children.get(first) === 1 ? base : new Map(base);
    for (const [path, blob] of top) {
      if (blob === undefined) next.delete(path);
      else next.set(path, blob);
    }
    for (const p of commit.parents) {
      if (!this.inTrace.has(p)) continue;
      const left = (this.children.get(p) ?? 0) - 1;
      this.children.set(p, left);
      if (left <= 0) this.states.delete(p);
    }
    if ((this.children.get(commit.sha) ?? 0) > 0) this.states.set(commit.sha, next);
    this.last = next;
  }
}

function identity(root: string, variable: 'GIT_AUTHOR_IDENT' | 'GIT_COMMITTER_IDENT'): Identity {
  // `git var` prints `Name <email> timestamp zone`; the identity is the part up to the closing `>`.
  const raw = gitSync(root, ['var', variable]).out.trim();
  return parseIdentity(raw.slice(0, raw.lastIndexOf('>') + 1)) ?? { name: raw, email: '' };
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
  for (const [k, m] of opts.seed ?? []) store.seed.set(k, m);
  const hasHead = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).ok;
  const beforeFiles = hasHead ? filesAt(root, 'HEAD', config, store.classify) : new Map<string, string>();
  const afterFiles = filesAt(root, null, config, store.classify);
  // Renames as the commit will record them (`-M`), so the hooks see what the full run will see afterwards.
  const relevantChange = (c: Change) => relevant(store.classify, c.path) || (c.from !== null && relevant(store.classify, c.from));
  const changes = hasHead
    ? parseRaw(gitSync(root, ['diff', '--cached', '-M', '--raw', '-z', '--no-abbrev', 'HEAD', '--', ...pathspecs(config.paths), ...TRUST_FILES]).out).filter(relevantChange)
    : diffFiles(beforeFiles, afterFiles);
  const before = new Snapshot(beforeFiles, store);
  const after = new Snapshot(afterFiles, store);
  store.load(changes.flatMap((c) => [c.oldBlob ? { path: c.from ?? c.path, blob: c.oldBlob } : null, c.newBlob ? { path: c.path, blob: c.newBlob } : null]).filter((x): x is { path: string; blob: string } => x !== null));
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
