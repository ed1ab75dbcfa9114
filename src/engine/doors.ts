// The doors of the default command, each only a way to build (before, after) for the one runner (judge.ts):
// - the repository: the working tree's snapshot rules, and the fold over HEAD's history (through the cache);
// - a range (pre-push, pull requests): the fold over `from..to`, plus the snapshot findings the range introduces;
// - the pending commit (pre-commit, commit-msg): HEAD -> the index, plus the snapshot findings it introduces.
// judgeDoor picks one from the caller's options; the Claude Code hook's door is agent-door.ts.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config, Preset } from '../config/config.js';
import type { TimelineEntry } from '../model/history.js';
import type { WorkflowFile, Workspace } from '../model/types.js';
import {
  cacheFile,
  cacheKey,
  loadCache,
  modelsKey,
  saveCache,
  writtenByThisBuild,
  type Cache,
  Raw,
} from '../history/cache.js';
import {
  filesAt,
  headTrustSnapshot,
  listHeadAhead,
  newStore,
  pendingCommit,
  untouched,
  untouchedQuestion,
} from '../history/fold.js';
import { CONFIG_FILE } from '../config/config.js';
import { RULE_IDS } from './catalog.js';
import { BASELINE_FILE, Snapshot, type FileMap } from '../history/snapshot.js';
import { key, ModelStore, rememberTexts, sources, type KnownModels } from '../history/store.js';
import { ask, askEarly, dropEarly, headCommit, mergeHeads, repositoryInfo } from '../shared/git.js';
import { UsageError } from '../shared/errors.js';
import { since, timing } from '../shared/timing.js';
import { applyBaseline, baselineAt, baselineIn } from './baseline.js';
import { guidanceIn, guidanceLog, guidedBy, holdsBlockedHandoff, selfResolvedIn } from './guidance.js';
import {
  commentFree,
  dropVerdict,
  handoverKey,
  handoverSettings,
  leaveVerdict,
  takeVerdict,
  verdictStamp,
} from './handover.js';
import { compareFindings, oneCause, type Finding, firstPerCause } from '../model/finding.js';
import { citeInstructions } from './findings.js';
import {
  describeAdoption,
  judgeHistory,
  vouchingParents,
  trackedPacks,
  variantOf,
  type Adoption,
  type HistoryOptions,
  type Resume,
  type Variant,
  VARIANTS,
} from './history.js';
import {
  changePolicy,
  introduced,
  judgeChange,
  judgeChangeAt,
  judgeSnapshot,
  packWorkspace,
  trustOf,
} from './judge.js';
import { itemsDigest, manualChecked } from '../history/trust.js';
import { disablesOf, lintRepositoryParallel, snapshotEntry } from './lint.js';
import { loadParsers } from '../read/lazy.js';
import { forgetInstructions } from '../read/profile.js';
import { instructionsOfIndex } from './instructions.js';
import { snapshotMemory } from './snapshot-memory.js';
import { changeModels, forgetChangeModels, type ChangeModels } from './change-models.js';

export interface Judged {
  findings: Finding[];
  /** The workflow files judged (for the summary, and to say so when there are none). */
  files: string[];
  commits: number;
  /** Something was there to judge (files now, or commits in history). */
  anything: boolean;
  /** For the review report: the workspace judged and what history says of its tasks and manual items. */
  workspace?: Workspace;
  timeline?: TimelineEntry[];
  /** Which commits were judged and why (the adoption point), for the summary line. */
  judgedFrom?: string;
  /**
   * commit-msg: the `Confirmed-items` digest of the manual items this commit checks, when a human's confirmation
   * counts and the message carries no digest yet; the hook writes it into the message, so an amend, fixup or rebase
   * that adds an item breaks it at every later door (convention section 6, round 3).
   */
  digest?: string;
}

/**
 * What cached results depend on besides the tool: the resolved settings that decide what is read and which commits
 * are judged, never the preset or how a flag was spelled. History findings are kept for every way of setting the
 * preset (engine/history.ts VARIANTS), so `--preset strict` on a warm cache re-judges nothing and parses nothing.
 */
export function settingsKey(config: Config, since?: string): string {
  return cacheKey([
    config.paths,
    config.maxFileBytes,
    config.packs,
    since ?? config.history.since,
    config.source !== null,
  ]);
}

/**
 * What cached models depend on besides the readers' code: the settings that decide which paths are read and as
 * what. A cache under another key (a build that changed only rules, a run with `--since`) lends its models when this
 * matches (history/cache.ts loadCache).
 */
export function readersKey(config: Config): string {
  return modelsKey([config.paths, config.maxFileBytes, config.packs]);
}

export interface RepositoryOptions {
  config: Config;
  presetOverride?: Preset;
  history: boolean;
  /** `--since <rev>|root`: where judgement starts, instead of the adoption point. */
  since?: string;
  /** `--baseline-write`: report everything, the baseline is being rewritten. */
  baselineWrite?: boolean;
  /** How far the history fold is, for the progress line of a long run. */
  onProgress?: HistoryOptions['onProgress'];
  /** HEAD's commit, when the caller asked git already (engine/run.ts scopeOf); undefined: asked here. */
  head?: string | null;
  /** Whether the clone is shallow, asked with `head` (engine/run.ts scopeOf); undefined: the fold asks. */
  shallow?: boolean;
  /** The markdown review will be written: its workspace is built from the cache's models, so the cache stays open. */
  review?: boolean;
}

/**
 * A history finding's line is in the version of the commit it judges. A disable comment written above that line since
 * (to silence a snapshot rule, or in the hope of silencing this one) would put the finding on the comment in today's
 * file: no history finding names a disable comment (only history/self-exemption's does, about the comment itself),
 * so a finding that lands on one is moved below the comments, onto the line it was about.
 */
export function pastDisables(findings: Finding[], disables: ReadonlyMap<string, number[]>): Finding[] {
  if (disables.size === 0) return findings;
  const comments = new Map([...disables].map(([path, lines]) => [path, new Set(lines)]));
  return findings.map((f) => {
    const lines = f.file !== null && f.commit ? comments.get(f.file) : undefined;
    if (!lines || f.line === null || !lines.has(f.line) || f.ruleId === 'history/self-exemption') return f;
    let line = f.line;
    while (lines.has(line)) line++;
    return { ...f, line };
  });
}

