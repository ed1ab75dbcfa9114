// What one commit did to the workflow: the events between two versions of each changed file. Items are identified
// by plan, kind and text (task scope for steps), across phases, so renumbering or inserting a phase moves items
// without deleting them (convention section 6); leftovers pair by position within their phase and kind (an item
// whose text changed in place is an edit, not a check event, unless its box state differs from the item it
// replaced, or it is a checked manual item: that is a new check of the new words), and an item of a bare verification
// list, whose kind its words decide, by its place in that list. An item added already checked counts as checked in
// that commit.
import type { Event, ItemKind } from '../model/history.js';
import type { CheckItem, Disable, Handoff, Ledger, Phase, Plan, Task, WorkflowFile } from '../model/types.js';
import { positionOf } from '../model/queries.js';
import type { Change } from '../model/history.js';
import { CONFIG_FILE } from '../config/config.js';
import { canonicalText } from '../shared/text.js';
import { ALLOWED_SIGNERS_FILE, BASELINE_FILE, TRUST_FILES, type Snapshot } from './snapshot.js';

interface Flat {
  kind: ItemKind;
  /** The phase's number as written (what events report). */
  phase: number;
  /** The phase's identity across the two versions: the index of the phase in the new version it maps to. */
  slot: string;
  /** The task's title (else number) for steps, '' otherwise. */
  scope: string;
  text: string;
  /** Identity without the phase: kind, scope and text. */
  key: string;
  checked: boolean;
  na: boolean;
  /** Its kind read from its words (CheckItem.guessed), which a rewording can change. */
  guessed: boolean;
  line: number;
  /** Position in document order. */
  at: number;
}

function phaseNumber(phase: Phase, i: number): number {
  // A section outside the sequence has no number of the plan's: a negative one never meets a phase's.
  if (phase.outside) return -(i + 1);
  return phase.number ?? i + 1;
}

function flatten(plan: Plan, slots: readonly string[]): Flat[] {
  const out: Flat[] = [];
  plan.phases.forEach((phase, i) => {
    const n = phaseNumber(phase, i);
    const slot = slots[i]!;
    const push = (kind: ItemKind, items: CheckItem[], scope = '') => {
      for (const it of items)
        out.push({
          kind,
          phase: n,
          slot,
          scope,
          text: it.text,
          key: `${kind}\0${scope}\0${it.text}`,
          checked: it.checked,
          na: it.na,
          guessed: it.guessed === true,
          line: it.line,
          at: out.length,
        });
    };
    push('automated', phase.automated);
    push('manual', phase.manual);
    push('other', phase.other);
    // Criteria of an undivided list: progress in the phase like other boxes (the event kinds have no 'unknown').
    push('other', phase.unknown ?? []);
    // Steps belong to their task, known by its title (renumbering keeps it), else its number.
    for (const t of phase.tasks) push('step', t.steps, t.title.trim() || String(t.number));
  });
  return out;
}

function titleKey(phase: Phase): string {
  return phase.title.trim().toLowerCase();
}

/**
 * Which phase of the old version each phase of the new one continues: by title when the title is unique on both
 * sides (a renumbered phase keeps its title), then by number among the phases left. Returns the slots of both
 * versions: equal slots are the same phase; a new phase has a slot no old phase has.
 */
function phaseSlots(before: Plan | null, after: Plan): { before: string[]; after: string[]; fresh: Set<string> } {
  const afterSlots = after.phases.map((_, i) => `a${i}`);
  const old = before?.phases ?? [];
  const beforeSlots: (string | null)[] = old.map(() => null);
  const count = (phases: Phase[]) => {
    const m = new Map<string, number>();
    for (const p of phases) if (titleKey(p)) m.set(titleKey(p), (m.get(titleKey(p)) ?? 0) + 1);
    return m;
  };
  const cb = count(old);
  const ca = count(after.phases);
  const taken = new Set<number>();
  const byTitle = new Map<string, number>();
  after.phases.forEach((p, i) => {
    const k = titleKey(p);
    if (k && ca.get(k) === 1 && cb.get(k) === 1) byTitle.set(k, i);
  });
  old.forEach((p, i) => {
    const k = titleKey(p);
    const ai = k ? byTitle.get(k) : undefined;
    if (ai !== undefined) {
      beforeSlots[i] = afterSlots[ai]!;
      taken.add(ai);
    }
  });
  const freeByNumber = new Map<number, number>();
  after.phases.forEach((p, i) => {
    const n = phaseNumber(p, i);
    if (!taken.has(i) && !freeByNumber.has(n)) freeByNumber.set(n, i);
  });
  old.forEach((p, i) => {
    if (beforeSlots[i] !== null) return;
    const ai = freeByNumber.get(phaseNumber(p, i));
    if (ai !== undefined) {
      beforeSlots[i] = afterSlots[ai]!;
      freeByNumber.delete(phaseNumber(p, i));
      taken.add(ai);
    } else beforeSlots[i] = `b${i}`;
  });
  const fresh = new Set(afterSlots.filter((_, i) => !taken.has(i)));
  return { before: beforeSlots as string[], after: afterSlots, fresh };
}

