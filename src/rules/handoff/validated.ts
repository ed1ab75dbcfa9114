import type { Rule, RawFinding } from '../types.js';
import { effectiveMode, handoffTask, handoffsOfPlan, tasksOf } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'handoff/validated',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'proceed(task) <-> exists h. [h]:validated',
    description: 'In orchestration mode a task is checked complete in the plan only when its handoff has status complete and non-empty verification results.',
    fix: 'Uncheck the task until its handoff reports status complete with the verification that was run.',
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable && effectiveMode(p) === 'orchestration')) {
      const handoffs = handoffsOfPlan(ws, plan);
      for (const task of tasksOf(plan).filter((t) => t.checked)) {
        const mine = handoffs.filter((h) => handoffTask(h) === task.number);
        if (mine.length === 0) continue; // handoff/missing says so
        if (mine.some((h) => h.status === 'complete' && h.verification.length > 0)) continue;
        const h = mine[0]!;
        const why = h.status !== 'complete' ? `its handoff has status ${h.status ?? String(h.normalized.status ?? 'unset')}` : 'its handoff has no verification results';
        out.push({ file: plan.path, line: task.line, column: task.column, message: `Task ${task.number} is checked complete but ${why} (${h.path}).` });
      }
    }
    return out;
  },
};
