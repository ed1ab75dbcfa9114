// handoff/blocked-proceed: F(proceed_on_mismatch) <- not user_guidance. After a blocked handoff, no later task of
// the session progresses unless the blocked handoff records the user's answer in `resolution:`.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import {
  LEDGER,
  PLAN,
  type Files,
  handoffChain,
  handoffPath,
  ledger,
  lineOf,
  plan,
  strict,
  taskHandoff,
} from '../fixtures.js';

const ID = 'handoff/blocked-proceed';

const blocked = { status: 'blocked', blocker: 'Expected a users table; found none. How should I proceed?' };
const proceeded: Files = {
  [PLAN]: plan({ tasksPerPhase: [2, 2] }),
  ...handoffChain(3, (t) => (t === 2 ? blocked : {})),
};

describe(ID, () => {
  it('reports a later handoff after an unresolved blocked one, at its status', () => {
    const text = proceeded[handoffPath(3)] as string;
    expect(findings(proceeded, ID)).toEqual([
      expect.objectContaining({
        file: handoffPath(3),
        line: lineOf(text, 'status:'),
        severity: 'error',
        messageId: 'proceeded',
        message: `Task 3 proceeded although task 2 is blocked (${handoffPath(2)}) with no recorded resolution.`,
      }),
    ]);
    expect(findings(proceeded, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('passes when the blocked handoff records the user guidance in `resolution:`', () => {
    const files = {
      ...proceeded,
      [handoffPath(2)]: taskHandoff(2, { ...blocked, resolution: 'User: create the table in task 3 first.' }),
    };
    expect(findings(files, ID)).toEqual([]);
  });

  it('reads a `## Resolution` section as the resolution', () => {
    const files = {
      ...proceeded,
      [handoffPath(2)]: taskHandoff(2, blocked, '\n## Resolution\n\nThe user said to skip the table.\n'),
    };
    expect(findings(files, ID)).toEqual([]);
  });

  it('does not take an empty resolution as guidance', () => {
    for (const resolution of ['', [], null]) {
      const files = { ...proceeded, [handoffPath(2)]: taskHandoff(2, { ...blocked, resolution }) };
      expect(findings(files, ID), JSON.stringify(resolution)).toHaveLength(1);
    }
  });

  it('passes while nothing after the blocked task has moved', () => {
    const files = {
      [PLAN]: plan({ tasksPerPhase: [2, 2], checked: [1] }),
      ...handoffChain(2, (t) => (t === 2 ? blocked : {})),
    };
    expect(findings(files, ID)).toEqual([]);
  });

  it('reports a later task checked in the plan without a handoff', () => {
    const text = plan({ tasksPerPhase: [2, 2], checked: [1, 4], verified: [1] });
    const files = { [PLAN]: text, ...handoffChain(2, (t) => (t === 2 ? blocked : {})) };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(text, 'Task 4:'),
        messageId: 'checked',
        message: `Task 4 is checked although task 2 is blocked (${handoffPath(2)}) with no recorded resolution.`,
      }),
    ]);
  });

  it('links the plan through the session ledger when the handoffs name none', () => {
    const text = plan({ tasksPerPhase: [2, 2], checked: [1, 3], verified: [1] });
    const files = {
      [PLAN]: text,
      ...handoffChain(2, (t) => (t === 2 ? { ...blocked, plan: undefined } : { plan: undefined })),
      [LEDGER]: ledger({ state: ['- [x] Task 1: a', '- [ ] Task 2: b', '- [x] Task 3: c'] }),
    };
    expect(findings(files, ID)).toEqual([expect.objectContaining({ file: PLAN, line: lineOf(text, 'Task 3:') })]);
  });

  it('does not look at other sessions', () => {
    const files = {
      ...handoffChain(2, (t) => (t === 1 ? blocked : {})),
      [handoffPath(2, 'step-2', 'auth-2')]: taskHandoff(2),
      [handoffPath(1, 'step-1', 'auth-2')]: taskHandoff(1),
    };
    expect(findings(files, ID).map((f) => f.file)).toEqual([handoffPath(2)]);
  });

  it('reads the blocked status of the dialects (needs review)', () => {
    const files = { ...handoffChain(2, (t) => (t === 1 ? { status: 'needs review', blocker: 'x' } : {})) };
    expect(findings(files, ID)).toEqual([expect.objectContaining({ file: handoffPath(2) })]);
  });
});

describeRuleContract(ID, proceeded, { recommended: 'error', strict: 'error' });
