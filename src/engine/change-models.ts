// The commit doors judge HEAD -> the index, and the index's side of one commit is HEAD's side of the next: an agent
// that commits its plan again and again had it parsed twice per commit, HEAD's version cold (44 ms of a wide
// repository's plan commit, 171 ms of the monorepo shape's 50 KB plan; issue 22). Each door that judged a change keeps
// the models of the versions the index brought, by blob id and path, and the next door takes HEAD's side from here
// (or from the cache) like every unchanged file's. The index's side is never taken from either as it stands: it is
// parsed, or derived from HEAD's model when it only checks boxes or appends prose (read/derive.ts), HEAD's text read
// for that with the change.
//
// Beside the models, what else of the index a door learned that holds of it as HEAD: the texts of the versions it
// brought (taken only where their git blob id is the one git lists: history/store.ts knowBytes), and by the digest
// of the listing its commit will have, that its files teach the sight nothing (history/fold.ts quietListing) and which
// snapshots hold no blocked handoff (Snapshot.listed). The next door asks HEAD's files neither question when git's
// listing of HEAD has that digest.
//
// Anything that can run git can write the git folder. A forged entry misstates HEAD's side of a change at pre-commit
// and commit-msg, and through the derivation the index's side too (an agent's check-off read as no change), as a
// forged cache.pack already could for every file the change leaves alone and, at pre-push, for the base of the push.
// It buys nothing `--no-verify` does not: the hooks can be skipped, and CI judges every commit with no cache
// (engine/handover.ts and engine/snapshot-memory.ts say the same of the verdicts they keep). A damaged file (cut short,
// edited by hand) is checked by its digest and is no memory.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowFile } from '../model/types.js';
import { readCacheText, writeCacheFile } from '../history/cache.js';
import { knowBytes, knownBytes, type KnownModels } from '../history/store.js';
import { repositoryInfo } from '../shared/git.js';

const FORMAT = 3;
/**
 * Versions kept: the index's side of the change judged last, and HEAD's side it took from here, so that a commit
 * refused in between (its index is kept, HEAD stays) does not lose HEAD's. Older versions are left out: every model
 * kept is parsed back by the next door.
 */
const KEPT = 16;
/** A change of many large files is not worth its write on every commit: beyond this, the newest models only. */
const MAX_CHARS = 4 * 2 ** 20;

/** A version's key, its model, and its text where the door held it (the next door's HEAD side, read without git). */
type Entry = [key: string, model: WorkflowFile, text?: string];

function memoryFile(root: string): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.gitDir, 'validate-workflow', 'change-models.json') : null;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
/** The blob id a key (`blob:path`, history/store.ts key) names. */
const blobOf = (k: string) => k.slice(0, k.indexOf(':'));

/**
 * A model for the path its key names, of the shape every model has (a kind, its problems; a plan's phases): anything
 * else in the file is not taken. Only a first check, as cache.pack's (history/cache.ts decodeModel): a forged model
 * can still be wrong inside.
 */
const isEntry = (e: unknown): e is Entry => {
  if (!Array.isArray(e) || (e.length !== 2 && e.length !== 3) || typeof e[0] !== 'string') return false;
  if (e.length === 3 && typeof e[2] !== 'string') return false;
  const model = e[1] as Partial<WorkflowFile> | null;
  return (
    typeof model === 'object' &&
    model !== null &&
    !Array.isArray(model) &&
    typeof model.kind === 'string' &&
    Array.isArray(model.problems) &&
    (model.kind !== 'plan' || Array.isArray((model as { phases?: unknown }).phases)) &&
    e[0].endsWith(`:${String(model.path)}`)
  );
};

/**
 * Digests of commits' listings that teach the sight nothing (history/fold.ts quietListing): the index's judged
 * last, and HEAD's this run took, for a commit refused in between.
 */
const QUIET_KEPT = 2;
const isDigest = (d: unknown): d is string => typeof d === 'string' && /^[0-9a-f]{40}$/.test(d);

interface Kept {
  entries: Entry[];
  quiet: string[];
  /** Snapshots (history/snapshot.ts Snapshot.listed) that hold no blocked handoff, as quiet. */
  unblocked: string[];
}

