// One call from a repository root to findings: discovery, reading and the snapshot rules. The CLI, the tests and
// the hooks all come through here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { discover, discoverNamed, gitIgnored, type Discovered } from '../read/discover.js';
import { buildWorkspace, readOne, readableItem, readWorkspace, straysOf } from '../read/workspace.js';
import type { Profile } from '../read/profile.js';
import { learnedProfile, promiseOf } from '../rules/promise.js';
import { jobs, readAll } from '../read/parallel.js';
import { ruleById } from './catalog.js';
import type { WorkflowFile, Workspace } from '../model/types.js';
import { blobId } from '../shared/git.js';
import { key, type KnownModels } from '../history/store.js';
import { activePacks, judgeSnapshot, readPack } from './judge.js';
import fg from 'fast-glob';
import type { PackFile, PackWorkspace } from '../packs/types.js';
import type { Finding } from '../model/finding.js';
import { applyBaseline } from './baseline.js';

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
  findings: Finding[];
}

function judge(
  root: string,
  discovered: Discovered[],
  files: WorkflowFile[],
  config: Config,
  opts: LintOptions,
  inGit: boolean,
): LintResult {
  const workspace = buildWorkspace(root, files, straysOf(discovered));
  // Rule packs judge their own files with their own readers; the runner, severities and baseline are shared.
  const packs = readPackWorkspace(root, config, inGit);
  const findings = judgeSnapshot({
    workspace,
    packs,
    config,
    guidance: opts.guidance,
    selfResolved: opts.selfResolved,
  });
  const packFiles = [...packs.values()].flatMap((files) => files.map((f) => f.path));
  return {
    discovered,
    packFiles,
    workspace,
    findings: opts.baseline === false ? findings : applyBaseline(root, findings, { config, scope: snapshotEntry }),
  };
}

/** The pack files of the working tree (git-ignored files are left out), read with their packs' readers. */
export function readPackWorkspace(root: string, config: Config, inGit: boolean): PackWorkspace {
  const ws: PackWorkspace = new Map();
  for (const { pack } of activePacks(config)) {
    const paths = fg
      .sync(pack.globs(config), {
        cwd: root,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: true,
        ignore: ['**/node_modules/**', '**/.git/**'],
      })
      .sort();
    const ignored = inGit ? gitIgnored(root, paths) : new Set<string>();
    const files: PackFile[] = [];
    for (const path of paths) {
      if (ignored.has(path)) continue;
      files.push(readPack(pack, path, () => readFileSync(join(root, path))));
    }
    if (files.length) ws.set(pack.id, files);
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
  return judge(root, [...discovered, ...named], files, config, opts, inGit);
}

/**
 * Reads on every core when the workspace is large enough to pay for the workers. `known` holds models by
 * `blob:path` (from the cache); files whose content hashes to a known blob are not parsed again.
 * @returns also every model by `blob:path`, for the cache and for history, which meets the same contents again
 */
export async function lintRepositoryParallel(
  root: string,
  config: Config,
  inGit: boolean,
  known: KnownModels = new Map<string, WorkflowFile>(),
  opts: LintOptions = {},
): Promise<LintResult & { models: Map<string, WorkflowFile> }> {
  const globbed = discover(root, config, inGit);
  const models = new Map<string, WorkflowFile>();
  const files = await readCached(root, readable(globbed), config, known, models);
  // Plans the files name outside the globs; they name no further plans, so one more pass reads them all.
  const named = discoverNamed(root, config, files, new Set(globbed.map((d) => d.path)), inGit);
  files.push(...(await readCached(root, readable(named), config, known, models)));
  return { ...judge(root, [...globbed, ...named], files, config, opts, inGit), models };
}

/** Read these files, taking a model from `known` (by `blob:path`) when the content hashes to a known blob; `models` gets every model read. */
async function readCached(
  root: string,
  items: Discovered[],
  config: Config,
  known: KnownModels,
  models: Map<string, WorkflowFile>,
): Promise<WorkflowFile[]> {
  const files: (WorkflowFile | null)[] = [];
  const misses: { at: number; item: Discovered; key: string | null }[] = [];
  items.forEach((item, at) => {
    let id: string | null = null;
    try {
      id = blobId(readFileSync(join(root, item.path)));
    } catch {
      // Unreadable: readOne turns it into a finding below.
    }
    const k = id ? key(id, item.path) : null;
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