/** The cached history's small parts; the findings and timeline of each variant are sections of their own. */
type CachedHistory = Omit<Resume, 'state' | 'sha' | 'findings' | 'timeline'>;

const section = (part: 'findings' | 'timeline', variant: Variant) => `${part}:${variant}`;
const GUIDANCE = 'guidance';
/** The snapshot pass's verdict on the working tree (engine/lint.ts Verdict). */
const SNAPSHOT = 'snapshot';
const SELF_RESOLVED = 'self-resolved';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isPairs = (v: unknown): v is [string, string][] =>
  Array.isArray(v) && v.every((x) => Array.isArray(x) && x.length === 2 && isStrings(x));

/**
 * The repository door: the working tree with the snapshot rules, and the history of HEAD, both through the cache
 * under .git/ so an unchanged repository is judged from what the last run learned.
 */
export async function judgeRepository(root: string, inGit: boolean, opts: RepositoryOptions): Promise<Judged> {
  const { config } = opts;
  const cachePath = inGit ? cacheFile(root) : null;
  const ck = settingsKey(config, opts.since);
  const t = performance.now();
  const cache = loadCache(cachePath, ck, readersKey(config));
  timing('cache read', since(t));
  try {
    return await judgeRepositoryWith(root, inGit, opts, cache, cachePath, ck);
  } finally {
    // A process that judges again and again (the lint() API) must not keep a descriptor per run until the collector
    // runs. A workspace asked for afterwards, when no review was announced, parses what the run did not decode.
    if (!opts.review) cache?.close();
  }
}

/**
 * judgeRepository with its cache loaded. For a review, the cache's file is closed once the workspace, built on first
 * use from the cache's models, is built: the review finds the models the cache holds rather than parsing each file.
 */
