// plan/phase-order: [](phase(n) -> P(phase(n-1) & verified(n-1))). Any checkbox of phase n counts as progress;
// verified(n-1) depends on the preset (convention section 5): `recommended` needs every automated item of phase n-1
// checked or N/A (manual boxes are a human's and often lag), `strict` every automated and manual item.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { PLAN, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'plan/phase-order';

function twoPhases(opts: { auto1?: string; manual1?: string; phase2?: string[] }): string {
  return md(
    '# Auth flow Implementation Plan',
    '## Phase 1: Schema',
    '- [x] Task 1: Add users table',
    '### Success Criteria:',
    '#### Automated Verification:',
    opts.auto1 ?? '- [ ] Migration applies: `npm run migrate`',
    '#### Manual Verification:',
    opts.manual1 ?? '- [ ] Tables visible in the admin console',
    '## Phase 2: Endpoints',
    ...(opts.phase2 ?? ['- [x] Task 2: Add login endpoint', '- [x] Task 3: Add logout endpoint']),
    '#### Automated Verification:',
    '- [ ] `npm test`',
    '#### Manual Verification:',
    '- [ ] Login works',
  );
}

describe(ID, () => {
  it('reports the first checked item of phase 2 while an automated item of phase 1 is open: a note in recommended, an error in strict', () => {
    const text = twoPhases({});
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(text, 'Task 2'),
        severity: 'info',
        messageId: 'checkedBeforeVerified',
        message:
          '"Task 2: Add login endpoint" in Phase 2 (Endpoints) is checked while Phase 1 (Schema) is not verified (that needs its automated items checked or N/A).',
        fix: 'Finish and verify Phase 1 (Schema) first (its automated items checked or N/A), or uncheck the item.',
      }),
    ]);
    expect(findings({ [PLAN]: text }, ID, strict())).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringContaining('(that needs its automated and manual items checked or N/A)'),
      }),
    ]);
  });

  it('recommended: a phase whose automated items are checked is verified while its manual box waits; strict: it is not', () => {
    const text = twoPhases({ auto1: '- [x] Migration applies: `npm run migrate`' });
    expect(findings({ [PLAN]: text }, ID)).toEqual([]);
    expect(findings({ [PLAN]: text }, ID, strict())).toEqual([
      expect.objectContaining({ line: lineOf(text, 'Task 2'), messageId: 'checkedBeforeVerified' }),
    ]);
  });

  it('recommended: a phase with no automated item is verified once its tasks are checked', () => {
    const manualOnly = (task1: string) =>
      md(
        '# P',
        '## Phase 1: Copy',
        `- [${task1}] Task 1: Rewrite the error texts`,
        '#### Manual Verification:',
        '- [ ] Texts read well',
        '## Phase 2: Rollout',
        '- [x] Task 2: Enable the flag',
      );
    expect(findings({ [PLAN]: manualOnly('x') }, ID)).toEqual([]);
    expect(findings({ [PLAN]: manualOnly(' ') }, ID)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('(that needs its tasks checked)') }),
    ]);
    expect(findings({ [PLAN]: manualOnly('x') }, ID, strict())).toEqual([
      expect.objectContaining({ messageId: 'checkedBeforeVerified' }),
    ]);
  });

  it('reports phase 2 progress while an automated item of phase 1 is open, the manual one N/A', () => {
    const text = twoPhases({ auto1: '- [ ] Migration applies', manual1: '- [ ] N/A: backend only' });
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: lineOf(text, 'Task 2') })]);
  });

  it('passes when phase 1 is fully verified', () => {
    expect(
      findings(
        { [PLAN]: twoPhases({ auto1: '- [x] Migration applies', manual1: '- [x] Tables visible' }) },
        ID,
        strict(),
      ),
    ).toEqual([]);
    expect(
      findings({ [PLAN]: plan({ tasksPerPhase: [2, 2, 2], checked: [1, 2, 3, 4, 5], verified: [1, 2] }) }, ID),
    ).toEqual([]);
  });

  it('counts an N/A item as verified: neither checked nor pending', () => {
    expect(
      findings(
        { [PLAN]: twoPhases({ auto1: '- [x] Migration applies', manual1: '- [ ] N/A: no UI in this phase' }) },
        ID,
        strict(),
      ),
    ).toEqual([]);
    expect(findings({ [PLAN]: twoPhases({ auto1: '- [ ] N/A: nothing to migrate' }) }, ID)).toEqual([]);
  });

  it('passes when nothing of phase 2 is checked yet', () => {
    expect(findings({ [PLAN]: twoPhases({ phase2: ['- [ ] Task 2: a', '- [ ] Task 3: b'] }) }, ID)).toEqual([]);
  });

  it('counts a criterion or an ordinary checkbox of phase 2 as progress, not only tasks', () => {
    const criterion = twoPhases({ phase2: ['- [ ] Task 2: a'] }).replace('- [ ] `npm test`', '- [x] `npm test`');
    expect(findings({ [PLAN]: criterion }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(criterion, '`npm test`'),
        messageId: 'checkedBeforeVerified',
        message: expect.stringContaining('"npm test" in Phase 2'),
      }),
    ]);
    const other = twoPhases({ phase2: ['- [ ] Task 2: a', '- [x] Update the changelog'] });
    expect(findings({ [PLAN]: other }, ID)).toEqual([expect.objectContaining({ line: lineOf(other, 'changelog') })]);
  });

  it('does not count a checked N/A item of phase 2 as progress', () => {
    const text = twoPhases({ phase2: ['- [ ] Task 2: a', '- [x] N/A: nothing to migrate'] });
    expect(findings({ [PLAN]: text }, ID)).toEqual([]);
  });

  it('counts the checked steps of a heading task (plan-agent dialect)', () => {
    const text = md(
      '# P',
      '### Phase 1: Schema',
      '#### Task 1: users',
      '- [x] write migration',
      '##### Automated Verification',
      '- [ ] `npm run migrate`',
      '##### Manual Verification',
      '- [ ] look at the table',
      '### Phase 2: Endpoints',
      '#### Task 2: login',
      '- [ ] write handler',
      '- [x] write test',
    );
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'write test'),
        messageId: 'checkedBeforeVerified',
        message: expect.stringContaining('"write test" in Phase 2 (Endpoints)'),
      }),
    ]);
  });

  it('judges each phase against the one before it', () => {
    const text = plan({ tasksPerPhase: [1, 1, 1], checked: [1, 2, 3], verified: [1] });
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 3'),
        messageId: 'checkedBeforeVerified',
        message: expect.stringContaining('Phase 2 (Part 2) is not verified'),
      }),
    ]);
  });

  it('takes a phase without criteria as verified once its tasks are done', () => {
    const done = md('# P', '## Phase 1: A', '- [x] Task 1: a', '## Phase 2: B', '- [x] Task 2: b');
    expect(findings({ [PLAN]: done }, ID)).toEqual([]);
    const open = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '## Phase 2: B', '- [x] Task 2: b');
    expect(findings({ [PLAN]: open }, ID)).toEqual([expect.objectContaining({ line: lineOf(open, 'Task 2') })]);
  });
});

describeRuleContract(ID, { [PLAN]: twoPhases({}) }, { recommended: 'info', strict: 'error' });

describe(`${ID} across several phases`, () => {
  it('looks past an empty phase to an earlier unverified one', () => {
    const text = md(
      '# Plan',
      '## Phase 1: A',
      '- [x] Task 1: a',
      '#### Automated Verification:',
      '- [ ] npm test',
      '#### Manual Verification:',
      '- [ ] looks right',
      '## Phase 2: Nothing yet',
      '## Phase 3: C',
      '- [x] Task 2: c',
      '#### Automated Verification:',
      '- [ ] npm test',
      '#### Manual Verification:',
      '- [ ] looks right',
    );
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 2: c'),
        messageId: 'checkedBeforeVerified',
        message: expect.stringContaining('is checked while Phase 1 (A) is not verified'),
      }),
    ]);
  });
});
