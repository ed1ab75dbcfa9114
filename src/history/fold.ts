// git -> the trace: the commits that touch workflow files (and whatever else the caller tracks: trust files, pack
// files), oldest first, each handed to the caller as (snapshot before, snapshot after, changes, events). This module
// knows nothing of rules: the engine judges each step.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Config } from '../config/config.js';
import type { Change, Commit, Event, Trailer } from '../model/history.js';
import { baseless, classifier, pathspecs, type Classifier } from '../read/classify.js';
import { linkTarget } from '../read/paths.js';
import { INSTRUCTION_FOLDERS, INSTRUCTION_PATHSPECS } from '../read/profile.js';
import { jobs } from '../read/parallel.js';
import { amending, ask, COMMIT_ID, gitIdentities, gitSync, headCommit, mergeHeads, readBlobs } from '../shared/git.js';
import { timing } from '../shared/timing.js';
import { relieveMemory } from '../shared/memory.js';
import { diffFiles, eventKey, eventsBetween, movesOut } from './events.js';
import { GITLINK_MODE, LINK_MODE, isLinkValue, linkValue, parseLink } from './links.js';
import { mayHoldTrailerBlock, messageTrailers, parseRaw, parseTrailers, readTrace, type TraceEntry } from './log.js';
import { NOTHING_ELSE, Sight, learned, type Learned, type Tracked } from './sight.js';
import { Overlay, Snapshot, TRUST_FILES, type FileMap, type ModelSource } from './snapshot.js';
import { ModelStore, key, knowWorkingTree, type KnownModels } from './store.js';
import { expectCommits } from './trust.js';

export { NOTHING_ELSE, Sight, type Tracked };

/**
 * What a merge did itself, against one of its other parents: the changes and events where it differs from that
 * parent, and those in files the other side never changed since the merge base (`base`, null without one).
 */
export function mergeOwn(
  changes: Change[],
  events: Event[],
  otherState: Map<string, string>,
  base: Map<string, string> | null,
  after: Snapshot,
  store: ModelSource,
): { changes: Change[]; events: Event[] } {
  const untouched = (path: string) => base !== null && base.get(path) === otherState.get(path);
  const kept = changes.filter((c) => otherState.get(c.path) !== (c.newBlob ?? undefined) || untouched(c.path));
  if (events.length === 0) return { changes: kept, events };
  const keys = new Set(
    eventsBetween(diffFiles(otherState, after.fileMap()), new Snapshot(otherState, store), after).map(eventKey),
  );
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
  seed?: KnownModels;
  /** An earlier run folded up to `sha` with this path -> blob state: continue from there. */
  since?: { sha: string; state: Map<string, string> };
  /** The range base: fold `from..to` starting from the state at merge-base(from, to). */
  from?: string | null;
  /** merge-base(from, to) when the caller asked git already (null: none), so it is not asked again. */
  fork?: string | null;
  to?: string;
  /**
   * HEAD's commit (null without commits) and whether the clone is shallow, when the caller asked git already in the
   * process that found the repository (engine/run.ts scopeOf): used only when `to` is HEAD.
   */
  head?: { sha: string | null; shallow: boolean };
  /**
   * Called with each round's trace once it is read, before its first step: what the walk already says (which commits
   * it holds, their parents, the paths each changed) need not be asked of git again. `full`: the walk is all of
   * `to`'s history (no range base, no earlier run's end).
   */
  onTrace?: (trace: readonly TraceEntry[], full: boolean) => void | Promise<void>;
  /** Called for every commit of the trace, oldest first; `events` and `changes` may be empty. */
  onStep: (step: Step) => void;
  /**
   * The fold learned of a plan named outside the globs, or of a link's target, that it did not read: it starts over
   * with them in sight, and the caller forgets what the steps so far told it.
   */
  onRestart?: () => void;
  /**
   * Whether a merge's other parent vouches for what it brings: only a parent whose commits were judged themselves
   * (a descendant of the adoption point) does; what an orphan branch or a branch cut before adoption brings is the
   * merge's own change, judged against its first parent (convention section 6, round 3). Default: every parent.
   */
  vouches?: (sha: string) => boolean;
  /** New file versions parsed per chunk (tests make it small). */
  chunk?: number;
  /** How far the fold is (for a progress line): commits folded of the trace's, file versions parsed. */
  onProgress?: (p: { commits: number; total: number; parsed: number }) => void;
}