async function judgeRepositoryWith(
  root: string,
  inGit: boolean,
  opts: RepositoryOptions,
  cache: Cache | null,
  cachePath: string | null,
  ck: string,
): Promise<Judged> {
  const { config } = opts;
  let t: number;
  const known: KnownModels = cache?.models ?? new Map<string, WorkflowFile>();
  // What HEAD's history says of its blocked handoffs (guidance given, resolutions agents wrote) depends on HEAD and
  // the settings alone: kept with the cache for its head, so an unchanged repository walks no log for it.
  const headSha = inGit ? (opts.head !== undefined ? opts.head : headCommit(root)) : null;
  const atHead = cache !== null && headSha !== null && cache.head === headSha;
  const cachedResolved = atHead ? cache.section(SELF_RESOLVED) : null;
  t = performance.now();
  const standing = standingOf(root, cache, headSha);
  const guidance = inGit ? await headGuidance(root, config, cache, headSha, standing) : new Map<string, string>();
  timing('guidance', since(t));
  // History first, oldest commit to newest: by the time it reaches HEAD's versions, the sections of their parents are
  // in the section cache (read/sections.ts), so HEAD's files cost a fraction of a parse, and the snapshot pass after
  // it finds them parsed (working tree files are HEAD's unless edited). The other order parsed HEAD's files cold:
  // 6.4 of 26.7 s on the 10,000-commit bench.
  const hist = inGit && opts.history ? await judgeHeadHistory(root, opts, cache, standing) : null;
  t = performance.now();
  const seen = hist ? sources(hist.models, known) : known;
  // The resolutions agents wrote, as HEAD's history says, when the cache has them: the snapshot pass is then given
  // them at once, and its verdict on an unchanged tree is the cached one.
  const resolvedAtHead = isStrings(cachedResolved) ? new Set(cachedResolved) : undefined;
  const verdict = cache?.section(SNAPSHOT);
  let lint = await lintRepositoryParallel(root, config, inGit, seen, {
    baseline: !opts.baselineWrite,
    guidance,
    ...(resolvedAtHead ? { selfResolved: resolvedAtHead } : {}),
    verdict,
  });
  // The verdict the cache held, taken as it was (no rule ran); null when a file could not be read (nothing to keep).
  const sameVerdict = lint.verdict !== null && lint.verdict === verdict;
  timing(`snapshot pass${sameVerdict ? ' (cached verdict)' : ''}`, since(t));
  // Nothing new to keep: the cached verdict, or none (a verdict is only ever taken for the inputs it was made from,
  // so one the cache still holds is never wrong).
  const verdictKept = sameVerdict || lint.verdict === null;
  // What the cache's snapshot section is to hold: the cached verdict as it was read, or the new one.
  const verdictToSave = lint.verdict && (sameVerdict ? cache!.rawSection(SNAPSHOT) : lint.verdict);
  // Which blocked handoffs an agent resolved itself is asked of HEAD's handoffs: the snapshot pass has just parsed
  // them (the working tree's versions are HEAD's unless edited), so they are asked of its models, never parsed
  // twice. In the rare repository where an agent did, the snapshot rules run again with that known (no parsing).
  t = performance.now();
  const selfResolved =
    resolvedAtHead ??
    (inGit ? await selfResolvedIn(root, config, 'HEAD', sources(lint.models, seen)) : new Set<string>());
  if (selfResolved.size > 0 && !resolvedAtHead)
    lint = await lintRepositoryParallel(root, config, inGit, sources(lint.models, seen), {
      baseline: !opts.baselineWrite,
      guidance,
      selfResolved,
    });
  timing('resolutions', since(t));
  if (cache) timing(`cache models decoded (${cache.models.decodedCount} of ${cache.models.size})`, 0);
  const files = [...lint.discovered.map((d) => d.path), ...lint.packFiles];
  const treeModels = lint.models;
  // Keep the models of the working tree and of HEAD's files: what the next run is most likely to meet again. A
  // model the cache holds is written back as its bytes, undecoded.
  const keep = new Map<string, WorkflowFile | Raw>();
  const keepModel = (k: string, m: () => WorkflowFile | undefined) => {
    const raw = cache?.models.raw(k);
    if (raw) keep.set(k, raw);
    else {
      const model = m();
      if (model) keep.set(k, model);
    }
  };
  // A model the cache does not hold as bytes is asked of the tree's models, which read the file when the snapshot
  // verdict was the cached one (engine/lint.ts LazyTreeModels): that may parse.
  if ([...treeModels.keys()].some((k) => !cache?.models.raw(k))) await loadParsers();
  for (const k of treeModels.keys()) keepModel(k, () => treeModels.get(k));
  if (!hist) {
    t = performance.now();
    const carried: Record<string, unknown> = Object.fromEntries(
      (cache?.sections() ?? []).map((name) => [name, cache!.rawSection(name)]),
    );
    if (verdictToSave) carried[SNAPSHOT] = verdictToSave;
    if (!unchanged(cache, cache?.head ?? null, keep, false, verdictKept)) {
      // Windows renames nothing over a file held open.
      cache?.detach();
      saveCache(cachePath, {
        key: ck,
        readers: readersKey(config),
        head: cache?.head ?? null,
        history: cache?.history ?? null,
        state: cache?.state ?? [],
        sections: carried,
        models: keep,
      });
    }
    timing('cache saved', since(t));
    return {
      findings: lint.findings,
      files,
      commits: 0,
      anything: files.length > 0,
      // Built on first use: an unchanged tree was judged from the cached verdict, and only the review reads it.
      get workspace() {
        const built = lint.workspace;
        cache?.close();
        return built;
      },
      timeline: [],
    };
  }
  for (const [path, blob] of hist.state) {
    const k = key(blob, path);
    if (!keep.has(k)) keepModel(k, () => hist.models.get(k));
  }
  if (!hist.incomplete && hist.resume) {
    t = performance.now();
    const ofHead = hist.resume.sha === headSha;
    // A cache a commit kept is at HEAD with no history (keepParsed): the history this run judged is still to be kept.
    if (!cache?.history || !unchanged(cache, hist.resume.sha, keep, ofHead, verdictKept)) {
      const { sha, state, findings, timeline, ...small } = hist.resume;
      const sections: Record<string, unknown> = {};
      if (ofHead) {
        sections[GUIDANCE] = [...guidance];
        sections[SELF_RESOLVED] = [...selfResolved];
      }
      if (verdictToSave) sections[SNAPSHOT] = verdictToSave;
      for (const v of VARIANTS) {
        // The history a run took unchanged from the cache is written back as it was read (only the preset asked was
        // decoded); one judged again at the cache's own head (a section of it did not decode) is this run's, or the
        // broken section would be written back and the whole history judged again on every run.
        const same = hist.fromCache && cache?.head === sha;
        sections[section('findings', v)] = (same && cache.rawSection(section('findings', v))) || findings[v];
        sections[section('timeline', v)] = (same && cache.rawSection(section('timeline', v))) || timeline[v];
      }
      // As above: the file is read whole and closed before it is replaced.
      cache?.detach();
      saveCache(cachePath, {
        key: ck,
        readers: readersKey(config),
        head: sha,
        history: small satisfies CachedHistory,
        state: [...state],
        sections,
        models: keep,
      });
    }
    timing('cache saved', since(t));
  }
  // The snapshot pass applied its part of the baseline; history entries are judged here, against history findings.
  const histFindings = opts.baselineWrite
    ? hist.findings
    : applyBaseline(root, pastDisables(hist.findings, lint.disables), {
        config,
        exempt: new Set(hist.resume?.baselineCommits ?? []),
        scope: (ruleId) => !snapshotEntry(ruleId),
      });
  return {
    // `--baseline-write` records every finding a later run's baseline passes will count: those passes see the history
    // findings before a snapshot finding of the same cause hides them (handoff/missing hides history/task-order), so
    // the write records them too, or the hidden one would surface once the other is baselined, after every write.
    findings: opts.baselineWrite
      ? [...lint.findings, ...hist.findings]
      : oneCause(firstPerCause(histFindings), lint.findings),
    files,
    commits: hist.commits,
    judgedFrom: hist.commits > 0 ? describeAdoption(hist.adoption) : undefined,
    anything: files.length > 0 || hist.commits > 0,
    get workspace() {
      const built = lint.workspace;
      cache?.close();
      return built;
    },
    timeline: hist.timeline,
  };
}

interface HeadHistory {
  findings: Finding[];
  commits: number;
  state: Map<string, string>;
  /** The models the fold parsed (none when the history was taken from the cache as it was). */
  models: KnownModels & { get(k: string): WorkflowFile | undefined };
  timeline: TimelineEntry[];
  incomplete: boolean;
  adoption: Adoption;
  resume: Resume | null;
  /** Taken from the cache as it was (nothing new since its head, and every section of it decoded). */
  fromCache: boolean;
}

/**
 * The guidance HEAD's history gives (guidanceIn), from the cache where it was judged at HEAD or at an ancestor of it:
 * then only the commits since are walked. Every one of them is newer than the cached ones, and guidanceIn lets the
 * oldest commit that guides a handoff name who gave the guidance, so the cached entries are laid over the new ones.
 */
async function headGuidance(
  root: string,
  config: Config,
  cache: Cache | null,
  headSha: string | null,
  standing: CacheStanding,
): Promise<Map<string, string>> {
  const t = performance.now();
  const cached = cache?.head && headSha ? cache.section(GUIDANCE) : null;
  if (cache?.head && headSha && isPairs(cached)) {
    const at = await standing();
    if (at === 'head') return new Map(cached);
    if (at === 'ancestor') {
      const walked = await guidanceIn(root, config, headSha, cache.head);
      timing("guidance walked since the cache's head", since(t));
      return new Map([...walked, ...cached]);
    }
  }
  const all = await guidanceIn(root, config);
  timing("guidance walked over HEAD's whole history", since(t));
  return all;
}

/** Where the cache was judged: at HEAD, at an ancestor of HEAD, or elsewhere. */
type CacheStanding = () => Promise<'head' | 'ancestor' | 'other'>;

