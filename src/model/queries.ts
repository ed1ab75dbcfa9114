// Questions rules ask of the model, answered once here so every rule answers them the same way.
import { posix } from 'node:path';
import type {
  CheckItem,
  Handoff,
  Ledger,
  LedgerItem,
  Phase,
  Plan,
  PlanMode,
  Position,
  PositionMap,
  Task,
  Workspace,
} from './types.js';
import { canonicalText } from '../shared/text.js';

export function tasksOf(plan: Plan): Task[] {
  return plan.phases.flatMap((p) => p.tasks);
}

/** Declared mode, or the seed's table: 4+ tasks or context_critical -> orchestration, else direct. */
export function tableMode(plan: Plan): PlanMode {
  return tasksOf(plan).length >= 4 || plan.frontmatter?.context_critical === true ? 'orchestration' : 'direct';
}

export function effectiveMode(plan: Plan): PlanMode {
  const declared = plan.frontmatter?.mode;
  return declared === 'direct' || declared === 'orchestration' ? declared : tableMode(plan);
}

/**
 * A plan its authors set aside (`status: superseded` in its frontmatter, `SUPERSEDED` or `ABANDONED` in its title):
 * its structure and order are history, not work to judge. The gate's rules still follow its checkboxes.
 */
export function setAside(plan: Plan): boolean {
  const status = plan.frontmatter?.status;
  const words = /\b(?:superseded|abandoned|archived|obsolete|deprecated|cancell?ed|replaced by)\b/i;
  return (
    (typeof status === 'string' && words.test(status)) ||
    (plan.title !== null && /\b(?:SUPERSEDED|ABANDONED|OBSOLETE|DEPRECATED)\b/.test(plan.title))
  );
}

/**
 * A plan whose every box is checked, N/A or set aside with its reason (`- Future enhancement`, `(deferred)`): a record
 * of finished work, nothing left pending. `recommended` leaves its structure alone (criteria, numbering):
 * restructuring it now helps nobody, and the hooks judged that structure while it was worked.
 */
export function finished(plan: Plan): boolean {
  const boxes = plan.phases.flatMap(phaseBoxes);
  return boxes.length > 0 && boxes.every((b) => b.checked || b.na || b.deviation === true);
}

/**
 * A plan in the step form of superpowers' writing-plans (`### Task 1: ...` headings whose boxes are
 * `**Step 1: Write the failing test**`, `**Step 2: Run it to verify it fails**`): its protocol verifies in the
 * steps, not in criteria sections.
 */
export function inSteps(plan: Plan): boolean {
  const tasks = plan.phases.flatMap((p) => p.tasks);
  return (
    tasks.length > 0 &&
    tasks.every((t) => t.source === 'heading' && t.steps.length > 0 && t.steps.every((s) => /^step \d+/i.test(s.text)))
  );
}

/** The plan's phase sequence: every phase but the sections outside it (plan-wide lists, checklists, rollout). */
export function sequence(plan: Plan): Phase[] {
  return plan.phases.filter((p) => !p.outside);
}

/**
 * The phases whose own criteria the structure rules judge: the sequence without deferred phases and without a
 * grouping phase that holds nothing but its sub-phases.
 */
export function judgedPhases(plan: Plan): Phase[] {
  return sequence(plan).filter((p) => !p.deferred && !(p.group && holdsNothing(p)));
}

/** A phase without a task, criterion or other checkbox of its own. */
export function holdsNothing(phase: Phase): boolean {
  return (
    phase.automated.length + phase.manual.length + phase.unknown.length + phase.tasks.length + phase.other.length === 0
  );
}

export function criteria(phase: Phase): CheckItem[] {
  return [...phase.automated, ...phase.manual];
}

/**
 * A phase's manual items are a human's to check now: its automated verification passed (or, without automated items,
 * every task is done), the workflow's "present the manual checklist; wait". `status` and the review say "waiting for
 * a human" by this one test.
 */
