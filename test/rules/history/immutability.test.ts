// A handoff's status, task and verification results are fixed once committed, wherever they are written (convention
// section 6, issue 12 bypass 4): a body marker or a section can no more go from failed to complete than the
// frontmatter can. Appending notes stays allowed.
import { ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { PLAN, handoffPath, md, plan } from '../fixtures.js';

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
    { name: 'a note appended below a body status', before, after: { ...before, [handoffPath(1)]: bodyHandoff('FAILED', '\n## Notes\n\nRetried with a fresh database: same error.\n') }, commit: { author: CLAUDE } },
  ],
  invalid: [
    {
      name: 'a body status turned from FAILED to COMPLETE',
      before,
      after: { ...before, [handoffPath(1)]: bodyHandoff('COMPLETE') },
      commit: { author: CLAUDE },
      errors: [{ messageId: 'rewritten', file: handoffPath(1), severity: 'error' }],
    },
  ],
});