/** A line of the old version and where the same checkbox stands in the new one. */
type Anchor = [before: number, after: number];

/**
 * Where a removed item stood, as a line of the new version (findings point into the commit's own version): the line
 * of the nearest checkbox that survived the commit, by its distance in the old version (the earlier one on a tie).
 * Anchors are sorted by their old line, so this is a binary search.
 */
function removedAt(line: number, anchors: readonly Anchor[]): number {
  if (anchors.length === 0) return 1;
  let lo = 0;
  let hi = anchors.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (anchors[mid]![0] < line) lo = mid + 1;
    else hi = mid;
  }
  const below = lo > 0 ? anchors[lo - 1]! : null;
  const above = lo < anchors.length ? anchors[lo]! : null;
  if (!below) return above![1];
  if (!above) return below[1];
  // The earlier one on a tie.
  return line - below[0] <= above[0] - line ? below[1] : above[1];
}

/** Old items waiting for a partner, in document order, taken from the front. */
interface Queue {
  items: number[];
  head: number;
}

function enqueue(m: Map<string, Queue>, k: string, i: number): void {
  const q = m.get(k);
  if (q) q.items.push(i);
  else m.set(k, { items: [i], head: 0 });
}

/** The next old item of this queue that is still free (-1: none). */
function take(q: Queue | undefined, used: Uint8Array): number {
  if (!q) return -1;
  while (q.head < q.items.length && used[q.items[q.head]!]) q.head++;
  if (q.head >= q.items.length) return -1;
  const i = q.items[q.head++]!;
  used[i] = 1;
  return i;
}

/**
 * For each item of the new version, the index of the old item it continues (-1: added). Identical kind, scope and
 * text first, in the same phase when the text repeats, then in any phase (an item that moved), in document order;
 * then what is left by position within (phase, kind, scope): an item edited where it stood. Linear in the items
 * (maps keyed by text, queues taken from the front), so a plan of tens of thousands of items diffs at once.
 */
function pairItems(before: readonly Flat[], after: readonly Flat[]): { from: Int32Array; used: Uint8Array } {
  const used = new Uint8Array(before.length);
  const from = new Int32Array(after.length).fill(-1);
  const bySlot = new Map<string, Map<string, Queue>>();
  const byKey = new Map<string, Queue>();
  before.forEach((f, i) => {
    let m = bySlot.get(f.slot);
    if (!m) bySlot.set(f.slot, (m = new Map()));
    enqueue(m, f.key, i);
    enqueue(byKey, f.key, i);
  });
  // 1. Same text in the same phase.
  after.forEach((f, i) => {
    from[i] = take(bySlot.get(f.slot)?.get(f.key), used);
  });
  // 2. Same text in another phase.
  after.forEach((f, i) => {
    if (from[i]! < 0) from[i] = take(byKey.get(f.key), used);
  });
  // 3. Leftovers by position within their phase, kind and scope. An old item whose words stand in the new version
  // under another kind was recast, not edited where it stood: pairing it with an added item of its old kind would hide
  // the recast (an agent's `Manual:` item that turns a phaseless plan's end-state checks into outcomes).
  const words = new Set(after.map((f) => f.text));
  const sameKind = new Set(after.map((f) => `${f.kind}\0${f.text}`));
  const recast = (f: Flat) => words.has(f.text) && !sameKind.has(`${f.kind}\0${f.text}`);
  const rest = new Map<string, Queue>();
  before.forEach((f, i) => {
    if (!used[i] && !recast(f)) enqueue(rest, `${f.slot}\0${f.kind}\0${f.scope}`, i);
  });
  if (rest.size > 0) {
    after.forEach((f, i) => {
      if (from[i]! < 0) from[i] = take(rest.get(`${f.slot}\0${f.kind}\0${f.scope}`), used);
    });
  }
  pairReworded(before, after, from, used, recast);
  return { from, used };
}

