// plan/manual-before-automated: O(exists v. [v]:pass(auto)) <- pre_manual. Within one phase, no manual item is
// checked while an automated item is open; N/A items are neither verified nor pending.
import { describeRuleContract, ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { PLAN, lineOf, md, plan } from '../fixtures.js';

const rule = ruleOf('plan/manual-before-automated');

function phase(auto: string[], manual: string[]): string {
  return md(
    '# P',
    '## Phase 1: Schema',
    '- [x] Task 1: a',
    '#### Automated Verification:',
    ...auto,
    '#### Manual Verification:',
    ...manual,
  );
}

const premature = phase(['- [x] `npm run migrate`', '- [ ] `npm test`'], ['- [x] Tables visible in the admin console']);
const everyManual = phase(['- [ ] `npm test`'], ['- [x] one', '- [ ] two', '- [X] three']);
const planLevel = md(
  '# P',
  '### Task 1: a',
  '- [x] step',
  '## Success Criteria',
  '### Automated Verification:',
  '- [ ] `make test`',
  '### Manual Verification:',
  '- [x] click around',
);

ruleTester(rule, {
  valid: [
    { name: 'every automated item is checked', files: { [PLAN]: phase(['- [x] `npm test`'], ['- [x] looks right']) } },
    {
      name: 'a canonical plan with verified phases',
      files: { [PLAN]: plan({ checked: [1, 2, 3, 4], verified: [1, 2] }) },
    },
    {
      name: 'an unchecked N/A automated item is not open',
      files: { [PLAN]: phase(['- [x] `npm test`', '- [ ] N/A: no migration'], ['- [x] looks right']) },
    },
    {
      name: 'a checked N/A manual item is not a manual check',
      files: { [PLAN]: phase(['- [ ] `npm test`'], ['- [x] N/A: backend only']) },
    },
    {
      name: 'items of the same phase only are compared',
      files: {
        [PLAN]: md(
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
        ),
      },
    },
  ],
  invalid: [
    {
      name: 'a checked manual item while an automated item of the phase is open: a state note in recommended',
      files: { [PLAN]: premature },
      errors: [
        {
          messageId: 'manualBeforeAutomated',
          file: PLAN,
          line: lineOf(premature, 'admin console'),
          severity: 'info',
          message: `Manual item "Tables visible in the admin console" is checked while 1 automated item of Phase 1 (Schema) is not (first: "npm test", line ${lineOf(premature, '`npm test`')}).`,
        },
      ],
    },
    {
      name: 'an error in strict too',
      files: { [PLAN]: premature },
      config: { preset: 'strict' },
      errors: [{ messageId: 'manualBeforeAutomated', severity: 'error' }],
    },
    {
      // Round 3: one cause, one finding: the phase's checked manual items together (was one finding per item).
      name: 'every checked manual item of the phase, in one finding at the first',
      files: { [PLAN]: everyManual },
      errors: [
        { messageId: 'manualBeforeAutomatedMany', line: lineOf(everyManual, 'one'), data: { manual: 'one', count: 2 } },
      ],
    },
    {
      name: 'plan-level criteria (plan-agent dialect)',
      files: { [PLAN]: planLevel },
      errors: [
        { messageId: 'manualBeforeAutomated', line: lineOf(planLevel, 'click around'), data: { phase: 'the plan' } },
      ],
    },
  ],
});

describeRuleContract(rule, { [PLAN]: premature }, { recommended: 'info', strict: 'error' });
