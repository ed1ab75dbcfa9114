import type { Rule, RawFinding } from '../types.js';
import { planOf, positionOf, tasksOf } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'ledger/sync',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(update_ledger) <- task_complete',
    description: 'A ledger and the plan it names agree on which tasks are done: a task checked in the plan is `[x]` in the ledger state, and a task `[x]` in the ledger is checked in the plan.',
    fix: 'Update the ledger `## State` (or the plan) so both say the same.',
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const ledger of ws.ledgers.filter((l) => l.readable)) {
      const plan = planOf(ws, ledger.path);
      const taskItems = ledger.items.filter((i) => i.task !== null);
      if (!plan || !plan.readable || taskItems.length === 0) continue;
      const planTasks = new Map(tasksOf(plan).map((t) => [t.number, t]));
      for (const item of taskItems) {
        const task = planTasks.get(item.task!);
        if (!task) {
          out.push({ file: ledger.path, line: item.line, column: item.column, message: `Ledger lists Task ${item.task}, which ${plan.path} does not have.` });
        } else if (item.state === 'done' && !task.checked) {
          out.push({ file: ledger.path, line: item.line, column: item.column, message: `Ledger marks Task ${item.task} done but the plan has it unchecked (${plan.path}:${task.line}).` });
        } else if (item.state !== 'done' && task.checked) {
          out.push({ file: ledger.path, line: item.line, column: item.column, message: `Plan checks Task ${item.task} complete (${plan.path}:${task.line}) but the ledger marks it ${item.state}.` });
        }
      }
      const listed = new Set(taskItems.map((i) => i.task));
      const state = positionOf(ledger.positions, '/state');
      for (const task of tasksOf(plan).filter((t) => t.checked && !listed.has(t.number))) {
        out.push({ file: ledger.path, ...state, message: `Plan checks Task ${task.number} complete (${plan.path}:${task.line}) but the ledger state does not list it.` });
      }
    }
    return out;
  },
};
