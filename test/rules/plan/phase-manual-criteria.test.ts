// plan/phase-manual-criteria: forall phase. has_manual_criteria(phase); an `N/A ...` item counts as present.
import { describe, expect, it } from 'vitest';
import { PLAN, describeRunnerContract, findings, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'plan/phase-manual-criteria';

const missingInPhase1 = md(
  '# Auth flow Implementation Plan',
  '## Phase 1: Schema',
  '- [ ] Task 1: Add users table',
  '### Success Criteria:',
  '#### Automated Verification:',
  '- [ ] Migration applies: `npm run migrate`',
  '## Phase 2: Endpoints',
  '- [ ] Task 2: Add login endpoint',
  '#### Automated Verification:',
  '- [ ] `npm test`',
  '#### Manual Verification:',
  '- [ ] Login works in the browser',
);

describe(ID, () => {
  it('passes a plan whose every phase has a manual item', () => {
    expect(findings({ [PLAN]: plan({ tasksPerPhase: [3, 1] }) }, ID)).toEqual([]);
  });

  it('reports the phase without a manual item at its heading', () => {
    expect(findings({ [PLAN]: missingInPhase1 }, ID)).toEqual([
      expect.objectContaining({ file: PLAN, line: lineOf(missingInPhase1, '## Phase 1'), column: 1, severity: 'warning', message: 'Phase 1 (Schema) has no manual verification item.' }),
    ]);
    expect(findings({ [PLAN]: missingInPhase1 }, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('counts an N/A item as present, checked or not', () => {
    for (const item of ['- [ ] N/A: migrations have no UI', '- [x] N/A - backend only', '- [ ] n/a nothing to click']) {
      const text = missingInPhase1.replace('### Success Criteria:', `### Success Criteria:\n#### Manual Verification:\n${item}`);
      expect(findings({ [PLAN]: text }, ID), item).toEqual([]);
    }
  });

  it('counts a Manual Verification heading without items as missing', () => {
    const text = missingInPhase1.replace('### Success Criteria:', '### Success Criteria:\n#### Manual Verification:\nNothing to check.');
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: lineOf(text, '## Phase 1') })]);
  });

  it('applies plan-level criteria to the last phase only', () => {
    const text = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '## Phase 2: B', '- [ ] Task 2: b', '## Success Criteria', '### Automated Verification:', '- [ ] `npm test`', '### Manual Verification:', '- [ ] N/A: no UI');
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: lineOf(text, '## Phase 1'), message: 'Phase 1 (A) has no manual verification item.' })]);
  });

  it('reports a plan without phases once, as "The plan"', () => {
    const text = md('# P', '### Task 1: a', '- [ ] step', '### Automated Verification', '- [ ] `npm test`');
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: 1, message: 'The plan has no manual verification item.' })]);
  });
});

describeRunnerContract(ID, { [PLAN]: missingInPhase1 }, { recommended: 'warning', strict: 'error' });
