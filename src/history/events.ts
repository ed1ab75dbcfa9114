// What one commit did to the workflow: the events between two versions of each changed file. Items are identified
// by plan, phase, kind and text, then by position among equal texts; an item whose text changed in place is an edit,
// not a check event, and an item added already checked counts as checked in that commit.
import type { Event, ItemKind } from '../model/history.js';
import type { CheckItem, Disable, Handoff, Ledger, Plan, WorkflowFile } from '../model/types.js';
import { positionOf } from '../model/queries.js';
import type { Change } from '../model/history.js';
import { CONFIG_FILE } from '../config/config.js';
import { BASELINE_FILE, TRUST_FILES, type Snapshot } from './snapshot.js';

interface Flat {
  group: string;
  kind: ItemKind;
  phase: number;
  text: string;
  checked: boolean;
  na: boolean;
  line: number;
}

function flatten(plan: Plan): Flat[] {
  const out: Flat[] = [];
  plan.phases.forEach((phase, i) => {
    const n = phase.number ?? i + 1;
    const push = (kind: ItemKind, items: CheckItem[], scope = '') => {
      for (const it of items) out.push({ group: `${n}|${kind}|${scope}`, kind, phase: n, text: it.text, checked: it.checked, na: it.na, line: it.line });
    };
    push('automated', phase.automated);
    push('manual', phase.manual);
    push('other', phase.other);
    for (const t of phase.tasks) push('step', t.steps, String(t.number));
  });
  return out;
}

/** A line of the old version and where the same checkbox stands in the new one. */
type Anchor = [before: number, after: number];

/**
 * Where a removed item stood, as a line of the new version (findings point into the commit's own version): the line
 * of the nearest checkbox that survived the commit, by its distance in the old version (the earlier one on a tie).
 */
function removedAt(line: number, anchors: Anchor[]): number {
  let best: Anchor | null = null;
  for (const a of anchors) {
    if (!best || Math.abs(a[0] - line) < Math.abs(best[0] - line) || (Math.abs(a[0] - line) === Math.abs(best[0] - line) && a[0] < best[0])) best = a;
  }
  return best ? best[1] : 1;
}

function diffItems(file: string, before: Flat[], after: Flat[], extraAnchors: Anchor[] = []): Event[] {
  const events: Event[] = [];
  const groups = new Set([...before, ...after].map((f) => f.group));
  const all: [Flat | null, Flat | null][] = [];
  for (const g of groups) {
    const b = before.filter((f) => f.group === g);
    const a = after.filter((f) => f.group === g);
    const freeB = new Set(b.map((_, i) => i));
    const freeA: number[] = [];
    a.forEach((item, ai) => {
      const bi = [...freeB].find((i) => b[i]!.text === item.text);
      if (bi === undefined) freeA.push(ai);
      else {
        freeB.delete(bi);
        all.push([b[bi]!, item]);
      }
    });
    // Leftovers pair up in order: an item whose text was edited where it stood.
    const restB = [...freeB];
    freeA.forEach((ai, k) => all.push([restB[k] !== undefined ? b[restB[k]!]! : null, a[ai]!]));
    for (const bi of restB.slice(freeA.length)) all.push([b[bi]!, null]);
  }
  const anchors: Anchor[] = [...extraAnchors, ...all.flatMap(([x, y]): Anchor[] => (x && y ? [[x.line, y.line]] : []))];

  for (const [x, y] of all) {
    if (x && !y) {
      events.push({ type: 'item-removed', file, line: removedAt(x.line, anchors), kind: x.kind, phase: x.phase, text: x.text });
      continue;
    }
    if (!y) continue;
    if (!x && y.na) events.push({ type: 'item-added-na', file, line: y.line, kind: y.kind, phase: y.phase, text: y.text });
    if (x && !x.na && y.na) events.push({ type: 'item-made-na', file, line: y.line, kind: y.kind, phase: y.phase, text: y.text });
    const was = x ? x.checked : false;
    if (y.checked !== was && !y.na) events.push({ type: 'item-checked', file, line: y.line, kind: y.kind, phase: y.phase, text: y.text, checked: y.checked });
  }
  return events;
}

function addedDisables(file: string, before: Disable[], after: Disable[]): Event[] {
  const known = new Set(before.map((d) => `${d.ruleIds.join(',')}|${d.reason ?? ''}`));
  return after.filter((d) => !known.has(`${d.ruleIds.join(',')}|${d.reason ?? ''}`)).map((d) => ({ type: 'disable-added' as const, file, line: d.line, ruleIds: d.ruleIds }));
}

function planEvents(file: string, before: Plan | null, after: Plan): Event[] {
  // Task lines that survive the commit also anchor where a removed criterion stood.
  const afterTasks = new Map(after.phases.flatMap((p) => p.tasks).map((t) => [t.number, t.line]));
  const taskAnchors: Anchor[] = (before?.phases ?? []).flatMap((p) => p.tasks).flatMap((t): Anchor[] => (afterTasks.has(t.number) ? [[t.line, afterTasks.get(t.number)!]] : []));
  const events = diffItems(file, before ? flatten(before) : [], flatten(after), taskAnchors);
  const was = new Map((before?.phases ?? []).flatMap((p) => p.tasks).map((t) => [t.number, t.checked]));
  after.phases.forEach((phase, i) => {
    for (const t of phase.tasks) {
      const prev = was.get(t.number) ?? false;
      if (t.checked !== prev) events.push({ type: 'task-completed', file, line: t.line, phase: phase.number ?? i + 1, task: t.number, completed: t.checked });
    }
  });
  if (after.frontmatter?.mode_set_by === 'user' && before?.frontmatter?.mode_set_by !== 'user') {
    events.push({ type: 'mode-set-by-user', file, line: positionOf(after.positions, '/mode_set_by').line });
  }
  return events;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function handoffEvents(file: string, before: Handoff, after: Handoff): Event[] {
  const a = after.frontmatter ?? {};
  const b = before.frontmatter ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => stable(a[k]) !== stable(b[k]));
  if (keys.length === 0 || (!before.frontmatter && !after.frontmatter)) return [];
  const line = Math.min(...keys.map((k) => positionOf(after.positions, `/${k}`, { line: 1, column: 1 }).line));
  return [{ type: 'handoff-frontmatter-changed', file, line, keys }];
}

