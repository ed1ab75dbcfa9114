// disable/directive: `<!-- validate-workflow-disable rule-id -- reason -->` (`# ...` in YAML) silences a rule in
// its file; section 5 wants a reason, known ids, and never a history/* id. The seed's O(respect_user_preference):
// an exemption is the user's recorded choice, so it must say why.
import { describe, expect, it } from 'vitest';
import { findings, lintFiles, of } from '../../helpers/rule-tester.js';
import { cliFindings } from '../cli.js';
import { HANDOFFS, LEDGER, PLAN, ledger, lineOf, md, plan, setting, strict, taskHandoff } from '../fixtures.js';
import { ANA, CLAUDE, MANUAL, Repo, door, planDoc } from '../../history/helpers.js';

const ID = 'disable/directive';

/** Phase 2 has no manual item: one plan/phase-manual-criteria warning at its heading. */
function planWith(comment: string): string {
  return md(
    '# P',
    comment,
    '## Phase 1: A',
    '- [ ] Task 1: a',
    '#### Automated Verification:',
    '- [ ] `npm test`',
    '#### Manual Verification:',
    '- [ ] look',
    '## Phase 2: B',
    '- [ ] Task 2: b',
    '#### Automated Verification:',
    '- [ ] `npm test`',
  );
}

describe(ID, () => {
  it('passes a directive that names a known rule and gives a reason; the rule is silenced in the file', () => {
    const text = planWith(
      '<!-- validate-workflow-disable plan/phase-manual-criteria -- phase 2 is a pure refactor -->',
    );
    const all = lintFiles({ [PLAN]: text });
    expect(of(all, ID)).toEqual([]);
    expect(of(all, 'plan/phase-manual-criteria')).toEqual([]);
    expect(of(lintFiles({ [PLAN]: planWith('') }), 'plan/phase-manual-criteria')).toHaveLength(1);
  });

  it('warns about a directive without a reason, which still silences the rule', () => {
    const text = planWith('<!-- validate-workflow-disable plan/phase-manual-criteria -->');
    const all = lintFiles({ [PLAN]: text });
    expect(of(all, 'plan/phase-manual-criteria')).toEqual([]);
    expect(of(all, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(text, 'validate-workflow-disable'),
        column: 1,
        severity: 'warning',
        messageId: 'noReason',
        message: 'Disable of plan/phase-manual-criteria gives no reason.',
      }),
    ]);
    expect(
      findings({ [PLAN]: planWith('<!-- validate-workflow-disable plan/phase-manual-criteria -- -->') }, ID),
    ).toEqual([
      expect.objectContaining({ messageId: 'noReason', message: expect.stringContaining('gives no reason') }),
    ]);
  });

  it('covers the whole file, findings before the comment included', () => {
    const text = `${planWith('')}\n<!-- validate-workflow-disable plan/phase-manual-criteria -- refactor only -->\n`;
    expect(findings({ [PLAN]: text }, 'plan/phase-manual-criteria')).toEqual([]);
  });

  it('silences several rules named with commas or spaces', () => {
    const text = planWith(
      '<!-- validate-workflow-disable plan/phase-manual-criteria, plan/task-numbering plan/mode -- migration plan -->',
    ).replace('Task 2: b', 'Task 7: b');
    const all = lintFiles({ [PLAN]: text });
    expect(of(all, 'plan/phase-manual-criteria')).toEqual([]);
    expect(of(all, 'plan/task-numbering')).toEqual([]);
    expect(of(all, ID)).toEqual([]);
  });

  it('does not silence the rule in other files', () => {
    const other = 'thoughts/shared/plans/2026-11-21-billing.md';
    const files = {
      [PLAN]: planWith('<!-- validate-workflow-disable plan/phase-manual-criteria -- refactor -->'),
      [other]: planWith(''),
    };
    expect(findings(files, 'plan/phase-manual-criteria').map((f) => f.file)).toEqual([other]);
  });

  it('warns that a history/* rule cannot be disabled inline', () => {
    const text = planWith('<!-- validate-workflow-disable history/manual-confirmation -- the human is on holiday -->');
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: 2,
        severity: 'warning',
        messageId: 'historyRule',
        message: 'history/manual-confirmation cannot be disabled inline; history rules judge what was committed.',
      }),
    ]);
  });

  it('warns about an unknown rule id, and about a directive that names no rule', () => {
    expect(findings({ [PLAN]: planWith('<!-- validate-workflow-disable plan/phase-manual -- typo -->') }, ID)).toEqual([
      expect.objectContaining({
        line: 2,
        messageId: 'unknownRule',
        message: 'Disable names unknown rule plan/phase-manual.',
      }),
    ]);
    expect(findings({ [PLAN]: planWith('<!-- validate-workflow-disable -- everything -->') }, ID)).toEqual([
      expect.objectContaining({ line: 2, messageId: 'noRule', message: 'Disable comment names no rule.' }),
    ]);
  });

  it('reads `# validate-workflow-disable` comments in YAML handoffs', () => {
    const path = `${HANDOFFS}/task-3-login.yaml`;
    const body = md(
      'status: complete',
      'task: 3',
      'task_desc: Login',
      'files_modified: []',
      'verification_results: []',
      'context_for_next: x',
    );
    expect(findings({ [path]: body }, 'handoff/path')).toHaveLength(1);
    const silenced = lintFiles({
      [path]: `# validate-workflow-disable handoff/path -- v3 YAML handoffs keep their name\n${body}`,
    });
    expect(of(silenced, 'handoff/path')).toEqual([]);
    expect(of(silenced, ID)).toEqual([]);
    const noReason = lintFiles({ [path]: `${body}# validate-workflow-disable handoff/path\n` });
    expect(of(noReason, 'handoff/path')).toEqual([]);
    expect(of(noReason, ID)).toEqual([
      expect.objectContaining({
        file: path,
        line: 7,
        messageId: 'noReason',
        message: 'Disable of handoff/path gives no reason.',
      }),
    ]);
  });

  it('reads directives in Markdown handoffs and ledgers too', () => {
    const handoff = `${HANDOFFS}/task-3-login.md`;
    const twoRunning = ledger({ state: ['- [→] Task 1: a', '- [→] Task 2: b'] });
    expect(findings({ [LEDGER]: twoRunning }, 'ledger/state')).toHaveLength(1);
    const files = {
      [handoff]: `${taskHandoff(3)}\n<!-- validate-workflow-disable handoff/path -->\n`,
      [LEDGER]: `${twoRunning}<!-- validate-workflow-disable ledger/state -- parallel spike, agreed with the user -->\n`,
    };
    const all = lintFiles(files);
    expect(of(all, 'handoff/path')).toEqual([]);
    expect(of(all, 'ledger/state')).toEqual([]);
    expect(of(all, ID)).toEqual([
      expect.objectContaining({
        file: handoff,
        messageId: 'noReason',
        message: 'Disable of handoff/path gives no reason.',
      }),
    ]);
  });

  it('ignores the directive text inside a code block or inline code', () => {
    const text = planWith(
      '```\n<!-- validate-workflow-disable plan/phase-manual-criteria -->\n```\n\nWrite `<!-- validate-workflow-disable plan/phase-manual-criteria -->` to silence a rule.',
    );
    const all = lintFiles({ [PLAN]: text });
    expect(of(all, ID)).toEqual([]);
    expect(of(all, 'plan/phase-manual-criteria')).toHaveLength(1);
  });

  it('cannot silence itself: a reasonless disable that names disable/directive is still reported', () => {
    const text = planWith('<!-- validate-workflow-disable disable/directive, plan/phase-manual-criteria -->');
    const all = lintFiles({ [PLAN]: text });
    expect(of(all, 'plan/phase-manual-criteria')).toEqual([]);
    expect(of(all, ID)).toEqual([
      expect.objectContaining({
        line: 2,
        messageId: 'noReason',
        message: 'Disable of disable/directive, plan/phase-manual-criteria gives no reason.',
      }),
    ]);
  });

  it('is a warning in both presets, and config can raise or turn it off (the disable still applies)', () => {
    const files = { [PLAN]: planWith('<!-- validate-workflow-disable plan/phase-manual-criteria -->') };
    expect(findings(files, ID, strict())).toEqual([expect.objectContaining({ severity: 'warning' })]);
    expect(findings(files, ID, setting(ID, 'error'))).toEqual([expect.objectContaining({ severity: 'error' })]);
    const off = lintFiles(files, setting(ID, 'off', 'strict'));
    expect(of(off, ID)).toEqual([]);
    expect(of(off, 'plan/phase-manual-criteria')).toEqual([]);
  });

  it('through the CLI: the warning alone exits 0, and fails --max-warnings 0', async () => {
    const files = {
      [PLAN]: plan(),
      'thoughts/shared/plans/other.md': `${plan()}\n<!-- validate-workflow-disable plan/mode -->\n`,
    };
    const res = await cliFindings(files, ID);
    expect(res).toMatchObject({
      code: 0,
      results: [expect.objectContaining({ ruleId: ID, severity: 'warning', file: 'thoughts/shared/plans/other.md' })],
    });
    expect((await cliFindings(files, ID, ['--max-warnings', '0'])).code).toBe(1);
  });
});

