import type { Rule, RawFinding } from '../types.js';
import { handoffTask, positionOf, taskHandoffsBySession } from '../../model/queries.js';

/** `task: [3, 4]`, `task: "3-4"`, `task: 3 and 4`: one handoff claiming several tasks is a batch. */
function claimsSeveral(raw: unknown): boolean {
  if (Array.isArray(raw)) return raw.length > 1;
  return typeof raw === 'string' && /\d+\s*(?:[-,&+]|and|to)\s*\d+/i.test(raw);
}

export const rule: Rule = {
  meta: {
    id: 'handoff/one-per-task',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'forall task. one_agent_per_task(task); F(batch_tasks)',
    description: 'A session has one task handoff per task, and no handoff claims several tasks.',
    fix: 'Keep one handoff per task: split a batched handoff, or merge the duplicate into the first one.',
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const h of ws.handoffs.filter((h) => h.isTask)) {
      const raw = h.normalized.task ?? h.normalized.tasks;
      if (claimsSeveral(raw)) out.push({ file: h.path, ...positionOf(h.positions, '/task'), message: `Handoff claims several tasks (${JSON.stringify(raw)}); each task gets its own agent and handoff.` });
    }
    for (const [, list] of taskHandoffsBySession(ws)) {
      for (let i = 1; i < list.length; i++) {
        const prev = list[i - 1]!;
        const h = list[i]!;
        if (handoffTask(h) === handoffTask(prev)) {
          out.push({ file: h.path, line: 1, column: 1, message: `Task ${handoffTask(h)} already has a handoff in session "${h.session}": ${prev.path}.` });
        }
      }
    }
    return out;
  },
};
