// The in-memory rule tester itself: snapshot and transition cases through the one runner, trust from `before`,
// renames, and the wrapper's message-id checks. Plus the catalogue: every core rule declares its messages.
import { describe, expect, it } from 'vitest';
import { CORE_RULES } from '../../src/rules/index.js';
import { judgeTransitionCase, runSnapshotCase, runTransitionCase, snapshotOf } from '../../src/engine/rule-tester.js';
import { expectFindings, ruleOf, ruleTester } from '../helpers/rule-tester.js';
import { PLAN, handoffPath, lineOf, plan, taskHandoff } from './fixtures.js';

const CLAUDE = 'Claude <noreply@anthropic.com>';

describe('rule tester', () => {
  it('judges a snapshot case in memory, with the catalog severity and the named message', () => {
    const text = plan({ frontmatter: ['mode: direct'], tasksPerPhase: [2, 2] });
    const found = runSnapshotCase(ruleOf('plan/mode'), { files: { [PLAN]: text } });
    expect(found).toEqual([
      expect.objectContaining({
        ruleId: 'plan/mode',
        messageId: 'directWithManyTasks',
        severity: 'warning',
        file: PLAN,
        line: lineOf(text, 'mode: direct'),
        message:
          'Plan declares `mode: direct` but has 4 tasks; the table requires orchestration unless the user chose direct mode.',
      }),
    ]);
    expect(runSnapshotCase(ruleOf('plan/mode'), { files: { [PLAN]: text }, config: { preset: 'strict' } })).toEqual([
      expect.objectContaining({ severity: 'error' }),
    ]);
  });

  it('follows configured paths when it classifies files', () => {
    const files = { 'docs/plans/auth.md': plan({ frontmatter: ['mode: direct'], tasksPerPhase: [4] }) };
    expect(runSnapshotCase(ruleOf('plan/mode'), { files })).toEqual([]);
    expect(
      runSnapshotCase(ruleOf('plan/mode'), { files, config: { paths: { plans: ['docs/plans/**/*.md'] } as never } }),
    ).toHaveLength(1);
    expect(
      snapshotOf(files, { paths: { plans: ['docs/plans/**/*.md'] } as never }).plan('docs/plans/auth.md'),
    ).not.toBeNull();
  });

  it('judges a transition case with a human author by default, and an agent when told', () => {
    const before = { [PLAN]: plan({ tasksPerPhase: [2, 2] }) };
    const after = { [PLAN]: plan({ tasksPerPhase: [2, 2], verified: [1] }) };
    const rule = ruleOf('history/manual-confirmation');
    expect(runTransitionCase(rule, { before, after })).toEqual([
      expect.objectContaining({
        messageId: 'unconfirmed',
        message: expect.stringContaining('the commit has no `Confirmed-by:` trailer'),
      }),
    ]);
    expect(
      runTransitionCase(rule, {
        before,
        after,
        commit: { trailers: ['Confirmed-by: Test Human <human@example.com>'] },
      }),
    ).toEqual([]);
    expect(runTransitionCase(rule, { before, after, stage: 'staged' })).toEqual([]);
    const relayed = runTransitionCase(rule, {
      before,
      after,
      commit: { trailers: ['Confirmed-by: Test Human <human@example.com>', `Co-authored-by: ${CLAUDE}`] },
    });
    expect(relayed).toEqual([
      expect.objectContaining({
        messageId: 'relayed',
        severity: 'info',
        commit: expect.any(String),
        subject: 'Test commit',
      }),
    ]);
  });

  it('takes trust from the config in `before`, and `config` puts it on both sides', () => {
    const before = { [PLAN]: plan({ tasksPerPhase: [2, 2] }) };
    const after = { [PLAN]: plan({ tasksPerPhase: [2, 2], verified: [1] }) };
    const rule = ruleOf('history/manual-confirmation');
    const off = { rules: { 'history/manual-confirmation': 'off' } };
    expect(runTransitionCase(rule, { before, after, config: off })).toEqual([]);
    // A commit cannot switch off the rule that judges it: the config it adds binds its successors only.
    const self = judgeTransitionCase(rule, {
      before,
      after: { ...after, 'validate-workflow.config.json': JSON.stringify(off) },
    });
    expect(self.findings).toHaveLength(1);
    expect(self.events.map((e) => e.type)).toContain('trust-file-changed');
  });

  it('turns a deletion and an addition into a rename when told', () => {
    const from = handoffPath(1);
    const to = handoffPath(1, 'renamed');
    const rule = ruleOf('history/handoff-deleted');
    const base = { before: { [from]: taskHandoff(1) }, after: { [to]: taskHandoff(1) } };
    expectFindings(rule, runTransitionCase(rule, base), [{ messageId: 'deleted', file: from }]);
    // By an agent: a person's move that keeps the content is housekeeping (info), not this finding.
    expectFindings(
      rule,
      runTransitionCase(rule, { ...base, renames: [[from, to]], commit: { author: 'Claude <noreply@anthropic.com>' } }),
      [{ messageId: 'renamed', file: to, data: { from } }],
    );
  });
});

ruleTester(ruleOf('plan/mode'), {
  valid: [
    {
      name: 'three tasks in direct mode',
      files: { [PLAN]: plan({ frontmatter: ['mode: direct'], tasksPerPhase: [2, 1] }) },
    },
  ],
  invalid: [
    {
      name: 'four tasks in direct mode',
      files: { [PLAN]: plan({ frontmatter: ['mode: direct'], tasksPerPhase: [2, 2] }) },
      errors: [{ messageId: 'directWithManyTasks', line: 2, data: { tasks: 4 } }],
    },
  ],
});

describe('the messages catalogue of the core rules', () => {
  for (const rule of CORE_RULES) {
    it(`${rule.meta.id} declares its messages, each a sentence with named placeholders`, () => {
      expect(Object.keys(rule.meta.messages).length, 'a rule that reports says so by name').toBeGreaterThan(0);
      for (const [id, text] of Object.entries(rule.meta.messages)) {
        expect(id).toMatch(/^[a-z][A-Za-z]*$/);
        expect(text.trim().length).toBeGreaterThan(0);
        expect(text.replace(/\{\{\s*\w+\s*\}\}/g, '')).not.toMatch(/\{\{|\}\}/);
      }
    });
  }
});
