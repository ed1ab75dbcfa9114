// Issue 12, a false refusal: a human inserts a task mid-plan, so the tasks after it are renumbered while the
// handoffs (and the ledger) already written keep their old numbers. A handoff reports on the task of its number when
// its task_desc agrees with that task's text (or it has none), else on the one task whose text is its task_desc,
// else on its number after all (model/queries.ts tasksFor); every rule attaches handoffs that one way.
import { describe, expect, it } from 'vitest';
import { lintFiles, of, ruleOf, run } from '../../helpers/rule-tester.js';
import { PLAN, kebab, ledger, lineOf, taskHandoff, titledPlan } from '../fixtures.js';

const SESSION = '2026-11-20-auth';
const TITLES = [
  'Add users table',
  'Add sessions table',
  'Add login endpoint',
  'Add logout endpoint',
  'Add refresh endpoint',
];
const INSERTED = 'Add audit log table';

/** The auth plan with these task titles (phase 2 from the logout endpoint), `done` of them checked. */
function authPlan(titles: readonly string[], done: readonly string[]): string {
  return titledPlan({ titles, done, phase2From: 'Add logout endpoint', verified: done.length >= 3 });
}

const handoffAt = (n: number, title: string, session = SESSION) =>
  `thoughts/handoffs/${session}/task-${String(n).padStart(2, '0')}-${kebab(title)}.md`;

/** Session 1's complete handoffs of the first three tasks, written before the insertion. */
function firstHandoffs(fields: (n: number) => Record<string, unknown> = () => ({})): Record<string, string> {
  const out: Record<string, string> = {};
  TITLES.slice(0, 3).forEach((t, i) => {
    const n = i + 1;
    out[handoffAt(n, t)] = taskHandoff(n, {
      task_desc: t,
      task_total: 5,
      ...(n > 1 ? { previous: `task-0${n - 1}-${kebab(TITLES[i - 1]!)}.md` } : {}),
      ...fields(n),
    });
  });
  return out;
}

const LEDGER = `thoughts/ledgers/CONTINUITY_CLAUDE-${SESSION}.md`;
const ledgerDoc = ledger({
  session: SESSION,
  state: TITLES.map((t, i) => `- [${i < 3 ? 'x' : ' '}] Task ${i + 1}: ${t}`),
});
const renumbered = [TITLES[0]!, INSERTED, ...TITLES.slice(1)];
const done = TITLES.slice(0, 3);

