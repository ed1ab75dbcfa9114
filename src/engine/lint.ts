// One call from a repository root to findings: discovery, reading and the snapshot rules. The CLI, the tests and
// the hooks all come through here.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { discover, discoverNamed, discoverPlansAt, gitIgnored, namedPlans, type Discovered } from '../read/discover.js';
import { instructionInputs } from '../read/profile.js';
import { createHash } from 'node:crypto';
import { buildWorkspace, readOne, readableItem, readWorkspace, straysOf } from '../read/workspace.js';
import type { Profile } from '../read/profile.js';
import { learnedProfile, promiseOf } from '../rules/promise.js';
import { jobs, readAll } from '../read/parallel.js';
import { ruleById } from './catalog.js';
import type { WorkflowFile, Workspace } from '../model/types.js';
import { blobId } from '../shared/git.js';
import { key, type KnownModels } from '../history/store.js';
import { judgeSnapshot, readPack } from './judge.js';
import { PACKS } from '../packs/registry.js';
import fg from 'fast-glob';
import type { Pack, PackWorkspace } from '../packs/types.js';
import type { Finding } from '../model/finding.js';
import { applyBaseline } from './baseline.js';
import { loadParsers } from '../read/lazy.js';

export interface LintOptions {
  /** Apply validate-workflow.baseline.json when it exists (default true); false for `--baseline-write`. */
  baseline?: boolean;
  /** Blocked handoffs the user gave guidance for in history (engine/guidance.ts). */
  guidance?: ReadonlyMap<string, string>;
  /** Resolutions agents' commits wrote (engine/guidance.ts): they resolve nothing. */
  selfResolved?: ReadonlySet<string>;
}

/**
 * The baseline entries the snapshot pass judges: its own rules', and those of ids no rule has any more (which can
 * only be stale). History entries are left to the history pass, which has their findings.
 */
export function snapshotEntry(ruleId: string): boolean {
  const rule = ruleById(ruleId);
  return !rule || rule.snapshot !== undefined || (rule.packSnapshot !== undefined && rule.packTransition === undefined);
}

export interface LintResult {
  discovered: Discovered[];
  /** Files of the rule packs that were read (ralph sessions, soong plans, memory). */
  packFiles: string[];
  workspace: Workspace;
  /** The lines of each workflow file's disable comments, by path (only files that have some). */
  disables: ReadonlyMap<string, number[]>;
  findings: Finding[];
}

/** What the snapshot rules were given besides the workflow files, for the verdict's digest. */
interface JudgeInputs {
  packs: PackListing;
}

function judge(
  root: string,
  discovered: Discovered[],
  files: WorkflowFile[],
  config: Config,
  opts: LintOptions,
  inputs: JudgeInputs,
): { result: LintResult; raw: Finding[] } {
  const workspace = buildWorkspace(root, files, straysOf(discovered));
  // Rule packs judge their own files with their own readers; the runner, severities and baseline are shared.
  const packs = readListing(inputs.packs);
  const raw = judgeSnapshot({
    workspace,
    packs,
    config,
    guidance: opts.guidance,
    selfResolved: opts.selfResolved,
  });
  return {
    raw,
    result: {
      discovered,
      packFiles: inputs.packs.map((f) => f.path),
      workspace,
      disables: disablesOf(workspace),
      findings: settle(root, raw, config, opts),
    },
  };
}

/** The baseline's snapshot entries, applied to what the snapshot rules found (read afresh: it is no verdict's input). */
function settle(root: string, findings: Finding[], config: Config, opts: LintOptions): Finding[] {
  return opts.baseline === false ? findings : applyBaseline(root, findings, { config, scope: snapshotEntry });
}

/** The lines of each file's disable comments (only files that have some), for history findings (doors.ts). */
export function disablesOf(ws: Workspace): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const file of [...ws.plans, ...ws.handoffs, ...ws.ledgers])
    if (file.disables.length)
      out.set(
        file.path,
        file.disables.map((d) => d.line),
      );
  return out;
}

/** The pack files of the working tree, each with its bytes (or why they could not be read), not parsed yet. */
type PackListing = { pack: Pack; path: string; bytes: Uint8Array | Error }[];

