import type { Rule, RawFinding } from '../types.js';
import type { Plan, Position } from '../../model/types.js';
import { finished, sequence, setAside } from '../../model/queries.js';
import { promiseOf } from '../promise.js';

interface Entry extends Position {
  /** The top-level number of the label. */
  number: number;
  label: string;
}

/** The last number a range label stands for: 28 for `3-28` (a heading that covers several phases), else null. */
function rangeEnd(label: string): number | null {
  const m = /^(\d+)-(\d+)$/.exec(label);
  return m && Number(m[2]) > Number(m[1]) ? Number(m[2]) : null;
}

/**
 * Only the top-level sequence is checked: `Phase 2A` after `Phase 2`, or `Task 3.1, 3.2`, belong to a consistent
 * scheme and never ask to be renumbered. The same label twice is a repeat; a new top-level number must be the next
 * one (a scheme may start at 0: `Phase 0` for setup).
 */
function numbering(
  plan: Plan,
  what: 'task' | 'phase',
  entries: Entry[],
  fromOne: boolean,
  gapsAreNotes: boolean,
): RawFinding[] {
  const out: RawFinding[] = [];
  const labels = new Map<string, number>();
  const tops = new Set<number>();
  let expected: number | null = null;
  for (const e of entries) {
    const at = { file: plan.path, line: e.line, column: e.column };
    const label = e.label.toUpperCase();
    const earlier = labels.get(label);
    if (earlier !== undefined) {
      out.push({
        ...at,
        messageId: `${what}Repeated`,
        data: { number: e.label, first: earlier, expected: expected ?? 1 },
      });
      continue;
    }
    labels.set(label, e.line);
    if (tops.has(e.number)) continue; // `3.2` after `3.1`, `2A` after `2`: the same top-level number, sub-numbered
    const first: boolean = expected === null;
    if (first && e.number > 1) {
      if (fromOne) out.push({ ...at, messageId: `${what}NotFromOne`, data: { number: e.label } });
    } else if (!first && e.number > expected! && gapsAreNotes)
      // A gap in the phases leaves every number naming one phase, still in order: a phase appended later, one dropped
      // before the work began (taking one out of a plan under way is history/self-exemption's concern). Tasks keep
      // the error: handoffs and ledgers name them by number and count them (`task_total`), so a gap breaks "N of M".
      out.push({
        ...at,
        messageId: `${what}Gap`,
        info: true,
        data: { number: e.label, previous: expected! - 1, expected: expected! },
      });
    else if (!first && e.number !== expected)
      out.push({
        ...at,
        messageId: `${what}OutOfOrder`,
        data: { number: e.label, previous: expected! - 1, expected: expected! },
      });
    tops.add(e.number);
    const end = rangeEnd(e.label) ?? e.number;
    for (let n = e.number + 1; n <= end && n < e.number + 1000; n++) tops.add(n);
    expected = first ? end + 1 : Math.max(expected!, end + 1);
  }
  return out;
}

/** Phases with a numbered label, in order. */
function phaseEntries(plan: Plan): Entry[] {
  return sequence(plan).flatMap((p) =>
    p.number !== null && p.label !== null ? [{ number: p.number, label: p.label, line: p.line, column: p.column }] : [],
  );
}

/**
 * Tasks in order, without the ones numbered within their phase (`Task 3.1` under `Phase 3`, or under no phase
 * heading at all): their top-level number is the phase's, which the phase sequence already checks; only a repeated
 * label among them is reported.
 */
function taskEntries(plan: Plan): { global: Entry[]; scoped: Entry[] } {
  const global: Entry[] = [];
  const scoped: Entry[] = [];
  for (const phase of sequence(plan)) {
    for (const t of phase.tasks) {
      const e = { number: t.number, label: t.label, line: t.line, column: t.column };
      const sub = t.label !== String(t.number);
      // In a plan without phase headings (`### Task 4.5.1` in an addendum), a sub-numbered label's top number is a
      // phase the plan names elsewhere, not a count of tasks.
      (sub && (phase.number === null || t.number === phase.number) ? scoped : global).push(e);
    }
  }
  return { global, scoped };
}

