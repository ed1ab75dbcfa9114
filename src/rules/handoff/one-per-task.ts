import type { Rule, RawFinding } from '../types.js';
import type { Handoff, Plan, Workspace } from '../../model/types.js';
import {
  attachedNumber,
  attachedTask,
  handoffTask,
  handoffsOfPlan,
  planOf,
  positionOf,
  retries,
  sessionKey,
  taskHandoffsBySession,
  writtenAfter,
} from '../../model/queries.js';

/** `task: [3, 4]`, `task: "3-4"`, `task: 3 and 4`: one handoff claiming several tasks is a batch. */
function claimsSeveral(raw: unknown): boolean {
  if (Array.isArray(raw)) return raw.length > 1;
  return typeof raw === 'string' && /\d+\s*(?:[-,&+]|and|to)\s*\d+/i.test(raw);
}

/**
 * The task a handoff reports on, in the plan's numbering when it is linked (a handoff written before a task was
 * inserted mid-plan still reports on its task), else its own number.
 */
function taskOf(ws: Workspace, h: Handoff): number | null {
  const plan = planOf(ws, h.path);
  return plan ? attachedNumber(plan, h) : handoffTask(h);
}

/**
 * Whether `h` comes after `other`, which it does not name: by the dates of the files; when they cannot tell, the
 * one named by the other is the earlier, and of two that name neither the one in the later session folder (by
 * name) is reported, so a copy is reported once, whichever way the folders are named.
 */
function after(h: Handoff, other: Handoff): boolean {
  const dated = writtenAfter(h, other);
  if (dated !== null) return dated;
  if (retries(other, h)) return false;
  return sessionKey(h) > sessionKey(other);
}

interface Repeat {
  handoff: Handoff;
  earlier: Handoff;
  task: string;
}

/**
 * Convention section 6: a later handoff for the same task (a retry) is a new file that names the earlier one. Of two
 * task handoffs of one plan and task in different sessions, the later one that names no earlier one is reported:
 * copying a session's handoffs into a new folder with a complete one for the task that failed is no retry.
 */
function repeatsAcrossSessions(ws: Workspace, plan: Plan): Repeat[] {
  const byTask = new Map<number, Handoff[]>();
  for (const h of handoffsOfPlan(ws, plan)) {
    const n = h.session === null ? null : attachedNumber(plan, h);
    if (n !== null) byTask.set(n, [...(byTask.get(n) ?? []), h]);
  }
  const out: Repeat[] = [];
  for (const [n, list] of byTask) {
    const keys = new Map(list.map((h) => [h, sessionKey(h)]));
    if (new Set(keys.values()).size < 2) continue;
    for (const h of list) {
      const others = list.filter((o) => keys.get(o) !== keys.get(h));
      if (others.some((o) => retries(h, o))) continue;
      const earlier = others.filter((o) => after(h, o)).sort((a, b) => (a.path < b.path ? -1 : 1));
      if (earlier.length > 0)
        out.push({ handoff: h, earlier: earlier[0]!, task: attachedTask(plan, h)?.label ?? String(n) });
    }
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'handoff/one-per-task',
    short: 'One task handoff per task and session.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'forall task. one_agent_per_task(task); F(batch_tasks)',
    description:
      "A session has one task handoff per task, and no handoff claims several tasks. A later handoff for a task of the same plan in another session is a retry: it names the earlier one in `retry_of:` (or `previous:`), by path or file name. Which of two handoffs is the later is decided by the date their session folder names start with, else by their `date:` keys; when the files cannot tell, the one the other names is the earlier, and of two that name neither the one in the later folder (by name) is reported. Tasks are counted in the plan's numbering (a handoff reports on the task its `task_desc` names when a task was inserted mid-plan).",
    fix: 'Keep one handoff per task: split a batched handoff, or merge the duplicate into the first one.',
    messages: {
      severalTasks: 'Handoff claims several tasks ({{tasks}}); each task gets its own agent and handoff.',
      duplicate: 'Task {{task}} already has a handoff in session "{{session}}": {{first}}.',
      otherSession:
        'Task {{task}} already has a handoff in session "{{session}}" ({{first}}), and this later one does not name it.',
      otherSessionMany:
        '{{count}} tasks ({{tasks}}) already have handoffs in session "{{session}}" (first: {{first}}), and the later ones here name none of them.',
      retryFix:
        "A retry of a task is a new handoff that names the earlier one: add `retry_of: {{first}}`. A copy of another session's handoffs is no retry: remove it.",
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const h of ws.handoffs.filter((h) => h.isTask)) {
      const raw = h.normalized.task ?? h.normalized.tasks;
      if (claimsSeveral(raw))
        out.push({
          file: h.path,
          ...positionOf(h.positions, '/task'),
          messageId: 'severalTasks',
          data: { tasks: JSON.stringify(raw) },
        });
    }
    for (const [, list] of taskHandoffsBySession(ws)) {
      const first = new Map<number, Handoff>();
      for (const h of list) {
        const n = taskOf(ws, h)!;
        const prev = first.get(n);
        if (!prev) first.set(n, h);
        else
          out.push({
            file: h.path,
            line: 1,
            column: 1,
            messageId: 'duplicate',
            data: { task: String(n), session: String(h.session), first: prev.path },
          });
      }
    }
    for (const plan of ws.plans) {
      // One finding per session that repeats another's tasks: a copied session is one act, not one per file.
      const bySession = new Map<string, Repeat[]>();
      for (const r of repeatsAcrossSessions(ws, plan))
        bySession.set(sessionKey(r.handoff), [...(bySession.get(sessionKey(r.handoff)) ?? []), r]);
      for (const list of bySession.values()) {
        list.sort((a, b) => (a.handoff.path < b.handoff.path ? -1 : 1));
        const r = list[0]!;
        const at = { file: r.handoff.path, line: 1, column: 1, fixId: 'retryFix' };
        const data = { task: r.task, session: String(r.earlier.session), first: r.earlier.path };
        if (list.length === 1) out.push({ ...at, messageId: 'otherSession', data });
        else
          out.push({
            ...at,
            messageId: 'otherSessionMany',
            data: { ...data, count: list.length, tasks: list.map((x) => `Task ${x.task}`).join(', ') },
          });
      }
    }
    return out;
  },
};
