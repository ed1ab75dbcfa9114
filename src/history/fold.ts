// git -> the trace: the commits that touch workflow files (and whatever else the caller tracks: trust files, pack
// files), oldest first, each handed to the caller as (snapshot before, snapshot after, changes, events). This module
// knows nothing of rules: the engine judges each step.
import { performance } from 'node:perf_hooks';
import type { Config } from '../config/config.js';
import type { Change, Commit, Event } from '../model/history.js';
import type { WorkflowFile } from '../model/types.js';
import { classifier, pathspecs, type Classifier } from '../read/classify.js';
import { jobs } from '../read/parallel.js';
import { amending, ask, gitIdentity, gitSync } from '../shared/git.js';
import { parseIdentity } from '../shared/identity.js';
import { diffFiles, eventKey, eventsBetween } from './events.js';
import { messageTrailers, parseRaw, parseTrailers, readTrace, type TraceEntry } from './log.js';
import { Overlay, Snapshot, TRUST_FILES, type ModelSource } from './snapshot.js';
import { ModelStore, key } from './store.js';

/** Files tracked besides the workflow files (pack files): which paths, and the folders to ask git about. */
export interface Tracked {
  match: (path: string) => boolean;
  pathspecs: string[];
}

export const NOTHING_ELSE: Tracked = { match: () => false, pathspecs: [] };

/**
 * What a merge did itself, against one of its other parents: the changes and events where it differs from that
 * parent, and those in files the other side never changed since the merge base (`base`, null without one).
 */
export function mergeOwn(changes: Change[], events: Event[], otherState: Map<string, string>, base: Map<string, string> | null, after: Snapshot, store: ModelSource): { changes: Change[]; events: Event[] } {
  const untouched = (path: string) => base !== null && base.get(path) === otherState.get(path);
  const kept = changes.filter((c) => otherState.get(c.path) !== (c.newBlob ?? undefined) || untouched(c.path));
  if (events.length === 0) return { changes: kept, events };
  const keys = new Set(eventsBetween(diffFiles(otherState, after.fileMap()), new Snapshot(otherState, store), after).map(eventKey));
  return { changes: kept, events: events.filter((e) => keys.has(eventKey(e)) || untouched(e.file)) };
}

/** One commit as the engine judges it. */
export interface Step {
  commit: Commit;
  before: Snapshot;
  after: Snapshot;
  /** Changes against the first parent; for a merge only those that differ from every parent. */
  changes: Change[];
  /** Workflow events of the changes (for a merge, only where it differs from every parent). */
  events: Event[];
  /** Whether the commit carries a good signature (`git verify-commit`), asked only when needed. */
  signed: () => boolean;
}

export interface FoldOptions {
  config: Config;
  tracked?: Tracked;
  /** Models already parsed (the working tree, the cache), by `blob:path`. */
  seed?: Map<string, WorkflowFile>;
  /** An earlier run folded up to `sha` with this path -> blob state: continue from there. */
  since?: { sha: string; state: Map<string, string> };
  /** The range base: fold `from..to` starting from the state at merge-base(from, to). */
  from?: string | null;
  to?: string;
  /** Called for every commit of the trace, oldest first; `events` and `changes` may be empty. */
  onStep: (step: Step) => void;
}

export interface FoldResult {
  commits: number;
  /** Workflow files the folded commits changed. */
  changed: string[];
  store: ModelStore | null;
  /** path -> blob after the last folded commit. */
  state: Map<string, string>;
  /** The commit `to` names (HEAD by default); null without commits. */
  tip: string | null;
  /**
   * Why history could not be folded, as a message name of `history/incomplete` (a shallow clone, a missing range
   * end or base) with the ref it concerns; null when it was folded.
   */
  incomplete: { why: 'shallow' | 'rangeEndMissing' | 'rangeBaseMissing'; ref: string } | null;
}

const ZERO = /^0+$/;
/** New file versions parsed per chunk of the fold. */
const CHUNK = 1500;
/** A chunk smaller than a worker's threshold is still worth the pool once the pool is running. */
const PARALLEL_ANYWAY = 1000;