function repeats(plan: Plan, entries: Entry[]): RawFinding[] {
  const seen = new Map<string, number>();
  const out: RawFinding[] = [];
  for (const e of entries) {
    const first = seen.get(e.label.toUpperCase());
    if (first !== undefined)
      out.push({
        file: plan.path,
        line: e.line,
        column: e.column,
        messageId: 'taskLabelRepeated',
        data: { number: e.label, first },
      });
    else seen.set(e.label.toUpperCase(), e.line);
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'plan/task-numbering',
    short: 'Phases and tasks are numbered from 1, unique and consecutive.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description:
      "Phase numbers in the plan's phase sequence start at 1 (or 0) and are unique and consecutive (a range heading `Phase 3-28` stands for all its numbers); task numbers run across the whole plan too, in `strict` and where the repository numbers its tasks so (two thirds of its plans, or `protocol.taskNumbering: global`). A plan whose phase sequence the reader is not sure of is not judged (plan/schema says so once). Only the top-level sequence is checked: sub-numbered labels (`Phase 2A`, `Phase 3.1`, `Task 3.1` under `Phase 3`) are a consistent scheme, not a renumbering to ask for; a label written twice is a repeat. In `recommended`, a gap in the phases (`Phase 6` after `Phase 4`) is a note, as every number still names one phase in order (a gap in the tasks stays an error: handoffs count tasks), and a finished plan (every box checked or N/A) is a record whose numbering is left alone.",
    fix: 'Renumber so tasks and phases count 1, 2, 3, ... through the whole plan.',
    messages: {
      taskRepeated:
        'Task {{number}} appears again (first at line {{first}}); expected Task {{expected}}. Task numbers run across the whole plan, not per phase.',
      taskNotFromOne: 'Task numbers must start at 1, found Task {{number}}.',
      taskOutOfOrder: 'Task {{number}} follows Task {{previous}}; expected Task {{expected}}.',
      phaseRepeated: 'Phase {{number}} appears again (first at line {{first}}); expected Phase {{expected}}.',
      phaseNotFromOne: 'Phase numbers must start at 1, found Phase {{number}}.',
      phaseOutOfOrder: 'Phase {{number}} follows Phase {{previous}}; expected Phase {{expected}}.',
      taskLabelRepeated: 'Task {{number}} appears again (first at line {{first}}).',
      phaseGap:
        'Phase {{number}} follows Phase {{previous}}: there is no Phase {{expected}}. No number is used twice, so this is a note; `strict` asks for consecutive numbers.',
    },
  },
  snapshot: (ws, ctx) => {
    // Task numbers are held to one run across the plan only where the repository numbers them so (or under
    // strict): per-phase numbering is a consistent scheme of its own.
    const global = promiseOf(ws, ctx).taskNumbering.value === 'global';
    // A plan may go on from another plan's phases (`Phase 5` in part two): only strict asks phases to start at 1.
    const strict = ctx.preset === 'strict';
    return ws.plans
      .filter((p) => p.readable && !p.unstructured && !setAside(p) && (strict || !finished(p)))
      .flatMap((plan) => {
        const tasks = taskEntries(plan);
        // Any scheme: each phase's own tasks still run without a repeat or a gap (`Task 4` after `Task 2`).
        const perPhase = global
          ? []
          : sequence(plan).flatMap((phase) =>
              numbering(
                plan,
                'task',
                phase.tasks
                  .filter((t) => t.label === String(t.number))
                  .map((t) => ({ number: t.number, label: t.label, line: t.line, column: t.column })),
                false,
                false,
              ),
            );
        return [
          ...numbering(plan, 'phase', phaseEntries(plan), strict, !strict),
          ...(global
            ? [...numbering(plan, 'task', tasks.global, true, false), ...repeats(plan, tasks.scoped)]
            : perPhase),
        ];
      });
  },
};
