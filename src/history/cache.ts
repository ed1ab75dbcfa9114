// The cache under .git/validate-workflow/ (never committed): parsed models by blob id and path, and the history
// findings up to the last judged commit, so a later run parses only new contents and folds only new commits.
// Anything unreadable, from another version, or made under other settings is ignored and rebuilt.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowFile } from '../model/types.js';
import { blobId, COMMIT_ID, repositoryInfo } from '../shared/git.js';
import { planRefOf } from './sight.js';

// 4: states hold link values and plans named outside the globs (history/links.ts, history/sight.ts).
// 5: one file of sections, each decoded only when a run asks for it (a header, then JSON slices).
// 6: the plan reference of every model beside the models (Header.names): the hooks learn which plans the ledgers and
//    handoffs name without decoding every model.
// 7: a model's slice holds its seldom-read fields apart (LAZY), decoded when a run first reads one of them; and
//    whether each model is a blocked handoff beside the models (Header.blocked): the hooks ask every handoff of HEAD.
// Models outlive an upgrade that changed no reader (READERS_ID, scripts/bundle.mjs): a change outside the readers'
// modules that alters what a cached key holds (the keys engine/lint.ts gives the working tree's files, the links
// history/fold.ts follows) bumps this number, which is hashed with them.
const FORMAT = 7;
const MAGIC = `validate-workflow cache ${FORMAT}\n`;

/**
 * A section of the cache written back as the bytes it was read as, without decoding it. A model's comes with what it
 * names (CachedModels.names), which is written back beside it; undefined when the cache did not know it.
 */
export class Raw {
  constructor(
    readonly bytes: Buffer,
    readonly names?: Names,
    /** Whether the model is a blocked handoff (CachedModels.blocked); undefined when the cache did not know it. */
    readonly blocked?: boolean,
  ) {}
}

/** Whether a model is a handoff whose status is `blocked`: what engine/guidance.ts selfResolvedIn asks of every one. */
export function isBlocked(model: WorkflowFile): boolean {
  return model.kind === 'handoff' && model.status === 'blocked';
}

/**
 * What a model names for the sight (history/sight.ts): its plan reference (planRefOf), null when it names none, and
 * `false` in the file for an entry whose reference is not known (its model is then decoded, as without an index).
 */
type Names = string | null;

interface Header {
  key: string;
  /**
   * The commit the history and the sections of HEAD's history (guidance, resolutions) were judged at; a commit door's
   * cache (engine/doors.ts keepParsed) has those sections at its head and no history.
   */
  head: string | null;
  state: [string, string][];
  /** The cached history's small parts (engine/doors.ts); null when history was not judged. */
  history: unknown;
  /** Named sections (the findings and timeline of each preset variant): [offset, length] in the body. */
  sections: Record<string, [number, number]>;
  /** Models by `blob:path`: [key, offset, length] in the body. */
  models: [string, number, number][];
  /**
   * Where what each model names lies in the body: one JSON array, its entries in the order of `models` (the same
   * keys, so written, kept and dropped with them); null without one.
   */
  names: [number, number] | null;
  /** Where whether each model is a blocked handoff lies: one JSON array of booleans, as `names`; null without one. */
  blocked?: [number, number] | null;
  /** The build that wrote it (toolStamp), whatever the settings in its key; absent in files of older builds. */
  tool?: string;
  /**
   * What its models were read by (modelsKey: the readers' code and the settings that classify paths): a cache under
   * another key whose models the same readers made lends its models alone (loadCache). Absent in older files.
   */
  readers?: string;
}

/** 2 GiB - 1: Node's largest buffer on 32-bit platforms, and what readFileSync read before the body was read lazily. */
const MAX_CACHE_BYTES = 2 ** 31 - 1;

/**
 * Opening for reading without waiting: a named pipe put where a file of the cache folder goes would block the open
 * itself until a writer came. Windows has no such flag (nor named pipes in the file system).
 */