export function manualDue(phase: Phase): boolean {
  if (phase.automated.length > 0) return phase.automated.every((i) => i.checked || i.na);
  return phase.tasks.length > 0 && phase.tasks.every((t) => t.checked);
}

/**
 * verified(n), as phase order means it (convention section 5, `plan/phase-order`). `recommended`: every automated
 * item checked or N/A (manual boxes are a human's and often lag behind the human's word); `strict`: every automated,
 * manual (and unsplit) criterion checked or N/A. A phase without the criteria its preset looks at needs its tasks
 * (and other boxes) done. Without a preset: `strict`, every criterion.
 */
export function phaseVerified(phase: Phase, preset: 'recommended' | 'strict' = 'strict'): boolean {
  // A deferred phase was set aside on purpose: it holds nothing up (a declared deviation, convention section 6).
  if (phase.deferred || phase.declaredDone) return true;
  const groups = verifyingCriteria(phase, preset);
  if (groups.some(([, items]) => items.length > 0)) return groups.every(([, items]) => items.every(boxDone));
  return phase.tasks.every((t) => t.checked) && phase.other.every(boxDone);
}

const boxDone = (i: CheckItem): boolean => i.checked || i.na || !!i.deviation;

/** The criteria verified(n) reads in this preset, by kind; none at all: the phase is judged by its tasks. */
function verifyingCriteria(phase: Phase, preset: 'recommended' | 'strict'): [string, CheckItem[]][] {
  return preset === 'strict'
    ? [
        ['automated', phase.automated],
        ['manual', phase.manual],
        ['unknown', phase.unknown ?? []],
      ]
    : [['automated', phase.automated]];
}

/**
 * The boxes phaseVerified reads of a phase that is not set aside, each with whether it counts as done and a key that
 * names it in another version of the plan: its kind and words, as history/events.ts pairs items (a task by its
 * title, else its label). Read through the same verifyingCriteria, so the two never disagree on which boxes count.
 */
export function verificationBoxes(
  phase: Phase,
  preset: 'recommended' | 'strict' = 'strict',
): { key: string; done: boolean }[] {
  const box = (kind: string) => (i: CheckItem) => ({ key: `${kind}\0${i.text}`, done: boxDone(i) });
  const items = verifyingCriteria(phase, preset).flatMap(([kind, list]) => list.map(box(kind)));
  if (items.length > 0) return items;
  return [
    ...phase.tasks.map((t) => ({ key: `task\0${t.title.trim() || t.label}`, done: t.checked })),
    ...phase.other.map(box('other')),
  ];
}

/**
 * Whether a phase's verification has begun: one of its automated items is checked. It tells a box left open (the
 * agent ran the checks, ticked what passed and went on, one stale box among ticked ones) from a verification that
 * never happened (the phase implemented, not one check ticked): on real repositories maintainers read the first as
 * bookkeeping and the second as the agent skipping the checks (issue 19). N/A items and declared deviations are no
 * beginning: they say a check will not run, not that one ran. A phase without automated items never counts as
 * begun, the conservative reading: unsplit criteria (kind unknown) may be a human's boxes, and tasks are the work,
 * not its verification, so nothing in such a phase shows that a check ran, and it keeps the plain order reading
 * (its tasks, as phaseVerified says).
 */
export function verificationBegun(phase: Phase): boolean {
  return phase.automated.some((i) => i.checked && !i.na && !i.deviation);
}

/**
 * The open tasks and automated items of a plan that says its work is done (plan/claimed-complete), in line order;
 * null when it claims nothing, when nothing is open, or when it never ticks a box (it keeps its state in words, so
 * nothing contradicts it). Whether they contradict the claim, and so are one cause the order rules leave to that
 * rule, is claimContradicted's.
 */
