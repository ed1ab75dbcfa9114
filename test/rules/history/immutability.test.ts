// A handoff's status, task and verification results are fixed once committed, wherever they are written (convention
// section 6, issue 12 bypass 4): a body marker or a section can no more go from failed to complete than the
// frontmatter can. Appending notes stays allowed.
import { ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { PLAN, handoffPath, md, plan, taskHandoff } from '../fixtures.js';

const CLAUDE = 'Claude <noreply@anthropic.com>';
const CONFIG = 'validate-workflow.config.json';
const STRICT = '{ "preset": "strict" }\n';

/** An implement_task handoff with its fields in sections and its status as a body marker. */
function bodyHandoff(status: string, extra = ''): string {
  return md(
    '# Task Handoff: Add the invoices query',
    '',
    `## Status: ${status}`,
    '',
    '## Task Summary',
    '',
    'Add the invoices query.',
    '',
    '## Files Modified',
    '',
    '- src/billing/invoices.ts',
    '',
    '## Verification',
    '',
    '- npm test -- invoices: fail',
    '',
    '## Next Task Context',
    '',
    'The query needs an index on issued_at.',
    extra,
  );
}

const before = { [CONFIG]: STRICT, [PLAN]: plan({ checked: [] }), [handoffPath(1)]: bodyHandoff('FAILED') };

ruleTester(ruleOf('history/handoff-rewritten'), {
  valid: [
    {
      name: 'a note appended below a body status',
      before,
      after: {
        ...before,
        [handoffPath(1)]: bodyHandoff('FAILED', '\n## Notes\n\nRetried with a fresh database: same error.\n'),
      },
      commit: { author: CLAUDE },
    },
  ],
  invalid: [
    {
      name: 'a body status turned from FAILED to COMPLETE',
      before,
      after: { ...before, [handoffPath(1)]: bodyHandoff('COMPLETE') },
      commit: { author: CLAUDE },
      // The record is in the body (a status marker): the message says so instead of "frontmatter" (round 3).
      errors: [{ messageId: 'rewrittenBody', file: handoffPath(1), severity: 'error' }],
    },
  ],
});

// Issue 12, bypass 10: a blocked handoff's resolution is the user's answer. A human may write it after the handoff
// was committed (it is no rewrite, in any preset); an agent's commit that writes one is self-exemption.
const blockedHandoff = (resolution?: string, body = '') =>
  taskHandoff(
    2,
    {
      status: 'blocked',
      blocker: 'Which schema wins?',
      verification_results: [],
      ...(resolution ? { resolution } : {}),
    },
    body,
  );
const waiting = { [CONFIG]: STRICT, [PLAN]: plan({ checked: [1] }), [handoffPath(2)]: blockedHandoff() };

ruleTester(ruleOf('history/handoff-rewritten'), {
  valid: [
    {
      name: "a human's resolution added to a committed blocked handoff",
      before: waiting,
      after: { ...waiting, [handoffPath(2)]: blockedHandoff('Use the new schema.') },
    },
  ],
  invalid: [
    {
      name: 'a resolution added together with another key',
      before: waiting,
      after: {
        ...waiting,
        [handoffPath(2)]: blockedHandoff('Use the new schema.').replace('task_desc: Step 2', 'task_desc: Step two'),
      },
      errors: [
        {
          messageId: 'rewritten',
          message: `Frontmatter of committed handoff ${handoffPath(2)} was rewritten (\`task_desc\`).`,
        },
      ],
    },
  ],
});

ruleTester(ruleOf('history/self-exemption'), {
  valid: [
    {
      name: "a human's resolution",
      before: waiting,
      after: { ...waiting, [handoffPath(2)]: blockedHandoff('Use the new schema.') },
    },
    {
      // In `recommended`: `strict` lets no agent relay the human's word, as for a confirmation.
      name: "the human's Guidance-by relayed in the agent's commit",
      before: { ...waiting, [CONFIG]: '{}\n' },
      after: {
        ...waiting,
        [CONFIG]: '{}\n',
        [handoffPath(2)]: blockedHandoff(undefined, '\n## Resolution\n\nUse the new schema.\n'),
      },
      commit: {
        author: 'Ana <ana@example.com>',
        trailers: [`Co-authored-by: ${CLAUDE}`, 'Guidance-by: Ana <ana@example.com>'],
      },
    },
    {
      name: 'an agent appending a note, not a resolution',
      before: waiting,
      after: { ...waiting, [handoffPath(2)]: blockedHandoff(undefined, '\n## Notes\n\nStill waiting.\n') },
      commit: { author: CLAUDE },
    },
  ],
  invalid: [
    {
      name: "an agent's resolution appended as a section",
      before: waiting,
      after: {
        ...waiting,
        [handoffPath(2)]: blockedHandoff(undefined, '\n## Resolution\n\nThe user said to go on.\n'),
      },
      commit: { author: CLAUDE },
      errors: [
        {
          messageId: 'writesResolution',
          file: handoffPath(2),
          severity: 'error',
          message: `An agent's commit (${CLAUDE}) writes the resolution of blocked handoff ${handoffPath(2)} itself: only the user's guidance unblocks the task, and a resolution counts only when a human's commit writes it.`,
        },
      ],
    },
    {
      name: "an agent's resolution key, at commit-msg",
      before: waiting,
      after: { ...waiting, [handoffPath(2)]: blockedHandoff('Go on.') },
      commit: { author: 'Ana <ana@example.com>', trailers: [`Co-authored-by: ${CLAUDE}`] },
      stage: 'commit-msg',
      errors: [{ messageId: 'writesResolution', file: handoffPath(2) }],
    },
  ],
});

// Round 7: a handoff that says it is still in progress is a working document, not a record yet: the session that
// wrote it goes on filling it in until its status says how the work ended. `recommended` lets that be; `strict`
// holds every committed handoff as a record; a finished handoff rewritten is reported in both.
const underWay = (status: string, context: string) =>
  taskHandoff(3, { status, verification_results: [], context_for_next: context });
const RECOMMENDED = '{}\n';
const inProgress = {
  [CONFIG]: RECOMMENDED,
  [PLAN]: plan({ checked: [1, 2] }),
  [handoffPath(3)]: underWay('in_progress', 'Writing the query.'),
};

ruleTester(ruleOf('history/handoff-rewritten'), {
  valid: [
    {
      name: 'an in-progress handoff filled in and finished by its session (recommended)',
      before: inProgress,
      after: { ...inProgress, [handoffPath(3)]: underWay('complete', 'The query is in; the index comes next.') },
      commit: { author: CLAUDE },
    },
    {
      name: 'a body status that gives a share short of the whole, then the end (recommended)',
      before: { ...inProgress, [handoffPath(1)]: bodyHandoff('~60% complete (3 of 5 steps)') },
      after: { ...inProgress, [handoffPath(1)]: bodyHandoff('COMPLETE') },
      commit: { author: CLAUDE },
    },
    {
      name: 'a draft kept with the handoffs: `draft — ...` to `filed — ...`, then rewritten again (recommended)',
      before: { ...inProgress, [handoffPath(3)]: underWay('draft — paste into the tracker', 'Two bugs.') },
      after: { ...inProgress, [handoffPath(3)]: underWay('filed — tracker#8551', 'Two bugs, one filed.') },
      commit: { author: CLAUDE },
    },
    {
      name: 'a status in no handoff words changed again (recommended): no record of a task to rewrite',
      before: { ...inProgress, [handoffPath(3)]: underWay('filed — tracker#8551', 'Two bugs.') },
      after: { ...inProgress, [handoffPath(3)]: underWay('closed as premature', 'Two bugs.') },
      commit: { author: CLAUDE },
    },
  ],
  invalid: [
    {
      name: 'the same in strict',
      before: { ...inProgress, [CONFIG]: STRICT },
      after: {
        ...inProgress,
        [CONFIG]: STRICT,
        [handoffPath(3)]: underWay('complete', 'The query is in; the index comes next.'),
      },
      commit: { author: CLAUDE },
      errors: [
        {
          messageId: 'rewritten',
          message: `Frontmatter of committed handoff ${handoffPath(3)} was rewritten (\`status\`, \`context_for_next\`).`,
        },
      ],
    },
    {
      name: 'a handoff without a status given `complete` later (recommended): an empty record key filled is a rewrite',
      before: { ...inProgress, [handoffPath(3)]: underWay('', 'Writing the query.') },
      after: { ...inProgress, [handoffPath(3)]: underWay('complete', 'Writing the query.') },
      commit: { author: CLAUDE },
      errors: [{ messageId: 'rewritten', severity: 'warning' }],
    },
    {
      name: 'a finished handoff rewritten (recommended)',
      before: { ...inProgress, [handoffPath(3)]: underWay('complete', 'Writing the query.') },
      after: { ...inProgress, [handoffPath(3)]: underWay('complete', 'The query is in; the index comes next.') },
      commit: { author: CLAUDE },
      errors: [
        {
          messageId: 'rewritten',
          severity: 'warning',
          message: `Frontmatter of committed handoff ${handoffPath(3)} was rewritten (\`context_for_next\`).`,
        },
      ],
    },
  ],
});
