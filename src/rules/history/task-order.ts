import { isAre } from '../../shared/text.js';
import type { Rule, RawFinding, TransitionContext } from '../types.js';
import type { Plan, Task, Workspace } from '../../model/types.js';
import type { Snapshot } from '../../history/snapshot.js';
import {
  attachedNumber,
  effectiveMode,
  handoffCause,
  handoffTasks,
  tasksOf,
  tasksWithoutHandoff,
} from '../../model/queries.js';
import { handoffsPromised } from '../promise.js';
import { AFTER_THE_FACT, byFile, firstLine, personInAudit } from './cause.js';

const workspaces = new WeakMap<Snapshot, Workspace>();

/** The snapshot's workspace, linked as the snapshot rules link it; built once per snapshot (every preset asks). */
function workspaceOf(s: Snapshot): Workspace {
  let ws = workspaces.get(s);
  if (!ws) workspaces.set(s, (ws = s.workspace('')));
  return ws;
}

interface Late {
  file: string;
  line: number;
  task: Task;
  plan: Plan;
}

/**
 * Convention section 6: a task's handoff is committed no later than the commit that checks the task. The tasks
 * this commit checks that handoff/missing would report in its after-snapshot (orchestration mode, where the
 * repository or the plan promises task handoffs): a check-off made with `--no-verify` and a handoff added in a later commit leave the final state
 * clean, so only the commit shows it. At a door that judges the snapshot as well (pre-commit, commit-msg, and the
 * full run while the handoff is still missing) handoff/missing reports the same cause and this finding is dropped
 * (`causes`).
 */
function lateHandoffs(ctx: TransitionContext): Late[] {
  if (ctx.config.rules['handoff/missing'] === 'off') return [];
  const checked = new Map<string, Set<number>>();
  for (const e of ctx.events) {
    if (e.type !== 'task-completed' || !e.completed) continue;
    if (ctx.audit && ctx.before.model(e.file) === null) continue;
    const plan = ctx.after.plan(e.file);
    // A plan that silences handoff/missing asks for no handoffs (a human's choice; an agent's is self-exemption).
    if (
      !plan ||
      effectiveMode(plan) !== 'orchestration' ||
      plan.disables.some((d) => d.ruleIds.includes('handoff/missing'))
    )
      continue;
    const lines = checked.get(e.file) ?? new Set<number>();
    lines.add(e.line);
    checked.set(e.file, lines);
  }
  if (checked.size === 0) return [];
  // The honest commit adds each task's handoff with its check-off: those tasks are covered without building the
  // whole workspace, which on a long history is most of the fold's time (every commit that checks a task).
  for (const e of ctx.events) {
    if (e.type !== 'handoff-added') continue;
    const h = ctx.after.model(e.file);
    if (h?.kind !== 'handoff' || !h.isTask || !h.planRef) continue;
    const plan = ctx.after.planOfHandoff(h);
    const lines = plan ? checked.get(plan.path) : undefined;
    if (!plan || !lines) continue;
    for (const t of handoffTasks(plan, h)) lines.delete(t.line);
    if (lines.size === 0) checked.delete(plan.path);
  }
  if (checked.size === 0) return [];
  const ws = workspaceOf(ctx.after);
  const out: Late[] = [];
  // Once per plan, not per check-off: a plan added with thousands of tasks checked is one pass.
  for (const [file, lines] of checked) {
    const plan = ws.plans.find((p) => p.path === file);
    // Where handoff/missing asks this plan for no handoff, none can be linked to it and the timing has nothing to
    // judge (convention section 4: checks that need a link the tool cannot make are skipped).
    if (!plan || !handoffsPromised(ws, ctx, plan)) continue;
    for (const task of tasksWithoutHandoff(ws, plan))
      if (lines.has(task.line)) out.push({ file, line: task.line, task, plan });
  }
  return out;
}

interface Step {
  plan: Plan;
  task: number;
  /** As written (`2.1`) where the event knows it; a start known by its number alone is named by it. */
  label: string;
  how: 'starts' | 'completes';
  file: string;
  line: number;
}