describe('a task inserted mid-plan', () => {
  it('before the insertion, the work of session 1 is clean', () => {
    expect(
      lintFiles({ [PLAN]: authPlan(TITLES, done), ...firstHandoffs(), [LEDGER]: ledgerDoc }).filter(
        (f) => f.severity !== 'info',
      ),
    ).toEqual([]);
  });

  it('after it, the old handoffs and the ledger still report on their tasks: every rule stays clean', () => {
    const files = { [PLAN]: authPlan(renumbered, done), ...firstHandoffs(), [LEDGER]: ledgerDoc };
    expect(lintFiles(files).filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

describe('attaching a handoff to its task', () => {
  const after = authPlan(renumbered, done);

  it('by its number when its task_desc matches no task: as before', () => {
    const files = {
      [PLAN]: authPlan(TITLES, done),
      ...firstHandoffs((n) => (n === 2 ? { task_desc: 'Wire up the session store' } : {})),
      [LEDGER]: ledgerDoc,
    };
    const moved = { ...files, [PLAN]: after };
    // Task 2 is now the inserted, unchecked task: the handoff that names no task's text still reports on task 2.
    expect(of(lintFiles(moved), 'handoff/plan-sync')).toEqual([
      expect.objectContaining({ messageId: 'completeButUnchecked', line: lineOf(after, `Task 2: ${INSERTED}`) }),
    ]);
    expect(of(lintFiles(moved), 'handoff/missing')).toEqual([
      expect.objectContaining({ line: lineOf(after, 'Task 3: Add sessions table') }),
    ]);
  });

  it("carries the old handoff's verdict to its task: a failed handoff still fails its checked task", () => {
    const files = {
      [PLAN]: after,
      ...firstHandoffs((n) => (n === 2 ? { status: 'failed' } : {})),
      [LEDGER]: ledgerDoc,
    };
    expect(of(lintFiles(files), 'handoff/validated')).toEqual([
      expect.objectContaining({ messageId: 'notComplete', line: lineOf(after, 'Task 3: Add sessions table') }),
    ]);
  });

  it('asks the inserted task for a handoff of its own once it is checked', () => {
    const files = { [PLAN]: authPlan(renumbered, [...done, INSERTED]), ...firstHandoffs(), [LEDGER]: ledgerDoc };
    expect(of(lintFiles(files), 'handoff/missing')).toEqual([
      expect.objectContaining({
        line: lineOf(files[PLAN]!, `Task 2: ${INSERTED}`),
        message: 'Task 2 is checked complete but has no task handoff.',
      }),
    ]);
  });

  it("lets the inserted task's handoff share its number with an old one in the same session", () => {
    const files = {
      [PLAN]: authPlan(renumbered, [...done, INSERTED]),
      ...firstHandoffs(),
      [handoffAt(2, INSERTED)]: taskHandoff(2, {
        task_desc: INSERTED,
        task_total: 6,
        previous: 'task-01-add-users-table.md',
      }),
      [LEDGER]: ledger({
        session: SESSION,
        state: renumbered.map((t, i) => `- [${i < 4 ? 'x' : ' '}] Task ${i + 1}: ${t}`),
      }),
    };
    expect(lintFiles(files).filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it("is no way around one handoff per task: a complete handoff that names a failed task's text under another number", () => {
    const files = {
      [PLAN]: authPlan(TITLES, done),
      ...firstHandoffs((n) => (n === 3 ? { status: 'failed' } : {})),
      [handoffAt(5, 'redo')]: taskHandoff(5, { task_desc: TITLES[2], task_total: 5, previous: 'task-04-x.md' }),
    };
    const found = lintFiles(files);
    expect(of(found, 'handoff/one-per-task')).toEqual([
      expect.objectContaining({
        messageId: 'duplicate',
        file: handoffAt(5, 'redo'),
        message: `Task 3 already has a handoff in session "${SESSION}": ${handoffAt(3, TITLES[2]!)}.`,
      }),
    ]);
  });
});

describe('history/task-order after a task was inserted mid-plan', () => {
  const rule = ruleOf('history/task-order');
  const inserted = { [PLAN]: authPlan(renumbered, done), ...firstHandoffs(), [LEDGER]: ledgerDoc };
  const S2 = '2026-11-21-auth';
  const doneNew = authPlan(renumbered, [...done, INSERTED]);

  it("the human's insertion commit starts and completes nothing", () => {
    expect(
      run(rule, {
        before: { [PLAN]: authPlan(TITLES, done), ...firstHandoffs(), [LEDGER]: ledgerDoc },
        after: inserted,
      }),
    ).toEqual([]);
  });

  it('the agent then does the inserted task, its handoff in a new session: clean', () => {
    const after = {
      ...inserted,
      [PLAN]: doneNew,
      [handoffAt(2, INSERTED, S2)]: taskHandoff(2, {
        task_desc: INSERTED,
        task_total: 6,
        previous: handoffAt(1, TITLES[0]!),
      }),
    };
    expect(run(rule, { before: inserted, after, commit: { author: 'Claude <noreply@anthropic.com>' } })).toEqual([]);
  });

  it('an old handoff does not stand in for the inserted task: its check-off without a handoff is reported', () => {
    expect(run(rule, { before: inserted, after: { ...inserted, [PLAN]: doneNew } })).toEqual([
      expect.objectContaining({
        messageId: 'handoffLate',
        line: lineOf(doneNew, `Task 2: ${INSERTED}`),
        message: 'Task 2 is checked complete in this commit, but its handoff is not committed with it or before it.',
      }),
    ]);
  });

  it("an old handoff committed now starts its own task in the plan's numbering", () => {
    // Session 1's handoff of "Add logout endpoint" (task 4 when written), committed after the insertion made it
    // task 5, while task 2 is open: it starts task 5.
    const late = {
      ...inserted,
      [handoffAt(4, TITLES[3]!)]: taskHandoff(4, {
        task_desc: TITLES[3],
        task_total: 5,
        previous: 'task-03-add-login-endpoint.md',
      }),
    };
    expect(run(rule, { before: inserted, after: late })).toEqual([
      expect.objectContaining({
        messageId: 'startsWhileOpen',
        message: `Task 5 starts while Task 2 of ${PLAN} is still open.`,
      }),
    ]);
  });
});