const READ_ANY = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A file of the cache folder (the handover record, the snapshot memory, verify's records), whole, as text: throws
 * when it is not a regular file or is larger than any the tool writes, so a caller that takes a failed read as no
 * file takes these as none too, rather than block on a named pipe or allocate what a writer chose.
 */
export function readCacheText(file: string): string {
  const fd = openSync(file, READ_ANY);
  try {
    if (toolFileSize(fd) === null) throw new Error(`${file} is not a file the tool wrote`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The size of an open file of the cache folder, or null when it is none the tool could have written: a named pipe or
 * a device (the first read would block for ever: a hook that never returns), or larger than readFileSync took when
 * the cache was read whole (anything that can run git can write it, `truncate -s 5G`): the run parses again rather
 * than allocate it.
 */
function toolFileSize(fd: number): number | null {
  const stat = fstatSync(fd);
  return stat.isFile() && stat.size <= MAX_CACHE_BYTES ? stat.size : null;
}

const closing = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
});

/**
 * A cache file's body, read where a run asks for it: a hook needs a few slices (what HEAD's files name, a section or
 * two) of tens of megabytes, and reading the file whole was 20 to 40 ms of a pre-commit on the bench shapes. The file
 * stays open for the cache's life: writers replace it by a rename (writeCacheFile), so the descriptor reads the very
 * bytes its header describes, whatever a later run writes. A run that asks for many slices (a full run decodes and
 * writes back every model) reads the rest whole, once.
 */
class Body {
  private whole: Buffer | null = null;
  private reads = 0;

  constructor(
    private fd: number | null,
    private readonly start: number,
    readonly length: number,
  ) {
    if (fd !== null) closing.register(this, fd, this);
  }

  /** Bytes [offset, offset + length) of the body: fewer when the file is shorter than its header said (none then). */
  slice(offset: number, length: number): Buffer {
    if (this.whole === null && ++this.reads > 64) this.all();
    if (this.whole !== null) return this.whole.subarray(offset, offset + length);
    return this.read(offset, length);
  }

  /**
   * Closes the file, read or not: a process that judges again and again (the lint() API, a test worker) must not keep
   * one descriptor per cache it loaded until the garbage collector runs. A slice asked for afterwards is bytes
   * missing (its model is parsed again), never bytes of a file written since.
   */
  close(): void {
    if (this.fd !== null) {
      closing.unregister(this);
      try {
        closeSync(this.fd);
      } catch {
        // Closed already.
      }
      this.fd = null;
    }
  }

  /** The whole body; the file is closed once it is read. */
  all(): Buffer {
    if (this.whole === null) {
      this.whole = this.read(0, this.length);
      this.close();
    }
    return this.whole;
  }

  /** What the file holds there; a read that fails is bytes missing, as a file cut short: no model, parsed again. */
  private read(offset: number, length: number): Buffer {
    let buf = Buffer.alloc(0);
    let got = 0;
    try {
      // Inside the try: a length the allocator refuses is bytes missing too, never a run's internal error.
      buf = Buffer.allocUnsafe(length);
      while (this.fd !== null && got < length) {
        const n = readSync(this.fd, buf, got, length - got, this.start + offset + got);
        if (n === 0) break;
        got += n;
      }
    } catch {
      // As above: what was read so far.
    }
    return buf.subarray(0, got);
  }
}

/**
 * The models of a cache, decoded one by one as a run asks for them: a warm run over thousands of files at HEAD needs
 * all of them, a hook judging one file a handful. An entry that does not decode is absent, and parsed again.
 */
export class CachedModels {
  private readonly decoded = new Map<string, WorkflowFile | null>();
  /** Entries that did not decode: the file is rewritten, without them. */
  broken = 0;

  constructor(
    private readonly body: Body,
    private readonly index: Map<string, [number, number]>,
    private readonly namesAt: [number, number] | null = null,
    private readonly blockedAt: [number, number] | null = null,
  ) {}

  private blockedByKey: Map<string, boolean> | null | undefined;

  /**
   * Whether the model of `k` is a blocked handoff (isBlocked), without decoding it; undefined when the cache does not
   * say. Kept as `names` is: a pure function of the model, in the same file under the same key.
   */
  blocked(k: string): boolean | undefined {
    if (this.blockedByKey === undefined) {
      const list = this.blockedAt ? decodeAt<unknown>(this.body, this.blockedAt) : null;
      this.blockedByKey = null;
      if (Array.isArray(list) && list.length === this.index.size) {
        this.blockedByKey = new Map();
        let i = 0;
        for (const key of this.index.keys()) {
          const b: unknown = list[i++];
          if (typeof b === 'boolean') this.blockedByKey.set(key, b);
        }
      }
    }
    return this.blockedByKey?.get(k);
  }

  /** The names of the models by key, decoded on first use; null when the file has none that fits its models. */
  private namesByKey: Map<string, Names> | null | undefined;

  /**
   * What the model of `k` names (its plan reference, null for none) as the run that wrote the model read it, without
   * decoding the model; undefined when the cache does not say (no such model, or no usable index): ask the model.
   * A pure function of the blob, kept in the same file under the same key as the model: as good as the model is.
   */
  names(k: string): Names | undefined {
    if (this.namesByKey === undefined) this.namesByKey = this.readNames();
    return this.namesByKey?.get(k);
  }

  private readNames(): Map<string, Names> | null {
    const list = this.namesAt ? decodeAt<unknown>(this.body, this.namesAt) : null;
    // Entries stand by their position: a list of another length is not this file's models' (a torn or foreign write).
    if (!Array.isArray(list) || list.length !== this.index.size) return null;
    const out = new Map<string, Names>();
    let i = 0;
    for (const k of this.index.keys()) {
      const n: unknown = list[i++];
      if (typeof n === 'string' || n === null) out.set(k, n);
    }
    return out;
  }

  get(k: string): WorkflowFile | undefined {
    let m = this.decoded.get(k);
    if (m === undefined) {
      const at = this.index.get(k);
      if (!at) return undefined;
      m = decodeModel(this.body.slice(...at), [0, at[1]]);
      if (m === null) {
        m = null;
        this.broken++;
      }
      this.decoded.set(k, m);
    }
    return m ?? undefined;
  }

  has(k: string): boolean {
    return this.get(k) !== undefined;
  }

  /** The entry's bytes as stored, to write it back without decoding it. */
  raw(k: string): Raw | undefined {
    const at = this.index.get(k);
    return at && this.decoded.get(k) !== null
      ? new Raw(this.body.all().subarray(at[0], at[0] + at[1]), this.names(k), this.blocked(k))
      : undefined;
  }

  keys(): IterableIterator<string> {
    return this.index.keys();
  }

  get size(): number {
    return this.index.size;
  }

  /** How many entries this run decoded (VALIDATE_WORKFLOW_TIMING). */
  get decodedCount(): number {
    return this.decoded.size;
  }
}

/**
 * The fields of a model that a run over a whole snapshot seldom reads (a handoff's or ledger's text lowered for
 * mentions, the position of every field, read where a finding is reported): over half of a model's bytes. A model's
 * slice is three JSON texts, one line each: the model without them, the names of those it has, and their values. The
 * values are decoded when one of them is first read, and are then the model's own fields, the same values the
 * written model held (a commit through the hooks decodes HEAD's thousands of models and reads these for a few).
 */
const LAZY: readonly string[] = ['mentions', 'positions'];

function encodeModel(model: WorkflowFile): Buffer {
  const rest: Record<string, unknown> = {};
  const lazy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(model)) {
    if (v === undefined) continue;
    if (LAZY.includes(k)) lazy[k] = v;
    else rest[k] = v;
  }
  return Buffer.from(`${JSON.stringify(rest)}\n${JSON.stringify(Object.keys(lazy))}\n${JSON.stringify(lazy)}`, 'utf8');
}

/**
 * A model's slice (encodeModel), its lazy fields decoded when first read; null when it is no model. encodeModel always
 * writes three lines; a slice of one JSON text (a file written by something else under this format's name) is read as
 * a whole model or nothing. The lazy part is checked for its shape here, and a value that then does not decode fails
 * the run (exit 2, the message naming the cache to remove) rather than read as nothing: a hook that judged a model
 * without its positions or mentions could pass what it should refuse.
 */
function decodeModel(body: Buffer, [offset, length]: [number, number]): WorkflowFile | null {
  const end = offset + length;
  const first = body.indexOf(10, offset);
  if (first < 0 || first >= end) {
    const whole = decode<WorkflowFile>(body, [offset, length]);
    return whole !== null && typeof whole === 'object' && !Array.isArray(whole) ? whole : null;
  }
  const second = body.indexOf(10, first + 1);
  if (second < 0 || second >= end || body[second + 1] !== 0x7b || body[end - 1] !== 0x7d) return null;
  const model = decode<Record<string, unknown>>(body, [offset, first - offset]);
  const names = decode<unknown>(body, [first + 1, second - first - 1]);
  if (model === null || typeof model !== 'object' || Array.isArray(model)) return null;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string' && LAZY.includes(n) && !(n in model)))
    return null;
  const at: [number, number] = [second + 1, end - second - 1];
  let values: Record<string, unknown> | null = null;
  const own = (k: string, value: unknown) =>
    Object.defineProperty(model, k, { value, writable: true, enumerable: true, configurable: true });
  for (const k of names as string[])
    Object.defineProperty(model, k, {
      enumerable: true,
      configurable: true,
      get() {
        if (values === null) {
          const read = decode<Record<string, unknown>>(body, at);
          if (read === null || typeof read !== 'object')
            throw new Error(
              `the cache's entry for ${String(model.path)} is damaged: remove .git/validate-workflow/cache.pack`,
            );
          values = read;
        }
        for (const n of names as string[]) if (Object.getOwnPropertyDescriptor(model, n)?.get) own(n, values[n]);
        return values[k];
      },
      set(value: unknown) {
        own(k, value);
      },
    });
  return model as unknown as WorkflowFile;
}

/** A slice of a cache's body, decoded; null when it does not decode. */
function decodeAt<T>(body: Body, at: [number, number]): T | null {
  return decode<T>(body.slice(...at), [0, at[1]]);
}

function decode<T>(body: Buffer, [offset, length]: [number, number]): T | null {
  try {
    return JSON.parse(body.toString('utf8', offset, offset + length)) as T;
  } catch {
    return null;
  }
}

export interface Cache {
  key: string;
  /**
   * Taken from a cache under another key (another build, other settings) whose models the same readers made: its
   * models alone, with no head, history or sections (loadCache).
   */
  lent: boolean;
  head: string | null;
  state: [string, string][];
  history: unknown;
  models: CachedModels;
  /** A named section, decoded now; null when it is missing or does not decode. */
  section(name: string): unknown;
  /** A named section as stored, to write it back unchanged. */
  rawSection(name: string): Raw | null;
  /** The sections' names, for writing them back. */
  sections(): string[];
  /** Closes the file (idempotent); what was decoded stays, what was not is no longer there. */
  close(): void;
  /**
   * Reads the rest of the file and closes it, every model still there: before the cache is written, as Windows renames
   * nothing over a file held open (the new cache would never land). A save holds the whole cache in memory anyway.
   */
  detach(): void;
}

export interface CacheWrite {
  key: string;
  /** modelsKey of the settings the models were read under. */
  readers: string;
  head: string | null;
  state: [string, string][];
  history: unknown;
  sections: Record<string, unknown>;
  models: Iterable<[string, WorkflowFile | Raw]>;
}

/**
 * The tool itself is part of the key: a rebuilt reader may read the same bytes differently, a changed rule judge the
 * same commit differently. By content, not by modification time: CI installs the same version afresh on every run
 * (new mtimes), and a cache restored there (README, "Warm CI") must match when the tool is the same, and be rebuilt
 * when it is not.
 */
let stamp: string | undefined;

/** The tool's own modules, unbundled: the files of this module's kind under its parent folder but the bundle's. */
function modulesBeside(here: string): string[] {
  const ext = extname(fileURLToPath(import.meta.url));
  return readdirSync(resolve(here, '..'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext) && !f.split(sep).includes('bundle'))
    .sort();
}

function toolStamp(): string {
  if (stamp !== undefined) return stamp;
  const here = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha1');
  for (const f of [
    '../read/plan.js',
    '../read/handoff.js',
    '../read/ledger.js',
    '../read/yaml.js',
    '../read/markdown.js',
    '../read/parsers.js',
    '../../package.json',
  ]) {
    const path = resolve(here, f);
    hash.update(f).update(existsSync(path) ? readFileSync(path) : '');
  }
  // The bundle (dist/bundle/) holds readers, rules and engine in its chunks, and the findings cached were made by
  // all of them: the build's own hash of every file (scripts/bundle.mjs). Unbundled (dist/cli/main.js), the same
  // modules are files of their own beside this one: every one of them, or a changed rule would resume a cache it
  // judged otherwise.
  const build = resolve(here, 'BUILD_ID');
  if (existsSync(build)) hash.update(readFileSync(build));
  else for (const f of modulesBeside(here)) hash.update(f).update(readFileSync(resolve(here, '..', f)));
  stamp = hash.digest('hex');
  return stamp;
}

let readersStamp: string | undefined;

/**
 * The identity of the code that reads, classifies and encodes models: the bundle's READERS_ID (scripts/bundle.mjs,
 * from what those modules import), else the whole tool's stamp (unbundled, every module counts).
 */
function readersOf(): string {
  if (readersStamp !== undefined) return readersStamp;
  const id = resolve(dirname(fileURLToPath(import.meta.url)), 'READERS_ID');
  readersStamp = existsSync(id) ? `readers ${readFileSync(id, 'utf8').trim()}` : `tool ${toolStamp()}`;
  return readersStamp;
}

/** The key a cache's models hold under: the readers' identity and the settings `parts` that decide how paths read. */
export function modelsKey(parts: unknown[]): string {
  return createHash('sha1')
    .update(JSON.stringify([readersOf(), ...parts]))
    .digest('hex');
}

export function cacheKey(parts: unknown[]): string {
  return createHash('sha1')
    .update(JSON.stringify([toolStamp(), ...parts]))
    .digest('hex');
}

/** git's blob id of some bytes: the same key whether the content comes from the working tree or a commit. */
export { blobId };

export function cacheFile(root: string): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.commonDir, 'validate-workflow', 'cache.pack') : null;
}