/**
 * 4. An item of a bare verification list whose kind its words decided (CheckItem.guessed), reworded where it stood:
 * the new words may read as another kind (a command check reworded into prose), and the item in its place is still
 * the one it replaced (convention section 6, "the item it replaced"). Paired only at the same place among the phase's
 * such items, in document order, when the phase has as many of them in both versions: a list that got shorter lost an
 * item. Never a human's check paired with one that is not: rewording it into a command or an outcome drops the gate,
 * which stays a deletion.
 */
function pairReworded(
  before: readonly Flat[],
  after: readonly Flat[],
  from: Int32Array,
  used: Uint8Array,
  recast: (f: Flat) => boolean,
): void {
  if (!before.some((f, i) => f.guessed && !used[i])) return;
  const lists = (items: readonly Flat[]) => {
    const m = new Map<string, number[]>();
    items.forEach((f, i) => {
      if (!f.guessed) return;
      const k = `${f.slot}\0${f.scope}`;
      const list = m.get(k);
      if (list) list.push(i);
      else m.set(k, [i]);
    });
    for (const list of m.values()) list.sort((p, q) => items[p]!.line - items[q]!.line);
    return m;
  };
  const now = lists(after);
  for (const [k, was] of lists(before)) {
    const is = now.get(k);
    if (!is || is.length !== was.length) continue;
    was.forEach((b, n) => {
      const a = is[n]!;
      const x = before[b]!;
      const y = after[a]!;
      if (used[b] || from[a]! >= 0) return;
      if (x.kind === 'manual' && y.kind !== 'manual') return;
      // Paired only where a rule judges the edit: an item made N/A (self-exemption), a human's check ticked as it
      // was reworded (manual-confirmation), or an end-state item outside the phases ticked as it was reworded (what
      // was done, now said as an outcome). A command check reworded into an open prose item, or ticked in a phase
      // where prose no longer counts toward verified, stays a deletion.
      if (!(y.na || (y.checked && !x.checked && (y.kind === 'manual' || x.phase < 0)))) return;
      // Its words still stand as another kind: recast, not reworded (step 3).
      if (recast(x)) return;
      from[a] = b;
      used[b] = 1;
    });
  }
}

function diffItems(
  file: string,
  before: Flat[],
  after: Flat[],
  fresh: ReadonlySet<string>,
  extraAnchors: Anchor[] = [],
): Event[] {
  const events: Event[] = [];
  const { from, used } = pairItems(before, after);
  after.forEach((y, i) => {
    const x = from[i]! >= 0 ? before[from[i]!]! : null;
    // An N/A item in a phase new in this commit is how a plan says "nothing to verify by hand here" (templates/plan.md).
    if (!x && y.na && !fresh.has(y.slot))
      events.push({ type: 'item-added-na', file, line: y.line, kind: y.kind, phase: y.phase, text: y.text });
    // The kind of the item made N/A: an item reworded into `N/A` may read as another kind now (pairReworded).
    if (x && !x.na && y.na)
      events.push({ type: 'item-made-na', file, line: y.line, kind: x.kind, phase: y.phase, text: y.text });
    const was = x ? x.checked : false;
    if (y.checked !== was && !y.na)
      events.push({
        type: 'item-checked',
        file,
        line: y.line,
        kind: y.kind,
        phase: y.phase,
        text: y.text,
        checked: y.checked,
      });
    // A checked manual item whose text changed (paired by position) is a new check of the new text: the human
    // confirmed what the old words said, not what the new ones say (convention section 6, round 3).
    else if (x && y.checked && x.checked && !y.na && y.kind === 'manual' && x.text !== y.text)
      events.push({
        type: 'item-checked',
        file,
        line: y.line,
        kind: y.kind,
        phase: y.phase,
        text: y.text,
        checked: true,
      });
  });
  // In the new version's line order (flatten goes criteria first, then steps).
  events.sort((a, b) => a.line - b.line);
  if (used.every((u) => u === 1)) return events;
  // Removed items, where they stood: anchored to the nearest checkbox that survived.
  const anchors: Anchor[] = [...extraAnchors];
  after.forEach((y, i) => {
    if (from[i]! >= 0) anchors.push([before[from[i]!]!.line, y.line]);
  });
  anchors.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  // An unpaired item whose words still stand in the new version under another kind was not deleted: the commit changed
  // how it reads (its heading, or what the plan around it says), and the finding says so rather than "deletes".
  // The kind it reads as now: a human's check wherever the words stand as one (a recast into a manual item is no
  // loosening).
  const texts = new Map<string, ItemKind>();
  for (const y of after) if (texts.get(y.text) !== 'manual') texts.set(y.text, y.kind);
  before.forEach((x, i) => {
    if (!used[i])
      events.push({
        type: 'item-removed',
        file,
        line: removedAt(x.line, anchors),
        kind: x.kind,
        phase: x.phase,
        text: x.text,
        ...(texts.has(x.text) ? { kept: texts.get(x.text)! } : {}),
      });
  });
  return events;
}