export function newStore(root: string, config: Config): ModelStore {
  return new ModelStore(root, classifier(config.paths), config.maxFileBytes);
}

function relevantTo(classify: Classifier, tracked: Tracked): (path: string) => boolean {
  return (path) => TRUST_FILES.includes(path) || classify(path) !== null || tracked.match(path);
}

function specsOf(config: Config, tracked: Tracked): string[] {
  return [...new Set([...pathspecs(config.paths), ...TRUST_FILES, ...tracked.pathspecs])];
}

/** path -> blob of the workflow, trust and tracked files in a tree-ish (a commit) or, with null, in the index. */
export function filesAt(root: string, treeish: string | null, config: Config, classify: Classifier, tracked: Tracked = NOTHING_ELSE): Map<string, string> {
  const specs = specsOf(config, tracked);
  const res = treeish ? gitSync(root, ['ls-tree', '-r', '-z', '--full-tree', treeish, '--', ...specs]) : gitSync(root, ['ls-files', '-s', '-z', '--', ...specs]);
  const files = new Map<string, string>();
  if (!res.ok) return files;
  const relevant = relevantTo(classify, tracked);
  for (const rec of res.out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const meta = rec.slice(0, tab).split(' ');
    const path = rec.slice(tab + 1);
    // ls-tree: mode type blob; ls-files -s: mode blob stage.
    const blob = treeish ? meta[2]! : meta[1]!;
    if (!treeish && meta[2] !== '0') continue;
    if (relevant(path)) files.set(path, blob);
  }
  return files;
}

export function verifyCommit(root: string, sha: string): boolean {
  return gitSync(root, ['verify-commit', sha]).ok;
}

/**
 * Fold over the trace of `to` (HEAD by default), or of the commits in `from..to` starting from the model at
 * merge-base(from, to), handing each commit to `onStep`.
 */
export async function foldHistory(root: string, opts: FoldOptions): Promise<FoldResult> {
  const to = opts.to ?? 'HEAD';
  const none = (incomplete: FoldResult['incomplete']): FoldResult => ({ commits: 0, changed: [], store: null, state: new Map(), tip: null, incomplete });
  const tipAt = await ask(root, ['rev-parse', '--verify', '-q', `${to}^{commit}`]);
  if (!tipAt.ok) {
    // No commits yet (or an unborn branch): history starts empty and there is nothing to judge.
    if (to === 'HEAD') return none(null);
    return none({ why: 'rangeEndMissing', ref: to });
  }
  if ((await ask(root, ['rev-parse', '--is-shallow-repository'])).out.trim() === 'true') {
    return none({ why: 'shallow', ref: to });
  }
  const config = opts.config;
  const tracked = opts.tracked ?? NOTHING_ELSE;
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
    if (!(await ask(root, ['rev-parse', '--verify', '-q', `${opts.from}^{commit}`])).ok) {
      return none({ why: 'rangeBaseMissing', ref: opts.from });
    }
    const base = await ask(root, ['merge-base', opts.from, to]);
    if (base.ok) {
      const sha = base.out.trim();
      revs.push(`^${sha}`);
      initial = filesAt(root, sha, config, store.classify, tracked);
      initialSha = sha;
    }
  }
  const timing = process.env.VALIDATE_WORKFLOW_TIMING ? (label: string, ms: number) => process.stderr.write(`timing ${label}: ${ms.toFixed(0)} ms\n`) : () => {};
  let t0 = performance.now();
  const trace = await readTrace(root, revs, specsOf(config, tracked));
  timing(`trace (${trace.length} commits)`, performance.now() - t0);
  const folder = new Folder(root, trace, initialSha, initial, store, config, tracked, opts.onStep);
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
  const changed = [...new Set(trace.flatMap((t) => t.changes.map((c) => c.path)))].filter((p) => store.classify(p) || tracked.match(p));
  return { commits: trace.length, changed, store, state: trace.length ? folder.last : initial, tip: tipAt.out.trim(), incomplete: null };
}

