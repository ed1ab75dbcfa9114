import type { Rule, RawFinding } from '../types.js';
import type { Plan, Position } from '../../model/types.js';
import { tasksOf } from '../../model/queries.js';

function numbering(plan: Plan, what: 'Task' | 'Phase', entries: (Position & { number: number })[]): RawFinding[] {
  const out: RawFinding[] = [];
  const seen = new Map<number, number>();
  let expected = 1;
  for (const e of entries) {
    const at = { file: plan.path, line: e.line, column: e.column };
    const earlier = seen.get(e.number);
    if (earlier !== undefined) {
      const hint = what === 'Task' ? ' Task numbers run across the whole plan, not per phase.' : '';
      out.push({ ...at, message: `${what} ${e.number} appears again (first at line ${earlier}); expected ${what} ${expected}.${hint}` });
      continue;
    }
    seen.set(e.number, e.line);
    if (e.number !== expected) {
      out.push({ ...at, message: expected === 1 && seen.size === 1 ? `${what} numbers must start at 1, found ${what} ${e.number}.` : `${what} ${e.number} follows ${what} ${expected - 1}; expected ${what} ${expected}.` });
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
  },
  snapshot: (ws) =>
    ws.plans
      .filter((p) => p.readable)
      .flatMap((plan) => [
        ...numbering(plan, 'Phase', plan.phases.filter((p) => p.number !== null) as (Position & { number: number })[]),
        ...numbering(plan, 'Task', tasksOf(plan)),
      ]),
};