/**
 * The cache's standing, asked of git at most once per run, and only when a part of the cache could be used: the
 * guidance and the history both continue from an ancestor, and a hook should not pay the question twice.
 */
function standingOf(root: string, cache: Cache | null, headSha: string | null): CacheStanding {
  let answer: Promise<'head' | 'ancestor' | 'other'> | undefined;
  const decide = async (): Promise<'head' | 'ancestor' | 'other'> => {
    if (!cache?.head || !headSha) return 'other';
    if (cache.head === headSha) return 'head';
    return (await ask(root, ['merge-base', '--is-ancestor', cache.head, headSha])).ok ? 'ancestor' : 'other';
  };
  return () => (answer ??= decide());
}

/**
 * Whether the cache already holds what this run would write: the same head, and the same models (none of them broken).
 * A warm run over an unchanged repository then writes nothing.
 */
function unchanged(
  cache: Cache | null,
  head: string | null,
  keep: Map<string, unknown>,
  ofHead: boolean,
  verdictKept: boolean,
): boolean {
  if (
    !cache ||
    cache.lent ||
    !verdictKept ||
    cache.head !== head ||
    cache.models.broken > 0 ||
    cache.models.size !== keep.size
  )
    return false;
  if (ofHead && !(isPairs(cache.section(GUIDANCE)) && isStrings(cache.section(SELF_RESOLVED)))) return false;
  for (const k of cache.models.keys()) if (!keep.has(k)) return false;
  return true;
}

/**
 * The cached history, whole (every variant), to continue from its head; null when a part of it does not decode.
 * Only the variant asked for is decoded when the head is unchanged (judgeHeadHistory).
 */
function cachedResume(cache: Cache, variants: readonly Variant[]): Resume | null {
  const small = cache.history as CachedHistory | null;
  if (!small || !cache.head) return null;
  const findings = { parent: [], recommended: [], strict: [] } as Record<Variant, Finding[]>;
  const timeline = { parent: [], recommended: [], strict: [] } as Record<Variant, TimelineEntry[]>;
  for (const v of variants) {
    const f = cache.section(section('findings', v));
    const tl = cache.section(section('timeline', v));
    if (!Array.isArray(f) || !Array.isArray(tl)) return null;
    findings[v] = f as Finding[];
    timeline[v] = tl as TimelineEntry[];
  }
  return { ...small, findings, timeline, sha: cache.head, state: new Map(cache.state) };
}

/** HEAD's history, from the cache where the last run left it: resumed from its head, or taken as is when unchanged. */
async function judgeHeadHistory(
  root: string,
  opts: RepositoryOptions,
  cache: Cache | null,
  standing: CacheStanding,
): Promise<HeadHistory> {
  const variant = variantOf(opts.presetOverride);
  const at = cache?.history ? await standing() : 'other';
  const usable = at !== 'other';
  // Nothing new since the last run: its findings, for the preset asked now.
  if (at === 'head') {
    const resume = cachedResume(cache!, [variant]);
    if (resume)
      return {
        findings: resume.findings[variant],
        commits: resume.commits,
        state: resume.state,
        models: new Map(),
        timeline: resume.timeline[variant],
        incomplete: false,
        adoption: resume.adoption,
        resume,
        fromCache: true,
      };
  }
  const resume = usable ? (cachedResume(cache!, VARIANTS) ?? undefined) : undefined;
  await loadParsers();
  const t = performance.now();
  const r = await judgeHistory(root, {
    config: opts.config,
    presetOverride: opts.presetOverride,
    since: opts.since,
    seed: cache?.models,
    resume,
    onProgress: opts.onProgress,
    head: opts.head !== undefined && opts.shallow !== undefined ? { sha: opts.head, shallow: opts.shallow } : undefined,
  });
  timing('history', since(t));
  return {
    findings: r.findings,
    commits: r.commits,
    state: r.state,
    models: r.store?.models ?? new Map(),
    timeline: r.timeline,
    incomplete: r.incomplete,
    adoption: r.adoption,
    resume: r.resume,
    fromCache: false,
  };
}

/**
 * The baseline at a door that judges a change: its snapshot entries, applied alike to the snapshot findings before
 * and after the change, so that only what the change adds (beyond an entry, or an entry it makes stale) is reported.
 * A baselined plan merely touched gives nothing. The history entries count findings of the commits the baseline was
 * written after; a commit judged at a door is newer than those, so no entry covers its transition findings (the full
 * run agrees: one more history finding grows the file's count past its entry).
 */
function settleSnapshot(
  root: string,
  config: Config,
  baseline: ReturnType<typeof baselineAt>,
): (findings: Finding[]) => Finding[] {
  if (!baseline) return (f) => f;
  return (findings) => applyBaseline(root, findings, { config, baseline, scope: (ruleId) => snapshotEntry(ruleId) });
}

/**
 * The range door (pre-push, pull requests): every commit of `from..to` judged from merge-base(from, to), and the
 * snapshot findings present at `to` and absent at the base, wherever they land.
 */