/**
 * Lines of the new version's checkboxes (criteria, steps, other) that have no predecessor in the old version: items
 * this commit adds (every item, when the plan itself is new). Rules ask it to tell an item that enters git already
 * checked from one checked in place.
 */
export function addedItemLines(before: Plan | null, after: Plan): Set<number> {
  const slots = phaseSlots(before, after);
  const items = flatten(after, slots.after);
  const { from } = pairItems(before ? flatten(before, slots.before) : [], items);
  const out = new Set<number>();
  items.forEach((y, i) => {
    if (from[i]! < 0) out.add(y.line);
  });
  return out;
}

function addedDisables(file: string, before: Disable[], after: Disable[]): Event[] {
  const known = new Set(before.map((d) => `${d.ruleIds.join(',')}|${d.reason ?? ''}`));
  return after
    .filter((d) => !known.has(`${d.ruleIds.join(',')}|${d.reason ?? ''}`))
    .map((d) => ({ type: 'disable-added' as const, file, line: d.line, ruleIds: d.ruleIds }));
}

/**
 * Which task of the old version each task of the new one continues: by title when it is unique on both sides (a
 * task renumbered by an inserted phase keeps its title), then by number among the tasks left.
 */
function pairTasks(before: Task[], after: Task[]): Map<Task, Task> {
  const out = new Map<Task, Task>();
  const key = (t: Task) => t.title.trim().toLowerCase();
  const count = (list: Task[]) => {
    const m = new Map<string, number>();
    for (const t of list) if (key(t)) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
    return m;
  };
  const cb = count(before);
  const ca = count(after);
  const byTitle = new Map<string, Task>();
  for (const t of before) if (key(t) && cb.get(key(t)) === 1 && ca.get(key(t)) === 1) byTitle.set(key(t), t);
  const used = new Set<Task>();
  for (const t of after) {
    const hit = byTitle.get(key(t));
    if (hit) {
      out.set(t, hit);
      used.add(hit);
    }
  }
  const byNumber = new Map<number, Task>();
  for (const t of before) if (!used.has(t) && !byNumber.has(t.number)) byNumber.set(t.number, t);
  for (const t of after) {
    if (out.has(t)) continue;
    const hit = byNumber.get(t.number);
    if (hit) {
      out.set(t, hit);
      byNumber.delete(t.number);
    }
  }
  return out;
}

/**
 * Criteria sections of plain bullets that a commit removes from a phase that stays (paired as items pair their
 * phases): such a list has no checkbox, so no item event says it went. A list under a heading that names no kind
 * stands for either kind, as the criteria rules read it. Not this event: a section turned into checkboxes (the boxes
 * carry the kind), or a list moved to another phase in the same commit (a phase that lists the kind now and did not
 * before), as a moved item is no deleted one.
 */
