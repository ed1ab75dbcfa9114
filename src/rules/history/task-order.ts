import type { Rule, RawFinding } from '../types.js';
import type { Plan } from '../../model/types.js';
import { tasksOf } from '../../model/queries.js';
import { AFTER_THE_FACT, byFile, firstLine } from './cause.js';

interface Step {
  plan: Plan;
  task: number;
  how: 'starts' | 'completes';
  file: string;
  line: number;
}

export const rule: Rule = {
  meta: {
    id: 'history/task-order',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'forall i<j. completed(task_i) before started(task_j)',
    description:
      'For i < j, task j neither starts (its first in-progress mark in the ledger, its handoff, or its check-off) while task i is still open, nor completes while task i is open. One commit that completes i and starts or completes j is not this rule\'s concern (batching is history/batched-tasks).',
    fix: 'Finish task i (check it in the plan, with its handoff) before starting task j.',
    messages: {
      // {{open}}: "Task 1" or "Task 1, Task 2"; {{isAre}}: "is" or "are" to match.
      startsWhileOpen: 'Task {{task}} starts while {{open}} of {{plan}} {{isAre}} still open.',
      completesWhileOpen: 'Task {{task}} completes while {{open}} of {{plan}} {{isAre}} still open.',
      // Several tasks of one file out of order in one commit: one finding.
      manyWhileOpen: '{{tasks}} start or complete while {{open}} of {{plan}} {{isAre}} still open (first at line {{line}}).',
      // The fix before the commit exists (pre-commit, commit-msg).
      finishFirst: 'Finish {{open}} first (check it in the plan, with its handoff), then start Task {{task}}.',
      // The fix of a commit already made: what to do now.
      orderNow: `The order of a commit already made cannot change: finish {{open}} now (check it in the plan, with its handoff) and keep the order from here on; for this commit, ${AFTER_THE_FACT}.`,
    },
  },
  transition: (ctx) => {
    const steps: Step[] = [];
    for (const e of ctx.events) {
      if (e.type === 'task-completed' && e.completed) {
        // In an audit, a plan that enters git already progressed says nothing about the order its tasks were done in.
        if (ctx.audit && ctx.before.model(e.file) === null) continue;
        const plan = ctx.after.plan(e.file);
        if (plan) steps.push({ plan, task: e.task, how: 'completes', file: e.file, line: e.line });
      } else if (e.type === 'handoff-added') {
        const h = ctx.after.model(e.file);
        const task = h?.kind === 'handoff' && h.isTask ? (h.task ?? h.fileTask) : null;
        const plan = h?.kind === 'handoff' ? ctx.after.planOfHandoff(h) : null;
        if (plan && task !== null) steps.push({ plan, task, how: 'starts', file: e.file, line: e.line });
      } else if (e.type === 'ledger-item' && (e.from === null || e.from === 'pending') && e.to !== 'pending') {
        const l = ctx.after.model(e.file);
        const plan = l?.kind === 'ledger' ? ctx.after.planOfLedger(l) : null;
        if (plan) steps.push({ plan, task: e.task, how: 'starts', file: e.file, line: e.line });
      }
    }
    const hits: (Step & { open: number[] })[] = [];
    const reported = new Set<string>();
    // Completions first: when a commit both starts and completes task j, the completion is the finding.
    for (const s of [...steps].sort((a, b) => (a.how === b.how ? 0 : a.how === 'completes' ? -1 : 1))) {
      const k = `${s.plan.path}|${s.task}`;
      if (reported.has(k)) continue;
      const open = tasksOf(s.plan).filter((t) => t.number < s.task && !t.checked);
      if (open.length === 0) continue;
      reported.add(k);
      hits.push({ ...s, open: open.map((t) => t.number) });
    }
    const out: RawFinding[] = [];
    const fixId = ctx.stage === 'history' ? 'orderNow' : 'finishFirst';
    const names = (ns: number[]) => ns.map((n) => `Task ${n}`).join(', ');
    for (const [file, list] of byFile(hits)) {
      const line = firstLine(list);
      const first = list.find((s) => s.line === line)!;
      if (list.length === 1) {
        out.push({
          file,
          line,
          messageId: first.how === 'starts' ? 'startsWhileOpen' : 'completesWhileOpen',
          fixId,
          data: { task: first.task, open: names(first.open), plan: first.plan.path, isAre: first.open.length > 1 ? 'are' : 'is' },
        });
        continue;
      }
      // One file's tasks out of order: the tasks still open below the lowest of them (the others are listed).
      const tasks = [...new Set(list.map((s) => s.task))].sort((a, b) => a - b);
      const open = [...new Set(list.flatMap((s) => s.open))].filter((n) => n < tasks[0]!).sort((a, b) => a - b);
      out.push({
        file,
        line,
        messageId: 'manyWhileOpen',
        fixId,
        data: { tasks: names(tasks), task: tasks[0]!, open: names(open), plan: first.plan.path, isAre: open.length > 1 ? 'are' : 'is', line },
      });
    }
    return out;
  },
};