describe('a disable written above the line a history finding names (issue 24)', () => {
  it('leaves the finding on the item, not on the comment, and its fix says to remove the history rule', async () => {
    const repo = Repo.create();
    const P = { phases: [1, 1] };
    repo.commit('Plan', { [PLAN]: planDoc(P) }, { author: ANA });
    // Claude checks the manual item itself: history/manual-confirmation at the item's line in that commit.
    const checked = planDoc({ ...P, tasks: [1], auto: [1], manual: [1] });
    repo.commit('Task 1', { [PLAN]: checked }, { author: CLAUDE });
    const item = lineOf(checked, MANUAL(1));
    const comment = '<!-- validate-workflow-disable history/manual-confirmation -- checked by hand -->';
    repo.commit('Try to silence it', {
      [PLAN]: checked.replace(`- [x] ${MANUAL(1)}`, `${comment}\n- [x] ${MANUAL(1)}`),
    });
    const found = (await door(repo.dir)).results.filter((f) => f.severity !== 'info');
    expect(found.map((f) => [f.ruleId, f.line])).toEqual([
      [ID, item],
      ['history/manual-confirmation', item + 1],
    ]);
    expect(found[0]!.fix).toBe(
      'Remove history/manual-confirmation from the comment: fix what the history finding names now (`npx validate-workflow confirm` for manual items), or record it in the baseline (`npx validate-workflow --baseline-write`).',
    );
  });
});
