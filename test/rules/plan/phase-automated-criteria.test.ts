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

// Round 14 (issue 19): maintainers judged none of the criteria warnings on public repositories right. An undivided
// list is verification whose kind is unsaid: a note in recommended (a warning in strict, as before). A plan that
// keeps its verification in a phase of its own (`## Phase 4: Testing & Validation` holding its test steps as
// checkboxes) has verification: recommended does not say that none of its phases has any.
const testingPhase = (title: string) =>
  md(
    '# Photo importer Implementation Plan',
    '## Phase 1: Scanner',
    '- [ ] Task 1: Walk the import folder',
    '## Phase 2: Thumbnails',
    '- [ ] Task 2: Render thumbnails',
    '## Phase 3: Tagging',
    '- [ ] Task 3: Read the EXIF tags',
    `## Phase 4: ${title}`,
    '### Functional checks',
    '- [ ] Importing a folder of 200 photos lists every one',
    '- [ ] A corrupt file is skipped with a message',
    '### Integration checks',
    '- [ ] The importer runs after the sync job without locking the library',
  );
const proseTesting = md(
  '# Photo importer Implementation Plan',
  '## Phase 1: Scanner',
  '- [ ] Task 1: Walk the import folder',
  '## Phase 2: Testing',
  'Import a few folders and look at the result.',
);

ruleTester(rule, {
  valid: [
    ...['Testing & Validation', 'Testing and Validation', 'Final Verification', 'QA', 'End-to-end tests (staging)'].map(
      (title) => ({
        name: `the plan's own testing phase holds its verification: "${title}"`,
        files: { [PLAN]: testingPhase(title) },
      }),
    ),
  ],
  invalid: [
    {
      name: 'an undivided list is a note in recommended: the phases have verification, only its kind is unsaid',
      files: { [PLAN]: undivided },
      errors: [
        {
          messageId: 'unsplit',
          severity: 'info',
          line: lineOf(undivided, '### Success Criteria'),
          message:
            'The success criteria of Phase 1 (Schema), Phase 2 (Endpoints) are one undivided list: nothing says which items are automated and which are manual.',
        },
      ],
    },
    {
      name: 'an undivided list in strict: a warning of its own, once per plan, as before',
      files: { [PLAN]: undivided },
      config: { preset: 'strict' },
      errors: [{ messageId: 'unsplit', severity: 'error', data: { phases: 'Phase 1 (Schema), Phase 2 (Endpoints)' } }],
    },
    {
      name: 'a testing phase in strict: every phase is held to its own criteria, as before',
      files: { [PLAN]: testingPhase('Testing & Validation') },
      config: { preset: 'strict' },
      errors: [{ messageId: 'noCriteriaMany', severity: 'error', data: { count: 4 } }],
    },
    {
      name: 'a title that names other work besides testing is no testing phase',
      files: { [PLAN]: testingPhase('Integration & Testing') },
      errors: [{ messageId: 'noCriteriaMany', severity: 'warning', data: { count: 4 } }],
    },
    {
      name: 'a testing phase without a single checkbox holds no verification items',
      files: { [PLAN]: proseTesting },
      errors: [{ messageId: 'noCriteriaMany', data: { count: 2 } }],
    },
  ],
});

// The same where the promise is learned from the repository's own plans (two of three split their criteria), the
// way the corpus met it: the plan-wide "None of the 4 phases" warning.
const learned = (text: string) => ({
  [PLAN]: text,
  'thoughts/shared/plans/2026-11-01-library.md': missingInPhase2,
  'thoughts/shared/plans/2026-11-02-search.md': plan({ tasksPerPhase: [1, 1] }),
});
ruleTester(rule, {
  valid: [
    {
      name: "a learned promise: the plan's own testing phase holds its verification",
      files: learned(testingPhase('Testing & Validation')),
      config: { protocol: undefined },
    },
  ],
  invalid: [
    {
      name: 'a learned promise: without a testing phase, one warning for the whole plan, as before',
      files: learned(testingPhase('Integration & Testing')),
      config: { protocol: undefined },
      errors: [
        {
          messageId: 'noCriteriaPlan',
          file: PLAN,
          severity: 'warning',
          message:
            "None of the 4 phases of this plan has verification items, automated or manual (first at line 2) (this repository's own files: 2 of its 3 plans have automated criteria).",
        },
      ],
    },
  ],
});
