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
    messages: {
      severalTasks: 'Handoff claims several tasks ({{tasks}}); each task gets its own agent and handoff.',
      duplicate: 'Task {{task}} already has a handoff in session "{{session}}": {{first}}.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const h of ws.handoffs.filter((h) => h.isTask)) {
      const raw = h.normalized.task ?? h.normalized.tasks;
      if (claimsSeveral(raw)) out.push({ file: h.path, ...positionOf(h.positions, '/task'), messageId: 'severalTasks', data: { tasks: JSON.stringify(raw) } });
    }
    for (const [, list] of taskHandoffsBySession(ws)) {
      for (let i = 1; i < list.length; i++) {
        const prev = list[i - 1]!;
        const h = list[i]!;
        if (handoffTask(h) === handoffTask(prev)) {
          out.push({ file: h.path, line: 1, column: 1, messageId: 'duplicate', data: { task: String(handoffTask(h)), session: String(h.session), first: prev.path } });
        }
      }
    }
    return out;
  },
};