export function claimedButOpen(plan: Plan): OpenItem[] | null {
  if (!plan.readable || !plan.claimsComplete) return null;
  const ticks = sequence(plan).some(
    (p) =>
      p.tasks.some((t) => t.checked) ||
      p.automated.some((a) => a.checked) ||
      p.manual.some((m) => m.checked) ||
      p.other.some((o) => o.checked),
  );
  if (!ticks) return null;
  const open: OpenItem[] = [];
  for (const phase of sequence(plan).filter((p) => !p.deferred && !p.declaredDone && !p.statusDone)) {
    // Left behind only where the phase's work is done (every task checked) and its verification began (one of its
    // automated items checked: verificationBegun, the reading history/phase-order holds the next phase to). Tasks
    // checked with not one automated item checked is a verification that never happened, and contradicts the claim.
    const behind = phase.tasks.every((t) => t.checked) && verificationBegun(phase);
    for (const t of phase.tasks)
      if (!t.checked) open.push({ text: `Task ${t.label}: ${t.title}`, line: t.line, task: true, leftOpen: false });
    for (const a of phase.automated)
      if (!a.checked && !a.na && !a.deviation) open.push({ text: a.text, line: a.line, task: false, leftOpen: behind });
  }
  return open.length === 0 ? null : open.sort((a, b) => a.line - b.line);
}

/**
 * Whether plan/claimed-complete warns (or errs) on a plan: it says its work is done while an item it holds open
 * contradicts that (strict: any open task or automated item; recommended: one not left behind). Those open boxes are
 * one cause, that rule's, and the order rules leave the plan to it. Where the rule only notes boxes left behind
 * (leftOpen, an info), the claim stands and nothing reports the order: the order rules judge the plan as usual, so a
 * claim of completion cannot let a change through that their error would refuse.
 */
export function claimContradicted(plan: Plan, preset: 'recommended' | 'strict'): boolean {
  const open = claimedButOpen(plan);
  return open !== null && (preset === 'strict' || open.some((o) => !o.leftOpen));
}

/**
 * An open task or automated item of a plan that says its work is done. `leftOpen`: an automated item of a phase whose
 * tasks are all checked and whose verification began (verificationBegun: one of its automated items checked);
 * plan/claimed-complete in `recommended` reads it as a verification box left behind, not open work.
 */
export interface OpenItem {
  text: string;
  line: number;
  /** A task (else an automated item). */
  task: boolean;
  leftOpen: boolean;
}

/**
 * Every checkbox of a phase (task items, steps, criteria, other), in document order. A `### Task N:` heading is no
 * checkbox: its steps are.
 */
type Box = Position & { text: string; checked: boolean; na: boolean; deviation?: boolean };

