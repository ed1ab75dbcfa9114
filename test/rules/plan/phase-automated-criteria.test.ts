// plan/phase-automated-criteria: forall phase. has_auto_criteria(phase); per-phase criteria (HumanLayer) or one set
// for the whole plan (plan-agent), which then applies to the last phase.
import { describe, expect, it } from 'vitest';
import { PLAN, describeRunnerContract, findings, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'plan/phase-automated-criteria';

const missingInPhase2 = md(
  '# Auth flow Implementation Plan',
  '## Phase 1: Schema',
  '- [ ] Task 1: Add users table',
  '#### Automated Verification:',
  '- [ ] Migration applies: `npm run migrate`',
  '#### Manual Verification:',
  '- [ ] Tables visible in the admin console',
  '## Phase 2: Endpoints',
  '- [ ] Task 2: Add login endpoint',
  '#### Manual Verification:',
  '- [ ] Login works in the browser',
);

describe(ID, () => {
  it('passes a plan whose every phase has an automated item', () => {
    expect(findings({ [PLAN]: plan({ tasksPerPhase: [1, 2, 1] }) }, ID)).toEqual([]);
  });

  it('reports the phase without an automated item at its heading, as a warning in recommended', () => {
    expect(findings({ [PLAN]: missingInPhase2 }, ID)).toEqual([
      expect.objectContaining({
        ruleId: ID,
        file: PLAN,
        line: lineOf(missingInPhase2, '## Phase 2'),
        column: 1,
        severity: 'warning',
        message: 'Phase 2 (Endpoints) has no automated verification item.',
      }),
    ]);
  });

  it('is an error in strict (the micro spec to the letter)', () => {
    expect(findings({ [PLAN]: missingInPhase2 }, ID, strict())).toEqual([expect.objectContaining({ severity: 'error', line: lineOf(missingInPhase2, '## Phase 2') })]);
  });

  it('reports every phase that lacks one, and an empty Automated Verification section counts as none', () => {
    const text = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '#### Automated Verification:', 'Run the tests.', '#### Manual Verification:', '- [ ] look', '### Phase 2. B', '- [ ] Task 2: b');
    expect(findings({ [PLAN]: text }, ID).map((f) => f.line)).toEqual([lineOf(text, 'Phase 1'), lineOf(text, 'Phase 2')]);
  });

  it('applies plan-level criteria to the last phase only', () => {
    const text = md(
      '# P',
      '## Phase 1: Schema',
      '- [ ] Task 1: a',
      '## Phase 2: Endpoints',
      '- [ ] Task 2: b',
      '## Success Criteria',
      '### Automated Verification:',
      '- [ ] `npm test`',
      '### Manual Verification:',
      '- [ ] click through',
    );
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: lineOf(text, '## Phase 1'), message: 'Phase 1 (Schema) has no automated verification item.' })]);
  });

  it('reads the plan-agent dialect: heading tasks and one set of criteria for the whole plan', () => {
    const withCriteria = md('# P', '## Tasks', '### Task 1: a', '- [ ] step', '## Success Criteria', '#### Automated Verification', '- [ ] `make test`', '#### Manual Verification', '- [ ] N/A: no UI');
    expect(findings({ [PLAN]: withCriteria }, ID)).toEqual([]);
    const without = md('# P', '## Tasks', '### Task 1: a', '- [ ] step');
    expect(findings({ [PLAN]: without }, ID)).toEqual([expect.objectContaining({ line: 1, message: 'The plan has no automated verification item.' })]);
  });

  it('accepts criteria headings at levels 3 to 5', () => {
    for (const hashes of ['###', '####', '#####']) {
      const text = md('# P', '## Phase 1: A', '- [ ] Task 1: a', `${hashes} Automated Verification:`, '- [ ] `npm test`', `${hashes} Manual Verification:`, '- [ ] look');
      expect(findings({ [PLAN]: text }, ID), hashes).toEqual([]);
    }
  });

  it('does not count a manual item or an ordinary checkbox as automated', () => {
    const text = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '- [ ] `npm test` passes', '#### Manual Verification:', '- [ ] `npm test` passes on my machine');
    expect(findings({ [PLAN]: text }, ID)).toHaveLength(1);
  });
});

describeRunnerContract(ID, { [PLAN]: missingInPhase2 }, { recommended: 'warning', strict: 'error' });
