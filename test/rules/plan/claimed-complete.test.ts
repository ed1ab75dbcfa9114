// plan/claimed-complete: a plan that says its work is done has no open task or automated item (issue 19: a plan
// whose body says "Implementation Complete", or that sits in `implemented/`, while its phases are open).
import { describeRuleContract, ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { PLAN, lineOf, md } from '../fixtures.js';

const rule = ruleOf('plan/claimed-complete');
/** A plan that says it is done, up to its first phase heading. */
const DONE_HEAD = ['---', 'status: done', '---', '# Export', '## Phase 1: Columns'];

const phases = (taskTwo: string, testTwo: string, title2 = 'Writer') => [
  '## Phase 1: Columns',
  '- [x] Task 1: Pick the columns',
  '#### Automated Verification:',
  '- [x] `npm test -- columns`',
  '#### Manual Verification:',
  '- [ ] Finance opens the file',
  `## Phase 2: ${title2}`,
  `- [${taskTwo}] Task 2: Write the file`,
  '#### Automated Verification:',
  `- [${testTwo}] \`npm test -- writer\``,
];
const byStatus = md('---', 'status: complete', '---', '# Export', ...phases(' ', ' '));
const byBody = md('# Export', '', '**Status**: Implementation Complete', '', ...phases('x', ' '));
const inFolder = 'thoughts/shared/plans/implemented/2026-11-20-export.md';

ruleTester(rule, {
  valid: [
    { name: 'a plan that says nothing of its state', files: { [PLAN]: md('# Export', ...phases(' ', ' ')) } },
    {
      name: 'done, and every task and automated item checked (a manual item may wait for a human)',
      files: { [PLAN]: md('---', 'status: complete', '---', '# Export', ...phases('x', 'x')) },
    },
    {
      name: 'an open item set aside with its reason',
      files: {
        [PLAN]: md(
          '---',
          'status: done',
          '---',
          '# Export',
          ...phases('x', ' ').map((l) => (l.includes('writer') ? `${l} (skipped: no staging database)` : l)),
        ),
      },
    },
    {
      name: 'a deferred phase',
      files: { [PLAN]: md('---', 'status: complete', '---', '# Export', ...phases(' ', ' ', 'Writer [DEFERRED]')) },
    },
    {
      name: 'a status that is no claim of completion',
      files: { [PLAN]: md('---', 'status: in progress', '---', '# Export', ...phases(' ', ' ')) },
    },
  ],
  invalid: [
    {
      name: '`status: complete` with two items open: one finding at the status, naming the first',
      files: { [PLAN]: byStatus },
      errors: [
        {
          messageId: 'claimedOpen',
          line: 2,
          severity: 'warning',
          message: `The plan says it is done (\`status: complete\`) but 2 of its tasks and automated items are open: first "Task 2: Write the file" at line ${lineOf(byStatus, 'Task 2')}.`,
        },
      ],
    },
    {
      name: 'a body status line',
      files: { [PLAN]: byBody },
      errors: [{ messageId: 'claimedOpen', line: lineOf(byBody, '**Status**'), data: { count: 1 } }],
    },
    {
      name: 'a folder of finished plans',
      files: { [inFolder]: md('# Export', ...phases('x', ' ')) },
      errors: [{ messageId: 'claimedOpen', file: inFolder, line: 1, data: { where: 'it sits in implemented/' } }],
    },
    {
      name: 'an error in strict',
      files: { [PLAN]: byStatus },
      config: { preset: 'strict' },
      errors: [{ messageId: 'claimedOpen', severity: 'error' }],
    },
  ],
});

describeRuleContract(rule, { [PLAN]: byStatus }, { recommended: 'warning', strict: 'error' });

// Corpus round 3: a plan that keeps its state in words (never a ticked box) is not contradicted by its boxes, and
// a phase whose title says it is done has stale boxes, not open work.
ruleTester(rule, {
  valid: [
    {
      name: 'a plan that never ticks a box',
      files: {
        [PLAN]: md(...DONE_HEAD, '- [ ] Task 1: Pick the columns', '#### Automated Verification:', '- [ ] `npm test`'),
      },
    },
    {
      name: 'a phase whose title says it is done',
      files: { [PLAN]: md('---', 'status: complete', '---', '# Export', ...phases(' ', ' ', 'Writer [COMPLETED]')) },
    },
    {
      name: "a status line under a section is that section's",
      files: { [PLAN]: md('# Export', '## Gaps', '**Status**: ✅ COMPLETE', ...phases(' ', ' ')) },
    },
  ],
  invalid: [
    {
      name: 'a title that starts with the verb is no marker',
      files: { [PLAN]: md('---', 'status: complete', '---', '# Export', ...phases(' ', ' ', 'Complete the writer')) },
      errors: ['claimedOpen'],
    },
  ],
});

// Corpus round 8: a phase that states its own status (`### Implementation Status: Complete`, `**Status:** Done`
// under the phase heading) says it is done, as a marker in its title does; its unticked boxes are stale.
const withStatus = (line: string) => {
  const lines = phases(' ', ' ').map((l) => l.replace('- [ ] Task 2', '- [x] Task 2'));
  return md('---', 'status: done', '---', '# Export', ...lines.slice(0, 7), line, ...lines.slice(7));
};
ruleTester(rule, {
  valid: [
    {
      name: 'a status heading of the phase',
      files: { [PLAN]: withStatus('### Implementation Status: Complete (branch x)') },
    },
    { name: 'a bold status line of the phase', files: { [PLAN]: withStatus('**Status:** ✅ Done') } },
  ],
  invalid: [
    {
      name: 'a status that says more than done (work left) is no status of done',
      files: { [PLAN]: withStatus('**Status:** Done with the writer; wiring next') },
      errors: [{ messageId: 'claimedOpen', data: { count: 1 } }],
    },
    {
      name: "a task's own status line is the task's, not the phase's",
      files: {
        [PLAN]: md(
          ...DONE_HEAD,
          '### Task 1: Pick the columns',
          '**Status:** Done',
          '- [x] List them',
          '### Task 2: Write the file',
          '- [ ] Write it',
          '#### Automated Verification:',
          '- [ ] `npm test`',
        ),
      },
      errors: [{ messageId: 'claimedOpen' }],
    },
    {
      name: 'a phase status that is not done',
      files: { [PLAN]: withStatus('### Implementation Status: In progress') },
      errors: [{ messageId: 'claimedOpen', data: { count: 1 } }],
    },
  ],
});

// Review of round 8: a phase's status line answers the plan's claim; it is no verification, so phase order still
// holds the next phase until the phase's automated items are checked.
ruleTester(ruleOf('plan/phase-order'), {
  valid: [],
  invalid: [
    {
      name: 'a status line does not verify the phase',
      files: {
        [PLAN]: md(
          '# Export',
          '## Phase 1: Columns',
          '**Status:** ✅ Complete',
          '- [x] Task 1: Pick the columns',
          '#### Automated Verification:',
          '- [ ] `npm test -- columns`',
          '## Phase 2: Writer',
          '- [x] Task 2: Write the file',
          '#### Automated Verification:',
          '- [ ] `npm test -- writer`',
        ),
      },
      errors: ['checkedBeforeVerified'],
    },
  ],
});
