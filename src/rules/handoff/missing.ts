import { handoffsPromised } from '../promise.js';
import type { Rule, RawFinding } from '../types.js';
import type { Workspace } from '../../model/types.js';
import { handoffCause, tasksWithoutHandoff } from '../../model/queries.js';

/** The session whose ledger names this plan, for the `new handoff --session` command; a placeholder otherwise. */
function sessionOf(ws: Workspace, plan: string): string {
  return ws.ledgers.find((l) => ws.links.get(l.path) === plan && l.session)?.session ?? '<session>';
}

export const rule: Rule = {
  meta: {
    id: 'handoff/missing',
    short: 'In orchestration mode every completed task has a task handoff.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(create_handoff) <- agent_completes',
    description:
      "In orchestration mode every task checked complete in the plan has a task handoff linked to the plan (by its `plan:` key or its session ledger). A handoff reports on the task of its number when its `task_desc` agrees with that task's text (or it has none), else on the one task whose text is its `task_desc` (a task inserted mid-plan renumbers the tasks after it, not the handoffs already written). Task handoffs that cannot be linked to any plan are named in one info message and skipped. In `recommended` only where the repository writes task handoffs (it has some, or a session ledger, its instructions name a `task-NN` handoff path, or the config sets `protocol.taskHandoffs`) or the plan declares `mode: orchestration`.",
    fix: 'Write the task handoff (`npx validate-workflow new handoff --session <session>`), or uncheck the task.',
    // The order of steps: the handoff is written before the task is checked, so the agent hook refuses the check.
    editGate: true,
    messages: {
      noHandoffFix:
        'Write the task handoff first (`npx validate-workflow new handoff --session {{session}}`), then check the task.',
      noHandoff: 'Task {{task}} is checked complete but has no task handoff.',
      unlinked:
        'Task handoffs that name no plan that exists and have no session ledger naming one: {{count}} ({{names}}); plan checks skip them.',
      unlinkedFix: 'Add `plan: <path of the plan>` to their frontmatter, or a ledger for their session.',
      inferred: 'Session "{{session}}" names no plan; its files were linked to {{plan}} because {{why}}.',
      inferredFix: 'Add `plan: {{plan}}` to the session ledger (or the handoffs) to make the link explicit.',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    // A repository that never writes task handoffs (none in it, and no instruction asks for one) is not told about
    // each checked task; strict holds every orchestration plan to them.
    for (const plan of ws.plans.filter((p) => handoffsPromised(ws, ctx, p))) {
      for (const task of tasksWithoutHandoff(ws, plan)) {
        out.push({
          file: plan.path,
          line: task.line,
          column: task.column,
          messageId: 'noHandoff',
          fixId: 'noHandoffFix',
          data: { task: task.number, session: sessionOf(ws, plan.path) },
          causes: [handoffCause(plan, task)],
        });
      }
    }
    // Section 4: the report says when a link was inferred, once per session, at the first file of the session.
    const sessions = new Map<string, { file: string; plan: string; by: string }>();
    for (const [file, link] of [...ws.inferred].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (!sessions.has(link.session)) sessions.set(link.session, { file, plan: link.plan, by: link.by });
    for (const [session, link] of sessions) {
      const why =
        link.by === 'mention'
          ? 'the session mentions its file name or title'
          : "its tasks match the session's task handoffs";
      out.push({
        file: link.file,
        line: 1,
        column: 1,
        info: true,
        messageId: 'inferred',
        fixId: 'inferredFix',
        data: { session, plan: link.plan, why },
      });
    }
    const first = ws.unlinked[0];
    if (first) {
      const names = ws.unlinked
        .slice(0, 3)
        .map((h) => h.path)
        .join(', ');
      out.push({
        file: first.path,
        line: 1,
        column: 1,
        info: true,
        messageId: 'unlinked',
        data: { count: ws.unlinked.length, names: `${names}${ws.unlinked.length > 3 ? ', ...' : ''}` },
        fixId: 'unlinkedFix',
      });
    }
    return out;
  },
};
