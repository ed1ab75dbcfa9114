// plan/phase-automated-criteria: forall phase. has_auto_criteria(phase); per-phase criteria (HumanLayer) or one set
// for the whole plan (plan-agent), which then applies to the last phase.
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
const emptySection = md('# P', '## Phase 1: A', '- [ ] Task 1: a', '#### Automated Verification:', 'Run the tests.', '#### Manual Verification:', '- [ ] look', '### Phase 2. B', '- [ ] Task 2: b');
const planLevel = md('# P', '## Phase 1: Schema', '- [ ] Task 1: a', '## Phase 2: Endpoints', '- [ ] Task 2: b', '## Success Criteria', '### Automated Verification:', '- [ ] `npm test`', '### Manual Verification:', '- [ ] click through');
const criteriaHeading = (hashes: string) => md('# P', '## Phase 1: A', '- [ ] Task 1: a', `${hashes} Automated Verification:`, '- [ ] `npm test`', `${hashes} Manual Verification:`, '- [ ] look');

ruleTester(rule, {
  valid: [
    { name: 'every phase has an automated item', files: { [PLAN]: plan({ tasksPerPhase: [1, 2, 1] }) } },
    {
      name: 'plan-agent dialect: heading tasks and one set of criteria for the whole plan',
      files: { [PLAN]: md('# P', '## Tasks', '### Task 1: a', '- [ ] step', '## Success Criteria', '#### Automated Verification', '- [ ] `make test`', '#### Manual Verification', '- [ ] N/A: no UI') },
    },
    ...['###', '####', '#####'].map((hashes) => ({ name: `criteria heading ${hashes}`, files: { [PLAN]: criteriaHeading(hashes) } })),
  ],
  invalid: [
    {
      name: 'the phase without an automated item, at its heading, a warning in recommended',
      files: { [PLAN]: missingInPhase2 },
      errors: [{ messageId: 'noAutomated', file: PLAN, line: lineOf(missingInPhase2, '## Phase 2'), column: 1, severity: 'warning', message: 'Phase 2 (Endpoints) has no automated verification item.' }],
    },
    {
      name: 'an error in strict (the micro spec to the letter)',
      files: { [PLAN]: missingInPhase2 },
      config: { preset: 'strict' },
      errors: [{ messageId: 'noAutomated', severity: 'error', line: lineOf(missingInPhase2, '## Phase 2') }],
    },
    {
      name: 'every phase that lacks one; an empty Automated Verification section counts as none',
      files: { [PLAN]: emptySection },
      errors: [
        { messageId: 'noAutomated', line: lineOf(emptySection, 'Phase 1') },
        { messageId: 'noAutomated', line: lineOf(emptySection, 'Phase 2') },
      ],
    },
    {
      name: 'plan-level criteria apply to the last phase only',
      files: { [PLAN]: planLevel },
      errors: [{ messageId: 'noAutomated', line: lineOf(planLevel, '## Phase 1'), message: 'Phase 1 (Schema) has no automated verification item.' }],
    },
    {
      name: 'plan-agent dialect without criteria: "The plan"',
      files: { [PLAN]: md('# P', '## Tasks', '### Task 1: a', '- [ ] step') },
      errors: [{ messageId: 'noAutomated', line: 1, message: 'The plan has no automated verification item.' }],
    },
    {
      name: 'a manual item or an ordinary checkbox is not automated',
      files: { [PLAN]: md('# P', '## Phase 1: A', '- [ ] Task 1: a', '- [ ] `npm test` passes', '#### Manual Verification:', '- [ ] `npm test` passes on my machine') },
      errors: ['noAutomated'],
    },
  ],
});

describeRuleContract(rule, { [PLAN]: missingInPhase2 }, { recommended: 'warning', strict: 'error' });