function packListing(root: string, config: Config, inGit: boolean): PackListing {
  const out: PackListing = [];
  // The packs' globs, not activePacks's compiled matchers: compiling them was 50 ms of a warm run that needs none.
  for (const pack of PACKS) {
    const globs = pack.globs(config);
    if (globs.length === 0) continue;
    const paths = fg
      .sync(globs, {
        cwd: root,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: true,
        ignore: ['**/node_modules/**', '**/.git/**'],
      })
      .sort();
    const ignored = inGit ? gitIgnored(root, paths) : new Set<string>();
    for (const path of paths) {
      if (ignored.has(path)) continue;
      let bytes: Uint8Array | Error;
      try {
        bytes = readFileSync(join(root, path));
      } catch (err) {
        bytes = err as Error;
      }
      out.push({ pack, path, bytes });
    }
  }
  return out;
}

function readListing(listing: PackListing): PackWorkspace {
  const ws: PackWorkspace = new Map();
  for (const { pack, path, bytes } of listing) {
    const file = readPack(pack, path, () => {
      if (bytes instanceof Error) throw bytes;
      return bytes;
    });
    const list = ws.get(pack.id);
    if (list) list.push(file);
    else ws.set(pack.id, [file]);
  }
  return ws;
}

const readable = (discovered: Discovered[]) => discovered.filter(readableItem);

/** Single-threaded: for tests and small workspaces. */
export function lintRepository(root: string, config: Config, inGit: boolean, opts: LintOptions = {}): LintResult {
  const discovered = discover(root, config, inGit);
  const files = readable(discovered).map((d) => readOne(root, d, config.maxFileBytes));
  const named = discoverNamed(root, config, files, new Set(discovered.map((d) => d.path)), inGit);
  files.push(...readable(named).map((d) => readOne(root, d, config.maxFileBytes)));
  return judge(root, [...discovered, ...named], files, config, opts, { packs: packListing(root, config, inGit) })
    .result;
}

/** `[path, stat, key]` per file (Verdict.stamps). */
type Stamps = [string, string, string][];

/**
 * What the snapshot rules found in a working tree, kept in the cache (engine/doors.ts) with a digest of everything
 * they were given: a warm run over an unchanged tree then decodes no model and runs no rule, it only reads and hashes
 * the files to know they are unchanged.
 */
export interface Verdict {
  /**
   * sha1 of the rules' inputs: the config, the guidance and resolutions history handed over, the files found (kinds,
   * links) with their contents' blob ids, the pack files' contents, and the instruction files' contents (the signals
   * the rules read are a function of them: read/profile.ts instructionInputs).
   * The tool and the settings are the cache's own key.
   */
  inputs: string;
  /** What the snapshot rules found, before the baseline (read afresh on every run: it is no input of the rules). */
  findings: Finding[];
  /** The plans the files name outside the globs (discover.ts namedPlans), looked for again on every run. */
  wanted: string[];
  /** The lines of disable comments by file (LintResult.disables). */
  disables: [string, number[]][];
  /**
   * `[path, stat, key]`: a file whose size, times and inode are still `stat` holds the content of `key`, so a warm
   * run reads and hashes only the files that changed (git's index does the same). Only files that had not changed
   * for a while when they were read (RACY) are kept: an edit in the same tick of the clock could keep its stat.
   */
  stamps: Stamps;
}

/** How old a file's modification must be for its stat to stand for its content (FAT's clock ticks every 2 s). */
const RACY = 3000;

const stampOf = (st: { size: number; mtimeMs: number; ctimeMs: number; ino: number; dev: number }) =>
  `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${st.dev}`;

const isVerdict = (v: unknown): v is Verdict =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Verdict).inputs === 'string' &&
  Array.isArray((v as Verdict).findings) &&
  Array.isArray((v as Verdict).wanted) &&
  (v as Verdict).wanted.every((p) => typeof p === 'string') &&
  Array.isArray((v as Verdict).stamps) &&
  (v as Verdict).stamps.every((s) => Array.isArray(s) && s.length === 3 && s.every((x) => typeof x === 'string')) &&
  Array.isArray((v as Verdict).disables) &&
  (v as Verdict).disables.every(
    (d) => Array.isArray(d) && typeof d[0] === 'string' && Array.isArray(d[1]) && d[1].every(Number.isInteger),
  );

/** The working tree's models by `blob:path`: every key known, a model only decoded (or parsed) when asked for. */
export type TreeModels = KnownModels & { keys(): Iterable<string> };

class LazyTreeModels implements KnownModels {
  private readonly got = new Map<string, WorkflowFile>();

  constructor(
    private readonly items: Map<string, Discovered>,
    private readonly known: KnownModels,
    private readonly root: string,
    private readonly maxBytes: number,
  ) {}

