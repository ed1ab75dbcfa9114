import type { Rule, RawFinding } from '../types.js';
import type { Ledger, Plan, Task } from '../../model/types.js';
import { handoffTasks, handoffsOfPlan, ledgerItemTasks, planOf, positionOf, tasksOf } from '../../model/queries.js';

/** Plan tasks checked complete that no task item of the ledger tracks (the ledger/sync fix adds them). */
export function unlistedTasks(plan: Plan, ledger: Ledger): Task[] {
  const listed = new Set(ledger.items.filter((i) => i.task !== null).flatMap((i) => ledgerItemTasks(plan, i)));
  return tasksOf(plan).filter((t) => t.checked && !listed.has(t));
}

export const rule: Rule = {
  meta: {
    id: 'ledger/sync',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(update_ledger) <- task_complete',
    description:
      'A ledger and the plan it names (or the plan its session was linked to) agree on which tasks are done: a task checked in the plan is `[x]` in the ledger state, and a task `[x]` in the ledger is checked in the plan. A ledger item `Task N: text` tracks the plan\'s Task N when the texts agree, else the one task with that text (a task inserted mid-plan renumbers the plan, not the ledger). A task the ledger and its handoff both call done while the plan has it unchecked is `handoff/plan-sync`\'s finding (the plan was not updated), not this rule\'s.',
    fix: 'Update the ledger `## State` (or the plan) so both say the same.',
    fixable: 'problem',
    messages: {
      unknownTask: 'Ledger lists Task {{task}}, which {{plan}} does not have.',
      doneButUnchecked: 'Ledger marks Task {{task}} done but the plan has it unchecked ({{plan}}:{{planLine}}).',
      checkedButNotDone: 'Plan checks Task {{task}} complete ({{plan}}:{{planLine}}) but the ledger marks it {{state}}.',
      checkedButUnlisted: 'Plan checks Task {{task}} complete ({{plan}}:{{planLine}}) but the ledger state does not list it.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const ledger of ws.ledgers.filter((l) => l.readable)) {
      const plan = planOf(ws, ledger.path);
      const taskItems = ledger.items.filter((i) => i.task !== null);
      if (!plan || !plan.readable || taskItems.length === 0) continue;
      // A task the ledger and its handoff both call done, unchecked in the plan: the plan is what nobody updated,
      // handoff/plan-sync's one finding; saying it again per ledger line would report one cause many times.
      const handedOff = new Set(handoffsOfPlan(ws, plan).filter((h) => h.status === 'complete').flatMap((h) => handoffTasks(plan, h)));
      for (const item of taskItems) {
        const tasks = ledgerItemTasks(plan, item);
        const task = tasks.at(-1);
        if (!task) {
          out.push({ file: ledger.path, line: item.line, column: item.column, messageId: 'unknownTask', data: { task: item.task!, plan: plan.path } });
        } else if (item.state === 'done' && !task.checked && !handedOff.has(task)) {
          out.push({ file: ledger.path, line: item.line, column: item.column, messageId: 'doneButUnchecked', data: { task: item.task!, plan: plan.path, planLine: task.line } });
        } else if (item.state === 'done' && !task.checked) {
          continue;
        } else if (item.state !== 'done' && task.checked) {
          out.push({ file: ledger.path, line: item.line, column: item.column, messageId: 'checkedButNotDone', data: { task: item.task!, plan: plan.path, planLine: task.line, state: item.state } });
        }
      }
      const state = positionOf(ledger.positions, '/state');
      for (const task of unlistedTasks(plan, ledger)) {
        out.push({ file: ledger.path, ...state, messageId: 'checkedButUnlisted', data: { task: task.number, plan: plan.path, planLine: task.line } });
      }
    }
    return out;
  },
};
