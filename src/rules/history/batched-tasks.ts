import type { Rule, RawFinding } from '../types.js';
import { effectiveMode } from '../../model/queries.js';
import { AFTER_THE_FACT, personInAudit } from './cause.js';

export const rule: Rule = {
  meta: {
    id: 'history/batched-tasks',
    short: 'In orchestration mode no commit completes two or more tasks.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'F(batch_tasks)',
    description:
      "In orchestration mode no single commit completes two or more tasks of a plan (`Task 1.1` and `Task 1.2` are two tasks): one agent per task, one commit per task, each with its handoff. In an audit (no config), only commits with an agent's identity are judged: history shows who committed, not who worked.",
    fix: 'Commit each task on its own, with its handoff and its plan check-off.',
    messages: {
      batched: 'One commit completes {{count}} tasks ({{tasks}}).',
      // The fix of a commit already made: what to do now.
      batchedNow: `From now on commit each task on its own, with its handoff and its plan check-off; for this commit, ${AFTER_THE_FACT}.`,
    },
  },
  transition: (ctx) => {
    if (personInAudit(ctx)) return [];
    const out: RawFinding[] = [];
    const byPlan = new Map<string, { label: string; line: number }[]>();
    for (const e of ctx.events) {
      if (e.type !== 'task-completed' || !e.completed) continue;
      // In an audit, a plan that enters git already progressed says nothing about how its tasks were committed.
      if (ctx.audit && ctx.before.model(e.file) === null) continue;
      byPlan.set(e.file, [...(byPlan.get(e.file) ?? []), { label: e.label, line: e.line }]);
    }
    for (const [file, done] of byPlan) {
      const plan = ctx.after.plan(file);
      if (done.length < 2 || !plan || effectiveMode(plan) !== 'orchestration') continue;
      out.push({
        file,
        line: done[1]!.line,
        messageId: 'batched',
        ...(ctx.stage === 'history' ? { fixId: 'batchedNow' } : {}),
        // Named as written: `Task 1.1, Task 1.2` are tasks of their own (convention section 4), not `Task 1` twice.
        data: { count: done.length, tasks: done.map((d) => `Task ${d.label}`).join(', ') },
      });
    }
    return out;
  },
};
