// plan/task-numbering: task numbers run across the whole plan (the seed's "Task N/Total"), phase numbers too; each
// starts at 1, unique and consecutive.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { PLAN, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'plan/task-numbering';

const restartsPerPhase = md(
  '# P',
  '## Phase 1: Schema',
  '- [ ] Task 1: Add users table',
  '- [ ] Task 2: Add sessions table',
  '## Phase 2: Endpoints',
  '- [ ] Task 1: Add login endpoint',
  '- [ ] Task 2: Add logout endpoint',
);

describe(ID, () => {
  it('passes tasks and phases numbered 1, 2, 3, ... across the plan', () => {
    expect(findings({ [PLAN]: plan({ tasksPerPhase: [2, 3, 1] }) }, ID)).toEqual([]);
  });

  it('reports task numbers that restart in each phase, at each repeated task', () => {
    const got = findings({ [PLAN]: restartsPerPhase }, ID);
    expect(got).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(restartsPerPhase, 'Task 1: Add login'),
        severity: 'error',
        messageId: 'taskRepeated',
        message:
          'Task 1 appears again (first at line 3); expected Task 3. Task numbers run across the whole plan, not per phase.',
      }),
      expect.objectContaining({
        line: lineOf(restartsPerPhase, 'Task 2: Add logout'),
        messageId: 'taskRepeated',
        message: expect.stringContaining('Task 2 appears again (first at line 4)'),
      }),
    ]);
  });

  it('is an error in strict too', () => {
    expect(findings({ [PLAN]: restartsPerPhase }, ID, strict()).map((f) => f.severity)).toEqual(['error', 'error']);
  });

  it('reports tasks that do not start at 1', () => {
    const text = md('# P', '## Phase 1: A', '- [ ] Task 2: a', '- [ ] Task 3: b');
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 2'),
        messageId: 'taskNotFromOne',
        message: 'Task numbers must start at 1, found Task 2.',
      }),
    ]);
  });

  // Round 7: a gap in the phases is a note in recommended (below); one in the tasks stays an error, since handoffs
  // and ledgers name and count tasks by number.
  it('reports a task gap once, at the task after it', () => {
    const text = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '- [ ] Task 3: c', '- [ ] Task 4: d');
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 3'),
        severity: 'error',
        messageId: 'taskOutOfOrder',
        message: 'Task 3 follows Task 1; expected Task 2.',
      }),
    ]);
  });

  it('still reports a number that goes back, in recommended', () => {
    const text = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '## Phase 3: C', '- [ ] Task 2: c', '## Phase 2: B');
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({ line: lineOf(text, 'Phase 3'), severity: 'info', messageId: 'phaseGap' }),
      expect.objectContaining({
        line: lineOf(text, 'Phase 2: B'),
        severity: 'error',
        messageId: 'phaseOutOfOrder',
        message: 'Phase 2 follows Phase 3; expected Phase 4.',
      }),
    ]);
  });

  it('numbers heading tasks (plan-agent dialect) the same way', () => {
    const ok = md('# P', '### Task 1: a', '- [ ] step', '### Task 2: b', '- [ ] step');
    expect(findings({ [PLAN]: ok }, ID)).toEqual([]);
    const dup = md('# P', '### Task 1: a', '- [ ] step', '### Task 1: b', '- [ ] step');
    expect(findings({ [PLAN]: dup }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(dup, 'Task 1: b'),
        messageId: 'taskRepeated',
        message: expect.stringContaining('Task 1 appears again'),
      }),
    ]);
  });

  // Round 3: a phase label written twice makes the plan unstructured (plan/schema's one info; this rule is
  // silent), and only strict asks phases to start at 1 (a plan may go on from another plan's phases).
  it('notes phase numbers that skip; strict reports them, and those that do not start at 1', () => {
    const text = md('# P', '## Phase 2: A', '- [ ] Task 1: a', '## Phase 4: C', '- [ ] Task 2: c');
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Phase 4'),
        severity: 'info',
        messageId: 'phaseGap',
        message:
          'Phase 4 follows Phase 2: there is no Phase 3. No number is used twice, so this is a note; `strict` asks for consecutive numbers.',
      }),
    ]);
    expect(findings({ [PLAN]: text }, ID, strict())).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Phase 2: A'),
        messageId: 'phaseNotFromOne',
        message: 'Phase numbers must start at 1, found Phase 2.',
      }),
      expect.objectContaining({
        line: lineOf(text, 'Phase 4'),
        messageId: 'phaseOutOfOrder',
        message: 'Phase 4 follows Phase 2; expected Phase 3.',
      }),
    ]);
    const twice = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '## Phase 1: B', '- [ ] Task 2: b');
    expect(findings({ [PLAN]: twice }, ID)).toEqual([]);
  });

  // Round 7 (a held-out repository): an addendum without `## Phase N` headings numbers its tasks by the phase they
  // belong to (`### Task 4.5.1`); that is a scheme, not task numbers that fail to start at 1.
  it('reads sub-numbered heading tasks in a plan without phase headings as a scheme', () => {
    const addendum = md(
      '# Addendum',
      '### Task 4.5.1: Scaffold',
      '- [ ] step',
      '### Task 4.5.2: Interfaces',
      '- [ ] step',
    );
    const global = { protocol: { taskNumbering: 'global' as const } };
    expect(findings({ [PLAN]: addendum }, ID, global)).toEqual([]);
    expect(findings({ [PLAN]: addendum.replace('4.5.2', '4.5.1') }, ID, global)).toEqual([
      expect.objectContaining({
        messageId: 'taskLabelRepeated',
        message: 'Task 4.5.1 appears again (first at line 2).',
      }),
    ]);
  });

  it('does not read a numbered item without a checkbox, or a task inside criteria, as a task', () => {
    const text = md(
      '# P',
      '## Phase 1: A',
      '- [ ] Task 1: a',
      '- Task 7: just a note',
      '#### Automated Verification:',
      '- [ ] Task 9: not a task, a check',
    );
    expect(findings({ [PLAN]: text }, ID)).toEqual([]);
  });
});

describeRuleContract(ID, { [PLAN]: restartsPerPhase }, { recommended: 'error', strict: 'error' });
