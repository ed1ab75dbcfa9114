// `validate-workflow status [--session S]`: the seed's recovery view ("[compaction ; read_ledger ; list_handoffs ;
// read_last]resume"), for a human coming back to a session or for an agent's SessionStart hook after compaction:
// the session's ledger state, its handoffs and the last one's context for the next task, the next task, the manual
// checks waiting for a human and the blocked handoffs waiting for guidance. It only reads the working tree.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, sep } from 'node:path';
import picomatch from 'picomatch';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { discover, discoverPlansAt, namedPlans, RACY_MS, type Discovered, type KeptWalk } from '../read/discover.js';
import { ledgerSessionFromName } from '../read/paths.js';
import { repositoryRoot } from '../shared/git.js';
import { blobId, cacheFile, cacheKey, writeCacheFile } from '../history/cache.js';
import { handoffTask, manualDue, tasksOf } from '../model/queries.js';
import type { Handoff, HandoffStatus, LedgerItemState, Ledger, Phase, Plan, WorkflowFile } from '../model/types.js';
import { EXIT, type Io } from './io.js';
import { UsageError } from '../shared/errors.js';
import { defineCommand, oneOf } from './command.js';
import { loadParsers } from '../read/lazy.js';

export interface StatusOptions {
  session?: string;
  format: 'stylish' | 'json';
}

export interface LedgerLine {
  task: number | null;
  text: string;
  line: number;
}

/**
 * `status --format json`: one object, documented in docs/confirm.md. Paths are repository-relative with `/`.
 * Lists are empty (never absent) when there is nothing to show; `session`, `ledger`, `plan`, `lastHandoff` and
 * `nextTask` are null when they cannot be known.
 */
export interface StatusData {
  version: 1;
  session: string | null;
  /** Why this session: named with --session, or the most recently modified active ledger. */
  selectedBy: 'option' | 'latest-active-ledger' | null;
  ledger: {
    path: string;
    status: string | null;
    done: LedgerLine[];
    inProgress: LedgerLine[];
    pending: LedgerLine[];
  } | null;
  plan: string | null;
  /** The session's handoff folder, where the next handoff goes. */
  handoffDir: string | null;
  handoffs: { path: string; task: number | null; status: HandoffStatus | null }[];
  lastHandoff: {
    path: string;
    task: number | null;
    status: HandoffStatus | null;
    contextForNext: string | null;
  } | null;
  /** In progress in the ledger, else its first pending item, else the plan's first unchecked task; null when all are done. */
  nextTask: { task: number | null; text: string; source: 'ledger-in-progress' | 'ledger-pending' | 'plan' } | null;
  /**
   * Phases whose automated verification passed and whose manual items wait for a human (`validate-workflow confirm`).
   * `laterPhase`: the furthest later phase with a checked item, when the plan went on without the confirmation
   * (`recommended` allows it, `strict` does not); else null.
   */
  manualChecks: {
    plan: string;
    phase: number | null;
    items: { text: string; line: number }[];
    command: string;
    laterPhase: number | null;
  }[];
  /** Blocked handoffs without a `resolution`: the agent must stop and wait for the user's guidance. */
  blocked: { path: string; task: number | null; blocker: string | null }[];
}

function mtime(root: string, path: string): number {
  try {
    return statSync(join(root, path)).mtimeMs;
  } catch {
    return 0;
  }
}

