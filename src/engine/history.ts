// The history door: the fold over the trace (history/fold.ts) with every step judged by the one runner, plus the
// timeline the review report shows (which commit completed each task, who confirmed each manual item).
import type { Config, Preset } from '../config/config.js';
import type { TimelineEntry } from '../model/history.js';
import type { WorkflowFile } from '../model/types.js';
import { foldHistory, type FoldResult, type Step, type Tracked } from '../history/fold.js';
import type { ModelStore } from '../history/store.js';
import { ruleById } from './catalog.js';
import type { Finding } from '../model/finding.js';
import { toFinding } from './findings.js';
import { activePacks, judgeTransition, type TransitionResult } from './judge.js';

export interface HistoryOptions {
  /** The current config: paths to classify files and which packs are on. Severities come from each parent commit. */
  config: Config;
  presetOverride?: Preset;
  seed?: Map<string, WorkflowFile>;
  /** An earlier run judged history up to `sha`: continue from there, keeping its findings and timeline. */
  since?: { sha: string; state: Map<string, string>; findings: Finding[]; commits: number; timeline?: TimelineEntry[] };
  from?: string | null;
  to?: string;
}

export interface HistoryResult {
  findings: Finding[];
  commits: number;
  /** Workflow and pack files the judged commits changed. */
  changed: string[];
  store: ModelStore | null;
  /** path -> blob after the last judged commit. */
  state: Map<string, string>;
  timeline: TimelineEntry[];
  /** True when history could not be judged (`history/incomplete` is among the findings). */
  incomplete: boolean;
}

/** The files the fold tracks besides workflow and trust files: those of the packs that are on. */
export function trackedPacks(config: Config): Tracked {
  const active = activePacks(config);
  return { match: (path) => active.some((a) => a.match(path)), pathspecs: active.flatMap((a) => a.bases) };
}

export function incomplete(why: NonNullable<FoldResult['incomplete']>): Finding {
  const rule = ruleById('history/incomplete')!;
  return toFinding(rule, { file: null, line: null, messageId: why.why, data: { ref: why.ref } }, 'error');
}

function record(timeline: TimelineEntry[], step: Step, judged: TransitionResult): void {
  const { commit } = step;
  for (const e of judged.events) {
    const base = { plan: e.file, commit: commit.sha, subject: commit.subject, author: commit.author };
    if (e.type === 'task-completed' && e.completed) timeline.push({ ...base, kind: 'task-completed', phase: e.phase, task: e.task, text: null, confirmedBy: null, relayed: false });
    if (e.type === 'item-checked' && e.kind === 'manual' && e.checked) {
      const conf = judged.confirmation();
      timeline.push({ ...base, kind: 'manual-checked', phase: e.phase, task: null, text: e.text, confirmedBy: conf.ok ? conf.by : null, relayed: conf.ok && judged.agents.length > 0 });
    }
  }
}

/** Judge every commit of the trace of `to` (or of `from..to`), each with its parent's settings. */
export async function judgeHistory(root: string, opts: HistoryOptions): Promise<HistoryResult> {
  const findings: Finding[] = [];
  const timeline: TimelineEntry[] = [];
  const since = opts.from ? undefined : opts.since;
  const folded = await foldHistory(root, {
    config: opts.config,
    tracked: trackedPacks(opts.config),
    seed: opts.seed,
    since: since ? { sha: since.sha, state: since.state } : undefined,
    from: opts.from,
    to: opts.to,
    onStep: (step) => {
      const judged = judgeTransition({ stage: 'history', ...step, presetOverride: opts.presetOverride });
      findings.push(...judged.findings);
      record(timeline, step, judged);
    },
  });
  if (folded.incomplete !== null) {
    return { findings: [incomplete(folded.incomplete)], commits: 0, changed: [], store: null, state: new Map(), timeline: [], incomplete: true };
  }
  const base = { changed: folded.changed, store: folded.store, state: folded.state, incomplete: false };
  if (since) return { ...base, findings: [...since.findings, ...findings], commits: since.commits + folded.commits, timeline: [...(since.timeline ?? []), ...timeline] };
  return { ...base, findings, commits: folded.commits, timeline };
}
