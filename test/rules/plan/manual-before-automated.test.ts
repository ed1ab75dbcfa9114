// plan/manual-before-automated: O(exists v. [v]:pass(auto)) <- pre_manual. Within one phase, no manual item is
// checked while an automated item is open; N/A items are neither verified nor pending.
import { describe, expect, it } from 'vitest';
import { PLAN, describeRunnerContract, findings, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'plan/manual-before-automated';

function phase(auto: string[], manual: string[]): string {
  return md('# P', '## Phase 1: Schema', '- [x] Task 1: a', '#### Automated Verification:', ...auto, '#### Manual Verification:', ...manual);
}

const premature = phase(['- [x] `npm run migrate`', '- [ ] `npm test`'], ['- [x] Tables visible in the admin console']);

describe(ID, () => {
  it('reports a checked manual item while an automated item of the phase is open', () => {
    expect(findings({ [PLAN]: premature }, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(premature, 'admin console'),
        severity: 'error',
        message: `Manual item "Tables visible in the admin console" is checked while 1 automated item(s) of Phase 1 (Schema) are not (first: "npm test", line ${lineOf(premature, '`npm test`')}).`,
      }),
    ]);
    expect(findings({ [PLAN]: premature }, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('reports every checked manual item', () => {
    const text = phase(['- [ ] `npm test`'], ['- [x] one', '- [ ] two', '- [X] three']);
    expect(findings({ [PLAN]: text }, ID).map((f) => f.line)).toEqual([lineOf(text, 'one'), lineOf(text, 'three')]);
  });

  it('passes when every automated item is checked', () => {
    expect(findings({ [PLAN]: phase(['- [x] `npm test`'], ['- [x] looks right']) }, ID)).toEqual([]);
    expect(findings({ [PLAN]: plan({ checked: [1, 2, 3, 4], verified: [1, 2] }) }, ID)).toEqual([]);
  });

  it('does not count an unchecked N/A automated item as open', () => {
    expect(findings({ [PLAN]: phase(['- [x] `npm test`', '- [ ] N/A: no migration'], ['- [x] looks right']) }, ID)).toEqual([]);
  });

  it('does not count a checked N/A manual item as a manual check', () => {
    expect(findings({ [PLAN]: phase(['- [ ] `npm test`'], ['- [x] N/A: backend only']) }, ID)).toEqual([]);
  });

  it('compares items of the same phase only', () => {
    const text = md(
      '# P',
      '## Phase 1: A',
      '- [ ] Task 1: a',
      '#### Automated Verification:',
      '- [ ] `npm test`',
      '#### Manual Verification:',
      '- [ ] look',
      '## Phase 2: B',
      '- [ ] Task 2: b',
      '#### Automated Verification:',
      '- [x] `npm test`',
      '#### Manual Verification:',
      '- [x] look again',
    );
    expect(findings({ [PLAN]: text }, ID)).toEqual([]);
  });

  it('judges plan-level criteria (plan-agent dialect)', () => {
    const text = md('# P', '### Task 1: a', '- [x] step', '## Success Criteria', '### Automated Verification:', '- [ ] `make test`', '### Manual Verification:', '- [x] click around');
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: lineOf(text, 'click around'), message: expect.stringContaining('of the plan are not') })]);
  });
});

describeRunnerContract(ID, { [PLAN]: premature }, { recommended: 'error', strict: 'error' });