/** The cache of the format before this one, one JSON file read whole: removed when a new cache is written. */
const LEGACY = 'cache.json';

const within = (at: unknown, size: number): at is [number, number] =>
  Array.isArray(at) &&
  at.length === 2 &&
  Number.isInteger(at[0]) &&
  Number.isInteger(at[1]) &&
  at[0] >= 0 &&
  at[1] >= 0 &&
  at[0] + at[1] <= size;

/** The magic and the header, one line each, read in growing chunks until the header's end; the body stays on disk. */
function readHeader(fd: number, size: number): { header: Header; nl: number } | null {
  let head = Buffer.alloc(0);
  let nl = -1;
  while (nl < 0 && head.length < size) {
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(head.length, 1 << 20), size - head.length));
    const n = readSync(fd, chunk, 0, chunk.length, head.length);
    if (n === 0) break;
    head = Buffer.concat([head, chunk.subarray(0, n)]);
    if (head.toString('latin1', 0, MAGIC.length) !== MAGIC.slice(0, head.length)) return null;
    nl = head.indexOf(10, MAGIC.length);
  }
  if (head.toString('latin1', 0, MAGIC.length) !== MAGIC || nl < 0) return null;
  return { header: JSON.parse(head.toString('utf8', MAGIC.length, nl)) as Header, nl };
}