function text(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

function byTask(a: Handoff, b: Handoff): number {
  const ta = handoffTask(a);
  const tb = handoffTask(b);
  if (ta !== null && tb !== null && ta !== tb) return ta - tb;
  // Without task numbers (HumanLayer's `YYYY-MM-DD_HH-MM-SS_*` names), the name's timestamp orders them.
  if ((ta === null) !== (tb === null)) return ta === null ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function started(phase: Phase): boolean {
  return [...phase.tasks, ...phase.automated, ...phase.manual, ...phase.unknown, ...phase.other].some((i) => i.checked);
}

function manualChecks(plans: Plan[]): StatusData['manualChecks'] {
  const out: StatusData['manualChecks'] = [];
  for (const plan of plans) {
    const sequence = plan.phases.filter((p) => !p.outside);
    for (const phase of plan.phases) {
      const items = phase.manual.filter((i) => !i.checked && !i.na);
      if (items.length === 0 || !manualDue(phase)) continue;
      // A human reading this wants to know the plan did not wait: in `recommended` a later phase may start while
      // these boxes are open (verified there means automated items), so the wait is easy to miss.
      const at = sequence.indexOf(phase);
      const later =
        at < 0
          ? undefined
          : sequence
              .slice(at + 1)
              .reverse()
              .find(started);
      out.push({
        plan: plan.path,
        phase: phase.number,
        items: items.map((i) => ({ text: i.text, line: i.line })),
        command: `npx validate-workflow confirm ${plan.path} --phase ${phase.number ?? 1}`,
        laterPhase: later?.number ?? null,
      });
    }
  }
  return out;
}

/** The one line that says a confirmation is due: where, how many items, and the command that gives it. */
export function waitingLine(m: StatusData['manualChecks'][number]): string {
  const n = m.items.length;
  const where = m.phase === null ? `The plan ${m.plan}` : `Phase ${m.phase} of ${m.plan}`;
  return `${where}: ${n} manual item${n === 1 ? ' waits' : 's wait'} for a human: run \`${m.command}\``;
}

function ledgerLines(ledger: Ledger, state: LedgerItemState): LedgerLine[] {
  return ledger.items.filter((i) => i.state === state).map((i) => ({ task: i.task, text: i.text, line: i.line }));
}

/** What the view needs of one file when no session scopes it, kept by blob id in .git/ between runs. */
interface Summary {
  kind: 'plan' | 'handoff' | 'ledger' | 'other';
  session: string | null;
  status: string | null;
  manualChecks: StatusData['manualChecks'];
  blocked: StatusData['blocked'];
}

// 2: manualChecks carry laterPhase.
// 3: entries by path, with the file's size and modification time, so an unchanged file is not even read; the
// session's view kept by a digest of what it is made from.
// 4: an entry is a tuple, and each distinct summary is written once: the index of 3,600 files was 900 KB of JSON
// whose parse was a tenth of a warm run.
const INDEX_FORMAT = 4;

/** An entry as the index file holds it: [blob, size, mtimeMs, the position of its summary in `summaries`]. */
type StoredEntry = [string, number, number, number];

/** One file's summary, the blob id of the bytes it summarizes, and the stat that vouches for those bytes. */
interface Entry {
  blob: string;
  size: number;
  mtimeMs: number;
  summary: Summary;
}

function summarize(file: WorkflowFile): Summary {
  const base: Summary = { kind: 'other', session: null, status: null, manualChecks: [], blocked: [] };
  if (file.kind === 'plan') return file.notAPlan ? base : { ...base, kind: 'plan', manualChecks: manualChecks([file]) };
  if (file.kind === 'ledger') return { ...base, kind: 'ledger', session: file.session, status: file.status };
  if (file.kind === 'handoff')
    return { ...base, kind: 'handoff', session: file.session, status: file.status, blocked: blockedOf([file]) };
  return base;
}

function blockedOf(handoffs: Handoff[]): StatusData['blocked'] {
  return handoffs
    .filter((h) => h.status === 'blocked' && text(h.resolution) === null)
    .map((h) => ({ path: h.path, task: handoffTask(h), blocker: text(h.normalized.blocker) }));
}

/**
 * A session's view as kept, with what it was made from: `key` covers the workflow files the globs find (viewKey);
 * `named` lists the plans outside the globs its ledger and handoffs name (present or not), and `namedKey` their bytes
 * as they were (namedKey): such a plan is read for the view but is no file the globs find.
 */
interface View {
  key: string;
  named: string[];
  namedKey: string;
  data: StatusData;
}

/**
 * The summaries of every workflow file, from the index in .git/ where the file's bytes (its blob id) are unchanged,
 * else read now. A SessionStart hook runs this on every session start, against a timeout, in repositories with
 * thousands of workflow files: parsing them all again each time took 20 s on a 10,000-commit history. The index is a
 * view's cache, not a gate's: nothing judged reads it, and a stale or broken one is rebuilt.
 */
interface Index {
  summaries: Map<string, Summary>;
  /** The blob id of every file summarized, by path: what the session's view is a function of. */
  blob(path: string): string | undefined;
  /** The view last shown, and the digest of what it was made from (viewKey). */
  view: View | null;
  /** Keep this view for the next run (the index file is rewritten only when something changed). */
  keep(view: View): void;
}

// The readers (the Markdown parser, YAML) and the rule catalogue are loaded only when a file must be read, or a
// config names rules: a SessionStart hook in an unchanged repository reads nothing, and loading them was half of
// its time (the bundle's chunk with the parser is ~900 KB).
const reader = async () => {
  await loadParsers();
  return import('../read/workspace.js');
};

/** The config as loadConfig reads it; the rule ids it checks `rules` against are loaded only when it has some. */
async function statusConfig(root: string): Promise<Config> {
  try {
    return loadConfig(root, undefined, new Set());
  } catch (err) {
    // An unknown rule id, or a schema error whose hint names rule ids: the same call with the real list decides.
    if (!(err instanceof ConfigError)) throw err;
  }
  return loadConfig(root, undefined, (await import('../engine/catalog.js')).RULE_IDS);
}

/** The index file as written. */
interface StoredIndex {
  format: number;
  key: string;
  writtenAt: number;
  summaries: Summary[];
  entries: Record<string, StoredEntry>;
  walk: KeptWalk | null;
  view: Index['view'];
}

/**
 * The workflow files (discover, through the walk the index keeps) and their summaries (from the index where the stat
 * vouches for the bytes, else read now).
 */
async function summaries(root: string, cfg: Config, inGit: boolean): Promise<{ discovered: Discovered[]; idx: Index }> {
  const cache = cacheFile(root);
  const file = cache ? join(dirname(cache), 'status-index.json') : null;
  // The walk depends on `ignore` too; the summaries only on what decides a file's kind and how it is read.
  const key = cacheKey([cfg.paths, cfg.maxFileBytes, cfg.ignore]);
  let stored: StoredIndex | null = null;
  try {
    const data = file ? (JSON.parse(readFileSync(file, 'utf8')) as StoredIndex) : null;
    if (
      data?.format === INDEX_FORMAT &&
      data.key === key &&
      typeof data.writtenAt === 'number' &&
      Array.isArray(data.summaries) &&
      typeof data.entries === 'object' &&
      data.entries !== null
    )
      stored = data;
  } catch {
    // No index yet, or a broken one: rebuilt below.
  }
  const writtenAt = stored?.writtenAt ?? 0;
  const view = stored?.view ?? null;
  let walk = stored?.walk ?? null;
  let dirty = false;
  const discovered = discover(root, cfg, inGit, {
    kept: walk,
    keep: (w) => {
      walk = w;
      dirty = true;
    },
  });
  const known = (path: string): Entry | undefined => {
    const e = stored?.entries[path];
    const summary = Array.isArray(e) ? stored!.summaries[e[3]] : undefined;
    return summary && typeof e![0] === 'string' ? { blob: e![0], size: e![1], mtimeMs: e![2], summary } : undefined;
  };
  const out = new Map<string, Summary>();
  const kept = new Map<string, Entry>();
  const now = Date.now();
  let reused = 0;
  // The paths joined without path.join: normalizing 3,600 of them was a tenth of a warm run, and the file system
  // reads `root/thoughts/x.md` as it reads the normalized form.
  const top = root.endsWith(sep) ? root : root + sep;
  for (const d of discovered) {
    if (d.kind === 'searchable') continue;
    const path = top + d.path;
    let st;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    const before = known(d.path);
    // A file written this close to the index (or after it) is read and hashed again (RACY_MS).
    let entry: Entry | undefined =
      before && before.size === st.size && before.mtimeMs === st.mtimeMs && st.mtimeMs < writtenAt - RACY_MS
        ? before
        : undefined;
    if (before) reused++;
    if (!entry) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch {
        continue;
      }
      const blob = blobId(bytes);
      const summary =
        before?.blob === blob ? before.summary : summarize((await reader()).readBytes(d, bytes, cfg.maxFileBytes));
      entry = { blob, size: st.size, mtimeMs: st.mtimeMs, summary };
      // Rewritten when a file was summarized anew, or when a stat changed or was too recent to vouch for the bytes.
      dirty = true;
    }
    kept.set(d.path, entry);
    out.set(d.path, entry.summary);
  }
  // A file gone, or one summarized before that is no longer found.
  dirty ||= reused !== kept.size || (stored !== null && Object.keys(stored.entries).length !== kept.size);
  const write = (v: Index['view']) => {
    if (!file) return;
    const summaries: Summary[] = [];
    const at = new Map<string, number>();
    const entries: Record<string, StoredEntry> = {};
    for (const [path, e] of kept) {
      const json = JSON.stringify(e.summary);
      let i = at.get(json);
      if (i === undefined) {
        i = summaries.push(e.summary) - 1;
        at.set(json, i);
      }
      entries[path] = [e.blob, e.size, e.mtimeMs, i];
    }
    const index: StoredIndex = { format: INDEX_FORMAT, key, writtenAt: now, summaries, entries, walk, view: v };
    writeCacheFile(file, JSON.stringify(index));
  };
  if (dirty) write(view);
  return {
    discovered,
    idx: {
      summaries: out,
      blob: (path) => kept.get(path)?.blob,
      view,
      keep: (v) => {
        if (v.key !== view?.key) write(v);
      },
    },
  };
}

/**
 * What a session's view is made from: the session asked for, the ledger picked, and every workflow file's bytes and
 * link (a plan named by a path, or inferred from every plan's title, may be any of them). The same digest shows
 * the same view, so a SessionStart hook in an unchanged repository parses nothing.
 */
function viewKey(session: string | undefined, ledger: string | null, discovered: Discovered[], index: Index): string {
  const hash = createHash('sha1').update(JSON.stringify([session ?? null, ledger]));
  for (const d of discovered)
    hash.update(`\0${d.path}\0${d.kind}\0${index.blob(d.path) ?? ''}\0${d.symlink?.target ?? ''}`);
  return hash.digest('hex');
}

/**
 * Whether a session of that name has files of its own: a ledger named after it, or a handoff folder. Claude Code's
 * session id names the workflow session only then (the SessionStart hook asks).
 */
export function sessionNamed(root: string, config: Config, session: string): boolean {
  return discover(root, config, true).some((d) =>
    d.kind === 'ledger'
      ? ledgerSessionFromName(d.path) === session
      : d.kind === 'handoff' && d.path.split('/').slice(0, -1).includes(session),
  );
}

/**
 * Reads as little as the view needs: the summaries (above) to pick the session and, without one, to list what waits
 * across the repository; then the session's ledger, its handoffs and the plan they name, read in full. Only when the
 * session's plan is not named by a path (the link must be inferred from every plan's title) is the whole workspace
 * read.
 */
export async function statusData(root: string, session?: string, config?: Config): Promise<StatusData> {
  const cfg = config ?? (await statusConfig(root));
  const { discovered, idx } = await summaries(root, cfg, repositoryRoot(root) !== null);
  const index = idx.summaries;
  const summary = (d: Discovered) => index.get(d.path);
  const ledgerFiles = discovered.filter((d) => summary(d)?.kind === 'ledger');
  // The session being resumed wrote its ledger last: the most recently modified active ledger.
  const candidates = ledgerFiles.filter((d) =>
    session !== undefined ? summary(d)!.session === session : summary(d)!.status === 'active' && summary(d)!.session,
  );
  const mtimes = new Map(candidates.map((d) => [d.path, mtime(root, d.path)]));
  candidates.sort((a, b) => mtimes.get(b.path)! - mtimes.get(a.path)! || (a.path < b.path ? 1 : -1));
  const ledgerFile = candidates[0] ?? null;
  const wanted = session ?? (ledgerFile ? summary(ledgerFile)!.session : null);
  let selectedBy: StatusData['selectedBy'] = null;
  if (session !== undefined) {
    if (!ledgerFile && !discovered.some((d) => summary(d)?.kind === 'handoff' && summary(d)!.session === session)) {
      const known = [
        ...new Set(discovered.map((d) => summary(d)?.session).filter((s): s is string => typeof s === 'string')),
      ].sort();
      throw new UsageError(
        `no ledger or handoffs for session "${session}"${known.length ? ` (sessions: ${known.join(', ')})` : ''}`,
      );
    }
    selectedBy = 'option';
  } else if (ledgerFile) selectedBy = 'latest-active-ledger';
  if (wanted === null) {
    // Without a session there is nothing to scope by: the whole repository's waiting checks and blocks.
    const all = [...index.values()];
    return { ...emptyView(), manualChecks: all.flatMap((x) => x.manualChecks), blocked: all.flatMap((x) => x.blocked) };
  }
  const vk = viewKey(session, ledgerFile?.path ?? null, discovered, idx);
  const kept = idx.view;
  const read = kept && Array.isArray(kept.named) && kept.named.every((p) => typeof p === 'string') ? kept.named : null;
  if (kept?.key === vk && read && kept.namedKey === namedKey(root, read)) return kept.data;
  const { data, named } = sessionView(await reader(), root, cfg, discovered, summary, ledgerFile, wanted, selectedBy);
  idx.keep({ key: vk, named, namedKey: namedKey(root, named), data });
  return data;
}

/**
 * The plans outside the globs these paths name, as readWorkspace finds them (present, not ignored; through a link
 * or not), with their bytes: a view that read one is stale once it changes, appears or goes.
 */
function namedKey(root: string, named: string[]): string {
  const hash = createHash('sha1');
  for (const d of discoverPlansAt(root, named, true)) {
    let blob = '';
    try {
      blob = blobId(readFileSync(join(root, d.path)));
    } catch {
      // Gone since it was found: read as missing, as readWorkspace would.
    }
    hash.update(`\0${d.path}\0${d.kind}\0${blob}\0${d.symlink?.target ?? ''}\0${d.symlink?.followed ?? ''}`);
  }
  return hash.digest('hex');
}

/**
 * The session's view: its ledger, its handoffs and the plan they name, read in full; and the plans outside the globs
 * that the files read name (readWorkspace reads those that exist).
 */
function sessionView(
  { readWorkspace, resolvePlanRef }: Awaited<ReturnType<typeof reader>>,
  root: string,
  cfg: Config,
  discovered: Discovered[],
  summary: (d: Discovered) => Summary | undefined,
  ledgerFile: Discovered | null,
  wanted: string,
  selectedBy: StatusData['selectedBy'],
): { data: StatusData; named: string[] } {
  const read = (items: Discovered[]) => readWorkspace(root, items, cfg);
  const sessionFiles = [
    ...(ledgerFile ? [ledgerFile] : []),
    ...discovered.filter((d) => summary(d)?.kind === 'handoff' && summary(d)!.session === wanted),
  ];
  let ws = read(sessionFiles);
  const plans = new Set(discovered.filter((d) => summary(d)?.kind === 'plan').map((d) => d.path));
  const sources = [...ws.ledgers, ...ws.handoffs];
  const named = sources
    .map((f) => (f.planRef ? resolvePlanRef(f.planRef, f.path, plans) : null))
    .find((p): p is string => p !== null);
  const items = named ? [...discovered.filter((d) => d.path === named), ...sessionFiles] : discovered;
  ws = read(items);
  const outside = namedPlans(cfg, [...ws.ledgers, ...ws.handoffs], new Set(items.map((d) => d.path)));
  const ledger = ledgerFile ? (ws.ledgers.find((l) => l.path === ledgerFile.path) ?? null) : null;
  const name = wanted;

  const handoffs = name === null ? [] : ws.handoffs.filter((h) => h.session === name).sort(byTask);
  const planPath =
    (ledger && ws.links.get(ledger.path)) ??
    handoffs.map((h) => ws.links.get(h.path)).find((p) => p !== undefined) ??
    null;
  const plan = planPath ? (ws.plans.find((p) => p.path === planPath) ?? null) : null;
  const last = handoffs.at(-1) ?? null;
  // Where the next handoff goes: beside the last one, else under the first configured handoffs folder.
  const base = picomatch.scan(cfg.paths.handoffs[0] ?? 'thoughts/handoffs/**').base || 'thoughts/handoffs';
  const dir = last ? posix.dirname(last.path) : name !== null ? `${base}/${name}` : null;

  let nextTask: StatusData['nextTask'] = null;
  const inProgress = ledger?.items.find((i) => i.state === 'in-progress');
  const pending = ledger?.items.find((i) => i.state === 'pending');
  if (inProgress) nextTask = { task: inProgress.task, text: inProgress.text, source: 'ledger-in-progress' };
  else if (pending) nextTask = { task: pending.task, text: pending.text, source: 'ledger-pending' };
  else if (plan) {
    const open = tasksOf(plan).find((t) => !t.checked);
    if (open) nextTask = { task: open.number, text: `Task ${open.number}: ${open.title}`, source: 'plan' };
  }

  const data: StatusData = {
    version: 1,
    session: name,
    selectedBy,
    ledger: ledger
      ? {
          path: ledger.path,
          status: ledger.status,
          done: ledgerLines(ledger, 'done'),
          inProgress: ledgerLines(ledger, 'in-progress'),
          pending: ledgerLines(ledger, 'pending'),
        }
      : null,
    plan: plan?.path ?? null,
    handoffDir: dir,
    handoffs: handoffs.map((h) => ({ path: h.path, task: handoffTask(h), status: h.status })),
    lastHandoff: last
      ? {
          path: last.path,
          task: handoffTask(last),
          status: last.status,
          contextForNext: text(last.normalized.context_for_next),
        }
      : null,
    nextTask,
    manualChecks: manualChecks(plan ? [plan] : []),
    blocked: blockedOf(handoffs),
  };
  return { data, named: outside };
}

function emptyView(): StatusData {
  return {
    version: 1,
    session: null,
    selectedBy: null,
    ledger: null,
    plan: null,
    handoffDir: null,
    handoffs: [],
    lastHandoff: null,
    nextTask: null,
    manualChecks: [],
    blocked: [],
  };
}

function indent(block: string, by: string): string {
  return block
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');
}

const MARK: Record<LedgerItemState, string> = { done: '[x]', 'in-progress': '[→]', pending: '[ ]' };

export function renderStatus(d: StatusData): string {
  const out: string[] = [];
  if (d.session === null) {
    out.push(
      'No active session: no ledger (thoughts/ledgers/CONTINUITY_*.md) has `status: active`. Name one with --session.',
    );
  } else {
    out.push(
      `Session ${d.session}${d.selectedBy === 'latest-active-ledger' ? ' (the most recently modified active ledger)' : ''}`,
    );
    out.push(
      d.ledger ? `Ledger: ${d.ledger.path} (status: ${d.ledger.status ?? 'not set'})` : 'Ledger: none for this session',
    );
    out.push(`Plan: ${d.plan ?? 'not linked (the ledger and handoffs name no plan that exists)'}`);
  }
  // What waits for a human comes first: it is what stops the work, and the line a reader must not miss.
  out.push('', `Manual checks waiting for a human: ${d.manualChecks.length ? '' : 'none'}`.trimEnd());
  for (const m of d.manualChecks) {
    out.push(`  ${waitingLine(m)}`);
    for (const i of m.items) out.push(`    - [ ] ${i.text}`);
    if (m.laterPhase !== null)
      out.push(
        `    Phase ${m.laterPhase} has started without this confirmation: \`recommended\` lets manual checks lag behind later phases, \`strict\` refuses it (history/phase-order).`,
      );
  }
  if (d.ledger) {
    const l = d.ledger;
    out.push('', `State: ${l.done.length} done, ${l.inProgress.length} in progress, ${l.pending.length} pending`);
    const all = [
      ...l.done.map((i) => ({ ...i, s: 'done' as const })),
      ...l.inProgress.map((i) => ({ ...i, s: 'in-progress' as const })),
      ...l.pending.map((i) => ({ ...i, s: 'pending' as const })),
    ].sort((a, b) => a.line - b.line);
    for (const i of all) out.push(`  ${MARK[i.s]} ${i.text}`);
  }
  if (d.session !== null) {
    out.push('', `Handoffs${d.handoffDir ? ` in ${d.handoffDir}/` : ''}: ${d.handoffs.length || 'none yet'}`);
    for (const h of d.handoffs) out.push(`  ${posix.basename(h.path)}  ${h.status ?? 'status unknown'}`);
    if (d.lastHandoff) {
      const h = d.lastHandoff;
      const what = [h.task !== null ? `task ${h.task}` : null, h.status ?? 'status unknown'].filter(Boolean).join(', ');
      out.push(`Last handoff: ${h.path} (${what})`);
      out.push(
        h.contextForNext
          ? `  Context for next:\n${indent(h.contextForNext, '    ')}`
          : '  Context for next: (none written)',
      );
    }
    const n = d.nextTask;
    const how =
      n?.source === 'ledger-in-progress'
        ? 'in progress in the ledger'
        : n?.source === 'ledger-pending'
          ? 'next pending in the ledger'
          : 'first unchecked in the plan';
    out.push('', n ? `Next task: ${n.text} (${how})` : 'Next task: none, every task is done');
  }
  out.push('', `Blocked, waiting for guidance: ${d.blocked.length ? '' : 'none'}`.trimEnd());
  for (const b of d.blocked) {
    out.push(`  ${b.path}${b.task !== null ? ` (task ${b.task})` : ''}${b.blocker ? `: ${b.blocker}` : ''}`);
  }
  if (d.blocked.length)
    out.push(
      '  Stop and ask the user; they record their answer (a `Guidance-by:` trailer in a commit they make, or the `resolution:` in a commit of their own) before you go on.',
    );
  return `${out.join('\n')}\n`;
}

/** The recovery view as text, for a terminal or a SessionStart hook. Throws UsageError for an unknown session. */
export async function statusView(root: string, session?: string): Promise<string> {
  return renderStatus(await statusData(root, session));
}

export async function status(opts: StatusOptions, io: Io): Promise<number> {
  const root = repositoryRoot(io.cwd) ?? io.cwd;
  const data = await statusData(root, opts.session);
  io.stdout(opts.format === 'json' ? `${JSON.stringify(data, null, 2)}\n` : renderStatus(data));
  return EXIT.ok;
}

export const command = defineCommand({
  name: 'status',
  summary: "the recovery view: a session's ledger, handoffs, next task and what waits for a human",
  usage: `Usage: validate-workflow status [--session S] [--format stylish|json]

The recovery view of a session: its ledger state, its handoffs and the last one's context for the next task, the
next task, the manual checks waiting for a human and the blocked handoffs waiting for guidance.

Options:
  --session <name>         the session (default: the most recently modified active ledger)
  --format <stylish|json>  output format (default: stylish; json is documented in docs/confirm.md)
  -h, --help               show this help
`,
  options: {
    session: { type: 'string' },
    format: { type: 'string' },
  },
  action: ({ values }, io) =>
    status(
      { session: values.session, format: oneOf(values.format, ['stylish', 'json'] as const, '--format') ?? 'stylish' },
      io,
    ),
});
