import type { Rule, RawFinding } from '../types.js';
import type { Handoff, Task, Workspace } from '../../model/types.js';
import { attachedTask, effectiveMode, handoffTask, handoffsOfPlan } from '../../model/queries.js';

/** How the link was made, for the message: `plan:` key or ledger, or inferred (section 4). */
function linkNote(ws: Workspace, h: Handoff): string {
  const inferred = ws.inferred.get(h.path);
  if (!inferred) return '';
  return inferred.by === 'mention'
    ? ' (linked because the session mentions this plan)'
    : " (linked because the session's task handoffs match this plan's tasks)";
}

export const rule: Rule = {
  meta: {
    id: 'handoff/plan-sync',
    short: 'The plan agrees with its task handoffs on which tasks are done.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(update_plan) <- task_complete',
    description:
      "The plan is updated after orchestration: a plan task stays unchecked while its task handoff reports it complete, or is checked while its handoff reports it failed or blocked. Handoffs are linked to the plan by `plan:`, by their session ledger, or by inference (section 4). In orchestration mode a checked task whose handoff is not complete is `handoff/validated`'s finding, so this rule judges that direction only in direct mode.",
    fix: "Check the task in the plan (or correct the handoff's status) so both say the same.",
    messages: {
      completeButUnchecked:
        'Task {{task}} is unchecked in the plan, but its handoff reports it complete ({{handoff}}){{how}}.',
      manyCompleteButUnchecked:
        'The plan was not updated after orchestration: {{count}} tasks ({{tasks}}) are unchecked here, but their handoffs report them complete (first: {{handoff}}){{how}}.',
      checkedButFailed:
        'Task {{task}} is checked in the plan, but its handoff reports it {{status}} ({{handoff}}){{how}}.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable)) {
      const stale: { task: Task; handoff: Handoff }[] = [];
      const direct = effectiveMode(plan) === 'direct';
      for (const h of handoffsOfPlan(ws, plan)) {
        const n = handoffTask(h);
        // A `task` key that is no integer (`task: one`) is handoff/schema's finding; the number is not known.
        const keyed = h.normalized.task;
        if (n === null || !h.readable || h.problems.length > 0 || (keyed !== undefined && !Number.isInteger(keyed)))
          continue;
        // Sub-numbered tasks sharing the number leave the handoff's task unknown.
        const task = attachedTask(plan, h);
        if (!task) continue;
        if (h.status === 'complete' && !task.checked) stale.push({ task, handoff: h });
        else if (direct && task.checked && (h.status === 'failed' || h.status === 'blocked')) {
          out.push({
            file: plan.path,
            line: task.line,
            column: task.column,
            messageId: 'checkedButFailed',
            data: { task: task.label, status: h.status, handoff: h.path, how: linkNote(ws, h) },
          });
        }
      }
      stale.sort((a, b) => a.task.line - b.task.line);
      const first = stale[0];
      if (!first) continue;
      const at = { file: plan.path, line: first.task.line, column: first.task.column };
      const how = linkNote(ws, first.handoff);
      // One cause, one finding: a plan nobody updated after the whole orchestration is one mistake, not eight.
      if (stale.length === 1)
        out.push({
          ...at,
          messageId: 'completeButUnchecked',
          data: { task: first.task.label, handoff: first.handoff.path, how },
        });
      else
        out.push({
          ...at,
          messageId: 'manyCompleteButUnchecked',
          data: {
            count: stale.length,
            tasks: stale.map((s) => s.task.label).join(', '),
            handoff: first.handoff.path,
            how,
          },
        });
    }
    return out;
  },
};