export interface FoldResult {
  commits: number;
  /** Workflow files the folded commits changed. */
  changed: string[];
  store: ModelStore | null;
  /** path -> blob after the last folded commit. */
  state: Map<string, string>;
  /** What the fold read: the globs and the named plans (`store.classify`), and `tracked` with the link targets. */
  sight: Sight | null;
  tracked: Tracked;
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

export function newStore(root: string, config: Config, sight: Sight = new Sight(classifier(config.paths))): ModelStore {
  return new ModelStore(root, sight.classify, config.maxFileBytes);
}

function relevantTo(classify: Classifier, tracked: Tracked): (path: string) => boolean {
  return (path) => TRUST_FILES.includes(path) || classify(path) !== null || tracked.match(path);
}

/** What git is asked about: the workflow, trust and tracked files; none (the whole tree) where a glob has no folder. */
export function specsOf(config: Config, tracked: Tracked): string[] {
  if (baseless(config.paths) || tracked.baseless) return [];
  return [...new Set([...pathspecs(config.paths), ...TRUST_FILES, ...tracked.pathspecs])];
}

/**
 * path -> blob of the workflow, trust and tracked files in a tree-ish (a commit) or, with null, in the index. A
 * workflow file stored as a symbolic link holds its link value (history/links.ts): the target as the same tree holds it.
 * `listed` asks git for more than `tracked` keeps (see lsTree).
 */
export function filesAt(
  root: string,
  treeish: string | null,
  config: Config,
  classify: Classifier,
  tracked: Tracked = NOTHING_ELSE,
  listed: Tracked = tracked,
  listing?: Listing,
  index?: string,
): Map<string, string> {
  const specs = specsOf(config, listed);
  const known = !treeish && index !== undefined ? underSpecs(index, specs) : null;
  const res = treeish
    ? lsTree(root, treeish, specs)
    : known !== null
      ? { ok: true, out: known }
      : gitSync(root, ['ls-files', '-s', '-z', '--', ...specs]);
  const files = new Map<string, string>();
  if (!res.ok) {
    if (listing) listing.failed = true;
    return files;
  }
  if (listing) listing.text = res.out;
  const relevant = relevantTo(classify, tracked);
  const links: { path: string; blob: string }[] = [];
  for (const record of recordsOf(res.out, treeish !== null)) {
    const { path, mode, blob, merged } = record;
    if (listing && mode === LINK_MODE) listing.links = true;
    if (!merged) {
      if (listing) listing.unmerged = true;
      continue;
    }
    listing?.entries.set(path, record);
    if (!relevant(path)) continue;
    if (mode === LINK_MODE && workflowFile(classify, path)) links.push({ path, blob });
    else files.set(path, blob);
  }
  if (links.length > 0) {
    const texts = readBlobs(
      root,
      links.map((l) => l.blob),
    );
    const linked = links.map((l) => ({ path: l.path, text: texts.get(l.blob)?.toString('utf8') ?? '' }));
    const targets = entriesAt(
      root,
      treeish,
      linked.flatMap((l) => linkTarget(l.path, l.text) ?? []),
    );
    for (const l of linked) {
      const value = followLink(l.path, l.text, (t) => targets.get(t));
      if (value !== undefined) files.set(l.path, value);
    }
  }
  return files;
}

interface ListedRecord {
  path: string;
  mode: string;
  blob: string;
  /** Stage 0 of the index (always for a tree). */
  merged: boolean;
}

/** The last listing read: HEAD's is read twice per commit (its trust settings, the change), from the same answer. */
let lastRecords: { out: string; tree: boolean; records: ListedRecord[] } | null = null;

/** The records of `git ls-tree -r -z` (`tree`) or `git ls-files -s -z`. */
function recordsOf(out: string, tree: boolean): ListedRecord[] {
  if (lastRecords?.out === out && lastRecords.tree === tree) return lastRecords.records;
  const records: ListedRecord[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    // ls-tree: mode type blob; ls-files -s: mode blob stage. By position, not split: a door reads thousands.
    const tab = rec.indexOf('\t');
    const first = rec.indexOf(' ');
    const second = rec.indexOf(' ', first + 1);
    records.push({
      path: rec.slice(tab + 1),
      mode: rec.slice(0, first),
      blob: tree ? rec.slice(second + 1, tab) : rec.slice(first + 1, second),
      merged: tree || (tab === second + 2 && rec.charCodeAt(second + 1) === 48),
    });
  }
  lastRecords = { out, tree, records };
  return records;
}

/**
 * The records of a whole-index listing (`git ls-files --stage -z`, asked once per door for the handover's key) that
 * `git ls-files -s -z -- <specs>` would print, in the same order: a path equal to a spec or under it as a folder.
 * null when a spec is more than a plain path or `:(literal)` one (a wildcard, other magic, `.` or `..` parts): git is
 * asked then. git reads these pathspecs in no environment's way (shared/git.ts gitEnv), as this does. The pre-commit
 * door starts one git process less.
 */
export function underSpecs(index: string, specs: readonly string[]): string | null {
  // No pathspec lists the whole index in git, nothing here: left to git rather than answered wrong.
  if (specs.length === 0) return null;
  const plain: string[] = [];
  for (const spec of specs) {
    const path = spec.startsWith(':(literal)') ? spec.slice(':(literal)'.length) : spec;
    if (path === '' || /[*?[\\]/.test(path) || (path === spec && path.startsWith(':'))) return null;
    if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
    plain.push(path);
  }
  const out: string[] = [];
  for (const rec of index.split('\0')) {
    if (!rec) continue;
    const path = rec.slice(rec.indexOf('\t') + 1);
    if (plain.some((p) => path === p || (path.startsWith(p) && path[p.length] === '/'))) out.push(rec);
  }
  return out.length === 0 ? '' : `${out.join('\0')}\0`;
}

/** A listing of filesAt as git gave it, before any filter: each path's mode and blob. */
export interface Listing {
  entries: Map<string, { mode: string; blob: string }>;
  /** The index holds a conflict (an entry of another stage than 0). */
  unmerged: boolean;
  /** git could not list it. */
  failed: boolean;
  /** What git printed, as it printed it (a commit's listing: `ls-tree`'s text). */
  text?: string;
  /** A record is a symbolic link: what it reads depends on files outside the listing. */
  links?: boolean;
  /** commitListingDigest's answer, asked of HEAD's listing by the sight and again for its snapshot's name. */
  digest?: string | null;
}

const newListing = (): Listing => ({ entries: new Map(), unmerged: false, failed: false });

/** The digest a commit's listing is known by: of `git ls-tree -r -z`'s text (treeListingDigest). */
const listingDigest = (text: string) => createHash('sha1').update(text).digest('hex');

/** A record of `git ls-files -s -z` at stage 0, as `<mode> <id> 0\t`: its fields, and the NUL that ends the last. */
const INDEX_RECORD = /(^|\0)(\d{6}) ([0-9a-f]+) 0\t/g;
const GITLINK_RECORD = new RegExp(`(^|\0)${GITLINK_MODE} blob `, 'g');

/**
 * The digest of what `git ls-tree -r -z` prints of the commit made from a listed index (`git ls-files -s -z`), over
 * the same pathspecs: the same records in the same order (a tree's recursive order is the index's, the paths'
 * bytes), each written as `<mode> <type> <id>\t<path>\0`. Rewritten by two replacements of the whole text, not
 * record by record: this is asked on every commit, of thousands of records. null where the commit's listing cannot
 * be told from the index's, or its files from the listing: a conflict, an empty blob HEAD (`head`) does not hold at
 * that path (it may be an intent-to-add entry, which the commit does not record), a symbolic link (what it reads
 * depends on files outside the listing).
 */
export function treeListingDigest(listing: Listing, head: Listing): string | null {
  const text = listing.text;
  if (text === undefined || listing.failed || listing.unmerged || listing.links) return null;
  // An empty file HEAD holds as it is (a folder's `.gitkeep`, which init writes) is the commit's too, as pendingCommit
  // reads it; any other empty blob may be an intent-to-add entry.
  for (const [, blob, path] of text.matchAll(EMPTY_RECORD))
    if (head.failed || head.entries.get(path!)?.blob !== blob) return null;
  let tree = text.replace(INDEX_RECORD, '$1$2 blob $3\t');
  if (tree.includes(`${GITLINK_MODE} blob `)) tree = tree.replace(GITLINK_RECORD, `$1${GITLINK_MODE} commit `);
  return listingDigest(tree);
}

/** The digest of a commit's listing (`ls-tree`'s text) as treeListingDigest spells it; null as that says. */
function commitListingDigest(listing: Listing): string | null {
  const text = listing.text;
  if (listing.digest === undefined)
    listing.digest = text === undefined || listing.failed || listing.links ? null : listingDigest(text);
  return listing.digest;
}

/** The empty blob, SHA-1 and SHA-256: what `git add -N` stages, an entry `git diff --cached` does not show. */
const EMPTY_BLOBS = new Set([
  'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
  '473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813',
]);
/** A record of `git ls-files -s -z` with the empty blob: its blob and path. */
const EMPTY_RECORD = new RegExp(`(?:^|\0)\\d{6} (${[...EMPTY_BLOBS].join('|')}) 0\t([^\0]*)`, 'g');

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * What `git diff --cached -M --raw` of the listed commit against the listed index says (as parseRaw reads it),
 * computed from the two listings the pending commit is judged with, when git's answer is certain without asking it:
 * no path deleted while another is added (nothing for -M to pair), no conflict, no submodule, no empty blob added
 * (an intent-to-add entry, which `diff --cached` leaves out). null: ask git. Every commit through the hooks starts
 * one process less, and a diff of the index is one of the slower ones.
 */
function listedDiff(before: Listing, after: Listing): Change[] | null {
  if (before.failed || after.failed || after.unmerged) return null;
  const out: Change[] = [];
  for (const [path, was] of before.entries) {
    const now = after.entries.get(path);
    if (now && now.blob === was.blob && now.mode === was.mode) continue;
    if (was.mode === GITLINK_MODE || now?.mode === GITLINK_MODE) return null;
    // The empty blob may be an intent-to-add entry over a path HEAD holds (`git rm --cached`, then `git add -N`),
    // which git shows as a deletion: git says.
    if (now && EMPTY_BLOBS.has(now.blob)) return null;
    const link = now?.mode === LINK_MODE ? { link: true } : {};
    out.push(
      now
        ? { status: 'M', path, from: null, oldBlob: was.blob, newBlob: now.blob, ...link }
        : { status: 'D', path, from: null, oldBlob: was.blob, newBlob: null },
    );
  }
  const deleted = out.some((c) => c.status === 'D');
  for (const [path, now] of after.entries) {
    if (before.entries.has(path)) continue;
    if (deleted || now.mode === GITLINK_MODE || EMPTY_BLOBS.has(now.blob)) return null;
    out.push({
      status: 'A',
      path,
      from: null,
      oldBlob: null,
      newBlob: now.blob,
      ...(now.mode === LINK_MODE ? { link: true } : {}),
    });
  }
  // git lists a diff of the index in the index's order: the paths' bytes.
  return out.sort((a, b) => byBytes(a.path, b.path));
}

/**
 * The last listing of a commit named by its id: a commit's tree never changes, and the pre-commit door lists HEAD for
 * its trust settings (headTrustSnapshot, asking for what pendingCommit will track) and again for the change: one git
 * process per commit less.
 */
let lastTree: { key: string; res: ReturnType<typeof gitSync> } | null = null;

/** The listing's question and its memo key, one pair for lsTree and listHeadAhead: the two must ask alike to meet. */
const lsTreeArgs = (treeish: string, specs: readonly string[]) => [
  'ls-tree',
  '-r',
  '-z',
  '--full-tree',
  treeish,
  '--',
  ...specs,
];
const lsTreeKey = (root: string, treeish: string, specs: readonly string[]) => JSON.stringify([root, treeish, specs]);

function lsTree(root: string, treeish: string, specs: string[]): ReturnType<typeof gitSync> {
  const id = COMMIT_ID.test(treeish);
  const k = lsTreeKey(root, treeish, specs);
  if (id && lastTree?.key === k) return lastTree.res;
  const res = gitSync(root, lsTreeArgs(treeish, specs));
  if (id && res.ok) lastTree = { key: k, res };
  return res;
}

/**
 * The listing headTrustSnapshot asks for (the same commit, config and `listed`), asked without waiting: the pending
 * commit's doors ask git their first questions at once (engine/handover.ts handoverKey), and this one, the slowest of
 * them on a repository of thousands of workflow files, runs beside them instead of after them. lsTree then finds it.
 */
export async function listHeadAhead(
  root: string,
  head: string,
  config: Config,
  listed: Tracked = NOTHING_ELSE,
): Promise<void> {
  if (!COMMIT_ID.test(head)) return;
  const specs = specsOf(config, listed);
  const res = await ask(root, lsTreeArgs(head, specs));
  if (res.ok) lastTree = { key: lsTreeKey(root, head, specs), res: { ...res, status: 0, err: '' } };
}

const workflowFile = (classify: Classifier, path: string) => {
  const kind = classify(path)?.kind;
  return kind !== undefined && kind !== 'searchable';
};

/** These paths' entries (mode and blob) in a tree-ish or the index; folders and missing paths are left out. */
function entriesAt(root: string, treeish: string | null, paths: string[]): Map<string, { mode: string; blob: string }> {
  const out = new Map<string, { mode: string; blob: string }>();
  if (paths.length === 0) return out;
  const literal = [...new Set(paths)].map((p) => `:(literal)${p}`);
  const res = treeish
    ? gitSync(root, ['ls-tree', '-z', '--full-tree', treeish, '--', ...literal])
    : gitSync(root, ['ls-files', '-s', '-z', '--', ...literal]);
  for (const rec of res.ok ? res.out.split('\0') : []) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const meta = rec.slice(0, tab).split(' ');
    if (!treeish && meta[2] !== '0') continue;
    if (treeish && meta[1] !== 'blob') continue;
    out.set(rec.slice(tab + 1), { mode: meta[0]!, blob: treeish ? meta[2]! : meta[1]! });
  }
  return out;
}

/**
 * The value of a workflow file stored as a link with this text, its target looked up by `entry` (the same tree's
 * entry, or the fold's state): the target's blob when it is a file inside the repository; not followed when the
 * link leaves the repository or points at another link; undefined (no file at all) when the target is missing.
 */
function followLink(
  path: string,
  text: string,
  entry: (target: string) => { mode: string; blob: string } | undefined,
): string | undefined {
  const target = linkTarget(path, text);
  if (target === null) return linkValue(null, text);
  const e = entry(target);
  if (!e) return undefined;
  return linkValue(e.mode === LINK_MODE ? null : e.blob, text);
}

export function verifyCommit(root: string, sha: string): boolean {
  return gitSync(root, ['verify-commit', sha]).ok;
}

/**
 * Fold over the trace of `to` (HEAD by default), or of the commits in `from..to` starting from the model at
 * merge-base(from, to), handing each commit to `onStep`.
 *
 * A plan named outside the globs, or a link's target, is only known once a ledger, handoff or link that names it is
 * read, and the trace (one `git log` over the paths in sight) is read before any of them. So a round that learns of
 * such a path folds again from the start with the path in sight (`onRestart` tells the caller): every commit is
 * then judged with the whole history's named plans and targets in sight, the first commit that touches them
 * included, at the full run and in a range alike. Repositories without such paths fold once.
 */
export async function foldHistory(root: string, opts: FoldOptions): Promise<FoldResult> {
  const to = opts.to ?? 'HEAD';
  const none = (incomplete: FoldResult['incomplete']): FoldResult => ({
    commits: 0,
    changed: [],
    store: null,
    state: new Map(),
    sight: null,
    tracked: opts.tracked ?? NOTHING_ELSE,
    tip: null,
    incomplete,
  });
  const known = to === 'HEAD' ? opts.head : undefined;
  let at = known;
  if (!at) {
    // One process for both questions: git prints whether the clone is shallow, then the commit `to` names.
    const res = await ask(root, ['rev-parse', '--is-shallow-repository', '--verify', '-q', `${to}^{commit}`]);
    const [shallow, sha] = res.out.split('\n');
    at = { sha: res.ok ? sha!.trim() : null, shallow: shallow === 'true' };
  }
  const tip = at.sha;
  if (tip === null) {
    // No commits yet (or an unborn branch): history starts empty and there is nothing to judge.
    if (to === 'HEAD') return none(null);
    return none({ why: 'rangeEndMissing', ref: to });
  }
  if (at.shallow) {
    return none({ why: 'shallow', ref: to });
  }
  let base: string | null = null;
  if (opts.from && !ZERO.test(opts.from)) {
    if (!(await ask(root, ['rev-parse', '--verify', '-q', `${opts.from}^{commit}`])).ok) {
      return none({ why: 'rangeBaseMissing', ref: opts.from });
    }
    if (opts.fork !== undefined) base = opts.fork;
    else {
      const mb = await ask(root, ['merge-base', opts.from, to]);
      if (mb.ok) base = mb.out.trim();
    }
  }
  const sight = new Sight(classifier(opts.config.paths));
  // The walk ends at the commit reported as the tip: HEAD as the caller saw it, even if a commit lands meanwhile.
  const end = known ? tip : to;
  for (;;) {
    const round = await foldRound(root, opts, end, base, sight);
    if (!sight.grow(round.learned)) return { ...round.result, tip };
    opts.onRestart?.();
  }
}

/** One pass of the fold with what is in sight; `learned` holds what it met that was not. */
async function foldRound(
  root: string,
  opts: FoldOptions,
  to: string,
  base: string | null,
  sight: Sight,
): Promise<{ result: FoldResult; learned: Learned }> {
  const config = opts.config;
  const tracked = sight.tracked(opts.tracked ?? NOTHING_ELSE);
  const store = newStore(root, config, sight);
  store.seed.add(opts.seed);
  const revs = [to];
  let initial = new Map<string, string>();
  let initialSha: string | null = null;
  if (opts.since && !opts.from) {
    revs.push(`^${opts.since.sha}`);
    initial = opts.since.state;
    initialSha = opts.since.sha;
  }
  if (base) {
    revs.push(`^${base}`);
    initial = filesAt(root, base, config, store.classify, tracked);
    initialSha = base;
  }
  const t0 = performance.now();
  const trace = await readTrace(root, revs, specsOf(config, tracked));
  timing(`trace (${trace.length} commits)`, performance.now() - t0);
  await opts.onTrace?.(trace, revs.length === 1);
  const folder = new Folder(
    root,
    trace,
    initialSha,
    initial,
    store,
    config,
    tracked,
    sight,
    opts.onStep,
    opts.vouches ?? (() => true),
  );
  // Parse and fold in chunks: each chunk's new contents are parsed on every core, then folded, then the models no
  // live snapshot refers to are dropped, so memory stays bounded by the workspace, not by the history.
  const initialRefs = [...initial].map(([path, blob]) => ({ path, blob }));
  let parseMs = 0;
  let foldMs = 0;
  let i = 0;
  let parsed = 0;
  while (i < trace.length) {
    const refs: { path: string; blob: string }[] = i === 0 ? initialRefs : [];
    // The trust files' versions the chunk's steps may read (their settings), read with its workflow files.
    const texts = i === 0 ? initialRefs.filter((r) => TRUST_FILES.includes(r.path)).map((r) => r.blob) : [];
    let j = i;
    // At least one commit per chunk: the state a range or a resumed run starts from can hold more files than a
    // chunk, and a chunk that folds no commit would be parsed again forever.
    while (j < trace.length && (refs.length < (opts.chunk ?? CHUNK) || j === i)) {
      // A link's blob is its text; the fold reads what it points at.
      for (const c of trace[j]!.changes) {
        if (c.newBlob && !c.link) refs.push({ path: c.path, blob: c.newBlob });
        if (c.newBlob && TRUST_FILES.includes(c.path)) texts.push(c.newBlob);
      }
      j++;
    }
    let t = performance.now();
    parsed += await store.loadParallel(
      refs,
      jobs(Math.max(refs.length, trace.length > CHUNK ? PARALLEL_ANYWAY : 0)),
      texts,
    );
    parseMs += performance.now() - t;
    opts.onProgress?.({ commits: i, total: trace.length, parsed });
    t = performance.now();
    if (i === 0) folder.learnInitial();
    expectCommits(
      root,
      trace.slice(i, j).map((e) => e.commit.sha),
    );
    for (; i < j; i++) {
      folder.step(trace[i]!);
      if (i % 256 === 0) opts.onProgress?.({ commits: i, total: trace.length, parsed });
    }
    store.retain(folder.liveKeys());
    relieveMemory();
    foldMs += performance.now() - t;
  }
  if (trace.length === 0) folder.learnInitial();
  await store.close();
  timing(`parse (${parsed} distinct versions, ${store.derived} of them derived without a parse)`, parseMs);
  timing('fold and rules', foldMs);
  const changed = [...new Set(trace.flatMap((t) => t.changes.map((c) => c.path)))].filter(
    (p) => store.classify(p) || tracked.match(p),
  );
  const result: FoldResult = {
    commits: trace.length,
    changed,
    store,
    state: trace.length ? folder.last : initial,
    sight,
    tracked,
    tip: null,
    incomplete: null,
  };
  return { result, learned: folder.learned };
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
  /** What this round met that is not in sight: plans named outside the globs, link targets. */
  readonly learned = learned();
  /** Link target -> the workflow files stored as links to it (every pair met so far). */
  private readonly linksTo = new Map<string, Set<string>>();

  constructor(
    private readonly root: string,
    trace: TraceEntry[],
    private readonly initialSha: string | null,
    private readonly initial: Map<string, string>,
    private readonly store: ModelStore,
    private readonly config: Config,
    private readonly tracked: Tracked,
    private readonly sight: Sight,
    private readonly onStep: (step: Step) => void,
    private readonly vouches: (sha: string) => boolean,
  ) {
    this.inTrace = new Set(trace.map((t) => t.commit.sha));
    for (const t of trace)
      for (const p of t.commit.parents) if (this.inTrace.has(p)) this.children.set(p, (this.children.get(p) ?? 0) + 1);
    this.relevant = relevantTo(store.classify, tracked);
  }

  private stateOf(sha: string | undefined): Map<string, string> {
    if (!sha) return new Map();
    const known = this.states.get(sha) ?? this.outside.get(sha);
    if (known) return known;
    const files =
      sha === this.initialSha ? this.initial : filesAt(this.root, sha, this.config, this.store.classify, this.tracked);
    this.noteLinks(files);
    this.outside.set(sha, files);
    return files;
  }

  /** What the state the fold starts from names and links to. */
  learnInitial(): void {
    this.noteLinks(this.initial);
    this.sight.learnState(this.initial, this.store, this.learned);
  }

  private noteLinks(state: FileMap): void {
    for (const path of state.keys()) {
      const link = parseLink(state.get(path));
      if (link) this.noteLink(path, link.text);
    }
  }

  private noteLink(path: string, text: string): void {
    const target = this.sight.targetOf(path, text, this.learned);
    if (target === null) return;
    const links = this.linksTo.get(target);
    if (links) links.add(path);
    else this.linksTo.set(target, new Set([path]));
  }

  /**
   * The commit's changes as the snapshots hold versions (history/links.ts), with `top` set to match: a workflow file
   * stored or changed as a link takes its target's value in this commit's tree, and a link whose target the commit
   * changes changes with it (a check-off made in the target is a check-off in the plan the link shows).
   */
  private withLinks(changes: Change[], base: Map<string, string>, top: Map<string, string | undefined>): Change[] {
    const linked = changes.filter((c) => c.link && c.newBlob && workflowFile(this.store.classify, c.path));
    const touchesTarget = changes.some(
      (c) => this.linksTo.has(c.path) || (c.from !== null && this.linksTo.has(c.from)),
    );
    const wasLink = changes.some((c) => isLinkValue(base.get(c.from ?? c.path)));
    if (linked.length === 0 && !touchesTarget && !wasLink) return changes;
    const valueAt = (path: string) => (top.has(path) ? top.get(path) : base.get(path));
    const entry = (path: string) => {
      const v = valueAt(path);
      return v === undefined ? undefined : { mode: isLinkValue(v) ? LINK_MODE : '100644', blob: v };
    };
    for (const c of linked) {
      const text = Buffer.from(this.store.bytes(c.newBlob!) ?? new Uint8Array()).toString('utf8');
      this.noteLink(c.path, text);
      top.set(c.path, followLink(c.path, text, entry));
    }
    const followers: Change[] = [];
    for (const c of changes) {
      for (const target of c.from ? [c.path, c.from] : [c.path]) {
        for (const link of this.linksTo.get(target) ?? []) {
          if (top.has(link)) continue;
          const was = base.get(link);
          const parsed = parseLink(was);
          if (!parsed || linkTarget(link, parsed.text) !== target) continue;
          const now = followLink(link, parsed.text, entry);
          if (now === was) continue;
          top.set(link, now);
          followers.push({
            status: now === undefined ? 'D' : 'M',
            path: link,
            from: null,
            oldBlob: was!,
            newBlob: now ?? null,
          });
        }
      }
    }
    const own = changes.map((c) => {
      const was = base.get(c.from ?? c.path);
      const now = top.get(c.path);
      return isLinkValue(was) || isLinkValue(now)
        ? { ...c, oldBlob: was ?? c.oldBlob, newBlob: c.status === 'D' ? null : (now ?? null) }
        : c;
    });
    return [...own, ...followers];
  }

  private readonly bases = new Map<string, Map<string, string> | null>();

  /** The files at merge-base(a, b), read once per pair; null when the two share no history. */
  private mergeBase(a: string, b: string): Map<string, string> | null {
    const k = `${a} ${b}`;
    if (!this.bases.has(k)) {
      const res = gitSync(this.root, ['merge-base', a, b]);
      this.bases.set(
        k,
        res.ok ? filesAt(this.root, res.out.trim(), this.config, this.store.classify, this.tracked) : null,
      );
    }
    return this.bases.get(k)!;
  }

  /** Model keys the snapshots still alive refer to: everything else may leave the store. */
  liveKeys(): Set<string> {
    const live = new Set<string>();
    for (const state of [...this.states.values(), ...this.outside.values(), this.last])
      for (const [path, blob] of state) live.add(key(blob, path));
    return live;
  }

  step({ commit, changes: raw }: TraceEntry): void {
    const { store, root } = this;
    const first = commit.parents[0];
    const base = this.stateOf(first);
    const top = new Map<string, string | undefined>();
    for (const c of raw) {
      if (c.from) top.set(c.from, undefined);
      top.set(c.path, c.newBlob && this.relevant(c.path) ? c.newBlob : undefined);
    }
    const changes = this.withLinks(raw, base, top);
    const before = new Snapshot(base, store);
    const after = new Snapshot(new Overlay(base, top), store);
    let events = movesOut(eventsBetween(changes, before, after), changes, () =>
      first
        ? parseRaw(
            gitSync(root, [
              'diff-tree',
              '-r',
              '--raw',
              '-z',
              '--no-abbrev',
              '--diff-filter=A',
              `${commit.sha}^`,
              commit.sha,
            ]).out,
          )
        : [],
    );
    for (const c of changes) {
      const kind = c.status === 'D' ? undefined : store.classify(c.path)?.kind;
      if (kind === 'ledger' || kind === 'handoff') this.sight.namesOf(after.model(c.path), this.learned);
    }
    let kept = changes;
    // A merge has events where it differs from every parent (git's combined diff), and also wherever it changes a
    // file the other side never changed since the merge base: then the change is the merge's own, however the
    // branches forked (a side branch from before a file existed must not let the merge delete it unseen).
    for (const other of commit.parents.slice(1)) {
      if (!this.vouches(other)) continue;
      ({ changes: kept, events } = mergeOwn(
        kept,
        events,
        this.stateOf(other),
        first ? this.mergeBase(first, other) : null,
        after,
        store,
      ));
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
export type Pending = Step & {
  /**
   * What the next commit door may take of this index once it is HEAD: the digest of the commit's listing
   * (treeListingDigest) when the files of both sides taught the sight nothing (no plan named outside the globs, no
   * link), null otherwise (see the option quietHeads).
   */
  quietListing: string | null;
};

/** HEAD's snapshot -> the index's, with the commit as it will be made (the message's trailers for commit-msg). */
export function pendingCommit(
  root: string,
  config: Config,
  opts: {
    message?: string;
    trailers?: Trailer[];
    /** Models parsed elsewhere, asked in this order. */
    seed?: KnownModels | readonly (KnownModels | undefined)[];
    tracked?: Tracked;
    amend?: boolean;
    head?: string | null;
    who?: ReturnType<typeof gitIdentities>;
    vouches?: (sha: string) => boolean;
    /** The whole index as `git ls-files --stage -z` printed it, when the caller asked already (underSpecs). */
    index?: string;
    /**
     * Digests of commits' listings whose files teach the sight nothing (quietListing, kept by the last commit door:
     * engine/change-models.ts). When HEAD's listing is one of them, HEAD's files are not asked what they name: a wide
     * repository's commit asked it of every handoff.
     */
    quietHeads?: readonly string[];
  },
): Pending {
  const sight = new Sight(classifier(config.paths));
  const store = newStore(root, config, sight);
  for (const source of [opts.seed].flat()) store.seed.add(source);
  // Every git process costs a hook milliseconds: HEAD is asked once (the caller may already know it).
  const headSha = opts.head !== undefined ? opts.head : headCommit(root);
  const hasHead = headSha !== null;
  // `git commit --amend` replaces HEAD: the commit being made follows HEAD's parents, so it is judged against them
  // (an agent amending its check-off into the human's confirmation commit is judged as that one commit).
  const amend = hasHead && (opts.amend ?? amending());
  const parentsOfHead = amend ? gitSync(root, ['rev-parse', 'HEAD^@']).out.split('\n').filter(Boolean) : [];
  // HEAD by its id: its listing is the one headTrustSnapshot made for the same files (lsTree).
  const base = amend ? (parentsOfHead[0] ?? null) : headSha;
  // The plans that the ledgers and handoffs of HEAD and of the index name outside the globs, and the targets of
  // links, are read too: the doors before a commit see what the full run will see after it (history/sight.ts).
  let listings = { before: newListing(), after: newListing() };
  const quietHeads = opts.quietHeads ?? [];
  const {
    before: beforeFiles,
    after: afterFiles,
    tracked,
    learnedNothing,
    tookQuiet,
  } = inSight(
    root,
    config,
    sight,
    store,
    opts.tracked ?? NOTHING_ELSE,
    (t) => {
      listings = { before: newListing(), after: newListing() };
      return {
        before: base ? filesAt(root, base, config, store.classify, t, t, listings.before) : new Map<string, string>(),
        after: filesAt(root, null, config, store.classify, t, t, listings.after, opts.index),
      };
    },
    () => {
      if (quietHeads.length === 0) return false;
      const listed = commitListingDigest(listings.before);
      return listed !== null && quietHeads.includes(listed);
    },
  );
  timing(
    tookQuiet ? "what HEAD's files name: nothing, as the last commit door saw" : "what HEAD's files name: asked",
    0,
  );
  const relevant = relevantTo(store.classify, tracked);
  // Renames as the commit will record them (`-M`), so the hooks see what the full run will see afterwards.
  const changes = base
    ? linkedChanges(
        (
          listedDiff(listings.before, listings.after) ??
          parseRaw(
            gitSync(root, [
              'diff',
              '--cached',
              '-M',
              '--raw',
              '-z',
              '--no-abbrev',
              base,
              '--',
              ...specsOf(config, tracked),
            ]).out,
          )
        ).filter((c) => relevant(c.path) || (c.from !== null && relevant(c.from))),
        beforeFiles,
        afterFiles,
        [listings.before, listings.after],
      )
    : diffFiles(beforeFiles, afterFiles);
  // An intent-to-add entry (`git add -N`) is in git's listing of the index with the empty blob, but `git diff --cached`
  // leaves it out and `git commit` records nothing there: the commit being judged has no such file. (Its snapshot
  // reported an empty file that is not empty on disk and was never going to be committed.)
  if (base) {
    const staged = new Set(changes.flatMap((c) => (c.newBlob !== null ? [c.path] : [])));
    for (const [path, blob] of afterFiles)
      if (EMPTY_BLOBS.has(blob) && beforeFiles.get(path) !== blob && !staged.has(path)) afterFiles.delete(path);
  }
  // The index's side of the change is read here, never taken as it stands from a model kept in the git folder (the
  // cache, the last commit door's: engine/change-models.ts): it is what is being judged. It is parsed, or derived
  // from HEAD's version of the same path, which is taken from those models like every file the change leaves alone
  // (the last commit's index is this one's HEAD) and read from git with it. Trusting the git folder for HEAD's side
  // buys nothing `--no-verify` does not (engine/change-models.ts says why).
  for (const c of changes) if (c.newBlob) store.seed.delete(key(c.newBlob, c.path));
  const loadStart = performance.now();
  // The staged versions are usually the working tree's files (`git add`, then the commit): read there when their blob
  // id says so, and from git otherwise.
  knowWorkingTree(
    root,
    changes.flatMap((c) => (c.newBlob && !isLinkValue(c.newBlob) ? [{ path: c.path, blob: c.newBlob }] : [])),
    config.maxFileBytes,
  );
  store.load(
    changes.flatMap((c) => [
      ...(c.oldBlob ? [{ path: c.from ?? c.path, blob: c.oldBlob }] : []),
      ...(c.newBlob ? [{ path: c.path, blob: c.newBlob }] : []),
    ]),
    [],
    changes.flatMap((c) => (c.oldBlob && c.newBlob && !c.from ? [{ path: c.path, blob: c.oldBlob }] : [])),
  );
  const read = store.versions;
  timing(
    `versions changed (plans: ${read.parsed} parsed, ${read.derived} derived; ${read.primed} of HEAD's known)`,
    performance.now() - loadStart,
  );
  const message = opts.message ?? '';
  // Co-author lines outside git's trailer block and a squash's confirmations count as well (history/log.ts).
  const trailers = opts.trailers ?? trailersOf(root, message);
  // A merge in progress (MERGE_HEAD) becomes a merge commit: judged, like the fold judges merges, by what it does
  // itself, not by what the other branch brings (a human's confirmation merged into an agent's branch).
  const head = amend ? (parentsOfHead[0] ?? null) : headSha;
  const others = amend ? parentsOfHead.slice(1) : hasHead ? mergeHeads(root) : [];
  // Each side named by its listing's digest and what the sight reads besides the globs (Snapshot.listed): the index's
  // is HEAD's of the commit made from it, so the next door knows HEAD's snapshot by a digest of git's text alone.
  const indexListed = treeListingDigest(listings.after, listings.before);
  const sighted = `${[...sight.named].sort().join('\0')}\0\0${[...sight.targets].sort().join('\0')}`;
  const listedAs = (digest: string | null) => (digest === null ? undefined : listingDigest(`${digest}\0${sighted}`));
  const before = new Snapshot(beforeFiles, store, base ? listedAs(commitListingDigest(listings.before)) : undefined);
  const after = new Snapshot(afterFiles, store, listedAs(indexListed));
  let events = movesOut(eventsBetween(changes, before, after), changes, () =>
    base
      ? parseRaw(gitSync(root, ['diff', '--cached', '--raw', '-z', '--no-abbrev', '--diff-filter=A', base]).out)
      : [],
  );
  let kept = changes;
  for (const other of others) {
    // A merge in progress: the same rule as the fold's (only a judged parent vouches for what it brings).
    if (opts.vouches && !opts.vouches(other)) continue;
    const base = gitSync(root, ['merge-base', head!, other]);
    const baseFiles = base.ok ? filesAt(root, base.out.trim(), config, store.classify, tracked) : null;
    ({ changes: kept, events } = mergeOwn(
      kept,
      events,
      filesAt(root, other, config, store.classify, tracked),
      baseFiles,
      after,
      store,
    ));
  }
  const who = opts.who ?? gitIdentities(root);
  const commit: Commit = {
    sha: '',
    parents: head ? [head, ...others] : [],
    author: who.author ?? { name: '', email: '' },
    committer: who.committer ?? { name: '', email: '' },
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
    quietListing: learnedNothing ? indexListed : null,
  };
}

/**
 * A message's trailers as the rules read them: git's trailer block, plus co-author lines and a squash's confirmations.
 * They are all a rule reads of a message (the handover in engine/doors.ts relies on it).
 */
export function trailersOf(root: string, message: string): Trailer[] {
  if (!message) return [];
  const block = mayHoldTrailerBlock(message) ? gitSync(root, ['interpret-trailers', '--parse'], message).out : '';
  return messageTrailers(parseTrailers(block), message);
}

/**
 * HEAD's trust files (empty without commits): where a door reads its settings before it knows what else to read.
 * Listed as `listed` asks (the pending commit's listing of HEAD is then the same answer, lsTree), but nothing else of
 * it is taken: a commit that stages nothing the check reads (untouched) classifies no path of a wide HEAD.
 */
export function headTrustSnapshot(
  root: string,
  config: Config,
  head: string | null = headCommit(root),
  listed: Tracked = NOTHING_ELSE,
): Snapshot {
  return new Snapshot(
    head !== null ? filesAt(root, head, config, () => null, NOTHING_ELSE, listed) : new Map(),
    newStore(root, config),
  );
}

/** What the commit doors read besides the workflow, trust and tracked files: the instruction files, plans named anywhere. */
const READ_BESIDES = [
  ...INSTRUCTION_PATHSPECS,
  // A ledger or handoff may name a plan anywhere (history/sight.ts): every Markdown file may be one.
  ':(glob,icase)**/*.md',
  ':(glob,icase)**/*.markdown',
];

/**
 * Whether the commit being made (HEAD -> the index, `index` as handoverKey listed it) stages nothing the check reads:
 * no workflow, trust or tracked file (specsOf), no instruction file, no Markdown file anywhere (a plan a handoff names
 * outside the globs), and nothing a link the check reads through leads to (linksCovered); not an amend (judged
 * against HEAD's parents) nor a merge. Such a commit can add no finding (no event, and the same snapshot on both
 * sides), so the door judges nothing: git answers, and HEAD's workflow files are not read.
 */
export async function untouched(
  root: string,
  config: Config,
  tracked: Tracked,
  index: string,
  head: string,
): Promise<boolean> {
  if (mergeHeads(root).length > 0 || amending()) return false;
  const specs = specsOf(config, tracked);
  // No pathspec where a glob names no folder (git reads the whole tree): then anything staged may be read.
  if (specs.length === 0 || !linksCovered(root, index, specs)) return false;
  // Exit 0: no difference; 1: some; anything else: git could not tell (no).
  return (await ask(root, questionOver(head, specs))).ok;
}

const MARKDOWN_PATH = /\.(?:md|markdown)$/i;
/** An entry of `git ls-files --stage -z` that is a symbolic link. */
const HAS_LINK = new RegExp(`(?:^|\\0)${LINK_MODE} `);

/**
 * Whether every symbolic link in the index that the check may read through ends, through links with Markdown names,
 * at a Markdown file the index holds: git's answer over every Markdown file then covers what the link reads and where
 * each link on the way points. The check may read through a link that is a Markdown file (a plan some handoff names,
 * CLAUDE.md), one under `.claude/` or `thoughts/` (the instruction walk follows links), or one at, under or on the
 * way to what `specs` names (workflow, trust and pack files; compared in any case, which only adds links). A
 * repository that keeps CLAUDE.md as a link to AGENTS.md passes; a plan linked to a text file, a linked folder or a
 * link by way of a name no pathspec covers is judged in full. A link the check never reads (a code folder linked
 * elsewhere) is no concern of it.
 */
function linksCovered(root: string, index: string, specs: string[]): boolean {
  if (!HAS_LINK.test(index)) return true;
  const entries = new Map<string, ListedRecord>();
  for (const r of recordsOf(index, false)) if (r.merged) entries.set(r.path, r);
  const links = [...entries.values()].filter((r) => r.mode === LINK_MODE);
  // Pathspec magic aside, and a glob cut to the folder before it: every spec as a folder or file it reaches.
  const bases = specs.map((s) =>
    s
      .replace(/^:\([^)]*\)/, '')
      .replace(/(?:^|\/)[^/]*[*?[{].*$/, '')
      .toLowerCase(),
  );
  const read = (path: string) => {
    const p = path.toLowerCase();
    return (
      MARKDOWN_PATH.test(p) ||
      INSTRUCTION_FOLDERS.some((f) => p === f || p.startsWith(`${f}/`)) ||
      bases.some((b) => b === '' || p === b || p.startsWith(`${b}/`) || b.startsWith(`${p}/`))
    );
  };
  const through = links.filter((l) => read(l.path));
  if (through.length === 0) return true;
  // Every link a chain goes on through has a Markdown name, so it is among these: their texts are all it reads.
  const texts = readBlobs(
    root,
    through.map((l) => l.blob),
  );
  return through.every((link) => {
    let at = link;
    // A chain of links, each in the index; bounded, as a loop of links is possible.
    for (let hops = 0; hops < 40; hops++) {
      // Every link on the way has a Markdown name too, so git's answer covers a change of where it points (a link to a
      // link is read as its own text, history/links.ts; the rule holds either way).
      if (!MARKDOWN_PATH.test(at.path)) return false;
      if (at.mode !== LINK_MODE) return at.mode === '100644' || at.mode === '100755';
      const text = texts.get(at.blob)?.toString('utf8');
      const target = text === undefined ? null : linkTarget(at.path, text);
      const next = target === null ? undefined : entries.get(target);
      if (next === undefined) return false;
      at = next;
    }
    return false;
  });
}

/**
 * The question untouched asks git: the doors ask it early (askEarly), beside their first questions. null where a glob
 * no pathspec can name has git read the whole tree: then anything staged may be read.
 */
export function untouchedQuestion(config: Config, tracked: Tracked, head: string): string[] | null {
  const specs = specsOf(config, tracked);
  return specs.length === 0 ? null : questionOver(head, specs);
}

function questionOver(head: string, specs: string[]): string[] {
  return ['diff', '--cached', '--quiet', '--no-ext-diff', head, '--', ...specs, ...READ_BESIDES];
}

/**
 * The repository's HEAD snapshot (empty without commits), for the Claude Code hook's "before". `head`: the commit HEAD
 * names (null without commits), asked once by the caller for its whole run (one git process fewer, and one HEAD).
 */
export function headSnapshot(root: string, config: Config, tracked: Tracked, head: string | null): Snapshot {
  const sight = new Sight(classifier(config.paths));
  const store = newStore(root, config, sight);
  const { after } = inSight(root, config, sight, store, tracked, (t) => ({
    before: new Map<string, string>(),
    after: head !== null ? filesAt(root, head, config, store.classify, t) : new Map<string, string>(),
  }));
  return new Snapshot(after, store);
}

/**
 * Read two states (`read`, given what is tracked) until what their ledgers, handoffs and links name is in sight:
 * a plan named outside the globs is read once a file names it, and it names no further plan, so this ends.
 * The second state's versions that differ from the first's are never taken from kept models (see pendingCommit).
 *
 * `quietBefore`, asked once the first state is read with the globs' sight alone: whether it is known to teach that
 * sight nothing (its listing is one a commit door saw teach nothing: pendingCommit's quietHeads). What a state
 * teaches is what each of its files teaches, each the same in any state under the same sight, so the first round
 * learns from the second state's changed versions alone, and learns exactly what it would have learned from both.
 * `learnedNothing`: the first round taught nothing, so neither state teaches the globs' sight anything, nor does
 * any state made of their files (the index, once it is HEAD: quietListing). `tookQuiet`: quietBefore said yes.
 */
function inSight(
  root: string,
  config: Config,
  sight: Sight,
  store: ModelStore,
  base: Tracked,
  read: (tracked: Tracked) => { before: Map<string, string>; after: Map<string, string> },
  quietBefore: () => boolean = () => false,
): {
  before: Map<string, string>;
  after: Map<string, string>;
  tracked: Tracked;
  learnedNothing: boolean;
  tookQuiet: boolean;
} {
  let tookQuiet = false;
  for (let round = 0; ; round++) {
    const tracked = sight.tracked(base);
    const { before, after } = read(tracked);
    // The sight does not change while it learns: a version both states hold teaches the same twice, so the index's
    // versions are learned from only where they differ from HEAD's.
    const changed = new Map<string, string>();
    for (const [path, blob] of after) if (before.get(path) !== blob) changed.set(path, blob);
    for (const [path, blob] of changed) store.seed.delete(key(blob, path));
    const quiet = round === 0 && quietBefore();
    if (quiet) tookQuiet = true;
    const states = quiet ? [changed] : [before, changed];
    // What the cache's index says an unchanged version names needs no model (a commit on a wide repository decoded
    // every handoff's for it); the other versions are read in one batch.
    const unknown: { path: string; blob: string }[] = [];
    for (const state of states)
      for (const [path, blob] of state) {
        const kind = store.classify(path)?.kind;
        if ((kind === 'ledger' || kind === 'handoff') && store.names(blob, path) === undefined)
          unknown.push({ path, blob });
      }
    store.load(unknown);
    const found = learned();
    for (const state of states) sight.learnState(state, store, found);
    if (!sight.grow(found)) return { before, after, tracked, learnedNothing: round === 0, tookQuiet };
  }
}

/**
 * git's changes of the index with the versions as the snapshots hold them (history/links.ts): a link's value for
 * its text's blob, and a change for every link whose target alone changed.
 */
function linkedChanges(
  changes: Change[],
  before: Map<string, string>,
  after: Map<string, string>,
  listed: readonly Listing[],
): Change[] {
  // A link's value comes from a link's record: where neither listing holds one, no version is one (a door's commit
  // compared every path of both sides for it).
  if (listed.every((l) => l.text !== undefined && !l.failed && !l.links)) return changes;
  const seen = new Set(changes.flatMap((c) => (c.from ? [c.path, c.from] : [c.path])));
  const out = changes.map((c) => {
    const was = before.get(c.from ?? c.path);
    const now = after.get(c.path);
    return isLinkValue(was) || isLinkValue(now)
      ? { ...c, oldBlob: was ?? c.oldBlob, newBlob: c.status === 'D' ? null : (now ?? null) }
      : c;
  });
  for (const c of diffFiles(before, after)) {
    if (!seen.has(c.path) && (isLinkValue(c.oldBlob) || isLinkValue(c.newBlob))) out.push(c);
  }
  return out;
}