function ledgerEvents(file: string, before: Ledger | null, after: Ledger): Event[] {
  const events: Event[] = [];
  const state = (l: Ledger | null) => {
    const m = new Map<number, { state: Ledger['items'][number]['state']; line: number }>();
    // The most advanced mark wins when a task appears twice (ledger/state reports the contradiction itself).
    const rank = { pending: 0, 'in-progress': 1, done: 2 } as const;
    for (const it of l?.items ?? []) {
      if (it.task === null) continue;
      const cur = m.get(it.task);
      if (!cur || rank[it.state] > rank[cur.state]) m.set(it.task, { state: it.state, line: it.line });
    }
    return m;
  };
  const b = state(before);
  const a = state(after);
  for (const [task, now] of a) {
    const was = b.get(task)?.state ?? null;
    if (was !== now.state) events.push({ type: 'ledger-item', file, line: now.line, task, from: was, to: now.state });
  }
  return events;
}

/** Events of one file between two versions (null: absent on that side). */
export function fileEvents(path: string, before: WorkflowFile | null, after: WorkflowFile | null, renamedFrom: string | null): Event[] {
  if (after && !after.readable) {
    // A committed handoff left empty or unreadable is gone as surely as a deleted one: its record cannot be read.
    return before?.kind === 'handoff' && before.readable ? [{ type: 'handoff-deleted', file: path, line: 1, emptied: true }] : [];
  }
  const events: Event[] = [];
  if (after) events.push(...addedDisables(path, before?.disables ?? [], after.disables));
  if (!after) {
    if (before?.kind === 'handoff') events.push({ type: 'handoff-deleted', file: path, line: 1 });
    // A deleted plan takes its verification items with it (a rename is not a deletion: it never gets here).
    if (before?.kind === 'plan' && before.readable) events.push(...diffItems(path, flatten(before).filter((f) => f.kind === 'automated' || f.kind === 'manual'), []));
    return events;
  }
  if (after.kind === 'plan') events.push(...planEvents(path, before?.kind === 'plan' && before.readable ? before : null, after));
  else if (after.kind === 'ledger') events.push(...ledgerEvents(path, before?.kind === 'ledger' ? before : null, after));
  else if (after.kind === 'handoff') {
    if (renamedFrom) events.push({ type: 'handoff-renamed', file: path, line: 1, from: renamedFrom });
    if (!before) events.push({ type: 'handoff-added', file: path, line: 1 });
    else if (before.kind === 'handoff' && before.readable) events.push(...handoffEvents(path, before, after));
  }
  return events;
}

/** Identity of an event across the parents of a merge: everything but the line. */
export function eventKey(e: Event): string {
  const { line: _line, ...rest } = e;
  return stable(rest);
}

function trustEvents(change: Change, before: Snapshot, after: Snapshot): Event[] {
  if (change.path === CONFIG_FILE) return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'config' }];
  if (change.path === BASELINE_FILE) return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'baseline' }];
  if (change.path === 'package.json') {
    const key = (s: Snapshot) => {
      const blob = s.files.get('package.json');
      if (!blob) return undefined;
      try {
        return JSON.stringify((JSON.parse(s.store.text(blob)) as Record<string, unknown>).validateWorkflow);
      } catch {
        return undefined;
      }
    };
    if (key(before) !== key(after)) return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'config' }];
  }
  return [];
}

/** Events of a set of changes between two snapshots. */
export function eventsBetween(changes: Change[], before: Snapshot, after: Snapshot): Event[] {
  const events: Event[] = [];
  for (const c of changes) {
    if (TRUST_FILES.includes(c.path)) {
      events.push(...trustEvents(c, before, after));
      continue;
    }
    const kind = after.kindOf(c.path) ?? before.kindOf(c.from ?? c.path);
    if (!kind || kind === 'searchable') continue;
    const old = before.model(c.from ?? c.path);
    const now = c.status === 'D' ? null : after.model(c.path);
    if (c.status === 'D' && kind === 'handoff') {
      events.push({ type: 'handoff-deleted', file: c.path, line: 1 });
      continue;
    }
    if (c.status === 'R' && after.kindOf(c.path) !== 'handoff' && before.kindOf(c.from!) === 'handoff') {
      events.push({ type: 'handoff-deleted', file: c.from!, line: 1 });
      continue;
    }
    events.push(...fileEvents(c.path, old, now, c.status === 'R' ? c.from : null));
  }
  return events;
}

/** Changes between two path -> blob maps (no rename detection: used for the index and for merge parents). */
export function diffFiles(before: Map<string, string>, after: Map<string, string>): Change[] {
  const out: Change[] = [];
  for (const [path, blob] of after) {
    const was = before.get(path);
    if (was !== blob) out.push({ status: was ? 'M' : 'A', path, from: null, oldBlob: was ?? null, newBlob: blob });
  }
  for (const [path, blob] of before) if (!after.has(path)) out.push({ status: 'D', path, from: null, oldBlob: blob, newBlob: null });
  return out;
}