export function phaseBoxes(phase: Phase): Box[] {
  const boxes: Box[] = [];
  for (const t of phase.tasks) {
    if (t.source === 'item')
      boxes.push({
        line: t.line,
        column: t.column,
        text: `Task ${t.label ?? t.number}: ${t.title}`,
        checked: t.checked,
        na: false,
      });
    boxes.push(...t.steps);
  }
  boxes.push(...criteria(phase), ...(phase.unknown ?? []), ...phase.other);
  return boxes.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Every checked checkbox of a phase that is not N/A, in document order. */
export function checkedBoxes(phase: Phase): (Position & { text: string })[] {
  return phaseBoxes(phase).filter((b) => b.checked && !b.na);
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `Phase 2A (Title)`: the label as written; `the plan` for the implicit phase of a plan without phase headings. */
export function phaseLabel(phase: Phase): string {
  const label = phase.label ?? (phase.number === null ? null : String(phase.number));
  if (label === null) return 'the plan';
  return `Phase ${label}${phase.title ? ` (${phase.title})` : ''}`;
}

/** The task number a handoff gives itself: its `task` key, else `task-NN` in its file name. */
export function handoffTask(h: Handoff): number | null {
  return h.task ?? h.fileTask;
}

/**
 * A task text as texts are compared across versions (history/events.ts pairs tasks by trimmed, lower-case title):
 * also with inner whitespace collapsed, since a handoff's `task_desc` is retyped, not copied.
 */
export function textKey(text: string): string {
  // Rules ask it of the same titles and descriptions over and over (every handoff against its plan's tasks).
  let k = textKeys.get(text);
  if (k === undefined) {
    k = text.trim().replace(/\s+/g, ' ').toLowerCase();
    if (textKeys.size >= 16384) textKeys.clear();
    textKeys.set(text, k);
  }
  return k;
}

const textKeys = new Map<string, string>();

interface TaskIndex {
  byNumber: Map<number, Task[]>;
  byText: Map<string, Task[]>;
}

const taskIndexes = new WeakMap<Plan, TaskIndex>();

function taskIndex(plan: Plan): TaskIndex {
  let index = taskIndexes.get(plan);
  if (!index) {
    index = { byNumber: new Map(), byText: new Map() };
    for (const t of tasksOf(plan)) {
      index.byNumber.set(t.number, [...(index.byNumber.get(t.number) ?? []), t]);
      const k = textKey(t.title);
      if (k) index.byText.set(k, [...(index.byText.get(k) ?? []), t]);
    }
    taskIndexes.set(plan, index);
  }
  return index;
}

/**
 * The plan tasks a handoff (or a ledger item) with this number and description reports on. A human who inserts a
 * task mid-plan renumbers the tasks after it, while the handoffs already written keep their old numbers: so the
 * number counts when the description agrees with the task of that number (or there is none), else the one task
 * whose text is the description, else the number after all. Several tasks only when the number is shared
 * (`Task 3.1`, `Task 3.2`); none when the plan has no such task.
 */
export function tasksFor(plan: Plan, n: number | null, desc: string | null): Task[] {
  const index = taskIndex(plan);
  const numbered = n === null ? [] : (index.byNumber.get(n) ?? []);
  const k = desc === null ? '' : textKey(desc);
  if (!k || numbered.some((t) => textKey(t.title) === k)) return numbered;
  const same = index.byText.get(k) ?? [];
  return same.length === 1 ? same : numbered;
}

/** `Task 2: Add sessions table` -> `Add sessions table`: what a ledger item says besides its number. */
const LEDGER_TASK = /^task\s+\d+\s*[:.\-–—]?\s*/i;

/** The plan tasks a ledger item tracks, attached as handoffs are (tasksFor). */
export function ledgerItemTasks(plan: Plan, item: LedgerItem): Task[] {
  return tasksFor(plan, item.task, item.text.replace(LEDGER_TASK, ''));
}

/** The plan tasks a task handoff reports on (tasksFor): every rule and the history attach handoffs this one way. */
export function handoffTasks(plan: Plan, h: Handoff): Task[] {
  return tasksFor(plan, handoffTask(h), h.taskDesc);
}

/** The one plan task a handoff reports on, or null (no such task, or a number sub-numbered tasks share). */
export function attachedTask(plan: Plan, h: Handoff): Task | null {
  const tasks = handoffTasks(plan, h);
  return tasks.length === 1 ? tasks[0]! : null;
}

/** The plan's task number a handoff reports on: its attached task's, else its own. */
export function attachedNumber(plan: Plan, h: Handoff): number | null {
  return handoffTasks(plan, h)[0]?.number ?? handoffTask(h);
}

/**
 * What makes a snapshot finding and a history finding about a task's handoff one cause (Finding.causes): the plan and
 * the task, known by its text (its number moves when a task is inserted before it).
 */
export function handoffCause(plan: Plan, task: Task): string {
  return `handoff\0${plan.path}\0${textKey(task.title) || task.label}`;
}

/**
 * Tasks checked complete in an orchestration plan that no task handoff linked to the plan reports on (the cause
 * of handoff/missing, which history/task-order also judges commit by commit).
 */
export function tasksWithoutHandoff(ws: Workspace, plan: Plan): Task[] {
  if (!plan.readable || effectiveMode(plan) !== 'orchestration') return [];
  const covered = new Set(handoffsOfPlan(ws, plan).flatMap((h) => handoffTasks(plan, h)));
  return tasksOf(plan).filter((t) => t.checked && !covered.has(t));
}

const byPlan = new WeakMap<Workspace, Map<string, Handoff[]>>();

/** Task handoffs linked to a plan (indexed once per workspace: rules ask this for every plan). */
export function handoffsOfPlan(ws: Workspace, plan: Plan): Handoff[] {
  let index = byPlan.get(ws);
  if (!index) {
    index = new Map();
    for (const h of ws.handoffs) {
      const target = h.isTask ? ws.links.get(h.path) : undefined;
      if (target) index.set(target, [...(index.get(target) ?? []), h]);
    }
    byPlan.set(ws, index);
  }
  return index.get(plan.path) ?? [];
}

export function sessionKey(h: Handoff): string {
  return `${h.root}/${h.session ?? ''}`;
}

/** Task handoffs grouped by session folder, each group in task order. */
export function taskHandoffsBySession(ws: Workspace): Map<string, Handoff[]> {
  const groups = new Map<string, Handoff[]>();
  for (const h of ws.handoffs) {
    if (!h.isTask || h.session === null || handoffTask(h) === null) continue;
    const list = groups.get(sessionKey(h)) ?? [];
    list.push(h);
    groups.set(sessionKey(h), list);
  }
  for (const list of groups.values())
    list.sort((a, b) => handoffTask(a)! - handoffTask(b)! || (a.path < b.path ? -1 : 1));
  return groups;
}

export function positionOf(
  positions: PositionMap,
  pointer: string,
  fallback: Position = { line: 1, column: 1 },
): Position {
  let p = pointer;
  while (p) {
    const hit = positions[p];
    if (hit) return hit;
    p = p.slice(0, p.lastIndexOf('/'));
  }
  return fallback;
}

export function planOf(ws: Workspace, path: string): Plan | undefined {
  const target = ws.links.get(path);
  if (!target) return undefined;
  // Indexed once per workspace (the first plan of each path, as a search would find it): rules ask for every handoff.
  let index = plansByPath.get(ws.plans);
  if (!index) {
    index = new Map();
    for (const p of ws.plans) if (!index.has(p.path)) index.set(p.path, p);
    plansByPath.set(ws.plans, index);
  }
  return index.get(target);
}

const plansByPath = new WeakMap<readonly Plan[], Map<string, Plan>>();

/**
 * A handoff's resolution (`resolution:` or a `## Resolution` section) as one comparable text, or null when it has
 * none: what `handoff/blocked-proceed` accepts as the user's answer, and what history asks the author of.
 */
export function resolutionOf(h: Handoff): string | null {
  const r = h.resolution;
  if (r === null || r === undefined || r === '' || (Array.isArray(r) && r.length === 0)) return null;
  return typeof r === 'string' ? r.trim() || null : canonicalText(r);
}

/**
 * Whether a reference as a handoff writes it (`previous:`, `retry_of:`) names that handoff: its repository path, or a
 * path relative to the referring handoff's folder.
 */
export function namesFile(ref: string, from: Handoff, target: Handoff): boolean {
  return refCandidates(ref, from.path).includes(target.path);
}

/**
 * The paths a reference written in the file at `from` may name (a handoff's `previous:`, a plan reference): the path
 * from the repository root first, then the path from the referring file's folder (`./plan.md`), normalized, each
 * once. A function of the reference and the folder, kept: a wide repository's thousands of handoffs write a few
 * hundred references from a few thousand folders, and the workspace and the rules resolve each more than once.
 */
export function refCandidates(ref: string, from: string): readonly string[] {
  const dir = posix.dirname(from);
  const k = `${ref}\0${dir}`;
  let paths = candidates.get(k);
  if (!paths) {
    const clean = ref.trim().replace(/^\.\//, '');
    paths = [...new Set([posix.normalize(clean), posix.normalize(posix.join(dir, clean))])];
    if (candidates.size >= 16384) candidates.clear();
    candidates.set(k, paths);
  }
  return paths;
}

const candidates = new Map<string, readonly string[]>();

/**
 * Whether a handoff names another as the earlier attempt it retries (convention section 6: a retry is a new file that
 * names the earlier one), in `retry_of:` or `previous:`, by path or, in another session, by file name alone.
 */
export function retries(h: Handoff, earlier: Handoff): boolean {
  return [h.retryOf, h.previous].some((ref) => {
    if (!ref) return false;
    if (namesFile(ref, h, earlier)) return true;
    // A bare file name that is the retry's own names the retry itself, not the earlier file of that name.
    const name = ref.trim();
    return (
      !name.includes('/') &&
      h.session !== earlier.session &&
      posix.basename(earlier.path) === name &&
      posix.basename(h.path) !== name
    );
  });
}

/** `2026-01-10`, `2026-01-10_14-30-05`, `20260110T1430`: a leading date (and time), as digits that sort in time order. */
const LEADING_DATE = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T_ -]?(\d{2})[-:]?(\d{2})(?:[-:]?(\d{2}))?)?(?!\d)/;

function dateDigits(text: string): string | null {
  const m = LEADING_DATE.exec(text.trim());
  return m
    ? m
        .slice(1)
        .filter((part) => part !== undefined)
        .join('')
    : null;
}

/**
 * When a handoff was written, as far as the files say: the date its session folder's name starts with (the dialects
 * that date sessions name them so), and its `date:` key. Null where the file says nothing.
 */
export function handoffDates(h: Handoff): { folder: string | null; key: string | null } {
  const folder = h.session ? dateDigits(h.session.split('/')[0]!) : null;
  const date = h.frontmatter?.date;
  const key =
    typeof date === 'string' ? dateDigits(date) : date instanceof Date ? dateDigits(date.toISOString()) : null;
  return { folder, key };
}

/** Two dates as digits compared at the precision both give: null when they agree that far. */
function compareDates(a: string | null, b: string | null): boolean | null {
  if (a === null || b === null) return null;
  const n = Math.min(a.length, b.length);
  return a.slice(0, n) === b.slice(0, n) ? null : a.slice(0, n) > b.slice(0, n);
}

/**
 * Whether handoff a was written after handoff b, by their session folders' dates, else by their `date:` keys; null
 * when the files cannot tell (no date on one side, or the same day without times).
 */
export function writtenAfter(a: Handoff, b: Handoff): boolean | null {
  const da = handoffDates(a);
  const db = handoffDates(b);
  return compareDates(da.folder, db.folder) ?? compareDates(da.key, db.key);
}

/** What a ledger or handoff may call a plan in prose: its file name (with or without `.md`) and its title. */
export function planNames(plan: Plan): string[] {
  const base = posix.basename(plan.path);
  const names = [base.toLowerCase(), base.replace(/\.md$/i, '').toLowerCase()];
  if (plan.title) {
    const title = plan.title.toLowerCase().trim();
    names.push(title);
    const short = title
      .replace(/\s*[-–—:]?\s*implementation plan$/, '')
      .replace(/^implementation plan\s*[-–—:]\s*/, '')
      .trim();
    if (short.length >= 12) names.push(short);
  }
  return [...new Set(names)].filter((n) => n.length >= 8);
}

/** The plans a ledger names: the one it is linked to, else every plan whose file name or title its text mentions. */
export function plansNamedBy(ws: Workspace, ledger: Ledger): Plan[] {
  const linked = planOf(ws, ledger.path);
  if (linked) return [linked];
  return ws.plans.filter((p) => p.readable && planNames(p).some((name) => ledger.mentions.includes(name)));
}