  get(k: string): WorkflowFile | undefined {
    const item = this.items.get(k);
    if (!item) return undefined;
    let m = this.got.get(k) ?? this.known.get(k);
    if (!m) m = readOne(this.root, item, this.maxBytes);
    this.got.set(k, m);
    return m;
  }

  has(k: string): boolean {
    return this.items.has(k);
  }

  keys(): Iterable<string> {
    return this.items.keys();
  }

  /** Every model, in the order the files were found. */
  files(): WorkflowFile[] {
    return [...this.items.keys()].map((k) => this.get(k)!);
  }
}

/** The digest of what the snapshot rules are given (Verdict.inputs). */
function verdictInputs(
  root: string,
  config: Config,
  opts: LintOptions,
  discovered: Discovered[],
  keys: string[],
  packs: PackListing,
): string {
  const sorted = <T>(xs: Iterable<T>) => [...xs].sort();
  return createHash('sha1')
    .update(
      JSON.stringify([
        root,
        config,
        // None given and none known are the same to the rules.
        sorted(opts.guidance ?? []),
        sorted(opts.selfResolved ?? []),
        discovered,
        keys,
        packs.map((f) => [
          f.pack.id,
          f.path,
          f.bytes instanceof Error ? `unreadable: ${f.bytes.message}` : blobId(f.bytes),
        ]),
        instructionInputs(root),
      ]),
    )
    .digest('hex');
}

/**
 * Reads on every core when the workspace is large enough to pay for the workers. `known` holds models by
 * `blob:path` (from the cache); files whose content hashes to a known blob are not parsed again. `verdict` is the
 * cached Verdict: when everything the rules would be given is unchanged, its findings are the answer, and the
 * workspace is built only if a caller asks for it (the markdown review).
 * @returns also every model by `blob:path`, for the cache and for history, which meets the same contents again, and
 *   the verdict to keep (null when a file could not be read)
 */
export async function lintRepositoryParallel(
  root: string,
  config: Config,
  inGit: boolean,
  known: KnownModels = new Map<string, WorkflowFile>(),
  opts: LintOptions & { verdict?: unknown } = {},
): Promise<LintResult & { models: TreeModels; verdict: Verdict | null }> {
  const globbed = discover(root, config, inGit);
  const packs = packListing(root, config, inGit);
  const cached = isVerdict(opts.verdict) ? opts.verdict : null;
  const kept = cached && keptVerdict(root, config, inGit, known, opts, globbed, packs, cached);
  if (kept) return kept;
  await loadParsers();
  const models = new Map<string, WorkflowFile>();
  const keys: (string | null)[] = [];
  const stamps: Stamps = [];
  const files = await readCached(root, readable(globbed), config, known, models, keys, stamps);
  // Plans the files name outside the globs; they name no further plans, so one more pass reads them all.
  const wanted = namedPlans(config, files, new Set(globbed.map((d) => d.path)));
  const named = discoverPlansAt(root, wanted, inGit);
  files.push(...(await readCached(root, readable(named), config, known, models, keys, stamps)));
  const discovered = [...globbed, ...named];
  const { result, raw } = judge(root, discovered, files, config, opts, { packs });
  const whole = keys.filter((k): k is string => k !== null);
  const verdict =
    whole.length === keys.length
      ? {
          inputs: verdictInputs(root, config, opts, discovered, whole, packs),
          findings: raw,
          wanted,
          disables: [...result.disables],
          stamps,
        }
      : null;
  return { ...result, models, verdict };
}

/**
 * The cached verdict's answer, when everything the snapshot rules would be given is what it was made from; null when
 * anything differs (or a file cannot be read), and the rules must run.
 */
function keptVerdict(
  root: string,
  config: Config,
  inGit: boolean,
  known: KnownModels,
  opts: LintOptions,
  globbed: Discovered[],
  packs: PackListing,
  cached: Verdict,
): (LintResult & { models: TreeModels; verdict: Verdict }) | null {
  const stamps = new Map(cached.stamps.map(([path, stat, k]) => [path, { stat, k }]));
  const globKeys = blobKeys(root, readable(globbed), stamps);
  if (!globKeys) return null;
  const named = discoverPlansAt(root, cached.wanted, inGit);
  const namedKeys = blobKeys(root, readable(named), stamps);
  if (!namedKeys) return null;
  const discovered = [...globbed, ...named];
  const keys = [...globKeys, ...namedKeys];
  if (verdictInputs(root, config, opts, discovered, keys, packs) !== cached.inputs) return null;
  const items = readable(discovered);
  const models = new LazyTreeModels(new Map(keys.map((k, i) => [k, items[i]!])), known, root, config.maxFileBytes);
  let workspace: Workspace | undefined;
  return {
    discovered,
    packFiles: packs.map((f) => f.path),
    get workspace() {
      return (workspace ??= buildWorkspace(root, models.files(), straysOf(discovered)));
    },
    disables: new Map(cached.disables),
    findings: settle(root, cached.findings, config, opts),
    models,
    verdict: cached,
  };
}

