// plan/phase-manual-criteria: forall phase. has_manual_criteria(phase); an `N/A ...` item counts as present. One
// finding per plan, listing the phases (convention section 6).
import { describeRuleContract, ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { PLAN, lineOf, md, plan } from '../fixtures.js';

const rule = ruleOf('plan/phase-manual-criteria');

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
const emptyHeading = missingInPhase1.replace(
  '### Success Criteria:',
  '### Success Criteria:\n#### Manual Verification:\nNothing to check.',
);
const planLevel = md(
  '# P',
  '## Phase 1: A',
  '- [ ] Task 1: a',
  '## Phase 2: B',
  '- [ ] Task 2: b',
  '## Success Criteria',
  '### Automated Verification:',
  '- [ ] `npm test`',
  '### Manual Verification:',
  '- [ ] N/A: no UI',
);

const threeMissing = md(
  '# Compiler rewrite Implementation Plan',
  ...['Parser', 'Type checker', 'Code generation'].flatMap((title, i) => [
    `## Phase ${i + 1}: ${title}`,
    `- [ ] Task ${i + 1}: Port the ${title.toLowerCase()}`,
    '#### Automated Verification:',
    '- [ ] `cargo test`',
  ]),
);
const undivided = md(
  '# P',
  '## Phase 1: Schema',
  '- [ ] Task 1: a',
  '### Success Criteria:',
  '- [ ] `npm run migrate` applies',
  '- [ ] the table shows in the console',
);

ruleTester(rule, {
  valid: [
    { name: 'every phase has a manual item', files: { [PLAN]: plan({ tasksPerPhase: [3, 1] }) } },
    {
      name: "an undivided criteria list is plan/phase-automated-criteria's finding, not this rule's",
      files: { [PLAN]: undivided },
    },
    {
      name: 'one plan-wide criteria section after the phases, with its manual list, covers them',
      files: { [PLAN]: planLevel },
    },
    ...['- [ ] N/A: migrations have no UI', '- [x] N/A - backend only', '- [ ] n/a nothing to click'].map((item) => ({
      name: `an N/A item counts as present: ${item}`,
      files: {
        [PLAN]: missingInPhase1.replace(
          '### Success Criteria:',
          `### Success Criteria:\n#### Manual Verification:\n${item}`,
        ),
      },
    })),
  ],
  invalid: [
    {
      name: 'the phase without a manual item, at its heading',
      files: { [PLAN]: missingInPhase1 },
      errors: [
        {
          messageId: 'noManual',
          file: PLAN,
          line: lineOf(missingInPhase1, '## Phase 1'),
          column: 1,
          severity: 'warning',
          message: 'Phase 1 (Schema) has no manual verification item.',
        },
      ],
    },
    {
      name: 'an error in strict',
      files: { [PLAN]: missingInPhase1 },
      config: { preset: 'strict' },
      errors: [{ messageId: 'noManual', severity: 'error' }],
    },
    {
      name: 'a Manual Verification heading without items counts as missing',
      files: { [PLAN]: emptyHeading },
      errors: [{ messageId: 'noManual', line: lineOf(emptyHeading, '## Phase 1') }],
    },

    {
      name: 'three phases without manual items: one finding naming them, at the first',
      files: { [PLAN]: threeMissing },
      errors: [
        {
          messageId: 'noManualMany',
          line: lineOf(threeMissing, '## Phase 1'),
          message: `3 phases have no manual verification item: Phase 1 (Parser), Phase 2 (Type checker), Phase 3 (Code generation) (first at line ${lineOf(threeMissing, '## Phase 1')}).`,
        },
      ],
    },
    {
      name: 'a plan without phases, once, as "The plan"',
      files: { [PLAN]: md('# P', '### Task 1: a', '- [ ] step', '### Automated Verification', '- [ ] `npm test`') },
      errors: [{ messageId: 'noManual', line: 1, message: 'The plan has no manual verification item.' }],
    },
  ],
});

describeRuleContract(rule, { [PLAN]: missingInPhase1 }, { recommended: 'warning', strict: 'error' });