/** The fold over the trace, one commit at a time, keeping only the snapshots later commits still need. */
class Folder {
  private readonly children = new Map<string, number>();
  private readonly inTrace: Set<string>;
  private readonly states = new Map<string, Map<string, string>>();
  // A parent outside the trace (the range base, or a commit an earlier run judged) is read from git once.
  private readonly outside = new Map<string, Map<string, string>>();
  private readonly relevant: (path: string) => boolean;
  last: Map<string, string> = new Map();

  constructor(
    private readonly root: string,
    trace: TraceEntry[],
    private readonly initialSha: string | null,
    private readonly initial: Map<string, string>,
    private readonly store: ModelStore,
    private readonly config: Config,
    private readonly tracked: Tracked,
    private readonly onStep: (step: Step) => void,
  ) {
    this.inTrace = new Set(trace.map((t) => t.commit.sha));
    for (const t of trace) for (const p of t.commit.parents) if (this.inTrace.has(p)) this.children.set(p, (this.children.get(p) ?? 0) + 1);
    this.relevant = relevantTo(store.classify, tracked);
  }

  private stateOf(sha: string | undefined): Map<string, string> {
    if (!sha) return new Map();
    const known = this.states.get(sha) ?? this.outside.get(sha);
    if (known) return known;
    const files = sha === this.initialSha ? this.initial : filesAt(this.root, sha, this.config, this.store.classify, this.tracked);
    this.outside.set(sha, files);
    return files;
  }

  private readonly bases = new Map<string, Map<string, string> | null>();

  /** The files at merge-base(a, b), read once per pair; null when the two share no history. */
  private mergeBase(a: string, b: string): Map<string, string> | null {
    const k = `${a} ${b}`;
    if (!this.bases.has(k)) {
      const res = gitSync(this.root, ['merge-base', a, b]);
      this.bases.set(k, res.ok ? filesAt(this.root, res.out.trim(), this.config, this.store.classify, this.tracked) : null);
    }
    return this.bases.get(k)!;
  }

  /** Model keys the snapshots still alive refer to: everything else may leave the store. */
  liveKeys(): Set<string> {
    const live = new Set<string>();
    for (const state of [...this.states.values(), ...this.outside.values(), this.last]) for (const [path, blob] of state) live.add(key(blob, path));
    return live;
  }