/** The `blob:path` key of each file, in order, from its stamp when its stat is unchanged; null when one cannot be read. */
function blobKeys(
  root: string,
  items: Discovered[],
  stamps: Map<string, { stat: string; k: string }>,
): string[] | null {
  const keys: string[] = [];
  for (const item of items) {
    const abs = join(root, item.path);
    try {
      const stamp = stamps.get(item.path);
      keys.push(stamp && stamp.stat === stampOf(statSync(abs)) ? stamp.k : key(blobId(readFileSync(abs)), item.path));
    } catch {
      return null;
    }
  }
  return keys;
}

/**
 * Read these files, taking a model from `known` (by `blob:path`) when the content hashes to a known blob; `models`
 * gets every model read, `keys` each file's key (null when it could not be read), `stamps` the stat of each file
 * old enough to stand for its content (Verdict.stamps).
 */
async function readCached(
  root: string,
  items: Discovered[],
  config: Config,
  known: KnownModels,
  models: Map<string, WorkflowFile>,
  keys: (string | null)[],
  stamps: Stamps,
): Promise<WorkflowFile[]> {
  const files: (WorkflowFile | null)[] = [];
  const misses: { at: number; item: Discovered; key: string | null }[] = [];
  const now = Date.now();
  items.forEach((item, at) => {
    let id: string | null = null;
    let stat: string | null = null;
    try {
      // Stat before read: a change between the two leaves a stat that no longer matches, and a read next time.
      const st = statSync(join(root, item.path));
      if (st.mtimeMs < now - RACY) stat = stampOf(st);
      id = blobId(readFileSync(join(root, item.path)));
    } catch {
      // Unreadable: readOne turns it into a finding below.
    }
    const k = id ? key(id, item.path) : null;
    keys.push(k);
    if (k && stat) stamps.push([item.path, stat, k]);
    const hit = k ? known.get(k) : undefined;
    if (hit && k) models.set(k, hit);
    files.push(hit ?? null);
    if (!hit) misses.push({ at, item, key: k });
  });
  const parsed = await readAll(
    root,
    misses.map((m) => m.item),
    config.maxFileBytes,
    jobs(misses.length),
  );
  misses.forEach((m, i) => {
    files[m.at] = parsed[i]!;
    if (m.key) models.set(m.key, parsed[i]!);
  });
  return files as WorkflowFile[];
}

/**
 * The repository's promise (convention section 4b) as `--print-config` shows it: what the structure rules hold this
 * repository to under its preset, and what was learned, each part with where it came from.
 */
export function repositoryProfile(
  root: string,
  config: Config,
  inGit: boolean,
): { applies: Profile; learned: Profile; dialects: Dialects } {
  const ws = readWorkspace(root, discover(root, config, inGit), config, inGit);
  const ctx = { config, preset: config.preset };
  return { applies: promiseOf(ws, ctx), learned: learnedProfile(ws, ctx), dialects: dialectsOf(ws) };
}

/** Which dialect each workflow file was read as: counts per kind, and the file's own dialect by path. */
export interface Dialects {
  plans: Record<string, number>;
  handoffs: Record<string, number>;
  byPath: Map<string, string>;
}

function dialectsOf(ws: Workspace): Dialects {
  const out: Dialects = { plans: {}, handoffs: {}, byPath: new Map() };
  for (const p of ws.plans.filter((x) => x.readable)) {
    out.plans[p.dialect] = (out.plans[p.dialect] ?? 0) + 1;
    out.byPath.set(p.path, p.dialect);
  }
  for (const h of ws.handoffs.filter((x) => x.readable)) {
    out.handoffs[h.dialect] = (out.handoffs[h.dialect] ?? 0) + 1;
    out.byPath.set(h.path, h.dialect);
  }
  return out;
}
