// The history door: the fold over the trace (history/fold.ts) with every step judged by the one runner, plus the
// timeline the review report shows (which commit completed each task, who confirmed each manual item).
//
// What is judged (convention section 6, the adoption point): the commit that adopts the convention (the first
// human commit that adds the config, or `history.since`, or `--since <rev>`) and every later one; earlier commits are
// folded so later ones have the right "before", but not judged. Without any config the run is an audit of all
// history (`--since root` judges all as adopted).
import { CONFIG_FILE, ConfigError, defaultConfig, type Config, type Preset } from '../config/config.js';
import type { Change, Commit, TimelineEntry } from '../model/history.js';
import { undoKey } from '../model/finding.js';
import { foldHistory, type FoldOptions, type FoldResult, type Step, type Tracked } from '../history/fold.js';
import type { KnownModels, ModelStore } from '../history/store.js';
import { agentIdentities } from '../history/trust.js';
import { ask, gitSync } from '../shared/git.js';
import { messageTrailers, type TraceEntry } from '../history/log.js';
import { ruleById } from './catalog.js';
import type { Finding } from '../model/finding.js';
import { toFinding } from './findings.js';
import { activePacks, judgeTransition, type TransitionResult } from './judge.js';

/**
 * Every history finding is computed for the three ways a run can set the preset (each commit's parent's, or
 * forced with `--preset`), in one fold: the models and events do not depend on the preset, so switching it on a warm
 * cache neither re-parses nor re-folds.
 */
export const VARIANTS = ['parent', 'recommended', 'strict'] as const;
export type Variant = (typeof VARIANTS)[number];
export const variantOf = (presetOverride: Preset | undefined): Variant => presetOverride ?? 'parent';

/** How the start of judgement was decided, for the summary line and the cache. */
export type Adoption =
  | { kind: 'config'; sha: string }
  | { kind: 'since'; sha: string; rev: string; from: '--since' | 'history.since' }
  | { kind: 'root' }
  | { kind: 'audit' };

export interface HistoryOptions {
  /** The current config: paths to classify files and which packs are on. Severities come from each parent commit. */
  config: Config;
  presetOverride?: Preset;
  seed?: KnownModels;
  /** `--since <rev>` or `--since root`; overrides `history.since` and the config's adoption commit. */
  since?: string;
  /** An earlier run judged history up to `sha`: continue from there, keeping its findings and timeline. */
  resume?: Resume;
  from?: string | null;
  /** merge-base(from, to), asked by the caller already (null: none). */
  fork?: string | null;
  to?: string;
  /** HEAD's commit and whether the clone is shallow, when the caller knows them (FoldOptions `head`). */
  head?: FoldOptions['head'];
  /** How far the fold is, for the progress line of a long run. */
  onProgress?: FoldOptions['onProgress'];
}

/** What a run leaves for the next one to continue from (the cache). */
export interface Resume {
  sha: string;
  state: Map<string, string>;
  findings: Record<Variant, Finding[]>;
  timeline: Record<Variant, TimelineEntry[]>;
  /** Commits judged so far. */
  commits: number;
  adoption: Adoption;
  /** Whether the last folded commit was judged (its descendants are). */
  adopted: boolean;
  /** Commits that changed the baseline: no baseline covers their own findings. */
  baselineCommits: string[];
}

export interface HistoryResult {
  findings: Finding[];
  /** Commits judged (after the adoption point). */
  commits: number;
  /** Workflow and pack files the judged commits changed. */
  changed: string[];
  store: ModelStore | null;
  /** path -> blob after the last folded commit. */
  state: Map<string, string>;
  /** What the fold tracked besides the workflow files: pack files and link targets (`store.classify` has the named plans). */
  tracked: Tracked;
  timeline: TimelineEntry[];
  /** True when history could not be judged (`history/incomplete` is among the findings). */
  incomplete: boolean;
  adoption: Adoption;
  /** Everything the cache needs to continue; null when history could not be judged. */
  resume: Resume | null;
}

/** The files the fold tracks besides workflow and trust files: those of the packs that are on. */
/**
 * Files the history follows besides the workflow and trust files: the packs' files, and an allowed-signers file
 * the config keeps at a path of its own (a trust file: its changes are judged like the config's).
 */
