// handoff/outcome: a handoff's own words agree with its status. A session handoff carries the agent's `status` and
// the user's rating of the session (`outcome`): "major issues remain" under `status: complete` is a contradiction,
// "mostly done, minor issues remain" is not.
import { describeRuleContract, ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { lineOf, md } from '../fixtures.js';

const rule = ruleOf('handoff/outcome');
const PATH = 'thoughts/shared/handoffs/search-1/2026-11-20_10-15_ranking.yaml';

const session = (status: string, outcome: string) =>
  md(
    '---',
    'session: search-1',
    `status: ${status}`,
    `outcome: ${outcome}`,
    '---',
    '',
    'goal: Rank search results by recency',
    'now: Tune the decay constant',
  );
const minus = session('complete', 'PARTIAL_MINUS');

ruleTester(rule, {
  valid: [
    { name: 'a complete session the user rated succeeded', files: { [PATH]: session('complete', 'SUCCEEDED') } },
    {
      name: 'a complete session the user rated mostly done (PARTIAL_PLUS)',
      files: { [PATH]: session('complete', 'PARTIAL_PLUS') },
    },
    { name: 'a partial session rated PARTIAL_MINUS', files: { [PATH]: session('partial', 'PARTIAL_MINUS') } },
  ],
  invalid: [
    {
      name: 'a complete session the user rated "major issues remain" (PARTIAL_MINUS)',
      files: { [PATH]: minus },
      errors: [
        {
          messageId: 'keyDisagrees',
          file: PATH,
          line: lineOf(minus, 'outcome:'),
          severity: 'error',
          message: '`outcome: PARTIAL_MINUS` says the task is partial, but `status` says complete.',
        },
      ],
    },
    {
      name: 'a blocked session rated mostly done: PARTIAL_PLUS is no blocked status',
      files: { [PATH]: session('blocked', 'PARTIAL_PLUS') },
      errors: [{ messageId: 'keyDisagrees', data: { claim: 'partial', status: 'blocked' } }],
    },
  ],
});

describeRuleContract(rule, { [PATH]: minus }, { recommended: 'error', strict: 'error' });
