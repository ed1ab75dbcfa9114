import type { Rule, RawFinding } from '../types.js';
import type { Plan, Position } from '../../model/types.js';
import { tasksOf } from '../../model/queries.js';

function numbering(plan: Plan, what: 'task' | 'phase', entries: (Position & { number: number })[]): RawFinding[] {
  const out: RawFinding[] = [];
  const seen = new Map<number, number>();
  let expected = 1;
  for (const e of entries) {
    const at = { file: plan.path, line: e.line, column: e.column };
    const earlier = seen.get(e.number);
    if (earlier !== undefined) {
      out.push({ ...at, messageId: `${what}Repeated`, data: { number: e.number, first: earlier, expected } });
      continue;
    }
    seen.set(e.number, e.line);
    if (e.number !== expected) {
      if (expected === 1 && seen.size === 1) out.push({ ...at, messageId: `${what}NotFromOne`, data: { number: e.number } });
      else out.push({ ...at, messageId: `${what}OutOfOrder`, data: { number: e.number, previous: expected - 1, expected } });
    }
    expected = Math.max(expected, e.number) + (e.number >= expected ? 1 : 0);
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'plan/task-numbering',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description: 'Task numbers run across the whole plan (not per phase), and phase numbers too: each starts at 1 and is unique and consecutive.',
    fix: 'Renumber so tasks and phases count 1, 2, 3, ... through the whole plan.',
    messages: {
      taskRepeated: 'Task {{number}} appears again (first at line {{first}}); expected Task {{expected}}. Task numbers run across the whole plan, not per phase.',
      taskNotFromOne: 'Task numbers must start at 1, found Task {{number}}.',
      taskOutOfOrder: 'Task {{number}} follows Task {{previous}}; expected Task {{expected}}.',
      phaseRepeated: 'Phase {{number}} appears again (first at line {{first}}); expected Phase {{expected}}.',
      phaseNotFromOne: 'Phase numbers must start at 1, found Phase {{number}}.',
      phaseOutOfOrder: 'Phase {{number}} follows Phase {{previous}}; expected Phase {{expected}}.',
    },
  },
  snapshot: (ws) =>
    ws.plans
      .filter((p) => p.readable)
      .flatMap((plan) => [
        ...numbering(plan, 'phase', plan.phases.filter((p) => p.number !== null) as (Position & { number: number })[]),
        ...numbering(plan, 'task', tasksOf(plan)),
      ]),
};
