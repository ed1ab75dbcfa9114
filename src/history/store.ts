// Models of file versions, keyed by blob id and path: each distinct content is parsed once, however many commits
// hold it. Versions are loaded in batches through one `git cat-file --batch`. A version may be a symbolic link's
// value (history/links.ts): its target's bytes are read, and a link not followed has no model.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkflowFile } from '../model/types.js';
import type { Discovered } from '../read/discover.js';
import type { Classifier } from '../read/classify.js';
import { VersionReader } from '../read/workspace.js';
import { PathShards } from '../read/parallel.js';
import { blobId, readBlobs, type BlobBytes } from '../shared/git.js';
import { contentBlob } from './links.js';

export const key = (blob: string, path: string) => `${blob}:${path}`;

/** Where models parsed elsewhere can be asked for by `blob:path`: a Map, or the cache's models read on demand. */
export interface KnownModels {
  get(k: string): WorkflowFile | undefined;
  has(k: string): boolean;
  /** What the model of `k` names (history/sight.ts planRefOf), when known without it; undefined: ask get. */
  names?(k: string): string | null | undefined;
  /** Whether the model of `k` is a blocked handoff (history/cache.ts isBlocked), when known without it. */
  blocked?(k: string): boolean | undefined;
}

/**
 * Models parsed elsewhere (the working tree, the cache), consulted before parsing. Sources are asked, never copied:
 * the cache decodes a model only when a run asks for it, so a hook that judges one file decodes one file's models.
 */
export class Seed implements KnownModels {
  private readonly own = new Map<string, WorkflowFile>();
  private readonly sources: KnownModels[] = [];
  /** Versions that must be read here whatever a source says (see pendingCommit: the index's side of the change). */
  private readonly refused = new Set<string>();

  add(source: KnownModels | undefined): void {
    if (source) this.sources.push(source);
  }

  set(k: string, model: WorkflowFile): void {
    this.own.set(k, model);
  }

  delete(k: string): void {
    this.own.delete(k);
    this.refused.add(k);
  }

  get(k: string): WorkflowFile | undefined {
    const own = this.own.get(k);
    if (own !== undefined || this.refused.has(k)) return own;
    for (const s of this.sources) {
      const m = s.get(k);
      if (m !== undefined) return m;
    }
    return undefined;
  }

  has(k: string): boolean {
    return this.get(k) !== undefined;
  }

  /**
   * What the model of `k` names, as the first source that says so without a model tells (the cache's index); a
   * version refused here is never told, nor one that a source without an index holds (get answers for those).
   */
  names(k: string): string | null | undefined {
    return this.told(k, 'names');
  }

  /** Whether the model of `k` is a blocked handoff, as names: told only by a source that knows it without the model. */
  blocked(k: string): boolean | undefined {
    return this.told(k, 'blocked');
  }

  // By the method's name, not a function made per question: a commit asks this of every handoff at HEAD.
  private told<M extends 'names' | 'blocked'>(k: string, method: M): ReturnType<NonNullable<KnownModels[M]>> {
    type Answer = ReturnType<NonNullable<KnownModels[M]>>;
    if (this.own.has(k) || this.refused.has(k)) return undefined as Answer;
    for (const s of this.sources) {
      if (s[method]) {
        const n = s[method](k) as Answer;
        if (n !== undefined) return n;
      } else if (s.has(k)) return undefined as Answer;
    }
    return undefined as Answer;
  }
}

/** Several sources as one, the first that knows a key answering. */
export function sources(...list: (KnownModels | undefined)[]): KnownModels {
  const seed = new Seed();
  for (const s of list) seed.add(s);
  return seed;
}

export class ModelStore {
  readonly models = new Map<string, WorkflowFile>();
  /** Models parsed elsewhere (the working tree, the cache): consulted first, never evicted. */
  readonly seed = new Seed();
  readonly texts = new Map<string, string>();
  /** This thread's reader of versions: derives a plan version that only checks boxes from the path's previous one. */
  readonly versions = new VersionReader();

  constructor(
    readonly root: string,
    readonly classify: Classifier,
    readonly maxBytes: number,
  ) {}