export const rule: Rule = {
  meta: {
    id: 'history/task-order',
    short: 'No task starts or completes while an earlier task is open.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'forall i<j. completed(task_i) before started(task_j)',
    description:
      "For i < j, task j neither starts (its first in-progress mark in the ledger, its handoff, or its check-off) while task i is still open, nor completes while task i is open. One commit that completes i and starts or completes j is not this rule's concern (batching is history/batched-tasks). And within a task, where handoff/missing asks an orchestration plan for handoffs in the commit's state (in `recommended`: task handoffs or a ledger in the repository, instructions that ask for them, `protocol.taskHandoffs`, or the plan's `mode: orchestration`): the commit that checks a task has the task's handoff, committed with it or before it (a later handoff leaves the final state clean: only history shows it). Where handoff/missing reports the same task at the same door (pre-commit, or the full run while the handoff is still missing), that finding stands for both. Handoffs are attached to tasks as handoff/missing attaches them. In an audit (no config), only agents' commits are judged.",
    fix: 'Finish task i (check it in the plan, with its handoff) before starting task j.',
    messages: {
      // {{open}}: "Task 1" or "Task 1, Task 2"; {{isAre}}: "is" or "are" to match.
      startsWhileOpen: 'Task {{task}} starts while {{open}} of {{plan}} {{isAre}} still open.',
      completesWhileOpen: 'Task {{task}} completes while {{open}} of {{plan}} {{isAre}} still open.',
      // Several tasks of one file out of order in one commit: one finding.
      manyWhileOpen:
        '{{tasks}} start or complete while {{open}} of {{plan}} {{isAre}} still open (first at line {{line}}).',
      // The fix before the commit exists (pre-commit, commit-msg).
      finishFirst: 'Finish {{open}} first (check it in the plan, with its handoff), then start Task {{task}}.',
      // The fix of a commit already made: what to do now.
      orderNow: `The order of a commit already made cannot change: finish {{open}} now (check it in the plan, with its handoff) and keep the order from here on; for this commit, ${AFTER_THE_FACT}.`,
      // Within one task: its handoff comes no later than its check-off (convention section 6).
      handoffLate:
        'Task {{task}} is checked complete in this commit, but its handoff is not committed with it or before it.',
      handoffLateMany:
        '{{tasks}} are checked complete in this commit, but their handoffs are not committed with it or before it (first at line {{line}}).',
      handoffFirst:
        'Commit the task handoff with the check-off (or before it): `npx validate-workflow new handoff --session <session>`.',
      handoffNow: `The order of a commit already made cannot change: commit the handoff now if it is still missing, and from here on commit each handoff with its check-off or before it; for this commit, ${AFTER_THE_FACT}.`,
    },
  },
  transition: (ctx) => {
    if (personInAudit(ctx)) return [];
    const steps: Step[] = [];
    for (const e of ctx.events) {
      if (e.type === 'task-completed' && e.completed) {
        // In an audit, a plan that enters git already progressed says nothing about the order its tasks were done in.
        if (ctx.audit && ctx.before.model(e.file) === null) continue;
        const plan = ctx.after.plan(e.file);
        if (plan) steps.push({ plan, task: e.task, label: e.label, how: 'completes', file: e.file, line: e.line });
      } else if (e.type === 'handoff-added') {
        const h = ctx.after.model(e.file);
        const plan = h?.kind === 'handoff' && h.isTask ? ctx.after.planOfHandoff(h) : null;
        // In the plan's numbering: a handoff written before a task was inserted mid-plan reports on its own task.
        const task = plan && h?.kind === 'handoff' ? attachedNumber(plan, h) : null;
        if (plan && task !== null)
          steps.push({ plan, task, label: String(task), how: 'starts', file: e.file, line: e.line });
      } else if (e.type === 'ledger-item' && (e.from === null || e.from === 'pending') && e.to !== 'pending') {
        const l = ctx.after.model(e.file);
        const plan = l?.kind === 'ledger' ? ctx.after.planOfLedger(l) : null;
        if (plan) steps.push({ plan, task: e.task, label: String(e.task), how: 'starts', file: e.file, line: e.line });
      }
    }
    const hits: (Step & { open: string[] })[] = [];
    const reported = new Set<string>();
    // Completions first: when a commit both starts and completes task j, the completion is the finding.
    for (const s of [...steps].sort((a, b) => (a.how === b.how ? 0 : a.how === 'completes' ? -1 : 1))) {
      const k = `${s.plan.path}|${s.task}`;
      if (reported.has(k)) continue;
      const open = tasksOf(s.plan).filter((t) => t.number < s.task && !t.checked);
      if (open.length === 0) continue;
      reported.add(k);
      hits.push({ ...s, open: open.map((t) => t.label) });
    }
    const out: RawFinding[] = [];
    const fixId = ctx.stage === 'history' ? 'orderNow' : 'finishFirst';
    // Named as written (`Task 2.1`), not by the top-level number the order is judged by.
    const names = (labels: readonly string[]) => labels.map((l) => `Task ${l}`).join(', ');
    for (const [file, list] of byFile(hits)) {
      const line = firstLine(list);
      const first = list.find((s) => s.line === line)!;
      if (list.length === 1) {
        out.push({
          file,
          line,
          messageId: first.how === 'starts' ? 'startsWhileOpen' : 'completesWhileOpen',
          fixId,
          data: {
            task: first.label,
            open: names(first.open),
            plan: first.plan.path,
            isAre: isAre(first.open.length),
          },
        });
        continue;
      }
      // One file's tasks out of order: the tasks still open below the lowest of them (the others are listed).
      const lowest = Math.min(...list.map((s) => s.task));
      const tasks = [...new Set([...list].sort((a, b) => a.task - b.task).map((s) => s.label))];
      const below = tasksOf(first.plan).filter((t) => t.number < lowest && !t.checked);
      const open = [...new Set(below.map((t) => t.label))];
      out.push({
        file,
        line,
        messageId: 'manyWhileOpen',
        fixId,
        data: {
          tasks: names(tasks),
          task: tasks[0]!,
          open: names(open),
          plan: first.plan.path,
          isAre: isAre(open.length),
          line,
        },
      });
    }
    const lateFix = ctx.stage === 'history' ? 'handoffNow' : 'handoffFirst';
    for (const [file, list] of byFile(lateHandoffs(ctx))) {
      const line = firstLine(list);
      const causes = list.map((l) => handoffCause(l.plan, l.task));
      const labels = list.map((l) => `Task ${l.task.label}`);
      if (list.length === 1)
        out.push({ file, line, messageId: 'handoffLate', fixId: lateFix, causes, data: { task: list[0]!.task.label } });
      else
        out.push({
          file,
          line,
          messageId: 'handoffLateMany',
          fixId: lateFix,
          causes,
          data: { tasks: labels.join(', '), line },
        });
    }
    return out;
  },
};
