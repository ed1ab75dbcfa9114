// plan/phase-automated-criteria: forall phase. has_auto_criteria(phase); per-phase criteria (HumanLayer) or one set
// for the whole plan (plan-agent), which then applies to the last phase. One finding per plan, listing the phases
// (convention section 6: one finding per cause); an undivided criteria list is reported once per plan, here.
import { describeRuleContract, ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { PLAN, lineOf, md, plan } from '../fixtures.js';

const rule = ruleOf('plan/phase-automated-criteria');

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
const emptySection = md(
  '# P',
  '## Phase 1: A',
  '- [ ] Task 1: a',
  '#### Automated Verification:',
  'Run the tests.',
  '#### Manual Verification:',
  '- [ ] look',
  '### Phase 2. B',
  '- [ ] Task 2: b',
);
const planLevel = md(
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
const fivePhases = md(
  '# Billing data migration Implementation Plan',
  ...['Inventory', 'Export', 'Import', 'Cutover', 'Cleanup'].flatMap((title, i) => [
    `## Phase ${i + 1}: ${title}`,
    `- [ ] Task ${i + 1}: ${title} the invoices`,
    '#### Manual Verification:',
    `- [ ] ${title} looks right in the finance dashboard`,
  ]),
);
const undivided = md(
  '# Auth flow Implementation Plan',
  '## Phase 1: Schema',
  '- [ ] Task 1: Add users table',
  '### Success Criteria:',
  '- [ ] Migration applies: `npm run migrate`',
  '- [ ] Tables visible in the admin console',
  '## Phase 2: Endpoints',
  '- [ ] Task 2: Add login endpoint',
  '### Success Criteria:',
  '- [ ] `npm test` passes',
  '- [ ] Logging in from the browser works',
);
const criteriaHeading = (hashes: string) =>
  md(
    '# P',
    '## Phase 1: A',
    '- [ ] Task 1: a',
    `${hashes} Automated Verification:`,
    '- [ ] `npm test`',
    `${hashes} Manual Verification:`,
    '- [ ] look',
  );

ruleTester(rule, {
  valid: [
    { name: 'every phase has an automated item', files: { [PLAN]: plan({ tasksPerPhase: [1, 2, 1] }) } },
    {
      name: 'plan-agent dialect: heading tasks and one set of criteria for the whole plan',
      files: {
        [PLAN]: md(
          '# P',
          '## Tasks',
          '### Task 1: a',
          '- [ ] step',
          '## Success Criteria',
          '#### Automated Verification',
          '- [ ] `make test`',
          '#### Manual Verification',
          '- [ ] N/A: no UI',
        ),
      },
    },
    ...['###', '####', '#####'].map((hashes) => ({
      name: `criteria heading ${hashes}`,
      files: { [PLAN]: criteriaHeading(hashes) },
    })),
    // Round 3 (corpus pattern 3): plan-wide criteria are the plan's, for every phase; they counted for the last
    // phase only before, and the other phases were reported.
    { name: 'plan-level criteria count for every phase', files: { [PLAN]: planLevel } },
  ],
  invalid: [
    {
      name: 'the phase without an automated item, at its heading, a warning in recommended',
      files: { [PLAN]: missingInPhase2 },
      errors: [
        {
          messageId: 'noAutomated',
          file: PLAN,
          line: lineOf(missingInPhase2, '## Phase 2'),
          column: 1,
          severity: 'warning',
          message: 'Phase 2 (Endpoints) has no automated verification item.',
        },
      ],
    },
    {
      name: 'an error in strict (the micro spec to the letter)',
      files: { [PLAN]: missingInPhase2 },
      config: { preset: 'strict' },
      errors: [{ messageId: 'noAutomated', severity: 'error', line: lineOf(missingInPhase2, '## Phase 2') }],
    },
    {
      name: 'one finding for every phase that lacks one, at the first; an empty Automated Verification section counts as none',
      files: { [PLAN]: emptySection },
      errors: [
        {
          messageId: 'noAutomatedMany',
          line: lineOf(emptySection, 'Phase 1'),
          message: `2 phases have no automated verification item: Phase 1 (A), Phase 2 (B) (first at line ${lineOf(emptySection, 'Phase 1')}).`,
          fix: 'Add `#### Automated Verification:` with at least one `- [ ]` item to each of them.',
        },
      ],
    },
    {
      name: 'a plan of five phases without automated criteria: one finding naming the five',
      files: { [PLAN]: fivePhases },
      errors: [
        {
          messageId: 'noAutomatedMany',
          data: {
            count: 5,
            phases: 'Phase 1 (Inventory), Phase 2 (Export), Phase 3 (Import), Phase 4 (Cutover), Phase 5 (Cleanup)',
          },
        },
      ],
    },
    {
      name: 'an undivided Success Criteria list: one finding per plan that it is not split, none per phase',
      files: { [PLAN]: undivided },
      errors: [
        {
          messageId: 'unsplit',
          line: lineOf(undivided, '### Success Criteria'),
          data: { phases: 'Phase 1 (Schema), Phase 2 (Endpoints)' },
        },
      ],
    },
    {
      name: 'plan-agent dialect without criteria: "The plan", one finding for both kinds',
      files: { [PLAN]: md('# P', '## Tasks', '### Task 1: a', '- [ ] step') },
      errors: [
        { messageId: 'noCriteria', line: 1, message: 'The plan has no verification items, automated or manual.' },
      ],
    },
    {
      name: 'a manual item or an ordinary checkbox is not automated',
      files: {
        [PLAN]: md(
          '# P',
          '## Phase 1: A',
          '- [ ] Task 1: a',
          '- [ ] `npm test` passes',
          '#### Manual Verification:',
          '- [ ] `npm test` passes on my machine',
        ),
      },
      errors: ['noAutomated'],
    },
  ],
});

describeRuleContract(rule, { [PLAN]: missingInPhase2 }, { recommended: 'warning', strict: 'error' });