/**
 * Whether the cache file there was written by this very build, whatever settings it was kept under: a cache of other
 * settings is then still good for the runs that use them (a full run with `--since`, a thoughts repository's hooks with
 * their own config), and one of an older build is good for nothing. False for no readable file, or for a header
 * without the build (written before it was kept).
 */
export function writtenByThisBuild(file: string | null): boolean {
  if (!file) return false;
  let fd: number | null = null;
  try {
    fd = openSync(file, READ_ANY);
    const size = toolFileSize(fd);
    const read = size === null ? null : readHeader(fd, size);
    return read !== null && read.header.tool === toolStamp();
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * The cache, if there is one made by this build under these settings. Only its header is decoded here (the head
 * judged, its files, where each section lies): sections and models are decoded when asked for. Anything malformed
 * (a truncated file, another format, offsets past the end) is no cache at all.
 */
export function loadCache(file: string | null, key: string, readers?: string): Cache | null {
  if (!file) return null;
  let fd: number | null = null;
  try {
    fd = openSync(file, READ_ANY);
    const size = toolFileSize(fd);
    if (size === null) return null;
    const read = readHeader(fd, size);
    if (!read) return null;
    const { header, nl } = read;
    const length = size - (nl + 1);
    // Another build's cache, or this build's under other settings: its models still hold when the same readers made
    // them under settings that read paths alike (an upgrade that changed rules). Nothing else of it is taken.
    const lent = header.key !== key && readers !== undefined && header.readers === readers;
    if (
      (header.key !== key && !lent) ||
      // A commit's id, or nothing: the head is handed to git (a hostile `--output=<file>` would be an option).
      (header.head !== null && (typeof header.head !== 'string' || !COMMIT_ID.test(header.head))) ||
      !Array.isArray(header.state) ||
      !Array.isArray(header.models) ||
      typeof header.sections !== 'object' ||
      header.sections === null
    )
      return null;
    const index = new Map<string, [number, number]>();
    for (const entry of header.models) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') return null;
      const at: unknown = entry.slice(1);
      if (!within(at, length)) return null;
      index.set(entry[0], at);
    }
    // An index of names that lies outside the body is none: each model is then decoded to learn what it names.
    const names = within(header.names, length) ? header.names : null;
    const blocked = within(header.blocked, length) ? header.blocked : null;
    const sections = new Map<string, [number, number]>();
    for (const [name, at] of Object.entries(header.sections)) {
      if (!within(at, length)) return null;
      sections.set(name, at);
    }
    const body = new Body(fd, nl + 1, length);
    fd = null;
    if (lent) sections.clear();
    return {
      key: header.key,
      lent,
      head: lent ? null : header.head,
      state: lent ? [] : header.state,
      history: lent ? null : header.history,
      models: new CachedModels(body, index, names, blocked),
      section: (name) => {
        const at = sections.get(name);
        return at ? decodeAt(body, at) : null;
      },
      rawSection: (name) => {
        const at = sections.get(name);
        return at ? new Raw(body.all().subarray(at[0], at[0] + at[1])) : null;
      },
      sections: () => [...sections.keys()],
      close: () => body.close(),
      detach: () => void body.all(),
    };
  } catch {
    return null;
  } finally {
    // The body keeps the file open when there is a cache; nothing else does.
    if (fd !== null) closeSync(fd);
  }
}

export function saveCache(file: string | null, data: CacheWrite): void {
  if (!file) return;
  const parts: Buffer[] = [];
  let size = 0;
  const put = (value: unknown): [number, number] => {
    const bytes = value instanceof Raw ? value.bytes : Buffer.from(JSON.stringify(value), 'utf8');
    return putBytes(bytes);
  };
  const putBytes = (bytes: Buffer): [number, number] => {
    parts.push(bytes);
    size += bytes.length;
    return [size - bytes.length, bytes.length];
  };
  const sections: Record<string, [number, number]> = {};
  for (const [name, value] of Object.entries(data.sections)) sections[name] = put(value);
  const models: [string, number, number][] = [];
  const names: (Names | false)[] = [];
  const blocked: (boolean | null)[] = [];
  for (const [k, m] of data.models) {
    models.push([k, ...(m instanceof Raw ? put(m) : putBytes(encodeModel(m)))]);
    names.push(m instanceof Raw ? namesOfRaw(m) : planRefOf(m));
    blocked.push(m instanceof Raw ? blockedOfRaw(m) : isBlocked(m));
  }
  const header: Header = {
    tool: toolStamp(),
    key: data.key,
    readers: data.readers,
    head: data.head,
    state: data.state,
    history: data.history,
    sections,
    models,
    names: put(names),
    blocked: put(blocked),
  };
  writeCacheFile(file, Buffer.concat([Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`, 'utf8'), ...parts]));
  try {
    rmSync(join(file, '..', LEGACY), { force: true });
  } catch {
    // Only disk space: an older build still reads and rewrites its own file.
  }
}

/**
 * What a model carried over undecoded names: as the cache it came from said, else read from its bytes. A model that
 * does not decode names nothing known (`false`): a run decodes it, finds it broken, and parses the file.
 */
function namesOfRaw(m: Raw): Names | false {
  if (m.names !== undefined) return m.names;
  const model = decodeModel(m.bytes, [0, m.bytes.length]);
  return model !== null ? planRefOf(model) : false;
}

/** Whether a model carried over undecoded is a blocked handoff, as namesOfRaw; null (not known) when it does not decode. */
function blockedOfRaw(m: Raw): boolean | null {
  if (m.blocked !== undefined) return m.blocked;
  const model = decodeModel(m.bytes, [0, m.bytes.length]);
  return model !== null ? isBlocked(model) : null;
}

/**
 * Writes a file of the cache folder (the cache, status's index) whole or not at all. Rename is atomic: a concurrent
 * run reads the old file or the new one, never half of one. A read-only .git or a full disk costs speed, not
 * correctness, so a failure is ignored.
 */
export function writeCacheFile(file: string, text: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch {
    // See above: the next run rebuilds what this one could not keep. A temporary file left behind would be one more
    // copy of the cache per process id, each as large as the cache, that nothing ever removes.
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing more to do: the folder itself is unwritable.
    }
  }
}
