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

// Round 14 (issue 19): the plan's own testing phase (`## Phase 3: Testing & Validation` with its checks as boxes)
// holds verification of unsaid kind, for the plan as a whole: recommended does not say the plan has no manual item.
const withTesting = (title: string) =>
  md(
    '# Sync engine Implementation Plan',
    '## Phase 1: Protocol',
    '- [ ] Task 1: Define the delta message',
    '#### Automated Verification:',
    '- [ ] `go test ./protocol/...`',
    '## Phase 2: Client',
    '- [ ] Task 2: Apply deltas on the client',
    '#### Automated Verification:',
    '- [ ] `go test ./client/...`',
    `## Phase 3: ${title}`,
    '- [ ] Two laptops editing one note converge within a second',
    '- [ ] Pulling the network cable mid-sync loses no edit',
  );
const siblings = (text: string) => ({
  [PLAN]: text,
  'thoughts/shared/plans/2026-11-01-library.md': plan({ tasksPerPhase: [1] }),
  'thoughts/shared/plans/2026-11-02-search.md': plan({ tasksPerPhase: [1, 1] }),
});
ruleTester(rule, {
  valid: [
    { name: 'a testing phase with boxes: the plan has its verification', files: { [PLAN]: withTesting('Testing') } },
    {
      name: 'a testing phase, where the promise is learned from the plans',
      files: siblings(withTesting('Testing & Validation')),
      config: { protocol: undefined },
    },
  ],
  invalid: [
    {
      name: 'a testing phase in strict: every phase needs its own manual item, as before',
      files: { [PLAN]: withTesting('Testing') },
      config: { preset: 'strict' },
      // Phase 3, with no criteria at all, is plan/phase-automated-criteria's (one cause, one finding).
      errors: [{ messageId: 'noManualMany', severity: 'error', data: { count: 2 } }],
    },
    {
      name: 'a phase of other work with boxes is no testing phase: the plan has no manual item',
      files: siblings(withTesting('Rollout to beta users')),
      config: { protocol: undefined },
      errors: [{ messageId: 'noManualPlan', file: PLAN, severity: 'warning', data: { count: 2 } }],
    },
  ],
});
