import type { Rule, RawFinding } from '../types.js';
import type { Plan, Position } from '../../model/types.js';

interface Entry extends Position {
  /** The top-level number of the label. */
  number: number;
  label: string;
}

/**
 * Only the top-level sequence is checked: `Phase 2A` after `Phase 2`, or `Task 3.1, 3.2`, belong to a consistent
 * scheme and never ask to be renumbered. The same label twice is a repeat; a new top-level number must be the next
 * one (a scheme may start at 0: `Phase 0` for setup).
 */
function numbering(plan: Plan, what: 'task' | 'phase', entries: Entry[]): RawFinding[] {
  const out: RawFinding[] = [];
  const labels = new Map<string, number>();
  const tops = new Set<number>();
  let expected: number | null = null;
  for (const e of entries) {
    const at = { file: plan.path, line: e.line, column: e.column };
    const label = e.label.toUpperCase();
    const earlier = labels.get(label);
    if (earlier !== undefined) {
      out.push({ ...at, messageId: `${what}Repeated`, data: { number: e.label, first: earlier, expected: expected ?? 1 } });
      continue;
    }
    labels.set(label, e.line);
    if (tops.has(e.number)) continue; // `3.2` after `3.1`, `2A` after `2`: the same top-level number, sub-numbered
    const first: boolean = expected === null;
    if (first && e.number > 1) out.push({ ...at, messageId: `${what}NotFromOne`, data: { number: e.label } });
    else if (!first && e.number !== expected) out.push({ ...at, messageId: `${what}OutOfOrder`, data: { number: e.label, previous: expected! - 1, expected: expected! } });
    tops.add(e.number);
    expected = first ? e.number + 1 : Math.max(expected!, e.number + 1);
  }
  return out;
}

/** Phases with a numbered label, in order. */
function phaseEntries(plan: Plan): Entry[] {
  return plan.phases.flatMap((p) => (p.number !== null && p.label !== null ? [{ number: p.number, label: p.label, line: p.line, column: p.column }] : []));
}

/**
 * Tasks in order, without the ones numbered within their phase (`Task 3.1` under `Phase 3`): their top-level number is
 * the phase's, which the phase sequence already checks; only a repeated label among them is reported.
 */
function taskEntries(plan: Plan): { global: Entry[]; scoped: Entry[] } {
  const global: Entry[] = [];
  const scoped: Entry[] = [];
  for (const phase of plan.phases) {
    for (const t of phase.tasks) {
      const e = { number: t.number, label: t.label, line: t.line, column: t.column };
      const sub = t.label !== String(t.number);
      (sub && phase.number !== null && t.number === phase.number ? scoped : global).push(e);
    }
  }
  return { global, scoped };
}

function repeats(plan: Plan, entries: Entry[]): RawFinding[] {
  const seen = new Map<string, number>();
  const out: RawFinding[] = [];
  for (const e of entries) {
    const first = seen.get(e.label.toUpperCase());
    if (first !== undefined) out.push({ file: plan.path, line: e.line, column: e.column, messageId: 'taskLabelRepeated', data: { number: e.label, first } });
    else seen.set(e.label.toUpperCase(), e.line);
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'plan/task-numbering',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description:
      'Task numbers run across the whole plan (not per phase), and phase numbers too: each starts at 1 (or 0) and is unique and consecutive. Only the top-level sequence is checked: sub-numbered labels (`Phase 2A`, `Phase 3.1`, `Task 3.1` under `Phase 3`) are a consistent scheme, not a renumbering to ask for; a label written twice is a repeat.',
    fix: 'Renumber so tasks and phases count 1, 2, 3, ... through the whole plan.',
    messages: {
      taskRepeated: 'Task {{number}} appears again (first at line {{first}}); expected Task {{expected}}. Task numbers run across the whole plan, not per phase.',
      taskNotFromOne: 'Task numbers must start at 1, found Task {{number}}.',
      taskOutOfOrder: 'Task {{number}} follows Task {{previous}}; expected Task {{expected}}.',
      phaseRepeated: 'Phase {{number}} appears again (first at line {{first}}); expected Phase {{expected}}.',
      phaseNotFromOne: 'Phase numbers must start at 1, found Phase {{number}}.',
      phaseOutOfOrder: 'Phase {{number}} follows Phase {{previous}}; expected Phase {{expected}}.',
      taskLabelRepeated: 'Task {{number}} appears again (first at line {{first}}).',
    },
  },
  snapshot: (ws) =>
    ws.plans
      .filter((p) => p.readable)
      .flatMap((plan) => {
        const tasks = taskEntries(plan);
        return [...numbering(plan, 'phase', phaseEntries(plan)), ...numbering(plan, 'task', tasks.global), ...repeats(plan, tasks.scoped)];
      }),
};