  /**
   * Parse every (blob, path) not yet known, in one batch. `texts`: versions of trust files (the config, package.json)
   * whose text a step may read (`text`); they come along in the same batch when there is one, each otherwise costs a
   * `git cat-file` process of its own when it is read. `previous`: versions whose model is known (HEAD's side of a
   * change), read in the same batch so that the version of the same path in `refs` may be derived from them.
   */
  load(
    refs: { blob: string; path: string }[],
    texts: readonly string[] = [],
    previous: readonly { blob: string; path: string }[] = [],
  ): void {
    const todo = refs.filter(
      (r) => this.classify(r.path) && r.path !== '' && contentBlob(r.blob) !== null && !this.has(key(r.blob, r.path)),
    );
    if (todo.length === 0) return;
    const wanted = this.untold(texts);
    const todoPaths = new Set(todo.map((r) => r.path));
    const primes = previous.filter(
      (p) =>
        todoPaths.has(p.path) &&
        this.classify(p.path)?.kind === 'plan' &&
        contentBlob(p.blob) !== null &&
        this.has(key(p.blob, p.path)),
    );
    const blobs = readKnown(this.root, [
      ...new Set([...todo.map((r) => contentBlob(r.blob)!), ...wanted, ...primes.map((p) => contentBlob(p.blob)!)]),
    ]);
    for (const p of primes) {
      const bytes = blobs.get(contentBlob(p.blob)!);
      const model = this.seed.get(key(p.blob, p.path)) ?? this.models.get(key(p.blob, p.path));
      if (bytes && model) this.versions.prime(this.classify(p.path)!, bytes, this.maxBytes, model);
    }
    for (const blob of wanted) {
      const bytes = blobs.get(blob);
      if (!bytes) continue;
      const t = bytes.toString('utf8');
      keepText(blob, t);
      this.texts.set(blob, t);
    }
    for (const r of todo) {
      const item = this.classify(r.path)!;
      if (item.kind === 'searchable') continue;
      const bytes = blobs.get(contentBlob(r.blob)!);
      if (!bytes) continue;
      this.models.set(key(r.blob, r.path), this.versions.read(item, bytes, this.maxBytes));
    }
  }

  private pool: Worker[] = [];
  private derivedElsewhere = 0;

  /** Versions derived from their path's previous version without a parse, on every thread. */
  get derived(): number {
    return this.versions.derived + this.derivedElsewhere;
  }
  private readonly shards = new PathShards();

  /**
   * Like load, split over `jobs` threads (this one included); the workers stay up for the next chunk.
   * @returns how many versions were parsed
   */
  async loadParallel(
    refs: { blob: string; path: string }[],
    jobs: number,
    texts: readonly string[] = [],
  ): Promise<number> {
    const seen = new Set<string>();
    const todo: { blob: string; item: Discovered }[] = [];
    for (const r of refs) {
      const k = key(r.blob, r.path);
      const item = this.classify(r.path);
      if (!item || item.kind === 'searchable' || contentBlob(r.blob) === null || this.has(k) || seen.has(k)) continue;
      seen.add(k);
      todo.push({ blob: r.blob, item });
    }
    if (jobs <= 1 || todo.length < 50) {
      this.load(
        todo.map((t) => ({ blob: t.blob, path: t.item.path })),
        texts,
      );
      return todo.length;
    }
    while (this.pool.length < jobs - 1) {
      // A bounded heap makes the worker collect garbage early: the parser allocates far more than it keeps.
      const worker = new Worker(new URL('./blob-worker.js', import.meta.url), {
        workerData: { root: this.root, maxBytes: this.maxBytes },
        resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
      });
      worker.unref();
      this.pool.push(worker);
    }
    // By path, not round robin: a file's versions stay on one thread, where its section cache is warm.
    const shares = this.shards.split(todo, (t) => t.item.path, jobs);
    const results = this.pool.slice(0, jobs - 1).map(
      (worker, w) =>
        new Promise<void>((resolve, reject) => {
          const share = shares[w + 1]!;
          const onError = (err: Error) => reject(err);
          worker.once('error', onError);
          worker.once('message', ({ models, derived }: { models: (WorkflowFile | null)[]; derived: number }) => {
            worker.off('error', onError);
            this.derivedElsewhere += derived;
            models.forEach((m, i) => m && this.models.set(key(share[i]!.blob, share[i]!.item.path), m));
            resolve();
          });
          worker.postMessage(share.map((t) => ({ blob: contentBlob(t.blob), item: t.item })));
        }),
    );
    this.load(
      shares[0]!.map((t) => ({ blob: t.blob, path: t.item.path })),
      texts,
    );
    await Promise.all(results);
    return todo.length;
  }

  has(k: string): boolean {
    return this.seed.has(k) || this.models.has(k);
  }

  /** Keep only these models: the ones live snapshots still refer to. */
  retain(live: Set<string>): void {
    for (const k of this.models.keys()) if (!live.has(k)) this.models.delete(k);
  }

  async close(): Promise<void> {
    await Promise.all(this.pool.map((w) => w.terminate()));
    this.pool = [];
  }

  add(blob: string, path: string, model: WorkflowFile): void {
    this.models.set(key(blob, path), model);
  }

  /** Whether a version is a blocked handoff, when the seed knows it without the model (Seed.blocked). */
  blocked(blob: string, path: string): boolean | undefined {
    const k = key(blob, path);
    return this.models.has(k) ? undefined : this.seed.blocked(k);
  }

  /** What a version names, when the seed knows it without the model (see Seed.names); undefined: ask get. */
  names(blob: string, path: string): string | null | undefined {
    const k = key(blob, path);
    return this.models.has(k) ? undefined : this.seed.names(k);
  }

  get(blob: string, path: string): WorkflowFile | null {
    const k = key(blob, path);
    if (!this.has(k)) this.load([{ blob, path }]);
    return this.seed.get(k) ?? this.models.get(k) ?? null;
  }

  readonly raw = new Map<string, Uint8Array>();

