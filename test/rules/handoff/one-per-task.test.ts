// handoff/one-per-task: forall task. one_agent_per_task(task); F(batch_tasks). One task handoff per task and
// session, and no handoff claims several tasks.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { HANDOFFS, PLAN, handoffChain, handoffPath, lineOf, plan, strict, taskHandoff } from '../fixtures.js';

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
        messageId: 'duplicate', message: `Task 2 already has a handoff in session "auth-1": ${HANDOFFS}/task-02-step-2-again.md.`,
      }),
    ]);
    expect(findings(duplicate, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('counts the task number from the file name when the key is absent', () => {
    const files = { [PLAN]: plan(), ...handoffChain(2), [`${HANDOFFS}/task-02-redo.md`]: taskHandoff(2, { task: undefined }) };
    expect(findings(files, ID)).toHaveLength(1);
  });

  it('allows the same task number in different sessions', () => {
    const files = { [PLAN]: plan(), ...handoffChain(2), [handoffPath(2, 'step-2', 'auth-2')]: taskHandoff(2), [handoffPath(1, 'step-1', 'auth-2')]: taskHandoff(1) };
    expect(findings(files, ID)).toEqual([]);
  });

  it('reports a handoff that claims several tasks, at its task key', () => {
    for (const task of [[3, 4], '3-4', '3 and 4', '3, 4']) {
      const text = taskHandoff(3, { task });
      const path = handoffPath(3);
      expect(findings({ [path]: text }, ID), JSON.stringify(task)).toEqual([
        expect.objectContaining({ file: path, line: lineOf(text, 'task:'), messageId: 'severalTasks', message: `Handoff claims several tasks (${JSON.stringify(task)}); each task gets its own agent and handoff.` }),
      ]);
    }
  });

  it('does not read a single task number as a batch', () => {
    expect(findings({ [handoffPath(3)]: taskHandoff(3, { task: [3] }) }, ID)).toEqual([]);
    expect(findings({ [handoffPath(3)]: taskHandoff(3, { task: '3' }) }, ID)).toEqual([]);
  });
});

describeRuleContract(ID, duplicate, { recommended: 'error', strict: 'error' });