export function trackedPacks(config: Config): Tracked {
  const active = activePacks(config);
  const signers = config.allowedSigners?.replace(/^\.\//, '') ?? null;
  return {
    match: (path) => path === signers || active.some((a) => a.match(path)),
    pathspecs: [...active.flatMap((a) => a.bases), ...(signers ? [`:(literal)${signers}`] : [])],
    baseless: active.some((a) => a.baseless),
  };
}

export function incomplete(why: NonNullable<FoldResult['incomplete']>): Finding {
  const rule = ruleById('history/incomplete')!;
  // A missing base in a full clone is fixed by fetching it (or by a corrected range), not by unshallowing.
  const fixId = why.why === 'rangeBaseMissing' ? 'rangeBaseMissingFix' : undefined;
  return toFinding(rule, { file: null, line: null, messageId: why.why, fixId, data: { ref: why.ref } }, 'error');
}

function record(timeline: TimelineEntry[], step: Step, judged: TransitionResult): void {
  const { commit } = step;
  for (const e of judged.events) {
    const base = { plan: e.file, commit: commit.sha, subject: commit.subject, author: commit.author };
    if (e.type === 'task-completed' && e.completed)
      timeline.push({
        ...base,
        kind: 'task-completed',
        phase: e.phase,
        task: e.task,
        text: null,
        confirmedBy: null,
        relayed: false,
      });
    if (e.type === 'item-checked' && e.kind === 'manual' && e.checked) {
      const conf = judged.confirmation();
      timeline.push({
        ...base,
        kind: 'manual-checked',
        phase: e.phase,
        task: null,
        text: e.text,
        confirmedBy: conf.ok ? conf.by : null,
        relayed: conf.ok && judged.agents.length > 0,
      });
    }
  }
}

const US = '\x1f';

/**
 * Whether the trace shows a change to `spec`, a pathspec the adoption walks name (the path itself, or a folder of
 * that name). Compared without case, so that a pathspec setting of the environment (GIT_ICASE_PATHSPECS) can only
 * make the answer "maybe", never a wrong "no".
 */
export function traceTouches(
  trace: readonly TraceEntry[],
  spec: string,
  statuses?: readonly Change['status'][],
): boolean {
  const s = spec.toLowerCase();
  const hit = (p: string | null) => p !== null && (p.toLowerCase() === s || p.toLowerCase().startsWith(`${s}/`));
  return trace.some((t) =>
    t.changes.some((c) => (statuses === undefined || statuses.includes(c.status)) && (hit(c.path) || hit(c.from))),
  );
}

/**
 * The first commit reachable from `to`, oldest first, that adds the config (its own file, or the `validateWorkflow`
 * key of package.json) with no agent as author, committer or co-author. Agents are the default patterns: before the
 * config exists there are no others (and a config cannot vouch for the commit that adds it).
 *
 * `trace`, the fold's walk of all of `to`'s history, answers "none" for a walk of git's without running it: each
 * walk lists only ordinary commits (git's log diffs no merge unless asked) whose change to the file is an addition,
 * or one that changes how often `"validateWorkflow"` occurs in package.json; every such commit is in the trace
 * (which holds every ordinary commit that changes a traced path, trust files included), with that change. So a
 * trace without an addition of the config (or a rename onto it) has no answer for the first walk, and one without
 * a change to package.json none for the second. Where the trace shows such a change, git's own walk decides: its
 * history simplification and pickaxe are git's to define.
 */
async function findAdoption(root: string, to: string, trace?: readonly TraceEntry[]): Promise<string | null> {
  const format = `--format=%H${US}%an${US}%ae${US}%cn${US}%ce${US}%B`;
  const none = Promise.resolve({ ok: true, out: '' });
  const candidates = await Promise.all([
    trace && !traceTouches(trace, CONFIG_FILE, ['A', 'R'])
      ? none
      : ask(root, ['log', '--reverse', '--topo-order', '-z', '--diff-filter=A', format, to, '--', CONFIG_FILE]),
    trace && !traceTouches(trace, 'package.json')
      ? none
      : ask(root, ['log', '--reverse', '--topo-order', '-z', '-S"validateWorkflow"', format, to, '--', 'package.json']),
  ]);
  const defaults = defaultConfig();
  const found: string[] = [];
  for (const res of candidates) {
    if (!res.ok) continue;
    for (const rec of res.out.split('\0')) {
      const [sha, an, ae, cn, ce, ...body] = rec.trim().split(US);
      if (!sha) continue;
      // Co-author lines anywhere in the message, as history/log.ts reads them.
      const coAuthors = messageTrailers([], body.join(US)).filter((t) => t.key.toLowerCase() === 'co-authored-by');
      const commit: Commit = {
        sha,
        parents: [],
        author: { name: an ?? '', email: ae ?? '' },
        committer: { name: cn ?? '', email: ce ?? '' },
        time: 0,
        subject: '',
        trailers: coAuthors,
      };
      if (agentIdentities(commit, defaults).length > 0) continue;
      found.push(sha);
      break;
    }
  }
  // Two candidates (the config file and package.json's key): the older in topological order. The order is asked of
  // git only then, one process fewer on every run that finds one or none.
  if (found.length < 2 || found[0] === found[1]) return found[0] ?? null;
  const order = await ask(root, ['rev-list', '--topo-order', '--reverse', to]);
  const position = new Map(
    order.out
      .split('\n')
      .filter(Boolean)
      .map((sha, i) => [sha, i]),
  );
  let best: { sha: string; order: number } | null = null;
  for (const sha of found) {
    const at = position.get(sha) ?? Number.MAX_SAFE_INTEGER;
    if (!best || at < best.order) best = { sha, order: at };
  }
  return best?.sha ?? null;
}

/**
 * For a merge being made (pre-commit, commit-msg): whether a parent's commits were judged themselves, that is, the
 * parent descends from the adoption point (`history.since`, else the first human commit that added the config). An
 * audit (no adoption point) or `since: root` judges every commit, so every parent vouches.
 */
export async function vouchingParents(root: string, config: Config): Promise<(sha: string) => boolean> {
  const since = config.history.since;
  if (since === 'root') return () => true;
  const adoption = since
    ? (await ask(root, ['rev-parse', '--verify', '-q', `${since}^{commit}`])).out.trim() || null
    : config.source !== null
      ? await findAdoption(root, 'HEAD')
      : null;
  if (!adoption) return () => true;
  return (sha) => gitSync(root, ['merge-base', '--is-ancestor', adoption, sha]).ok;
}

/** The adoption point `rev` as a commit (`--since`, `history.since`, or the adoption commit a cache recorded). */
async function resolveSince(root: string, rev: string): Promise<string> {
  const res = await ask(root, ['rev-parse', '--verify', '-q', `${rev}^{commit}`]);
  if (!res.ok)
    throw new ConfigError(`the adoption point ${rev} (--since or history.since) is not a commit in this repository`);
  return res.out.trim();
}

/**
 * The commits of the trace that descend from `sha` (itself included), read from the trace when `sha` is in it; null
 * when it is not. The trace is git's walk with parents rewritten: a commit's parents there are its nearest ancestors
 * in the walk along each of its parent lines, so between commits of the walk descent is the same as in the whole
 * graph, and parents come before children. Only commits of the trace are ever asked about (which step is judged,
 * which parent of a merge vouches).
 */
export function descendantsInTrace(trace: readonly TraceEntry[], sha: string): Set<string> | null {
  const at = trace.findIndex((t) => t.commit.sha === sha);
  if (at < 0) return null;
  const out = new Set([sha]);
  for (let i = at + 1; i < trace.length; i++) {
    const c = trace[i]!.commit;
    if (c.parents.some((p) => out.has(p))) out.add(c.sha);
  }
  return out;
}

/** Descendants of `sha` that `to` reaches, asked of git (where the trace does not hold `sha`). */
async function ancestryPath(root: string, sha: string, to: string): Promise<Set<string>> {
  const list = await ask(root, ['rev-list', '--ancestry-path', `${sha}..${to}`]);
  return new Set([sha, ...list.out.split('\n').filter(Boolean)]);
}

function emptyVariants<T>(): Record<Variant, T[]> {
  return { parent: [], recommended: [], strict: [] };
}

/** Judge every commit of the trace of `to` (or of `from..to`) after the adoption point, each with its parent's settings. */
export async function judgeHistory(root: string, opts: HistoryOptions): Promise<HistoryResult> {
  const to = opts.to ?? 'HEAD';
  let resume = opts.from ? undefined : opts.resume;
  const since = opts.since ?? opts.config.history.since ?? undefined;
  // The last run audited a history without an adoption point (`init` writes the config, the user runs the tool, then
  // commits it): a config committed since starts judgement there, so the audit is not resumed.
  if (
    resume?.adoption.kind === 'audit' &&
    !since &&
    opts.config.source !== null &&
    (await findAdoption(root, to)) !== null
  )
    resume = undefined;
  // Which commits are judged is decided when the fold has read its trace (onTrace below): the trace answers some of
  // the questions git would otherwise be asked in processes of their own. Only what can fail the run as a
  // ConfigError (a `since` that names no commit) is asked before, as it always was.
  let adoption: Adoption | null = null;
  /** The commit whose descendants are judged (`since` and `config`); found in onTrace for `config`. */
  let from: string | null = null;
  if (resume) {
    adoption = resume.adoption;
    if (adoption.kind === 'since' || adoption.kind === 'config')
      from = await resolveSince(root, adoption.kind === 'since' ? adoption.rev : adoption.sha);
  } else if (since === 'root') adoption = { kind: 'root' };
  else if (since) {
    from = await resolveSince(root, since);
    adoption = { kind: 'since', sha: from, rev: since, from: opts.since ? '--since' : 'history.since' };
  } else if (opts.config.source === null) adoption = { kind: 'audit' };
  // `--since root` judges every commit, but a commit from before the repository adopted the convention (no config
  // of a human's yet) is judged as an audit: nobody there was asked for a `Confirmed-by`, so what it shows is
  // weighed by evidence (an agent's identity), not by a trailer it could not know of (convention section 6).
  let firstHuman: string | null | undefined =
    adoption?.kind === 'root' && opts.config.source === null ? null : undefined;
  let descendants: Set<string> | null = null;
  let adopted: Set<string> = new Set();
  const asked = new Map<string, Set<string>>();
  const descending = async (sha: string, trace: readonly TraceEntry[]): Promise<Set<string>> => {
    // No step asks about any commit when the trace is empty.
    if (trace.length === 0) return new Set();
    const derived = descendantsInTrace(trace, sha);
    if (derived) return derived;
    if (!asked.has(sha)) asked.set(sha, await ancestryPath(root, sha, to));
    return asked.get(sha)!;
  };
  const decide = async (trace?: readonly TraceEntry[]): Promise<Adoption> => {
    if (adoption === null) {
      // The first human commit that adds the config. A config only an agent added is no adoption, so such a history
      // is audited like one without config (and that commit judged).
      const sha = await findAdoption(root, to, trace);
      adoption = sha ? { kind: 'config', sha } : { kind: 'audit' };
      from = sha;
    }
    return adoption;
  };
  const onTrace = async (trace: readonly TraceEntry[], full: boolean): Promise<void> => {
    // Only a walk of all of `to`'s history can say that git's adoption walks would find nothing.
    const walk = full ? trace : undefined;
    if ((await decide(walk)).kind === 'root' && firstHuman === undefined)
      firstHuman = await findAdoption(root, to, walk);
    descendants = from !== null ? await descending(from, trace) : null;
    adopted = firstHuman ? await descending(firstHuman, trace) : new Set();
  };
  const auditOf = (step: Step): boolean =>
    adoption!.kind === 'audit' || (adoption!.kind === 'root' && !adopted.has(step.commit.sha));

  let findings = emptyVariants<Finding>();
  let timeline = emptyVariants<TimelineEntry>();
  let commits = 0;
  let baselineCommits = [...(resume?.baselineCommits ?? [])];
  let lastJudged = resume?.adopted ?? false;
  // Events that undo a violation (a manual item unchecked again, a handoff back at its path), by commit order: a
  // violation undone later is reported as a warning naming the commit that repaired it (convention section 6).
  let order = new Map<string, number>();
  let undone = new Map<string, { at: number; sha: string; subject: string }[]>();
  const noteUndo = (step: Step): void => {
    const at = order.size;
    order.set(step.commit.sha, at);
    for (const e of step.events) {
      const key =
        e.type === 'item-checked' && e.kind === 'manual' && !e.checked
          ? undoKey('uncheck', e.file, e.text)
          : e.type === 'handoff-added'
            ? undoKey('restore', e.file)
            : null;
      if (key === null) continue;
      const list = undone.get(key) ?? [];
      list.push({ at, sha: step.commit.sha, subject: step.commit.subject });
      undone.set(key, list);
    }
  };
  const isJudged = (step: Step): boolean =>
    adoption!.kind === 'root' || adoption!.kind === 'audit' ? true : descendants!.has(step.commit.sha);
  const folded = await foldHistory(root, {
    config: opts.config,
    tracked: trackedPacks(opts.config),
    seed: opts.seed,
    since: resume ? { sha: resume.sha, state: resume.state } : undefined,
    from: opts.from,
    fork: opts.fork,
    to,
    head: opts.head,
    onProgress: opts.onProgress,
    onTrace,
    // Only a parent whose commits were judged themselves vouches for what a merge brings from it.
    vouches: (sha) => descendants === null || descendants.has(sha),
    onStep: (step) => {
      noteUndo(step);
      if (step.events.some((e) => e.type === 'trust-file-changed' && e.what === 'baseline'))
        baselineCommits.push(step.commit.sha);
      lastJudged = isJudged(step);
      if (!lastJudged) {
        // Before the adoption point nothing is judged, but the review still shows which commit completed each task
        // and who checked each manual item (with the settings of the commit's parent): the timeline is what
        // happened, the adoption point only decides what is held against it.
        if (
          step.events.some(
            (e) =>
              (e.type === 'task-completed' && e.completed) ||
              (e.type === 'item-checked' && e.kind === 'manual' && e.checked),
          )
        ) {
          const seen = judgeTransition({ stage: 'history', ...step, audit: true });
          for (const variant of VARIANTS) record(timeline[variant], step, seen);
        }
        return;
      }
      commits++;
      if (step.events.length === 0 && step.changes.length === 0) return;
      for (const variant of VARIANTS) {
        const judged = judgeTransition({
          stage: 'history',
          ...step,
          presetOverride: variant === 'parent' ? undefined : variant,
          audit: auditOf(step),
        });
        findings[variant].push(...judged.findings);
        record(timeline[variant], step, judged);
      }
    },
    // The fold starts over with a named plan or a link's target in sight: what the steps so far said is redone.
    onRestart: () => {
      findings = emptyVariants<Finding>();
      timeline = emptyVariants<TimelineEntry>();
      commits = 0;
      baselineCommits = [...(resume?.baselineCommits ?? [])];
      lastJudged = resume?.adopted ?? false;
      order = new Map();
      undone = new Map();
    },
  });
  // A fold that stopped before its trace (a shallow clone, a missing range end) still says where judgement starts.
  const decided = await decide();
  if (folded.incomplete !== null) {
    return {
      findings: [incomplete(folded.incomplete)],
      commits: 0,
      changed: [],
      store: null,
      state: new Map(),
      tracked: folded.tracked,
      timeline: [],
      incomplete: true,
      adoption: decided,
      resume: null,
    };
  }
  for (const v of VARIANTS) {
    if (resume) {
      findings[v] = [...resume.findings[v], ...findings[v]];
      timeline[v] = [...resume.timeline[v], ...timeline[v]];
    }
    findings[v] = findings[v].map((f) => reverted(f, order, undone));
  }
  const total = (resume?.commits ?? 0) + commits;
  const head = folded.tip ?? resume?.sha;
  const variant = variantOf(opts.presetOverride);
  return {
    findings: findings[variant],
    commits: total,
    changed: folded.changed,
    store: folded.store,
    state: folded.state,
    tracked: folded.tracked,
    timeline: timeline[variant],
    incomplete: false,
    adoption: decided,
    resume: head
      ? {
          sha: head,
          state: folded.state,
          findings,
          timeline,
          commits: total,
          adoption: decided,
          adopted: folded.commits > 0 ? lastJudged : (resume?.adopted ?? false),
          baselineCommits,
        }
      : null,
  };
}

/**
 * A violation every part of which a later commit undid (its manual items unchecked again, its handoff restored): a
 * warning naming the commit that repaired it, so a branch is repaired without a baseline (convention section 6).
 */
function reverted(
  f: Finding,
  order: Map<string, number>,
  undone: Map<string, { at: number; sha: string; subject: string }[]>,
): Finding {
  if (!f.undo?.length || f.severity !== 'error' || !f.commit) return f;
  // A commit judged by an earlier run (resumed from the cache) came before every commit folded now.
  const at = order.get(f.commit) ?? -1;
  let last: { at: number; sha: string; subject: string } | null = null;
  for (const key of f.undo) {
    const later = undone.get(key)?.find((u) => u.at > at);
    if (!later) return f;
    if (!last || later.at > last.at) last = later;
  }
  return {
    ...f,
    severity: 'warning',
    message: `${f.message} Reverted in ${last!.sha.slice(0, 7)} (${last!.subject}).`,
  };
}

/** One phrase for the summary: which commits history judged, and why from there. */
export function describeAdoption(a: Adoption): string {
  switch (a.kind) {
    case 'root':
      return 'every commit judged (--since root)';
    case 'audit':
      return `an audit of every commit (no ${CONFIG_FILE} yet: what entered git already progressed is a note, not an error)`;
    case 'since':
      return `judged since ${a.sha.slice(0, 7)} (${a.from} ${a.rev})`;
    case 'config':
      return `judged since ${a.sha.slice(0, 7)}, the adoption point (the first human commit that added ${CONFIG_FILE})`;
  }
}

export type { Commit };
