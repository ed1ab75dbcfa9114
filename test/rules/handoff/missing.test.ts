// handoff/missing: O(create_handoff) <- agent_completes, in orchestration mode (declared, or by the seed's table:
// 4+ tasks or context critical). Handoffs link to the plan by `plan:` or through their session's ledger.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { cliFindings } from '../cli.js';
import { LEDGER, PLAN, handoffChain, handoffPath, ledger, lineOf, md, plan, strict, taskHandoff } from '../fixtures.js';

const ID = 'handoff/missing';

/** 4 tasks, so orchestration by the table; tasks 1-3 checked, phase 1 verified. */
const fourTasks = plan({ tasksPerPhase: [2, 2], checked: [1, 2, 3], verified: [1] });

describe(ID, () => {
  it('passes when every checked task has a handoff', () => {
    expect(findings({ [PLAN]: fourTasks, ...handoffChain(3) }, ID)).toEqual([]);
  });

  it('reports each checked task without a handoff, at the task in the plan', () => {
    const got = findings({ [PLAN]: fourTasks, ...handoffChain(1) }, ID);
    expect(got).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(fourTasks, 'Task 2:'),
        severity: 'error',
        messageId: 'noHandoff',
        message: 'Task 2 is checked complete but has no task handoff.',
      }),
      expect.objectContaining({
        file: PLAN,
        line: lineOf(fourTasks, 'Task 3:'),
        messageId: 'noHandoff',
        message: 'Task 3 is checked complete but has no task handoff.',
      }),
    ]);
    expect(findings({ [PLAN]: fourTasks, ...handoffChain(1) }, ID, strict()).map((f) => f.severity)).toEqual([
      'error',
      'error',
    ]);
  });

  it('does not ask for handoffs of unchecked tasks', () => {
    expect(findings({ [PLAN]: plan({ tasksPerPhase: [2, 2], checked: [] }) }, ID)).toEqual([]);
  });

  it('follows the mode table: 3 tasks is direct mode, which writes no handoffs', () => {
    expect(findings({ [PLAN]: plan({ tasksPerPhase: [2, 1], checked: [1, 2], verified: [1] }) }, ID)).toEqual([]);
  });

  it('follows the mode table: context_critical means orchestration whatever the count', () => {
    const text = plan({ frontmatter: ['context_critical: true'], tasksPerPhase: [2], checked: [1] });
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: lineOf(text, 'Task 1:') })]);
  });

  it('follows a declared mode over the table', () => {
    const orchestration = plan({ frontmatter: ['mode: orchestration'], tasksPerPhase: [2], checked: [1] });
    expect(findings({ [PLAN]: orchestration }, ID)).toEqual([
      expect.objectContaining({ line: lineOf(orchestration, 'Task 1:') }),
    ]);
    const direct = plan({ frontmatter: ['mode: direct', 'mode_set_by: user'], tasksPerPhase: [3, 3], checked: [1, 2] });
    expect(findings({ [PLAN]: direct }, ID)).toEqual([]);
  });

  it('links a handoff without a plan key through the ledger of its session', () => {
    const files = {
      [PLAN]: fourTasks,
      ...handoffChain(3, () => ({ plan: undefined })),
      [LEDGER]: ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [x] Task 3: c', '- [ ] Task 4: d'] }),
    };
    expect(findings(files, ID)).toEqual([]);
  });

  it('does not count a handoff that belongs to another plan', () => {
    const other = 'thoughts/shared/plans/2026-11-21-billing.md';
    const files = { [PLAN]: fourTasks, [other]: plan(), ...handoffChain(3, (t) => (t === 2 ? { plan: other } : {})) };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        messageId: 'noHandoff',
        message: 'Task 2 is checked complete but has no task handoff.',
      }),
    ]);
  });

  it('treats a heading task as complete when all its steps are checked', () => {
    const text = md(
      '---',
      'mode: orchestration',
      '---',
      '# P',
      '### Task 1: users',
      '- [x] write migration',
      '- [x] run it',
      '### Task 2: sessions',
      '- [x] write migration',
      '- [ ] run it',
      '#### Automated Verification',
      '- [ ] `npm test`',
      '#### Manual Verification',
      '- [ ] N/A: no UI',
    );
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, '### Task 1'),
        messageId: 'noHandoff',
        message: 'Task 1 is checked complete but has no task handoff.',
      }),
    ]);
  });

  it('names handoffs it cannot link to any plan in one info, whatever the preset', () => {
    const files = {
      [handoffPath(1, 'a', 'lost')]: taskHandoff(1, { plan: 'thoughts/shared/plans/gone.md' }),
      [handoffPath(2, 'b', 'lost')]: taskHandoff(2, { plan: undefined, previous: 'task-01-a.md' }),
    };
    for (const preset of ['recommended', 'strict'] as const) {
      expect(findings(files, ID, { preset })).toEqual([
        expect.objectContaining({
          file: handoffPath(1, 'a', 'lost'),
          line: 1,
          severity: 'info',
          messageId: 'unlinked',
          message: expect.stringContaining(
            `Task handoffs that name no plan that exists and have no session ledger naming one: 2 (${handoffPath(1, 'a', 'lost')}, ${handoffPath(2, 'b', 'lost')})`,
          ),
        }),
      ]);
    }
  });

  it('through the CLI: exit 1 and the finding in JSON', async () => {
    const { code, results } = await cliFindings({ [PLAN]: fourTasks, ...handoffChain(2) }, ID);
    expect(code).toBe(1);
    expect(results).toEqual([
      expect.objectContaining({
        ruleId: ID,
        severity: 'error',
        file: PLAN,
        line: lineOf(fourTasks, 'Task 3:'),
        column: 1,
      }),
    ]);
  });
});

describeRuleContract(ID, { [PLAN]: fourTasks, ...handoffChain(1) }, { recommended: 'error', strict: 'error' });