function removedSections(file: string, before: Plan, after: Plan, slots: ReturnType<typeof phaseSlots>): Event[] {
  const lists = (p: Phase | null, kind: 'automated' | 'manual') =>
    p !== null && (p.listed ?? []).some((k) => k === kind || k === 'unknown');
  // A list of real checks, not one that only says there is nothing to check (`- N/A`): emptying a list into N/A is
  // removing its checks, as turning an item into N/A is.
  const checks = (p: Phase | null, kind: 'automated' | 'manual') =>
    p !== null && (p.listed ?? []).some((k) => (k === kind || k === 'unknown') && !(p.listedNa ?? []).includes(k));
  const partner = (j: number): Phase | null => {
    const i = slots.before.indexOf(slots.after[j]!);
    return i >= 0 ? before.phases[i]! : null;
  };
  const out: Event[] = [];
  for (const kind of ['automated', 'manual'] as const) {
    const movedIn = after.phases.some((p, j) => !p.outside && checks(p, kind) && !checks(partner(j), kind));
    if (movedIn) continue;
    before.phases.forEach((was, i) => {
      const j = slots.after.indexOf(slots.before[i]!);
      const now = j >= 0 ? after.phases[j]! : null;
      if (was.outside || now?.outside || !checks(was, kind)) return;
      // Checkboxes in its place carry their own events (an N/A item added, an item checked): not this one.
      if (now && !checks(now, kind) && now[kind].length === 0) {
        const phase = phaseNumber(now, j);
        const na = lists(now, kind) ? { na: true as const } : {};
        out.push({
          type: 'criteria-removed',
          file,
          line: now.line,
          kind,
          phase,
          label: now.label,
          title: now.title,
          ...na,
        });
      }
      // A phase taken out of a plan that stays (merged into another, say) takes its list with it; its checkboxes
      // would be removed items. Reported where the plan starts, as the phase has no line left.
      if (!now) {
        const phase = phaseNumber(was, i);
        out.push({
          type: 'criteria-removed',
          file,
          line: after.anchor?.line ?? 1,
          kind,
          phase,
          label: was.label,
          title: was.title,
        });
      }
    });
  }
  return out;
}

function planEvents(file: string, before: Plan | null, after: Plan): Event[] {
  const oldTasks = (before?.phases ?? []).flatMap((p) => p.tasks);
  const newTasks = after.phases.flatMap((p) => p.tasks);
  const tasks = pairTasks(oldTasks, newTasks);
  // Task lines that survive the commit also anchor where a removed criterion stood.
  const taskAnchors: Anchor[] = newTasks.flatMap((t): Anchor[] => {
    const was = tasks.get(t);
    return was ? [[was.line, t.line]] : [];
  });
  const slots = phaseSlots(before, after);
  const events = diffItems(
    file,
    before ? flatten(before, slots.before) : [],
    flatten(after, slots.after),
    slots.fresh,
    taskAnchors,
  );
  after.phases.forEach((phase, i) => {
    for (const t of phase.tasks) {
      const prev = tasks.get(t)?.checked ?? false;
      if (t.checked !== prev)
        events.push({
          type: 'task-completed',
          file,
          line: t.line,
          phase: phaseNumber(phase, i),
          task: t.number,
          // As written (`2.1`): messages name the task by it, the order rules compare top-level numbers.
          label: t.label,
          completed: t.checked,
        });
    }
  });
  const mode = (p: Plan | null) => (typeof p?.frontmatter?.mode === 'string' ? p.frontmatter.mode : '(none)');
  if (before && mode(before) !== mode(after)) {
    events.push({
      type: 'mode-changed',
      file,
      line: positionOf(after.positions, '/mode', { line: 1, column: 1 }).line,
      from: mode(before),
      to: mode(after),
    });
  }
  // A plan unstructured before, or entering git so, is the reader's to say (plan/schema's info), not a change.
  if (before && !before.unstructured && after.unstructured && before.phases.some((p) => !p.outside)) {
    events.push({ type: 'plan-unstructured', file, line: after.unstructured.line, reason: after.unstructured.reason });
  }
  if (before) events.push(...removedSections(file, before, after, slots));
  if (after.frontmatter?.mode_set_by === 'user' && before?.frontmatter?.mode_set_by !== 'user') {
    events.push({ type: 'mode-set-by-user', file, line: positionOf(after.positions, '/mode_set_by').line });
  }
  return events;
}

