// handoff/validated: proceed(task) <-> exists h. [h]:validated. In orchestration mode a task is checked in the
// plan only when its handoff says complete with verification results.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { HANDOFFS, PLAN, handoffChain, handoffPath, lineOf, md, plan, strict, taskHandoff } from '../fixtures.js';

const ID = 'handoff/validated';

const fourTasks = plan({ tasksPerPhase: [2, 2], checked: [1, 2], verified: [1] });

describe(ID, () => {
  it('passes checked tasks whose handoffs are complete with verification results', () => {
    expect(findings({ [PLAN]: fourTasks, ...handoffChain(2) }, ID)).toEqual([]);
  });

  it('reports a checked task whose handoff is not complete, at the task in the plan', () => {
    const files = { [PLAN]: fourTasks, ...handoffChain(2, (t) => (t === 2 ? { status: 'partial' } : {})) };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(fourTasks, 'Task 2:'),
        severity: 'error',
        messageId: 'notComplete',
        message: `Task 2 is checked complete but its handoff has status partial (${handoffPath(2)}).`,
      }),
    ]);
    expect(findings(files, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('reports a checked task whose handoff has no verification results', () => {
    const files = { [PLAN]: fourTasks, ...handoffChain(2, (t) => (t === 1 ? { verification_results: [] } : {})) };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(fourTasks, 'Task 1:'),
        messageId: 'noVerification',
        message: `Task 1 is checked complete but its handoff has no verification results (${handoffPath(1)}).`,
      }),
    ]);
  });

  it('reports a handoff whose verification records a failed or skipped check', () => {
    const failed = {
      [PLAN]: fourTasks,
      ...handoffChain(2, (t) =>
        t === 2
          ? {
              verification_results: [
                { check: 'npm test', result: 'pass' },
                { check: 'npm run e2e', result: 'failed' },
              ],
            }
          : {},
      ),
    };
    expect(findings(failed, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(fourTasks, 'Task 2:'),
        messageId: 'notVerified',
        message: `Task 2 is checked complete but its handoff records a verification that failed or was not run (${handoffPath(2)}).`,
      }),
    ]);
    // A TDD checklist left unchecked reads as "not run".
    const tdd = md(
      '# Task Handoff: Do step 2',
      '',
      '**Status:** Done',
      '',
      '## Files Modified',
      '- `src/b.ts`',
      '',
      '## TDD Verification',
      '- [ ] `npm test` passes',
      '',
      '## Next Task Context',
      'Nothing.',
    );
    const files = {
      [PLAN]: fourTasks,
      ...handoffChain(1),
      [`${HANDOFFS}/task-02-do-step-2.md`]: tdd.replace('# Task', `---\nplan: ${PLAN}\n---\n# Task`),
    };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({ messageId: 'notVerified', message: expect.stringContaining('failed or was not run') }),
    ]);
  });

  it('leaves an unreadable handoff to handoff/schema', () => {
    const files = { [PLAN]: fourTasks, ...handoffChain(2), [handoffPath(2)]: new Uint8Array([0x2d, 0x00, 0x01]) };
    expect(findings(files, ID)).toEqual([]);
  });

  it('leaves a handoff with broken frontmatter to handoff/schema', () => {
    const broken = `---\nstatus: complete\ntask: 2\nplan: ${PLAN}\ncontext_for_next: note: unquoted\n---\n# Step 2\n`;
    const files = { [PLAN]: fourTasks, ...handoffChain(1), [handoffPath(2)]: broken };
    expect(findings(files, ID)).toEqual([]);
    expect(findings(files, 'handoff/chain')).toEqual([]);
    expect(findings(files, 'handoff/schema')).toEqual([
      expect.objectContaining({
        file: handoffPath(2),
        line: 5,
        messageId: 'unreadable',
        message: expect.stringContaining('Invalid YAML'),
      }),
    ]);
  });

  it('names a status it could not normalize', () => {
    const files = { [PLAN]: fourTasks, ...handoffChain(2, (t) => (t === 1 ? { status: 'TODO' } : {})) };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        messageId: 'notComplete',
        message: expect.stringContaining('its handoff has status TODO'),
      }),
    ]);
  });

  it('does not judge unchecked tasks', () => {
    const files = {
      [PLAN]: plan({ tasksPerPhase: [2, 2], checked: [1], verified: [] }),
      ...handoffChain(2, (t) => (t === 2 ? { status: 'blocked', blocker: 'x' } : {})),
    };
    expect(findings(files, ID)).toEqual([]);
  });

  it('leaves a checked task without any handoff to handoff/missing', () => {
    expect(findings({ [PLAN]: fourTasks, ...handoffChain(1) }, ID)).toEqual([]);
  });

  it('does not apply in direct mode', () => {
    const direct = plan({ tasksPerPhase: [2, 1], checked: [1, 2], verified: [1] });
    expect(findings({ [PLAN]: direct, ...handoffChain(2, () => ({ status: 'failed' })) }, ID)).toEqual([]);
  });

  it('accepts the implement_task dialect: `**Status:** Done` and a TDD Verification list', () => {
    const dialect = md(
      '# Task Handoff: Do step 2',
      '',
      '**Status:** Done',
      '',
      '## Files Modified',
      '- `src/b.ts`',
      '',
      '## TDD Verification',
      '- [x] `npm test` passes',
      '',
      '## Next Task Context',
      'Nothing.',
    );
    const files = {
      [PLAN]: fourTasks,
      ...handoffChain(1),
      [`${HANDOFFS}/task-02-do-step-2.md`]: dialect.replace('# Task', `---\nplan: ${PLAN}\n---\n# Task`),
    };
    expect(findings(files, ID)).toEqual([]);
    const unverified = dialect.replace('- [x] `npm test` passes', 'None run.');
    const bad = {
      [PLAN]: fourTasks,
      ...handoffChain(1),
      [`${HANDOFFS}/task-02-do-step-2.md`]: unverified.replace('# Task', `---\nplan: ${PLAN}\n---\n# Task`),
    };
    expect(findings(bad, ID)).toEqual([
      expect.objectContaining({
        messageId: 'noVerification',
        message: expect.stringContaining('has no verification results'),
      }),
    ]);
  });

  it('passes when one of two handoffs of the task is validated (duplicates are handoff/one-per-task)', () => {
    const files = {
      [PLAN]: fourTasks,
      ...handoffChain(2, (t) => (t === 2 ? { status: 'failed' } : {})),
      [`${HANDOFFS}/task-02-retry.md`]: taskHandoff(2),
    };
    expect(findings(files, ID)).toEqual([]);
  });
});

describeRuleContract(
  ID,
  { [PLAN]: fourTasks, ...handoffChain(2, (t) => (t === 2 ? { status: 'partial' } : {})) },
  { recommended: 'error', strict: 'error' },
);
