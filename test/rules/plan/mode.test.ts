// plan/mode: the seed's mode table (1-3 tasks and not context critical: direct; 4+ or context critical:
// orchestration) with "User preference overrides" recorded as `mode_set_by: user`.
import { describe, expect, it } from 'vitest';
import { describeRuleContract, ruleOf, ruleTester } from '../../helpers/rule-tester.js';
import { cliFindings } from '../cli.js';
import { PLAN, lineOf, md, plan } from '../fixtures.js';

const ID = 'plan/mode';
const rule = ruleOf(ID);

const directWithFour = plan({ frontmatter: ['context_critical: false', 'mode: direct'], tasksPerPhase: [2, 2] });

ruleTester(rule, {
  valid: [
    {
      name: 'the user preference: `mode_set_by: user` allows direct mode',
      files: {
        [PLAN]: plan({
          frontmatter: ['mode: direct', 'mode_set_by: user', 'context_critical: true'],
          tasksPerPhase: [3, 3],
        }),
      },
    },
    {
      name: '`mode: direct` with 3 tasks',
      files: { [PLAN]: plan({ frontmatter: ['mode: direct'], tasksPerPhase: [2, 1] }) },
    },
    {
      name: '`mode: orchestration` with any count',
      files: { [PLAN]: plan({ frontmatter: ['mode: orchestration'], tasksPerPhase: [1] }) },
    },
    { name: 'without a mode key the table decides (many tasks)', files: { [PLAN]: plan({ tasksPerPhase: [5, 5] }) } },
    {
      name: 'without a mode key the table decides (context critical)',
      files: { [PLAN]: plan({ frontmatter: ['context_critical: true'], tasksPerPhase: [1] }) },
    },
  ],
  invalid: [
    {
      name: '`mode: direct` on a plan with 4 tasks, at the mode key',
      files: { [PLAN]: directWithFour },
      errors: [
        {
          messageId: 'directWithManyTasks',
          file: PLAN,
          line: lineOf(directWithFour, 'mode: direct'),
          severity: 'warning',
          data: { tasks: 4 },
          message:
            'Plan declares `mode: direct` but has 4 tasks; the table requires orchestration unless the user chose direct mode.',
        },
      ],
    },
    {
      name: 'an error in strict',
      files: { [PLAN]: directWithFour },
      config: { preset: 'strict' },
      errors: [{ messageId: 'directWithManyTasks', severity: 'error' }],
    },
    {
      name: '`mode: direct` on a context_critical plan with few tasks',
      files: { [PLAN]: plan({ frontmatter: ['mode: direct', 'context_critical: true'], tasksPerPhase: [1] }) },
      errors: [{ messageId: 'directWhenCritical', line: 2, message: /is context_critical/ }],
    },
    {
      name: '`mode_set_by: agent` is not the user preference',
      files: { [PLAN]: plan({ frontmatter: ['mode: direct', 'mode_set_by: agent'], tasksPerPhase: [4] }) },
      errors: [{ messageId: 'directWithManyTasks', line: 2 }],
    },
    {
      name: 'heading tasks count (plan-agent dialect)',
      files: {
        [PLAN]: md(
          '---',
          'mode: direct',
          '---',
          '# P',
          ...[1, 2, 3, 4].flatMap((n) => [`### Task ${n}: t${n}`, '- [ ] step']),
        ),
      },
      errors: [{ messageId: 'directWithManyTasks', line: 2, data: { tasks: 4 } }],
    },
  ],
});

describe(`${ID} through the CLI`, () => {
  it('reads the level from validate-workflow.config.json', async () => {
    const config = JSON.stringify({ rules: { [ID]: 'error' } });
    const { code, results } = await cliFindings(
      { [PLAN]: directWithFour, 'validate-workflow.config.json': config },
      ID,
    );
    expect(code).toBe(1);
    expect(results).toEqual([
      expect.objectContaining({ severity: 'error', line: lineOf(directWithFour, 'mode: direct') }),
    ]);
    const off = await cliFindings(
      { [PLAN]: directWithFour, 'validate-workflow.config.json': JSON.stringify({ rules: { [ID]: 'off' } }) },
      ID,
      ['--preset', 'strict'],
    );
    expect(off.results).toEqual([]);
  });
});

describeRuleContract(rule, { [PLAN]: directWithFour }, { recommended: 'warning', strict: 'error' });