export async function judgeRange(
  root: string,
  config: Config,
  range: { from: string | null; to: string },
  presetOverride?: Preset,
  since?: string,
  onProgress?: HistoryOptions['onProgress'],
  review = false,
): Promise<Judged> {
  // The models of the base's files from the cache: a push of a few commits must not parse the whole workspace as it
  // was at the base. Only the base's versions: a version the pushed commits bring is parsed, never taken from the
  // cache (which anything that can run git can write).
  const cache = loadCache(cacheFile(root), settingsKey(config), readersKey(config));
  const seed = new Map<string, WorkflowFile>();
  // merge-base(from, to), asked once: the seed, the fold and the snapshot at the base all start from it.
  const asked = range.from && !/^0+$/.test(range.from) ? await ask(root, ['merge-base', range.from, range.to]) : null;
  const fork = asked?.ok ? asked.out.trim() : null;
  try {
    if (cache && fork) {
      for (const [path, blob] of filesAt(root, fork, config, newStore(root, config).classify, trackedPacks(config))) {
        const m = cache.models.get(key(blob, path));
        if (m) seed.set(key(blob, path), m);
      }
    }
  } finally {
    // The seed holds the models decoded; nothing else reads the cache.
    cache?.close();
  }
  const hist = await judgeHistory(root, {
    config,
    presetOverride,
    since,
    from: range.from,
    ...(asked ? { fork } : {}),
    to: range.to,
    onProgress,
    seed,
  });
  const changed = new Set(hist.changed);
  if (hist.incomplete || !hist.store)
    return { findings: hist.findings, files: [...changed], commits: hist.commits, anything: true };
  const store = hist.store;
  const tracked = hist.tracked;
  const before = new Snapshot(fork ? filesAt(root, fork, config, store.classify, tracked) : new Map(), store);
  const after = new Snapshot(hist.state, store);
  const trust = trustOf(before, presetOverride);
  const guidance = await guidanceIn(root, config, range.to);
  const selfResolved = await selfResolvedIn(root, config, range.to, undefined, after);
  const snap = (s: Snapshot) =>
    judgeSnapshot({
      workspace: s.workspace(root),
      packs: packWorkspace(s, trust),
      config: changePolicy(trust),
      guidance,
      selfResolved,
    });
  // The baseline as the range's base holds it.
  const settle = settleSnapshot(root, config, fork ? baselineAt(root, fork) : null);
  const added = introduced(settle(snap(before)), settle(snap(after)));
  const workspace = after.workspace(root);
  const found = oneCause(pastDisables(hist.findings, disablesOf(workspace)), added).sort(compareFindings);
  const earlier =
    review && fork ? await timelineBefore(root, config, fork, workspace, hist.timeline, presetOverride, since) : [];
  return {
    findings: found,
    files: [...changed],
    commits: hist.commits,
    judgedFrom: describeAdoption(hist.adoption),
    anything: true,
    workspace,
    timeline: [...earlier, ...hist.timeline],
  };
}

/**
 * The review of a range shows the plans as they are at its end, so a task completed or a manual item confirmed
 * before the range (a phase confirmed on main before the pull request) needs what history says of it too: the
 * timeline of the base's history, each entry marked `before`. Walked only when the report is a review and some
 * checked box has no entry in the range; a history that cannot be walked (a shallow clone) gives nothing, and the
 * review says no judged commit records it, as before. Nothing here is judged: the range's findings are the fold's.
 */
async function timelineBefore(
  root: string,
  config: Config,
  base: string,
  workspace: Workspace,
  inRange: TimelineEntry[],
  presetOverride?: Preset,
  since?: string,
): Promise<TimelineEntry[]> {
  const known = new Set(inRange.map((e) => `${e.plan}\u0000${e.kind}\u0000${e.phase}\u0000${e.task ?? e.text}`));
  const unexplained = workspace.plans.some((plan) =>
    plan.phases.some((phase, i) => {
      const n = phase.number ?? i + 1;
      return (
        phase.tasks.some(
          (t) => t.checked && !known.has(`${plan.path}\u0000task-completed\u0000${n}\u0000${t.number}`),
        ) ||
        phase.manual.some(
          (m) => m.checked && !m.na && !known.has(`${plan.path}\u0000manual-checked\u0000${n}\u0000${m.text}`),
        )
      );
    }),
  );
  if (!unexplained) return [];
  // The repository's cached models (keyed by blob) spare the parsing; what they say is shown, never judged. Walked
  // as the full run walks it (the same adoption point), so both say the same of each box.
  const cache = loadCache(cacheFile(root), settingsKey(config), readersKey(config));
  try {
    const earlier = await judgeHistory(root, { config, presetOverride, to: base, seed: cache?.models, since });
    return earlier.incomplete ? [] : earlier.timeline.map((e) => ({ ...e, before: true }));
  } finally {
    cache?.close();
  }
}

/**
 * The index file git reads for this commit (GIT_INDEX_FILE, relative to the top as git names it in a hook, else the
 * worktree's own), by inode, size and times: git replaces it whole on every write. null where it cannot be read.
 */