  step({ commit, changes }: TraceEntry): void {
    const { store, root } = this;
    const first = commit.parents[0];
    const base = this.stateOf(first);
    const top = new Map<string, string | undefined>();
    for (const c of changes) {
      if (c.from) top.set(c.from, undefined);
      top.set(c.path, c.newBlob && this.relevant(c.path) ? c.newBlob : undefined);
    }
    const before = new Snapshot(base, store);
    const after = new Snapshot(new Overlay(base, top), store);
    let events = eventsBetween(changes, before, after);
    let kept = changes;
    // A merge has events where it differs from every parent (git's combined diff), and also wherever it changes a
    // file the other side never changed since the merge base: then the change is the merge's own, however the
    // branches forked (a side branch from before a file existed must not let the merge delete it unseen).
    for (const other of commit.parents.slice(1)) {
      ({ changes: kept, events } = mergeOwn(kept, events, this.stateOf(other), first ? this.mergeBase(first, other) : null, after, store));
    }
    this.onStep({ commit, before, after, changes: kept, events, signed: () => verifyCommit(root, commit.sha) });
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

// ---------------------------------------------------------------------------------------------------------------
// The commit being made: HEAD -> the index


/**
 * The commit being made, as a step like the fold's: its events are, for a merge in progress, only what the merge
 * does itself, and since the commit does not exist yet its signature can only be promised (commit.gpgSign).
 */
export type Pending = Step;

/** HEAD's snapshot -> the index's, with the commit as it will be made (the message's trailers for commit-msg). */
export function pendingCommit(root: string, config: Config, opts: { message?: string; seed?: Map<string, WorkflowFile>; tracked?: Tracked; amend?: boolean }): Pending {
  const tracked = opts.tracked ?? NOTHING_ELSE;
  const store = newStore(root, config);
  for (const [k, m] of opts.seed ?? []) store.seed.set(k, m);
  const hasHead = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).ok;
  // `git commit --amend` replaces HEAD: the commit being made follows HEAD's parents, so it is judged against them
  // (an agent amending its check-off into the human's confirmation commit is judged as that one commit).
  const amend = hasHead && (opts.amend ?? amending());
  const parentsOfHead = amend ? gitSync(root, ['rev-parse', 'HEAD^@']).out.split('\n').filter(Boolean) : [];
  const base = amend ? (parentsOfHead[0] ?? null) : hasHead ? 'HEAD' : null;
  const beforeFiles = base ? filesAt(root, base, config, store.classify, tracked) : new Map<string, string>();
  const afterFiles = filesAt(root, null, config, store.classify, tracked);
  const relevant = relevantTo(store.classify, tracked);
  // Renames as the commit will record them (`-M`), so the hooks see what the full run will see afterwards.
  const changes = base
    ? parseRaw(gitSync(root, ['diff', '--cached', '-M', '--raw', '-z', '--no-abbrev', base, '--', ...specsOf(config, tracked)]).out).filter((c) => relevant(c.path) || (c.from !== null && relevant(c.from)))
    : diffFiles(beforeFiles, afterFiles);
  // A changed version is parsed here, never taken from the cache: the cache lives in .git/, where anything that can
  // run git can write, and the change being judged is exactly what a poisoned entry would misrepresent.
  for (const c of changes) {
    if (c.oldBlob) store.seed.delete(key(c.oldBlob, c.from ?? c.path));
    if (c.newBlob) store.seed.delete(key(c.newBlob, c.path));
  }
  store.load(changes.flatMap((c) => [c.oldBlob ? { path: c.from ?? c.path, blob: c.oldBlob } : null, c.newBlob ? { path: c.path, blob: c.newBlob } : null]).filter((x): x is { path: string; blob: string } => x !== null));
  const message = opts.message ?? '';
  // Co-author lines outside git's trailer block and a squash's confirmations count as well (history/log.ts).
  const trailers = message ? messageTrailers(parseTrailers(gitSync(root, ['interpret-trailers', '--parse'], message).out), message) : [];
  // A merge in progress (MERGE_HEAD) becomes a merge commit: judged, like the fold judges merges, by what it does
  // itself, not by what the other branch brings (a human's confirmation merged into an agent's branch).
  const head = amend ? (parentsOfHead[0] ?? null) : hasHead ? gitSync(root, ['rev-parse', 'HEAD']).out.trim() : null;
  const merging = hasHead && !amend ? gitSync(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD']) : null;
  const others = amend ? parentsOfHead.slice(1) : merging?.ok ? merging.out.trim().split('\n').filter(Boolean) : [];
  const before = new Snapshot(beforeFiles, store);
  const after = new Snapshot(afterFiles, store);
  let events = eventsBetween(changes, before, after);
  let kept = changes;
  for (const other of others) {
    const base = gitSync(root, ['merge-base', head!, other]);
    const baseFiles = base.ok ? filesAt(root, base.out.trim(), config, store.classify, tracked) : null;
    ({ changes: kept, events } = mergeOwn(kept, events, filesAt(root, other, config, store.classify, tracked), baseFiles, after, store));
  }
  const commit: Commit = {
    sha: '',
    parents: head ? [head, ...others] : [],
    author: gitIdentity(root, 'GIT_AUTHOR_IDENT') ?? { name: '', email: '' },
    committer: gitIdentity(root, 'GIT_COMMITTER_IDENT') ?? { name: '', email: '' },
    time: Math.floor(Date.now() / 1000),
    subject: message.split('\n')[0] ?? '',
    trailers,
  };
  return {
    commit,
    before,
    after,
    changes: kept,
    events,
    signed: () => gitSync(root, ['config', '--bool', 'commit.gpgsign']).out.trim() === 'true',
  };
}

/** The repository's HEAD snapshot (empty without commits), for the Claude Code hook's "before". */
export function headSnapshot(root: string, config: Config, tracked: Tracked = NOTHING_ELSE, seed?: Map<string, WorkflowFile>): Snapshot {
  const store = newStore(root, config);
  for (const [k, m] of seed ?? []) store.seed.set(k, m);
  const hasHead = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).ok;
  return new Snapshot(hasHead ? filesAt(root, 'HEAD', config, store.classify, tracked) : new Map(), store);
}