function handoffEvents(file: string, before: Handoff, after: Handoff): Event[] {
  const a = after.frontmatter ?? {};
  const b = before.frontmatter ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => canonicalText(a[k]) !== canonicalText(b[k]),
  );
  // A handoff's status, task, verification results and outcome are fixed once committed wherever they are written:
  // a body marker (`## Status: FAILED`), a section or the second YAML document too, not only the frontmatter.
  const fixed: [string, unknown, unknown][] = [
    ['status', before.status, after.status],
    ['task', before.task, after.task],
    ['verification_results', before.verification, after.verification],
    ['outcome', before.claims.map((c) => c.status), after.claims.map((c) => c.status)],
  ];
  for (const [name, was, now] of fixed) {
    const key = after.sources[name] ?? before.sources[name] ?? name;
    if (canonicalText(was) !== canonicalText(now) && !keys.includes(key) && !keys.includes(name)) keys.push(key);
  }
  if (keys.length === 0) return [];
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
export function fileEvents(
  path: string,
  before: WorkflowFile | null,
  after: WorkflowFile | null,
  renamedFrom: string | null,
  intact = false,
): Event[] {
  if (after && !after.readable) {
    // A committed handoff left empty or unreadable is gone as surely as a deleted one: its record cannot be read.
    return before?.kind === 'handoff' && before.readable
      ? [{ type: 'handoff-deleted', file: path, line: 1, emptied: true }]
      : [];
  }
  const events: Event[] = [];
  if (after) events.push(...addedDisables(path, before?.disables ?? [], after.disables));
  if (!after) {
    if (before?.kind === 'handoff') events.push({ type: 'handoff-deleted', file: path, line: 1 });
    // A plan deleted or archived whole is housekeeping, not the loosening of a plan that stays (convention section
    // 6): it has no item events.
    return events;
  }
  if (after.kind === 'plan')
    events.push(...planEvents(path, before?.kind === 'plan' && before.readable ? before : null, after));
  else if (after.kind === 'ledger')
    events.push(...ledgerEvents(path, before?.kind === 'ledger' ? before : null, after));
  else if (after.kind === 'handoff') {
    if (renamedFrom)
      events.push({ type: 'handoff-renamed', file: path, line: 1, from: renamedFrom, ...(intact ? { intact } : {}) });
    if (!before) events.push({ type: 'handoff-added', file: path, line: 1 });
    else if (before.kind === 'handoff' && before.readable) events.push(...handoffEvents(path, before, after));
  }
  return events;
}

/** Identity of an event across the parents of a merge: everything but the line. */
export function eventKey(e: Event): string {
  const { line: _line, ...rest } = e;
  return canonicalText(rest);
}

function trustEvents(change: Change, before: Snapshot, after: Snapshot): Event[] {
  if (change.path === CONFIG_FILE) return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'config' }];
  if (change.path === BASELINE_FILE)
    return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'baseline' }];
  // Whose signatures count is a trust setting like the config: changing the file is changing the config.
  if (change.path === ALLOWED_SIGNERS_FILE)
    return [{ type: 'trust-file-changed', file: change.path, line: 1, what: 'config' }];
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

/** What a plan asks for, as texts: its tasks' titles and its boxes (the prose around them can be rewritten). */
function itemTexts(plan: Plan): Set<string> {
  const texts = new Set<string>();
  for (const phase of plan.phases) {
    for (const t of phase.tasks) if (t.title.trim()) texts.add(`task\0${t.title.trim().toLowerCase()}`);
    for (const it of [...phase.automated, ...phase.manual, ...phase.other, ...(phase.unknown ?? [])])
      texts.add(`item\0${it.text}`);
  }
  return texts;
}

/**
 * A plan renamed with its prose rewritten reaches us as a deletion and an addition: git pairs renames by line
 * similarity, and a rewritten plan can fall under git's threshold while its tasks and boxes are the same. Unpaired,
 * every box already checked would count as checked again in this commit. Pair a deleted plan with an added one of
 * the same commit when most of the deleted plan's items are in the added one (at least two, and half of the smaller
 * plan's), best match first; two unrelated plans share a generic "Tests pass" or two, not half of their items.
 */