function indexIdentity(root: string): string | null {
  const info = repositoryInfo(root);
  const file = process.env.GIT_INDEX_FILE
    ? resolve(root, process.env.GIT_INDEX_FILE)
    : info
      ? join(info.gitDir, 'index')
      : null;
  if (!file) return null;
  try {
    const st = statSync(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return null;
  }
}

/**
 * The pending commit (pre-commit; commit-msg with the message): HEAD -> the index. The hooks read the cache, so
 * unchanged files are not parsed again on every commit, and write it only where there was none (keepParsed).
 */
export async function judgePending(root: string, workingConfig: Config, opts: PendingOptions): Promise<Judged> {
  const models: { kept?: ChangeModels | null } = {};
  try {
    return await judgePendingWith(root, workingConfig, opts, models);
  } catch (err) {
    // A model the last commit door kept failed the judgement: one of the right outer shape that no reader made (the
    // file is in the git folder, which anything that can run git can write). The file goes and the change is judged
    // again without it, as with none: a bad memory is no memory, never the tool's own failure (exit 2).
    if (!models.kept?.consulted()) throw err;
    forgetChangeModels(root);
    return judgePendingWith(root, workingConfig, opts, { kept: null });
  }
}

interface PendingOptions {
  stage: 'staged' | 'commit-msg';
  message?: string;
  presetOverride?: Preset;
  explicitConfig?: boolean;
  /** HEAD's commit, when the caller asked git already; undefined: asked here. */
  head?: string | null;
  /** Whether the clone is shallow, asked with `head` (engine/run.ts scopeOf); undefined: asked where needed. */
  shallow?: boolean;
}

/** judgePending, with the change models the last commit door kept (models.kept: set here) or, with null, none. */
async function judgePendingWith(
  root: string,
  workingConfig: Config,
  opts: PendingOptions,
  models: { kept?: ChangeModels | null },
): Promise<Judged> {
  // Which files are workflow files, and every trust setting, come from HEAD: a config narrowed in the working tree
  // (the plans globs pointed elsewhere) must not take the commit's own plans out of sight. An explicit --config (the
  // hooks of a thoughts repository map the globs that way) is the caller's word.
  const headSha = opts.head !== undefined ? opts.head : headCommit(root);
  let t = performance.now();
  // Whether the commit stages anything the check reads (untouched, below), under the settings it will almost always
  // be judged by: git answers beside the key's questions. The index as it stood when both were asked: git answers the
  // two questions at two moments, and anything that writes the index meanwhile (another lint-staged task runs beside
  // the check) must not pair one answer with another index's listing and stamp.
  const indexBefore = indexIdentity(root);
  // HEAD's listing for its trust settings (below), asked first: git takes longest over it (a tree of thousands of
  // files read from the packs, ~15 ms on the bench's history shape), and the other questions run beside it.
  const headListed =
    headSha !== null ? listHeadAhead(root, headSha, workingConfig, trackedPacks(workingConfig)) : undefined;
  const early = headSha !== null ? untouchedQuestion(workingConfig, trackedPacks(workingConfig), headSha) : null;
  if (early !== null) void askEarly(root, early);
  // The effective config is a function of these and HEAD (below), so they key pre-commit's verdict.
  const [{ key: handover, who, trailers, index }] = await Promise.all([
    handoverKey(
      root,
      handoverSettings(workingConfig, opts.presetOverride, opts.explicitConfig ?? false),
      headSha,
      opts.message ?? '',
    ),
    headListed,
  ]);
  timing("handover key and HEAD's listing", since(t));
  if (handover !== null && opts.stage === 'commit-msg' && trailers.length === 0) {
    const verdict = takeVerdict(root, handover);
    // The pending commit has no sha yet, so its findings name no commit or subject: they read the same either way.
    if (verdict) {
      dropEarly(root);
      timing("pre-commit's verdict taken", 0);
      return { findings: verdict.findings, files: verdict.files, commits: 0, anything: true };
    }
  }
  t = performance.now();
  rememberTexts(root, [CONFIG_FILE, 'package.json', BASELINE_FILE]);
  // Listed with what pendingCommit tracks, so that its listing of HEAD is this one (history/fold.ts lsTree).
  const head = headTrustSnapshot(root, workingConfig, headSha, trackedPacks(workingConfig));
  const config =
    opts.explicitConfig || (head.files.get(CONFIG_FILE) === undefined && !head.files.get('package.json'))
      ? workingConfig
      : head.config(RULE_IDS);
  // Read before any shortcut: a baseline HEAD holds that cannot be read stops every commit, as it always has.
  const baseline = baselineIn(head);
  timing("HEAD's trust settings", since(t));
  // Most commits of a repository stage code alone: nothing the check reads, so nothing it could find. git says so,
  // and HEAD's workflow files, the cache and history are never read (a wide repository's plain commit cost as much
  // as one of a plan). commit-msg is left the same clean verdict as a judged commit's.
  t = performance.now();
  if (
    index !== undefined &&
    headSha !== null &&
    (await untouched(root, config, trackedPacks(config), index, headSha)) &&
    indexBefore !== null &&
    indexIdentity(root) === indexBefore
  ) {
    dropEarly(root);
    if (opts.stage === 'staged' && handover !== null) {
      const stampable = !opts.explicitConfig && opts.presetOverride === undefined;
      leaveVerdict(root, handover, [], [], stampable ? verdictStamp(headSha, index) : null);
    }
    timing('nothing the check reads is staged', since(t));
    return { findings: [], files: [], commits: 0, anything: true };
  }
  timing('what is staged asked', since(t));
  t = performance.now();
  // The commit's own instruction files, the index's, where git's listing of it can say which they are (where it
  // cannot, nothing is taken, and the walk of the working tree reads them as at every other door).
  if (index !== undefined) instructionsOfIndex(root, index);
  timing('instruction files of the index', since(t));
  t = performance.now();
  const cache = loadCache(cacheFile(root), settingsKey(config), readersKey(config));
  timing('cache read', since(t));
  // HEAD's guidance continues the cache's when HEAD descends from the cache's head (headGuidance): both questions
  // are asked now, and git answers them while the pending commit is read.
  if (cache?.head && headSha && cache.head !== headSha) {
    askEarly(root, ['merge-base', '--is-ancestor', cache.head, headSha]);
    askEarly(root, guidanceLog(headSha, cache.head));
  }
  try {
    t = performance.now();
    // HEAD's side of the change: the last commit door kept its index's models (engine/change-models.ts). Asked after
    // the cache, side by side rather than through one more Seed: every handoff's name goes through them (a nested
    // Seed cost the wide shape's commit ~10 ms in 3,300 such questions).
    const lastChange = models.kept === null ? null : (models.kept = changeModels(root, settingsKey(config)));
    const seed = [cache?.models, lastChange ?? undefined];
    // A merge in progress: only a parent whose commits were judged vouches for what it brings (asked only then).
    const vouches = mergeHeads(root).length > 0 ? await vouchingParents(root, config) : undefined;
    const pending = pendingCommit(root, config, {
      message: opts.message,
      trailers,
      seed,
      tracked: trackedPacks(config),
      head: headSha,
      who,
      vouches,
      index,
      quietHeads: lastChange?.quiet(),
    });
    timing('pending commit read', since(t));
    t = performance.now();
    // Guidance given before, and the guidance this very commit gives (commit-msg has the message).
    // What HEAD's history says of blocked handoffs, from the cache when it was judged at HEAD (engine/doors.ts,
    // judgeRepository): a commit then walks no log of the whole history for it.
    const atHead = cache !== null && headSha !== null && cache.head === headSha;
    const cachedResolved = atHead && pending.commit.parents[0] === headSha ? cache.section(SELF_RESOLVED) : null;
    const guidedAtHead = await headGuidance(root, config, cache, headSha, standingOf(root, cache, headSha));
    const guidance = new Map([
      ...guidedAtHead,
      ...guidedBy(pending.commit, pending.before, pending.after, pending.signed),
    ]);
    // Resolutions agents wrote before; those this commit writes are judgeChange's to add. A snapshot with no blocked
    // handoff has none: known of HEAD by its listing when the last commit door saw its index hold none (the change
    // models), asked of HEAD's handoffs otherwise (every handoff of a wide repository, ~6 ms).
    const { listed } = pending.before;
    const unblockedKnown = listed !== undefined && lastChange?.unblocked().includes(listed) === true;
    if (unblockedKnown) timing("HEAD's blocked handoffs: none, as the last commit door saw", 0);
    const headUnblocked =
      isStrings(cachedResolved) || pending.commit.parents.length === 0
        ? null
        : unblockedKnown || !(await holdsBlockedHandoff(pending.before));
    // The index then holds none either where the handoffs it changes are not blocked: the next door's HEAD. Not for a
    // merge: its changes are only what the merge does itself, not what the other branch brings (a blocked handoff).
    if (headUnblocked && pending.after.listed !== undefined && pending.commit.parents.length === 1) {
      const changedHandoffs = pending.changes.flatMap((c) => (c.newBlob ? [c.path] : []));
      if (!(await holdsBlockedHandoff(pending.after, changedHandoffs))) lastChange?.keepUnblocked(pending.after.listed);
    }
    const selfResolved = isStrings(cachedResolved)
      ? new Set(cachedResolved)
      : headUnblocked
        ? new Set<string>()
        : pending.commit.parents.length > 0
          ? await selfResolvedIn(root, config, pending.commit.parents[0], undefined, pending.before)
          : new Set<string>();
    timing('guidance and resolutions', since(t));
    const changed = new Set(pending.changes.flatMap((c) => (c.from ? [c.path, c.from] : [c.path])));
    // HEAD's baseline: an entry only in the working tree (or staged with this very commit) excuses nothing.
    const settle = settleSnapshot(root, config, baseline);
    // HEAD's snapshot findings, when the last door judged the same snapshot with the same inputs (its `after`).
    const memory = snapshotMemory(root, settingsKey(config));
    const input = {
      root,
      stage: opts.stage,
      ...pending,
      presetOverride: opts.presetOverride,
      audit: config.source === null,
      guidance,
      selfResolved,
      settle,
      memory,
    };
    const judged = judgeChange(input);
    t = performance.now();
    memory.save();
    // The index's models, HEAD's side of the next commit.
    const { store } = pending.after;
    if (store instanceof ModelStore)
      for (const c of pending.changes)
        if (c.newBlob) {
          const k = key(c.newBlob, c.path);
          const model = store.models.get(k);
          if (model) lastChange?.keep(k, model);
        }
    lastChange?.keepQuiet(pending.quietListing);
    lastChange?.save();
    timing('snapshot memory and the change models saved', since(t));
    if (cache) timing(`cache models decoded (${cache.models.decodedCount} of ${cache.models.size})`, 0);
    const findings = judged.findings.sort(compareFindings);
    // What commit-msg will find when the message has no trailers: pre-commit leaves manual items to commit-msg, which
    // knows whether a human confirmed them, so the record is judged as commit-msg would judge it, from what is loaded.
    t = performance.now();
    const checked = manualChecked(judged.events);
    if (opts.stage === 'staged' && handover !== null && !findings.some((f) => f.severity === 'error')) {
      const verdict = judgeChangeAt(input, 'commit-msg', judged);
      // Nothing to report and nothing for commit-msg to confirm (a checked manual item asks for trailers and a
      // digest): the commit-msg hook's shell may take it (engine/handover.ts), under the settings it knows.
      const stampable =
        verdict.length === 0 &&
        checked.length === 0 &&
        !opts.explicitConfig &&
        opts.presetOverride === undefined &&
        mergeHeads(root).length === 0;
      leaveVerdict(root, handover, verdict, [...changed], stampable ? verdictStamp(headSha, index) : null);
    } else if (opts.stage === 'staged') dropVerdict(root, true);
    timing('verdict left for commit-msg', since(t));
    if (cache === null || cache.lent)
      keepParsed(
        root,
        config,
        pending.before.store,
        cache?.lent ? { cache, at: [pending.before.files, pending.after.files] } : null,
        // What HEAD's history says, as the repository door keeps it for its head: the next commit walks only the
        // commits since for its guidance (HEAD's whole log was ~80 ms of every plan commit on the wide bench shape,
        // until a full run wrote a cache). The resolutions are HEAD's only when the commit's parent is HEAD. Not in a
        // shallow clone, whose log stops at the boundary: kept, guidance given before it would stay ungiven after
        // the clone is deepened (the full run keeps none there either: its history is incomplete).
        headSha !== null && pending.commit.parents[0] === headSha && !(opts.shallow ?? (await shallow(root)))
          ? { head: headSha, guidance: guidedAtHead, selfResolved }
          : null,
      );
    const digested = trailers.some((t) => t.key.toLowerCase() === 'confirmed-items');
    const digest =
      opts.stage === 'commit-msg' && checked.length > 0 && !digested && judged.confirmation().ok
        ? itemsDigest(checked)
        : undefined;
    return { findings, files: [...changed], commits: 0, anything: true, ...(digest ? { digest } : {}) };
  } finally {
    cache?.close();
    dropEarly(root);
  }
}

/**
 * A commit judged with no cache for its settings (a fresh clone, the tool just upgraded: the cache is keyed by the
 * tool's build) parsed every workflow file at HEAD for the change's sight and HEAD's snapshot rules, and every commit
 * after it would parse them again until a full run writes the cache: seconds per commit on a repository of thousands
 * of files. What it parsed is kept as such a cache's models (no history: the next full run judges that, these models
 * spared), so the next commit parses its change and nothing else. There is one cache file: one this build wrote is
 * left alone, whatever settings it was kept under (a full run's with `--since`, with its history; one a full run
 * finished meanwhile), so this never costs another run what it saves a commit. A cache another build wrote whose models
 * the same readers made (`lent`: an upgrade that changed rules) lent the commit its models, so the commit parsed
 * little: they are kept with what it parsed, in a cache under this build's key.
 */
function keepParsed(
  root: string,
  config: Config,
  store: unknown,
  lent: { cache: Cache; at: FileMap[] } | null,
  atHead: { head: string; guidance: Map<string, string>; selfResolved: Set<string> } | null,
): void {
  // A commit that parsed nothing still writes the models it was lent: the next one would borrow them again otherwise.
  if (!(store instanceof ModelStore) || (store.models.size === 0 && !lent)) return;
  const file = cacheFile(root);
  if (writtenByThisBuild(file)) return;
  const t = performance.now();
  // The models another build's cache lent (the same readers made them) go on, as stored, with those parsed now: those
  // of HEAD's and the index's files, as a full run keeps those of its head and tree (two builds taking turns would
  // otherwise grow the file by each one's change, rewritten whole every time).
  const models = new Map<string, WorkflowFile | Raw>();
  if (lent) {
    for (const files of lent.at)
      for (const path of files.keys()) {
        const k = key(files.get(path)!, path);
        const raw = lent.cache.models.raw(k);
        if (raw) models.set(k, raw);
      }
    // Windows renames nothing over a file held open.
    lent.cache.detach();
  }
  for (const [k, m] of store.models) models.set(k, m);
  saveCache(file, {
    key: settingsKey(config),
    readers: readersKey(config),
    // The commit HEAD's guidance and resolutions hold for, with no history judged at it (a full run walks it all).
    head: atHead?.head ?? null,
    history: null,
    state: [],
    sections: atHead ? { [GUIDANCE]: [...atHead.guidance], [SELF_RESOLVED]: [...atHead.selfResolved] } : {},
    models,
  });
  timing(`models kept for the next commit (${models.size}${lent ? ', lent by another build' : ''})`, since(t));
}

/** Whether the clone is shallow, where the caller did not ask with HEAD (only where a commit writes a cache). */
async function shallow(root: string): Promise<boolean> {
  const res = await ask(root, ['rev-parse', '--is-shallow-repository']);
  return !res.ok || res.out.trim() !== 'false';
}

/** Which door: the whole repository, the index (pre-commit), a message (commit-msg), or a range (pre-push, PRs). */
export type Door =
  | { kind: 'repository' }
  | { kind: 'staged' }
  | { kind: 'commit-msg'; file: string }
  | { kind: 'range'; from: string | null; to: string };

/** How far a long history fold is (the CLI draws it on a terminal); done() before anything else is written. */
export interface Progress {
  update: NonNullable<HistoryOptions['onProgress']>;
  done(): void;
}

export interface DoorOptions {
  root: string;
  inGit: boolean;
  config: Config;
  presetOverride?: Preset;
  history: boolean;
  since?: string;
  baselineWrite?: boolean;
  /** HEAD's commit, when the caller asked git already (engine/run.ts scopeOf); undefined: each door asks. */
  head?: string | null;
  /** Whether the clone is shallow, asked with `head`. */
  shallow?: boolean;
  /** The config was named by the caller (`--config`): the pending commit takes it instead of HEAD's. */
  explicitConfig: boolean;
  progress?: Progress;
  /** The markdown review will be written: a range's report then reads what history says before the range too. */
  review?: boolean;
}

/** A hexadecimal object name (abbreviated or full): it may name a commit a shallow clone does not have. */
const OBJECT_NAME = /^[0-9a-f]{7,64}$/i;

/**
 * `--range`'s two ends, at every door that takes one (check, verify): a name that is no revision at all (a mistyped
 * branch) is the caller's mistake, a usage error; an all-zero base (a push to an empty remote) or an object name the
 * clone lacks may exist upstream (a shallow clone): that one is history/incomplete, judged by the fold.
 */
export async function checkRangeEnds(root: string, from: string | null, to: string | null): Promise<void> {
  for (const [side, rev] of [
    ['base', from],
    ['end', to],
  ] as const) {
    if (rev === null || /^0+$/.test(rev) || OBJECT_NAME.test(rev)) continue;
    if (!(await ask(root, ['rev-parse', '--verify', '-q', `${rev}^{commit}`])).ok)
      throw new UsageError(`--range ${side} "${rev}" is no revision in this repository`);
  }
}

/** The door asked for, with what the caller got wrong (no repository, a base that is no revision) a UsageError. */
export async function judgeDoor(door: Door, opts: DoorOptions): Promise<Judged> {
  // Each run reads the tree's instruction files afresh: a process that judges again (the API's lint(), an editor's
  // server) would otherwise keep the promise it learned before a CLAUDE.md or a command appeared or changed.
  forgetInstructions(opts.root);
  const judged = await judgedAt(door, opts);
  // Set in place: the repository door's workspace is a getter, built only if a report asks for it.
  judged.findings = await citeInstructions(opts.root, judged.findings);
  return judged;
}

async function judgedAt(door: Door, opts: DoorOptions): Promise<Judged> {
  const { root, config } = opts;
  const onProgress: HistoryOptions['onProgress'] = (p) => opts.progress?.update(p);
  try {
    if (door.kind === 'repository')
      return await judgeRepository(root, opts.inGit, {
        config,
        presetOverride: opts.presetOverride,
        history: opts.history,
        since: opts.since,
        baselineWrite: opts.baselineWrite,
        onProgress,
        head: opts.head,
        shallow: opts.shallow,
        review: opts.review,
      });
    if (!opts.inGit)
      throw new UsageError(
        `${door.kind === 'range' ? '--range' : door.kind === 'staged' ? '--staged' : 'commit-msg'} needs a git repository`,
      );
    if (door.kind === 'range') {
      await checkRangeEnds(root, door.from, door.to);
      return await judgeRange(root, config, door, opts.presetOverride, opts.since, onProgress, opts.review);
    }
  } finally {
    opts.progress?.done();
  }
  let message: string | undefined;
  if (door.kind === 'commit-msg') {
    if (!existsSync(door.file)) throw new UsageError(`no such message file: ${door.file}`);
    message = commentFree(readFileSync(door.file, 'utf8'));
  }
  return judgePending(root, config, {
    stage: door.kind,
    message,
    presetOverride: opts.presetOverride,
    explicitConfig: opts.explicitConfig,
    head: opts.head,
    shallow: opts.shallow,
  });
}
