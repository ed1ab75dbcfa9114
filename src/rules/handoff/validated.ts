import type { Rule, RawFinding } from '../types.js';
import type { Handoff, Task } from '../../model/types.js';
import { effectiveMode, handoffTasks, handoffsOfPlan, tasksOf } from '../../model/queries.js';

/** Results an agent writes when a check did not pass; `[ ]` items of a TDD checklist read as "not run". */
const NOT_PASSED = new Set(['fail', 'failed', 'failure', 'error', 'not run', 'not_run', 'skipped', 'pending']);

function verified(h: Handoff): boolean {
  const results = h.verification.map((v) =>
    typeof v === 'object' && v !== null && 'result' in v
      ? String((v as { result: unknown }).result)
          .trim()
          .toLowerCase()
      : 'reported',
  );
  return results.length > 0 && results.every((r) => !NOT_PASSED.has(r));
}

export const rule: Rule = {
  meta: {
    id: 'handoff/validated',
    short: 'A task is checked only when its handoff is complete and verified.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'proceed(task) <-> exists h. [h]:validated',
    description:
      'In orchestration mode a task is checked complete in the plan only when its handoff has status complete and verification results that are not empty and record no failed or skipped check.',
    fix: 'Uncheck the task until its handoff reports status complete with the verification that was run.',
    messages: {
      notComplete: 'Task {{task}} is checked complete but its handoff has status {{status}} ({{handoff}}).',
      noVerification: 'Task {{task}} is checked complete but its handoff has no verification results ({{handoff}}).',
      notVerified:
        'Task {{task}} is checked complete but its handoff records a verification that failed or was not run ({{handoff}}).',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable && effectiveMode(p) === 'orchestration')) {
      // Each handoff's tasks once, by task: a plan of 2,000 tasks and handoffs stays linear, not 4 million lookups.
      // A handoff that could not be read or parsed is handoff/schema's finding; a missing one is handoff/missing's.
      const byTask = new Map<Task, Handoff[]>();
      for (const h of handoffsOfPlan(ws, plan))
        if (h.readable && h.problems.length === 0)
          for (const t of handoffTasks(plan, h)) byTask.set(t, [...(byTask.get(t) ?? []), h]);
      for (const task of tasksOf(plan).filter((t) => t.checked)) {
        const mine = byTask.get(task) ?? [];
        if (mine.length === 0) continue;
        if (mine.some((h) => h.status === 'complete' && verified(h))) continue;
        const h = mine[0]!;
        const at = { file: plan.path, line: task.line, column: task.column };
        const data = { task: task.number, handoff: h.path };
        if (h.status !== 'complete')
          out.push({
            ...at,
            messageId: 'notComplete',
            data: { ...data, status: h.status ?? String(h.normalized.status ?? 'unset') },
          });
        else if (h.verification.length === 0) out.push({ ...at, messageId: 'noVerification', data });
        else out.push({ ...at, messageId: 'notVerified', data });
      }
    }
    return out;
  },
};
