// layout/paths: handoffs live in thoughts/handoffs/<session>/ (the seed's handoff_path), and nothing is written
// under thoughts/searchable/ (HumanLayer's generated mirror).
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { cliFindings } from '../cli.js';
import { PLAN, handoffChain, md, plan, strict, taskHandoff } from '../fixtures.js';

const ID = 'layout/paths';

describe(ID, () => {
  it('passes handoffs in session folders under either handoffs root', () => {
    const files = {
      [PLAN]: plan(),
      ...handoffChain(2),
      'thoughts/shared/handoffs/auth-2/2026-11-20_10-00-00_auth.md': md('# Handoff', 'x'),
    };
    expect(findings(files, ID)).toEqual([]);
    expect(findings(files, ID, strict())).toEqual([]);
  });

  it('reports a handoff directly in the handoffs folder, whatever its dialect', () => {
    const files = {
      'thoughts/handoffs/task-01-add-users.md': taskHandoff(1),
      'thoughts/shared/handoffs/2026-11-20_10-00-00_auth.md': md('# Handoff', 'x'),
      'thoughts/handoffs/session.yaml': md('goal: x'),
    };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: 'thoughts/handoffs/session.yaml',
        line: 1,
        severity: 'warning',
        messageId: 'noSessionFolder',
        message:
          'Handoff sits directly in thoughts/handoffs/ instead of a session folder thoughts/handoffs/<session>/.',
      }),
      expect.objectContaining({ file: 'thoughts/handoffs/task-01-add-users.md', line: 1, severity: 'warning' }),
    ]);
    // strict asks the flat HumanLayer handoff for a session folder too.
    expect(findings(files, ID, strict())).toEqual([
      expect.objectContaining({ file: 'thoughts/handoffs/session.yaml', severity: 'error' }),
      expect.objectContaining({ file: 'thoughts/handoffs/task-01-add-users.md', severity: 'error' }),
      expect.objectContaining({
        file: 'thoughts/shared/handoffs/2026-11-20_10-00-00_auth.md',
        messageId: 'noSessionFolder',
        message: expect.stringContaining('directly in thoughts/shared/handoffs/'),
      }),
    ]);
  });

  it('accepts flat HumanLayer session handoffs (YYYY-MM-DD_HH-MM-SS_<desc>.md) in recommended, as create_handoff writes them', () => {
    const files = {
      'thoughts/shared/handoffs/2026-02-04_21-15-50_payout-retries.md': md(
        '---',
        'status: in_progress',
        '---',
        '# Handoff: payout retries',
        'x',
      ),
      'thoughts/shared/handoffs/2026-02-05_08-02-11_payout-retries.md': md('# Handoff: payout retries, day two', 'x'),
    };
    expect(findings(files, ID)).toEqual([]);
    // A task handoff written flat is still out of place, and a file named almost like one (no seconds) is not HumanLayer's.
    const odd = {
      'thoughts/shared/handoffs/2026-02-04_21-15_payout-retries.md': md('# Handoff', 'x'),
      'thoughts/shared/handoffs/2026-02-04_21-15-50_task.md': md('---', 'task: 1', '---', '# Handoff', 'x'),
    };
    expect(findings(odd, ID).map((f) => f.file)).toEqual([
      'thoughts/shared/handoffs/2026-02-04_21-15-50_task.md',
      'thoughts/shared/handoffs/2026-02-04_21-15_payout-retries.md',
    ]);
  });

  it('reports any file under thoughts/searchable/', () => {
    const files = {
      [PLAN]: plan(),
      'thoughts/searchable/shared/plans/2026-11-20-auth.md': plan(),
      'thoughts/searchable/notes.txt': 'x',
    };
    // Round 3: one cause, one finding: a committed mirror is one decision, however many files it holds.
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: 'thoughts/searchable/shared/plans/2026-11-20-auth.md',
        line: 1,
        messageId: 'searchableMany',
        message: expect.stringContaining('2 files are committed under thoughts/searchable/, a generated mirror'),
      }),
    ]);
    expect(findings({ [PLAN]: plan(), 'thoughts/searchable/notes.txt': 'x' }, ID)).toEqual([
      expect.objectContaining({
        file: 'thoughts/searchable/notes.txt',
        messageId: 'searchable',
        message: expect.stringContaining('under thoughts/searchable/, a generated mirror'),
      }),
    ]);
  });

  it('does not report files git ignores (a real repository: discovery asks git)', async () => {
    const files = { '.gitignore': 'thoughts/searchable/\n', 'thoughts/searchable/notes.md': 'x', [PLAN]: plan() };
    expect(await cliFindings(files, ID)).toEqual({ code: 0, results: [] });
  });

  it('through the CLI: a warning exits 0 in recommended, and 1 with --preset strict or --max-warnings 0', async () => {
    // A real repository without config learns its layout: one handoff of two sits flat, so flat is no promise.
    const files = {
      'thoughts/handoffs/task-01-a.md': taskHandoff(1),
      'thoughts/handoffs/s1/task-02-b.md': taskHandoff(2),
    };
    const rec = await cliFindings(files, ID);
    expect(rec.code).toBe(0);
    expect(rec.results).toEqual([
      expect.objectContaining({ severity: 'warning', file: 'thoughts/handoffs/task-01-a.md' }),
    ]);
    expect(await cliFindings(files, ID, ['--preset', 'strict'])).toMatchObject({
      code: 1,
      results: [expect.objectContaining({ severity: 'error' })],
    });
    expect((await cliFindings(files, ID, ['--max-warnings', '0'])).code).toBe(1);
  });
});

describeRuleContract(
  ID,
  { 'thoughts/handoffs/task-01-a.md': taskHandoff(1), 'thoughts/handoffs/b.md': md('# Handoff') },
  { recommended: 'warning', strict: 'error' },
);
