// handoff/chain: [h_n]:complete(task_n) -> [h_{n+1}]:context(task_{n+1}); the seed's O(read_previous_handoff).
// recommended accepts dialects that write no `previous:` key when the predecessor exists; strict wants the key.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { PLAN, handoffChain, handoffName, handoffPath, lineOf, plan, strict, taskHandoff } from '../fixtures.js';

const ID = 'handoff/chain';

describe(ID, () => {
  it('passes a chain where each handoff names the one before it, in both presets', () => {
    const files = { [PLAN]: plan(), ...handoffChain(4) };
    expect(findings(files, ID)).toEqual([]);
    expect(findings(files, ID, strict())).toEqual([]);
  });

  it('accepts `previous:` as a repository path or with ./', () => {
    const files = {
      ...handoffChain(1),
      [handoffPath(2)]: taskHandoff(2, { previous: handoffPath(1) }),
      [handoffPath(3)]: taskHandoff(3, { previous: `./${handoffName(2)}` }),
    };
    expect(findings(files, ID, strict())).toEqual([]);
  });

  it('reports a `previous:` that names no existing handoff, at the key', () => {
    const text = taskHandoff(2, { previous: 'task-01-gone.md' });
    const files = { ...handoffChain(1), [handoffPath(2)]: text };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: handoffPath(2),
        line: lineOf(text, 'previous:'),
        severity: 'warning',
        messageId: 'previousMissing',
        message: '`previous: task-01-gone.md` names a handoff that does not exist.',
      }),
    ]);
    expect(findings(files, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('reports a `previous:` that names an existing handoff of another task', () => {
    const text = taskHandoff(3, { previous: handoffName(1) });
    const files = { ...handoffChain(2), [handoffPath(3)]: text };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'previous:'),
        messageId: 'previousWrong',
        message: `\`previous: ${handoffName(1)}\` is not the handoff of task 2 (${handoffName(2)}).`,
      }),
    ]);
  });

  it('reports a `previous:` that names the predecessor of another session', () => {
    const text = taskHandoff(2, { previous: handoffPath(1, 'step-1', 'auth-2') });
    const files = { [handoffPath(1, 'step-1', 'auth-2')]: taskHandoff(1), [handoffPath(2)]: text };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: handoffPath(2),
        messageId: 'previousWrongNoPredecessor',
        message: expect.stringContaining('is not the handoff of task 1.'),
      }),
    ]);
  });

  it('passes a session that continues the plan where another stopped, naming its handoff of task n-1 by path', () => {
    const files = {
      [PLAN]: plan(),
      ...handoffChain(3),
      [handoffPath(4, 'step-4', 'auth-2')]: taskHandoff(4, { previous: handoffPath(3) }),
      [handoffPath(5, 'step-5', 'auth-2')]: taskHandoff(5),
    };
    expect(findings(files, ID, strict())).toEqual([]);
  });

  it('passes a retry whose `previous:` names the earlier handoff of its own task (issue 12)', () => {
    const files = {
      [PLAN]: plan(),
      ...handoffChain(3, (n) => (n === 3 ? { status: 'failed' } : {})),
      [handoffPath(3, 'retry', 'auth-2')]: taskHandoff(3, { previous: handoffPath(3) }),
    };
    expect(findings(files, ID, strict())).toEqual([]);
  });

  it("still reports another plan's handoff of task n-1 named across sessions", () => {
    const other = 'thoughts/shared/plans/2026-11-21-billing.md';
    const files = {
      [PLAN]: plan(),
      [other]: plan(),
      [handoffPath(3, 'step-3', 'billing-1')]: taskHandoff(3, { plan: other }),
      [handoffPath(4, 'step-4', 'auth-2')]: taskHandoff(4, { previous: handoffPath(3, 'step-3', 'billing-1') }),
    };
    expect(findings(files, ID).filter((f) => f.file === handoffPath(4, 'step-4', 'auth-2'))).toEqual([
      expect.objectContaining({ messageId: 'previousWrongNoPredecessor' }),
    ]);
  });

  it('without a `previous:` key: passes in recommended when task n-1 has a handoff, an error in strict', () => {
    const text = taskHandoff(2, { previous: undefined });
    const files = { ...handoffChain(1), [handoffPath(2)]: text };
    expect(findings(files, ID)).toEqual([]);
    expect(findings(files, ID, strict())).toEqual([
      expect.objectContaining({
        file: handoffPath(2),
        severity: 'error',
        messageId: 'previousUnset',
        message: `Task 2 does not name the handoff of task 1 in \`previous:\` (${handoffName(1)}).`,
      }),
    ]);
  });

  it('without a `previous:` key and without a handoff of task n-1: reported in both presets', () => {
    const path = handoffPath(3);
    const files = { ...handoffChain(1), [path]: taskHandoff(3, { previous: undefined }) };
    const expected = expect.objectContaining({
      file: path,
      messageId: 'noPredecessor',
      message: 'Task 3 has no `previous:` and session "auth-1" has no handoff of task 2.',
    });
    expect(findings(files, ID)).toEqual([expected]);
    expect(findings(files, ID, strict())).toEqual([expected]);
  });

  it('asks nothing of task 1', () => {
    expect(findings({ [handoffPath(1)]: taskHandoff(1, { previous: undefined }) }, ID, strict())).toEqual([]);
    expect(findings({ [handoffPath(1)]: taskHandoff(1, { previous: null }) }, ID, strict())).toEqual([]);
  });

  it('judges each session on its own', () => {
    const files = {
      ...handoffChain(2),
      [`thoughts/handoffs/auth-2/${handoffName(2)}`]: taskHandoff(2, { previous: undefined }),
    };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: `thoughts/handoffs/auth-2/${handoffName(2)}`,
        messageId: 'noPredecessor',
        message: expect.stringContaining('session "auth-2" has no handoff of task 1'),
      }),
    ]);
  });
});

describeRuleContract(
  ID,
  { ...handoffChain(1), [handoffPath(2)]: taskHandoff(2, { previous: 'task-01-gone.md' }) },
  { recommended: 'warning', strict: 'error' },
);