  bytes(value: string): Uint8Array | null {
    const blob = contentBlob(value);
    if (blob === null) return null;
    let b = this.raw.get(blob);
    if (b === undefined) {
      b = readBlobs(this.root, [blob]).get(blob);
      if (b === undefined) return null;
      this.raw.set(blob, b);
    }
    return b;
  }

  prefetch(values: (string | undefined)[]): void {
    const missing = this.untold(values);
    if (missing.length < 2) return;
    for (const [blob, bytes] of readBlobs(this.root, missing)) keepText(blob, bytes.toString('utf8'));
  }

  /** The blobs of these versions whose text neither this store nor the process holds yet. */
  private untold(values: readonly (string | undefined)[]): string[] {
    const blobs = values.flatMap((v) => {
      const blob = v === undefined ? null : contentBlob(v);
      return blob !== null && !this.texts.has(blob) && !TEXTS.has(blob) ? [blob] : [];
    });
    return [...new Set(blobs)];
  }

  /** Raw text of a non-workflow file version (the config, package.json), cached by blob. */
  text(value: string): string {
    const blob = contentBlob(value);
    if (blob === null) return '';
    let t = this.texts.get(blob) ?? TEXTS.get(blob);
    if (t === undefined) {
      const bytes = readBlobs(this.root, [blob]).get(blob);
      t = bytes?.toString('utf8') ?? '';
      if (bytes) keepText(blob, t);
    }
    this.texts.set(blob, t);
    return t;
  }
}

/**
 * Texts of trust files by blob id, shared by every store of the process: a blob id names its content in any
 * repository, and the pre-commit door reads HEAD's config through three stores (its settings, the commit's before
 * and after), one `git cat-file` process each before.
 */
const TEXTS = new Map<string, string>();

/**
 * Remembers the texts of these files as the working tree holds them, under the blob id of their bytes. The pre-commit
 * door reads HEAD's config and package.json, which the working tree almost always holds unchanged: a blob id names
 * its content, so where the ids agree the text is HEAD's and no `git cat-file` process is started for it. A file that
 * differs (or a repository whose object names are not SHA-1) has another id and is read from git as before.
 */
export function rememberTexts(root: string, paths: readonly string[]): void {
  for (const path of paths) {
    const bytes = plainFile(root, path);
    if (bytes) keepText(blobId(bytes), bytes.toString('utf8'));
  }
}

/**
 * The working tree's file at `path` when it is a plain file no larger than `maxBytes` (a fifo of that name would hold
 * the hook), else null.
 */
function plainFile(root: string, path: string, maxBytes = Infinity): Buffer | null {
  try {
    const st = statSync(join(root, path));
    return st.isFile() && st.size <= maxBytes ? readFileSync(join(root, path)) : null;
  } catch {
    return null;
  }
}

/** Keeps a trust file's text for the process, at most 256 of them (a long history's config versions). */
function keepText(blob: string, text: string): void {
  if (TEXTS.size >= 256) TEXTS.clear();
  TEXTS.set(blob, text);
}

/**
 * Bytes of versions this process holds without asking git, by blob id: a blob id names its content, so bytes whose id
 * is the blob's are that version wherever they were read (the working tree, the change models a commit door kept).
 * The commit doors read the change's versions (a plan's, both sides) from here rather than through one more
 * `git cat-file` process. A few of them only: what a commit's change brings.
 */
const KNOWN = new Map<string, BlobBytes>();
let knownSize = 0;
const KNOWN_MAX = 16 * 2 ** 20;

/** Keeps these bytes as the version `blob` when they are its content; @returns whether they are. */
export function knowBytes(blob: string, bytes: Uint8Array): boolean {
  if (KNOWN.has(blob)) return true;
  if (bytes.length > KNOWN_MAX || blobId(bytes) !== blob) return false;
  if (knownSize + bytes.length > KNOWN_MAX) {
    KNOWN.clear();
    knownSize = 0;
  }
  KNOWN.set(blob, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) as BlobBytes);
  knownSize += bytes.length;
  return true;
}

/** The bytes of `blob` when this process holds them (knowBytes). */
export function knownBytes(blob: string): BlobBytes | undefined {
  return KNOWN.get(blob);
}

/**
 * Keeps the working tree's files where they hold the version given (a change's staged side, after `git add` the
 * usual case): read only as plain files no larger than `maxBytes`, and taken only when their blob id is the one given.
 */
export function knowWorkingTree(
  root: string,
  versions: readonly { path: string; blob: string }[],
  maxBytes: number,
): void {
  for (const { path, blob } of versions) {
    if (KNOWN.has(blob)) continue;
    const bytes = plainFile(root, path, Math.min(maxBytes, KNOWN_MAX));
    if (bytes) knowBytes(blob, bytes);
  }
}

/** readBlobs, with the blobs this process holds taken from here: git is asked for the others only. */
function readKnown(root: string, ids: string[]): Map<string, BlobBytes> {
  const out = new Map<string, BlobBytes>();
  const ask: string[] = [];
  for (const id of ids) {
    const known = KNOWN.get(id);
    if (known) out.set(id, known);
    else ask.push(id);
  }
  if (ask.length > 0) for (const [id, bytes] of readBlobs(root, ask)) out.set(id, bytes);
  return out;
}
