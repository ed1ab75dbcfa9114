import type { Rule, RawFinding } from '../types.js';
import { effectiveMode, handoffTask, handoffsOfPlan, tasksOf } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'handoff/missing',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(create_handoff) <- agent_completes',
    description:
      'In orchestration mode every task checked complete in the plan has a task handoff linked to the plan (by its `plan:` key or its session ledger). Task handoffs that cannot be linked to any plan are named in one info message and skipped.',
    fix: 'Write the task handoff (`npx validate-workflow new handoff --session <session>`), or uncheck the task.',
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable && effectiveMode(p) === 'orchestration')) {
      const covered = new Set(handoffsOfPlan(ws, plan).map(handoffTask));
      for (const task of tasksOf(plan).filter((t) => t.checked && !covered.has(t.number))) {
        out.push({ file: plan.path, line: task.line, column: task.column, message: `Task ${task.number} is checked complete but has no task handoff.` });
      }
    }
    const first = ws.unlinked[0];
    if (first) {
      const names = ws.unlinked.slice(0, 3).map((h) => h.path).join(', ');
      out.push({
        file: first.path,
        line: 1,
        column: 1,
        info: true,
        message: `${ws.unlinked.length} task handoff(s) name no plan that exists and have no session ledger naming one (${names}${ws.unlinked.length > 3 ? ', ...' : ''}); plan checks skip them.`,
        fix: 'Add `plan: <path of the plan>` to their frontmatter, or a ledger for their session.',
      });
    }
    return out;
  },
};
