// handoff/one-per-task: forall task. one_agent_per_task(task); F(batch_tasks). One task handoff per task and
// session, and no handoff claims several tasks.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import {
  HANDOFFS,
  PLAN,
  handoffChain,
  handoffName,
  handoffPath,
  lineOf,
  plan,
  strict,
  taskHandoff,
} from '../fixtures.js';

const ID = 'handoff/one-per-task';

const duplicate = {
  [PLAN]: plan(),
  ...handoffChain(2),
  [`${HANDOFFS}/task-02-step-2-again.md`]: taskHandoff(2),
};

describe(ID, () => {
  it('passes one handoff per task', () => {
    expect(findings({ [PLAN]: plan(), ...handoffChain(4) }, ID)).toEqual([]);
  });

  it('reports the second handoff of a task in the same session, naming the first', () => {
    expect(findings(duplicate, ID)).toEqual([
      expect.objectContaining({
        file: handoffPath(2),
        line: 1,
        severity: 'error',
        messageId: 'duplicate',
        message: `Task 2 already has a handoff in session "auth-1": ${HANDOFFS}/task-02-step-2-again.md.`,
      }),
    ]);
    expect(findings(duplicate, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('counts the task number from the file name when the key is absent', () => {
    const files = {
      [PLAN]: plan(),
      ...handoffChain(2),
      [`${HANDOFFS}/task-02-redo.md`]: taskHandoff(2, { task: undefined }),
    };
    expect(findings(files, ID)).toHaveLength(1);
  });

  it('allows the same task number in different sessions for different plans, or with no plan to tell', () => {
    const other = 'thoughts/shared/plans/2026-11-21-billing.md';
    const files = {
      [PLAN]: plan(),
      [other]: plan(),
      ...handoffChain(2),
      [handoffPath(2, 'step-2', 'auth-2')]: taskHandoff(2, { plan: other }),
      [handoffPath(1, 'step-1', 'auth-2')]: taskHandoff(1, { plan: other }),
    };
    expect(findings(files, ID)).toEqual([]);
    const unlinked = {
      ...handoffChain(2, () => ({ plan: undefined })),
      [handoffPath(2, 'step-2', 'auth-2')]: taskHandoff(2, { plan: undefined }),
    };
    expect(findings(unlinked, ID)).toEqual([]);
  });

  it('reports a handoff that claims several tasks, at its task key', () => {
    for (const task of [[3, 4], '3-4', '3 and 4', '3, 4']) {
      const text = taskHandoff(3, { task });
      const path = handoffPath(3);
      expect(findings({ [path]: text }, ID), JSON.stringify(task)).toEqual([
        expect.objectContaining({
          file: path,
          line: lineOf(text, 'task:'),
          messageId: 'severalTasks',
          message: `Handoff claims several tasks (${JSON.stringify(task)}); each task gets its own agent and handoff.`,
        }),
      ]);
    }
  });

  it('does not read a single task number as a batch', () => {
    expect(findings({ [handoffPath(3)]: taskHandoff(3, { task: [3] }) }, ID)).toEqual([]);
    expect(findings({ [handoffPath(3)]: taskHandoff(3, { task: '3' }) }, ID)).toEqual([]);
  });
});

// Bypass 8 of issue 12 ("second session"): a task's committed handoff says failed; the agent copies the session's
// handoffs into a new session folder, adds a complete handoff for the task there, and checks the task. Convention
// section 6: a later handoff for the same task (a retry) is a new file that names the earlier one.
describe(`${ID}: a task's handoffs across sessions`, () => {
  const S1 = '2026-11-20-auth';
  const S2 = '2026-11-22-auth-again';
  const at = (n: number, session: string) => handoffPath(n, `step-${n}`, session);
  const firstSession = {
    [PLAN]: plan({ checked: [1, 2] }),
    [at(1, S1)]: taskHandoff(1),
    [at(2, S1)]: taskHandoff(2, { previous: handoffName(1) }),
    [at(3, S1)]: taskHandoff(3, { status: 'failed', previous: handoffName(2) }),
  };

  it('reports a copied session with a complete handoff for the failed task: one finding, at the later session', () => {
    const files = {
      ...firstSession,
      [PLAN]: plan({ checked: [1, 2, 3] }),
      [at(1, S2)]: taskHandoff(1),
      [at(2, S2)]: taskHandoff(2),
      [at(3, S2)]: taskHandoff(3),
    };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: at(1, S2),
        line: 1,
        severity: 'error',
        messageId: 'otherSessionMany',
        message: `3 tasks (Task 1, Task 2, Task 3) already have handoffs in session "${S1}" (first: ${at(1, S1)}), and the later ones here name none of them.`,
        fix: `A retry of a task is a new handoff that names the earlier one: add \`retry_of: ${at(1, S1)}\`. A copy of another session's handoffs is no retry: remove it.`,
      }),
    ]);
  });

  it('reports the one later handoff of a failed task that names no earlier one', () => {
    const files = { ...firstSession, [at(3, S2)]: taskHandoff(3, { previous: undefined }) };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: at(3, S2),
        messageId: 'otherSession',
        message: `Task 3 already has a handoff in session "${S1}" (${at(3, S1)}), and this later one does not name it.`,
      }),
    ]);
    expect(findings(files, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('passes a retry that names the failed handoff in `retry_of:` or `previous:`, by path or file name', () => {
    for (const named of [
      { retry_of: at(3, S1) },
      { retry_of: handoffName(3) },
      { previous: at(3, S1) },
      { retry_of: `../${S1}/${handoffName(3)}`, previous: at(2, S1) },
    ]) {
      expect(
        findings({ ...firstSession, [handoffPath(3, 'retry', S2)]: taskHandoff(3, named) }, ID),
        JSON.stringify(named),
      ).toEqual([]);
    }
  });

  it('does not take a retry naming itself by file name for one naming the earlier handoff', () => {
    const files = { ...firstSession, [at(3, S2)]: taskHandoff(3, { retry_of: handoffName(3) }) };
    expect(findings(files, ID)).toEqual([expect.objectContaining({ messageId: 'otherSession' })]);
  });

  it('passes session 2 continuing the plan with tasks 4-7 after session 1 did 1-3', () => {
    const files: Record<string, string> = {
      [PLAN]: plan({ tasksPerPhase: [4, 4], checked: [1, 2, 3, 4, 5, 6, 7] }),
      ...handoffChain(3, () => ({})),
    };
    for (let n = 4; n <= 7; n++)
      files[at(n, S2)] = taskHandoff(n, { previous: n === 4 ? handoffPath(3) : handoffName(n - 1) });
    expect(findings(files, ID)).toEqual([]);
  });

  it('decides which is the later by the dates of the session folders, else by `date:`, else by folder name', () => {
    // The new folder dated before the old one: the old one is the later and names nothing.
    const early = '2026-11-01-auth';
    expect(findings({ ...firstSession, [at(3, early)]: taskHandoff(3, { retry_of: at(3, S1) }) }, ID)).toEqual([
      expect.objectContaining({ file: at(3, S1), messageId: 'otherSession' }),
    ]);
    // Undated folders: the `date:` keys.
    const undated = {
      [PLAN]: plan(),
      [handoffPath(3, 'a', 'zeta')]: taskHandoff(3, { date: '2026-11-20T10:00:00Z', status: 'failed' }),
      [handoffPath(3, 'b', 'alpha')]: taskHandoff(3, { date: '2026-11-21T09:00:00Z' }),
    };
    expect(findings(undated, ID)).toEqual([expect.objectContaining({ file: handoffPath(3, 'b', 'alpha') })]);
    // Folders of the same day: the `date:` keys decide.
    const sameDay = {
      [PLAN]: plan(),
      [handoffPath(3, 'a', '2026-11-20-b')]: taskHandoff(3, { date: '2026-11-20T10:00:00Z', status: 'failed' }),
      [handoffPath(3, 'b', '2026-11-20-a')]: taskHandoff(3, { date: '2026-11-20T16:30:00Z' }),
    };
    expect(findings(sameDay, ID)).toEqual([expect.objectContaining({ file: handoffPath(3, 'b', '2026-11-20-a') })]);
    // Nothing dated: the folder later by name.
    const bare = {
      [PLAN]: plan(),
      [handoffPath(3, 'a', 'zeta')]: taskHandoff(3, { status: 'failed' }),
      [handoffPath(3, 'b', 'alpha')]: taskHandoff(3),
    };
    expect(findings(bare, ID)).toEqual([expect.objectContaining({ file: handoffPath(3, 'a', 'zeta') })]);
    // Nothing dated, and one names the other: that one is the retry.
    expect(
      findings(
        { ...bare, [handoffPath(3, 'b', 'alpha')]: taskHandoff(3, { retry_of: handoffPath(3, 'a', 'zeta') }) },
        ID,
      ),
    ).toEqual([]);
  });
});

describeRuleContract(ID, duplicate, { recommended: 'error', strict: 'error' });