/** What was kept under these settings; nothing when the file is missing, damaged or kept under other settings. */
function readKept(file: string | null, settings: string): Kept {
  const none = { entries: [], quiet: [], unblocked: [] };
  if (!file) return none;
  try {
    const text = readCacheText(file);
    const cut = text.indexOf('\n');
    const body = text.slice(cut + 1);
    if (cut !== 40 || sha1(body) !== text.slice(0, cut)) return none;
    const data = JSON.parse(body) as {
      format?: unknown;
      settings?: unknown;
      entries?: unknown;
      quiet?: unknown;
      unblocked?: unknown;
    };
    if (data.format !== FORMAT || data.settings !== settings) return none;
    const digests = (list: unknown) => (Array.isArray(list) ? list.filter(isDigest).slice(0, QUIET_KEPT) : []);
    return {
      entries: Array.isArray(data.entries) ? data.entries.filter(isEntry) : [],
      quiet: digests(data.quiet),
      unblocked: digests(data.unblocked),
    };
  } catch {
    return none;
  }
}

/** The models the last commit doors kept, asked like the cache's (a Seed source), and what this run keeps. */
export interface ChangeModels extends KnownModels {
  keep(k: string, model: WorkflowFile): void;
  /** Writes the index's models this run kept, and HEAD's it was given; and the listings that teach nothing. */
  save(): void;
  /** Whether any kept model was given to this run. */
  consulted(): boolean;
  /** Digests of commits' listings whose files teach the sight nothing (history/fold.ts pendingCommit quietHeads). */
  quiet(): readonly string[];
  /** The digest of the listing the commit made from this index will have, when it teaches nothing (quietListing). */
  keepQuiet(digest: string | null): void;
  /** Snapshots known to hold no blocked handoff (Snapshot.listed): the next door asks HEAD's handoffs nothing then. */
  unblocked(): readonly string[];
  keepUnblocked(listed: string): void;
}

/** The file is dropped: a model in it failed a judgement (engine/doors.ts judgePending). */
export function forgetChangeModels(root: string): void {
  const file = memoryFile(root);
  if (file) rmSync(file, { force: true });
}

export function changeModels(root: string, settings: string): ChangeModels {
  const file = memoryFile(root);
  const read = readKept(file, settings);
  const stored = new Map(read.entries.map(([k, model]) => [k, model]));
  // The texts kept beside the models: the next change's HEAD side is read from here when the text is the version its
  // key names (history/store.ts knowBytes checks the blob id), and through git otherwise. Written back from there.
  for (const [k, , text] of read.entries) if (text !== undefined) knowBytes(blobOf(k), Buffer.from(text, 'utf8'));
  const kept = new Map<string, WorkflowFile>();
  const used = new Map<string, WorkflowFile>();
  let quiet = read.quiet;
  let unblocked = read.unblocked;
  /** `digest` first, then the others kept, at most QUIET_KEPT. */
  const newest = (digest: string, kept: readonly string[]) =>
    [digest, ...kept.filter((d) => d !== digest)].slice(0, QUIET_KEPT);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((d, i) => b[i] === d);
  return {
    get(k) {
      const model = stored.get(k);
      if (model) used.set(k, model);
      return model;
    },
    has: (k) => stored.has(k),
    consulted: () => used.size > 0,
    keep(k, model) {
      kept.set(k, model);
    },
    quiet: () => read.quiet,
    keepQuiet(digest) {
      if (digest !== null) quiet = newest(digest, read.quiet);
    },
    unblocked: () => read.unblocked,
    keepUnblocked(listed) {
      unblocked = newest(listed, read.unblocked);
    },
    save() {
      const sameQuiet = same(quiet, read.quiet) && same(unblocked, read.unblocked);
      if (!file || (kept.size === 0 && sameQuiet)) return;
      // A change that brings no model (a deletion) keeps what was kept: only the listings' digests are new.
      const models = kept.size > 0 ? [...kept, ...[...used].filter(([k]) => !kept.has(k))] : [...stored];
      const entries = models.map(([k, model]): Entry => {
        const text = knownBytes(blobOf(k))?.toString('utf8');
        return text === undefined ? [k, model] : [k, model, text];
      });
      // Judged again as it was (commit-msg after pre-commit, a retried commit): nothing to write.
      if (sameQuiet && entries.length === stored.size && entries.every(([k]) => stored.has(k))) return;
      const next: string[] = [];
      let chars = 0;
      for (const e of entries) {
        const text = JSON.stringify(e);
        if (next.length >= KEPT || (next.length > 0 && chars + text.length > MAX_CHARS)) break;
        next.push(text);
        chars += text.length;
      }
      const body = `{"format":${FORMAT},"settings":${JSON.stringify(settings)},"quiet":${JSON.stringify(quiet)},"unblocked":${JSON.stringify(unblocked)},"entries":[${next.join(',')}]}`;
      writeCacheFile(file, `${sha1(body)}\n${body}`);
    },
  };
}