function pairRewrittenPlans(changes: Change[], before: Snapshot, after: Snapshot): Change[] {
  const plan = (s: Snapshot, path: string) => {
    const m = s.kindOf(path) === 'plan' ? s.model(path) : null;
    return m?.kind === 'plan' && m.readable ? m : null;
  };
  const gone = changes
    .filter((c) => c.status === 'D')
    .flatMap((c) => {
      const p = plan(before, c.path);
      return p ? [{ change: c, texts: itemTexts(p) }] : [];
    });
  if (gone.length === 0) return changes;
  const added = changes
    .filter((c) => c.status === 'A')
    .flatMap((c) => {
      const p = plan(after, c.path);
      return p ? [{ change: c, texts: itemTexts(p) }] : [];
    });
  const candidates: { del: Change; add: Change; score: number }[] = [];
  for (const d of gone) {
    for (const a of added) {
      let common = 0;
      for (const t of a.texts) if (d.texts.has(t)) common++;
      const score = common / Math.max(1, Math.min(d.texts.size, a.texts.size));
      if (common >= 2 && score >= 0.5) candidates.push({ del: d.change, add: a.change, score });
    }
  }
  if (candidates.length === 0) return changes;
  candidates.sort((x, y) => y.score - x.score);
  const paired = new Map<Change, Change>();
  const taken = new Set<Change>();
  for (const c of candidates) {
    if (taken.has(c.del) || taken.has(c.add)) continue;
    taken.add(c.del);
    taken.add(c.add);
    paired.set(c.add, {
      status: 'R',
      path: c.add.path,
      from: c.del.path,
      oldBlob: c.del.oldBlob,
      newBlob: c.add.newBlob,
    });
  }
  return changes.flatMap((c) => (paired.has(c) ? [paired.get(c)!] : taken.has(c) ? [] : [c]));
}

/** Events of a set of changes between two snapshots. */
export function eventsBetween(changes: Change[], before: Snapshot, after: Snapshot): Event[] {
  const events: Event[] = [];
  const signers = before.allowedSignersPath();
  for (const c of pairRewrittenPlans(changes, before, after)) {
    if (TRUST_FILES.includes(c.path)) {
      events.push(...trustEvents(c, before, after));
      continue;
    }
    if (signers !== null && (c.path === signers || c.from === signers)) {
      events.push({ type: 'trust-file-changed', file: c.path, line: 1, what: 'config' });
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
    // A rename that kept the content: the record survives at the new path.
    const intact = c.status === 'R' && c.oldBlob !== null && c.oldBlob === c.newBlob;
    if (c.status === 'R' && after.kindOf(c.path) !== 'handoff' && before.kindOf(c.from!) === 'handoff') {
      // Moved out of the handoffs folder (an archive): the record survives elsewhere when its content is unchanged.
      events.push(
        intact
          ? { type: 'handoff-renamed', file: c.path, line: 1, from: c.from!, intact }
          : { type: 'handoff-deleted', file: c.from!, line: 1 },
      );
      continue;
    }
    events.push(...fileEvents(c.path, old, now, c.status === 'R' ? c.from : null, intact));
  }
  return events;
}

/**
 * Deletions that are moves out of the workflow folders: the trace's diffs are limited to the workflow pathspecs, so
 * git cannot pair a handoff moved to `thoughts/old/` with its new path. `added` lists what the commit added
 * anywhere (asked of git only when a handoff was deleted); a deleted handoff whose exact content was added elsewhere
 * is a rename that kept the record.
 */
export function movesOut(events: Event[], changes: Change[], added: () => Change[]): Event[] {
  const deleted = events.filter((e) => e.type === 'handoff-deleted' && !e.emptied);
  if (deleted.length === 0) return events;
  const blobOf = new Map(changes.filter((c) => c.status === 'D' && c.oldBlob).map((c) => [c.path, c.oldBlob!]));
  const byBlob = new Map<string, string>();
  for (const c of added()) if (c.status === 'A' && c.newBlob && !byBlob.has(c.newBlob)) byBlob.set(c.newBlob, c.path);
  return events.map((e) => {
    if (e.type !== 'handoff-deleted' || e.emptied) return e;
    const to = byBlob.get(blobOf.get(e.file) ?? '');
    return to ? { type: 'handoff-renamed', file: to, line: 1, from: e.file, intact: true } : e;
  });
}

/** Changes between two path -> blob maps (no rename detection: used for the index and for merge parents). */
export function diffFiles(before: Map<string, string>, after: Map<string, string>): Change[] {
  const out: Change[] = [];
  for (const [path, blob] of after) {
    const was = before.get(path);
    if (was !== blob) out.push({ status: was ? 'M' : 'A', path, from: null, oldBlob: was ?? null, newBlob: blob });
  }
  for (const [path, blob] of before)
    if (!after.has(path)) out.push({ status: 'D', path, from: null, oldBlob: blob, newBlob: null });
  return out;
}
