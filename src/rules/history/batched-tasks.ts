import type { Rule, RawFinding } from '../types.js';
import { effectiveMode } from '../../model/queries.js';
import { AFTER_THE_FACT, handoffsPromised, personInAudit } from './cause.js';

export const rule: Rule = {
  meta: {
    id: 'history/batched-tasks',
    short: 'In orchestration mode no commit completes two or more tasks.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'F(batch_tasks)',
    description:
      "In orchestration mode no single commit completes two or more tasks of a plan (sub-tasks `Task 1.1`, `Task 1.2` are one task): one agent per task, one commit per task, each with its handoff. In `recommended` only where the repository keeps task handoffs (its promise, as handoff/missing reads it) or the plan declares `mode: orchestration`. In an audit (no config), only commits with an agent's identity are judged: history shows who committed, not who worked.",
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
    const byPlan = new Map<string, { task: number; line: number }[]>();
    for (const e of ctx.events) {
      if (e.type !== 'task-completed' || !e.completed) continue;
      // In an audit, a plan that enters git already progressed says nothing about how its tasks were committed.
      if (ctx.audit && ctx.before.model(e.file) === null) continue;
      byPlan.set(e.file, [...(byPlan.get(e.file) ?? []), { task: e.task, line: e.line }]);
    }
    for (const [file, done] of byPlan) {
      const plan = ctx.after.plan(file);
      // Sub-tasks of one task (`Task 1.1` to `Task 1.5`) are one task of the plan's numbering.
      const tasks = [...new Set(done.map((d) => d.task))];
      if (tasks.length < 2 || !plan || effectiveMode(plan) !== 'orchestration') continue;
      // One agent and one commit per task is the orchestration protocol: held where the repository keeps task
      // handoffs (or the plan declares the mode), as handoff/missing holds it.
      if (!handoffsPromised(ctx, plan)) continue;
      const second = done.find((d) => d.task !== done[0]!.task)!;
      out.push({
        file,
        line: second.line,
        messageId: 'batched',
        ...(ctx.stage === 'history' ? { fixId: 'batchedNow' } : {}),
        data: { count: tasks.length, tasks: tasks.map((n) => `Task ${n}`).join(', ') },
      });
    }
    return out;
  },
};
