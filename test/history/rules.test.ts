// Each history rule over real repositories: one history that must pass, one planted violation that must be found
// with the commit's full sha and subject, the file and the line in that commit's version, and the rule's severity in
// both presets.
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Preset } from '../../src/config/config.js';
import {
  ANA,
  AUTO,
  BOB,
  CLAUDE,
  LEDGER,
  MANUAL,
  PLAN,
  Repo,
  TASK,
  cliHere,
  expectOne,
  handoffPath,
  historyFindings,
  judge,
  ledgerDoc,
  lineOf,
  planDoc,
  taskHandoff,
  tempDir,
} from './helpers.js';

interface Planted {
  commit: string;
  file: string;
  line: number;
}

interface Case {
  rule: string;
  severities: Record<Preset, 'warning' | 'error'>;
  /** A history the rule must accept. */
  pass: (repo: Repo) => void;
  /** A history with one violation; returns where it must be reported. */
  violate: (repo: Repo) => Planted;
}

/** Ana writes the plan (two phases of two tasks: orchestration mode) and the session ledger. */
function planned(repo: Repo): void {
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
}

/** Claude does task n: plan check-off, handoff, ledger; `extra` boxes of the plan come along. */
function task(repo: Repo, n: number, done: number[], plan: Parameters<typeof planDoc>[0] = {}): string {
  return repo.commit(
    `Task ${n}: Do step ${n}`,
    { [PLAN]: planDoc({ tasks: done, ...plan }), [handoffPath(n)]: taskHandoff(n), [LEDGER]: ledgerDoc(done) },
    { author: CLAUDE },
  );
}

/** Phase 1 verified the right way: Claude checks the automated item, Ana confirms the manual one. */
function verifyPhase1(repo: Repo): void {
  repo.commit('Phase 1 automated checks pass', { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }) }, { author: CLAUDE });
  repo.commit(
    'Confirm phase 1',
    { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
    { author: ANA, confirmedBy: [ANA] },
  );
}

const CASES: Case[] = [
  {
    rule: 'history/handoff-deleted',
    severities: { recommended: 'error', strict: 'error' },
    pass: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      // Appending to the body is fine; so is deleting a file that is not a handoff.
      repo.commit(
        'Note on task 1',
        { [handoffPath(1)]: taskHandoff(1, {}, '\n## Notes\n\nLater: the cookie is HttpOnly.\n') },
        { author: CLAUDE },
      );
      repo.commit('Drop the ledger', {}, { author: CLAUDE, remove: [LEDGER] });
    },
    violate: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2]);
      const commit = repo.commit('Tidy up old handoffs', {}, { author: CLAUDE, remove: [handoffPath(1)] });
      return { commit, file: handoffPath(1), line: 1 };
    },
  },
  {
    rule: 'history/handoff-rewritten',
    severities: { recommended: 'warning', strict: 'error' },
    pass: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      repo.commit(
        'Append to handoff 1',
        { [handoffPath(1)]: taskHandoff(1, {}, '\n## Addendum\n\nThe migration is reversible.\n') },
        { author: CLAUDE },
      );
    },
    violate: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2]);
      const text = taskHandoff(1, { context_for_next: 'Actually the cookie name lives in env.' });
      const commit = repo.commit('Fix handoff 1', { [handoffPath(1)]: text }, { author: CLAUDE });
      return { commit, file: handoffPath(1), line: lineOf(text, 'context_for_next:') };
    },
  },
  {
    rule: 'history/task-order',
    severities: { recommended: 'error', strict: 'error' },
    pass: (repo) => {
      planned(repo);
      repo.commit('Start task 1', { [LEDGER]: ledgerDoc([], 1) }, { author: CLAUDE });
      task(repo, 1, [1]);
      repo.commit('Start task 2', { [LEDGER]: ledgerDoc([1], 2) }, { author: CLAUDE });
      task(repo, 2, [1, 2]);
    },
    violate: (repo) => {
      planned(repo);
      // Task 2 is checked (with its handoff) while task 1 is still open.
      const text = planDoc({ tasks: [2] });
      const commit = repo.commit(
        'Task 2: Do step 2',
        { [PLAN]: text, [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([2]) },
        { author: CLAUDE },
      );
      task(repo, 1, [1, 2]);
      return { commit, file: PLAN, line: lineOf(text, TASK(2)) };
    },
  },
  {
    rule: 'history/batched-tasks',
    severities: { recommended: 'warning', strict: 'error' },
    pass: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2]);
    },
    violate: (repo) => {
      planned(repo);
      const text = planDoc({ tasks: [1, 2] });
      const commit = repo.commit(
        'Tasks 1 and 2',
        {
          [PLAN]: text,
          [handoffPath(1)]: taskHandoff(1),
          [handoffPath(2)]: taskHandoff(2),
          [LEDGER]: ledgerDoc([1, 2]),
        },
        { author: CLAUDE },
      );
      return { commit, file: PLAN, line: lineOf(text, TASK(2)) };
    },
  },
  {
    rule: 'history/phase-order',
    severities: { recommended: 'error', strict: 'error' },
    pass: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2]);
      verifyPhase1(repo);
      task(repo, 3, [1, 2, 3], { auto: [1], manual: [1] });
    },
    violate: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2]);
      // Task 3 (phase 2) before phase 1's criteria were checked; the later verification does not undo that.
      const text = planDoc({ tasks: [1, 2, 3] });
      const commit = task(repo, 3, [1, 2, 3]);
      repo.commit(
        'Phase 1 automated checks pass',
        { [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1] }) },
        { author: CLAUDE },
      );
      repo.commit(
        'Confirm phase 1',
        { [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] }) },
        { author: ANA, confirmedBy: [ANA] },
      );
      return { commit, file: PLAN, line: lineOf(text, TASK(3)) };
    },
  },
  {
    rule: 'history/manual-confirmation',
    severities: { recommended: 'error', strict: 'error' },
    pass: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2]);
      verifyPhase1(repo);
    },
    violate: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2], { auto: [1] });
      const text = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
      const commit = repo.commit('Phase 1 verified', { [PLAN]: text }, { author: CLAUDE });
      return { commit, file: PLAN, line: lineOf(text, MANUAL(1)) };
    },
  },
  {
    rule: 'history/self-exemption',
    severities: { recommended: 'error', strict: 'error' },
    pass: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      // A human may loosen the rules: that is not an agent exempting itself.
      repo.commit(
        'Silence phase-order here',
        { [PLAN]: planDoc({ tasks: [1], tail: '<!-- validate-workflow-disable plan/phase-order -- legacy plan -->' }) },
        { author: BOB },
      );
    },
    violate: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      const text = planDoc({
        tasks: [1],
        tail: '<!-- validate-workflow-disable plan/manual-before-automated -- flaky -->',
      });
      const commit = repo.commit('Quiet the linter', { [PLAN]: text }, { author: BOB, coAuthors: [CLAUDE] });
      return { commit, file: PLAN, line: lineOf(text, 'validate-workflow-disable') };
    },
  },
];

describe.each(CASES)('$rule', (c) => {
  it('accepts a history that keeps it', async () => {
    const repo = Repo.create();
    c.pass(repo);
    expect(await historyFindings(repo.dir, c.rule)).toEqual([]);
    expect(await historyFindings(repo.dir, c.rule, 'strict')).toEqual([]);
  });

  for (const preset of ['recommended', 'strict'] as const) {
    it(`reports the planted violation as ${c.severities[preset]} in ${preset}, at its commit, file and line`, async () => {
      const repo = Repo.create();
      const at = c.violate(repo);
      expectOne(await historyFindings(repo.dir, c.rule, preset), c.rule, {
        repo,
        ...at,
        severity: c.severities[preset],
      });
    });
  }

  it('is re-levelled or turned off by the config committed before the commit it judges', async () => {
    const repo = Repo.create();
    repo.commit(
      'Configure',
      { 'validate-workflow.config.json': JSON.stringify({ rules: { [c.rule]: 'off' } }) },
      { author: ANA },
    );
    c.violate(repo);
    expect(await historyFindings(repo.dir, c.rule)).toEqual([]);
    // The same history when the config says error: reported as an error whatever the preset.
    const again = Repo.create();
    again.commit(
      'Configure',
      { 'validate-workflow.config.json': JSON.stringify({ rules: { [c.rule]: 'error' } }) },
      { author: ANA },
    );
    const at = c.violate(again);
    expectOne(await historyFindings(again.dir, c.rule), c.rule, { repo: again, ...at, severity: 'error' });
  });

  it('is not silenced by a disable comment in the current version of the file', async () => {
    const repo = Repo.create();
    const at = c.violate(repo);
    // The human appends a disable (with a reason) for this rule to the file (a deleted handoff is restored first).
    const exists = repo.git('ls-files', at.file).trim() !== '';
    const text = repo.show(exists ? 'HEAD' : `${at.commit}^`, at.file);
    repo.commit(
      'Disable the rule here',
      { [at.file]: `${text}\n<!-- validate-workflow-disable ${c.rule} -- we know -->\n` },
      { author: ANA },
    );
    expect(repo.show('HEAD', at.file)).toContain(`validate-workflow-disable ${c.rule}`);
    expect((await historyFindings(repo.dir, c.rule)).filter((f) => f.commit === at.commit)).toHaveLength(1);
  });
});

describe('history/incomplete', () => {
  function cloneOf(repo: Repo, depth: number | null): string {
    const dir = `${tempDir()}/clone`;
    repo.git('clone', '-q', ...(depth ? ['--depth', String(depth)] : []), `file://${repo.dir}`, dir);
    return dir;
  }

  function twoTasks(): Repo {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2]);
    return repo;
  }

  it('is not reported for a full clone', async () => {
    const dir = cloneOf(twoTasks(), null);
    const res = await judge(dir);
    expect(res.findings).toEqual([]);
    expect(res.commits).toBe(3);
    expect((await cliHere(dir)).code).toBe(0);
  });

  for (const preset of ['recommended', 'strict'] as const) {
    it(`is an error in ${preset} for a shallow clone, about the repository as a whole, with the fix`, async () => {
      const dir = cloneOf(twoTasks(), 1);
      expect(new Repo(dir).git('rev-parse', '--is-shallow-repository').trim()).toBe('true');
      const res = await cliHere(dir, ['--preset', preset]);
      expect(res.code).toBe(1);
      const hits = res.results.filter((f) => f.ruleId === 'history/incomplete');
      expect(hits).toEqual([
        expect.objectContaining({
          severity: 'error',
          file: null,
          line: null,
          message: expect.stringMatching(/shallow/),
        }),
      ]);
      expect(hits[0]!.fix).toContain('fetch-depth: 0');
      expect(hits[0]!.fix).toContain('git fetch --unshallow');
      expect(hits[0]!.commit).toBeUndefined();
    });
  }

  it('is gone once the clone is unshallowed', async () => {
    const dir = cloneOf(twoTasks(), 1);
    new Repo(dir).git('fetch', '-q', '--unshallow');
    expect((await cliHere(dir)).code).toBe(0);
  });
});

describe('rule boundaries', () => {
  it('task-order: a ledger that marks task 3 in progress while task 2 is open, at the ledger line', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const text = ledgerDoc([1], 3);
    const commit = repo.commit('Start task 3', { [LEDGER]: text }, { author: CLAUDE });
    expectOne(await historyFindings(repo.dir, 'history/task-order'), 'history/task-order', {
      repo,
      commit,
      file: LEDGER,
      line: lineOf(text, TASK(3)),
    });
  });

  it('task-order: a handoff for task 3 while task 2 is open, at the handoff', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const commit = repo.commit('Handoff 3', { [handoffPath(3)]: taskHandoff(3) }, { author: CLAUDE });
    expectOne(await historyFindings(repo.dir, 'history/task-order'), 'history/task-order', {
      repo,
      commit,
      file: handoffPath(3),
      line: 1,
    });
  });

  it('task-order: one commit completing tasks 1 and 2 is batching, not disorder', async () => {
    const repo = Repo.create();
    planned(repo);
    repo.commit(
      'Tasks 1 and 2',
      {
        [PLAN]: planDoc({ tasks: [1, 2] }),
        [handoffPath(1)]: taskHandoff(1),
        [handoffPath(2)]: taskHandoff(2),
        [LEDGER]: ledgerDoc([1, 2]),
      },
      { author: CLAUDE },
    );
    const { findings } = await judge(repo.dir);
    expect(findings.map((f) => f.ruleId)).toEqual(['history/batched-tasks']);
  });

  it('batched-tasks: a direct-mode plan (three tasks) may complete several tasks in one commit', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: planDoc({ phases: [3] }) }, { author: ANA });
    repo.commit('Tasks 1 to 3', { [PLAN]: planDoc({ phases: [3], tasks: [1, 2, 3] }) }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/batched-tasks', 'strict')).toEqual([]);
    // The same plan declared orchestration is held to one task per commit.
    const orch = Repo.create();
    orch.commit('Plan', { [PLAN]: planDoc({ phases: [3], frontmatter: ['mode: orchestration'] }) }, { author: ANA });
    const text = planDoc({ phases: [3], tasks: [1, 2, 3], frontmatter: ['mode: orchestration'] });
    const commit = orch.commit('Tasks 1 to 3', { [PLAN]: text }, { author: CLAUDE });
    const f = expectOne(await historyFindings(orch.dir, 'history/batched-tasks'), 'history/batched-tasks', {
      repo: orch,
      commit,
      file: PLAN,
      line: lineOf(text, TASK(2)),
    });
    expect(f.message).toContain('3 tasks');
  });

  // Round 3 (convention section 6): when the commit that starts phase 2 also completes phase 1's verification,
  // history shows no order; this test asserted the opposite before.
  it('phase-order: finishing phase 1 and starting phase 2 in one commit shows no order', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2]);
    repo.commit(
      'Confirm phase 1 manual',
      { [PLAN]: planDoc({ tasks: [1, 2], manual: [1] }) },
      { author: ANA, confirmedBy: [ANA] },
    );
    const text = planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] });
    repo.commit(
      'Phase 1 automated + task 3',
      { [PLAN]: text, [handoffPath(3)]: taskHandoff(3), [LEDGER]: ledgerDoc([1, 2, 3]) },
      { author: CLAUDE },
    );
    expect(await historyFindings(repo.dir, 'history/phase-order')).toEqual([]);
  });

  // One cause, one finding (maintainers read the two as one complaint). Round 6: in recommended the snapshot's
  // plan/phase-order is a note on the state of the boxes, and it gives way to history/phase-order's error, which names
  // the commit that went ahead, whether phase 1 is still open or verified since. In strict the snapshot's error
  // reports the cause while the plan still shows it (the round-3 behaviour).
  it('phase-order: one cause, one finding between the snapshot and the history', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2]);
    const early = task(repo, 3, [1, 2, 3]);
    const open = (await cliHere(repo.dir, ['--since', 'root'])).results.filter((f) =>
      f.ruleId.endsWith('/phase-order'),
    );
    expect(open.map((f) => [f.ruleId, f.severity, f.commit ?? null])).toEqual([
      ['history/phase-order', 'error', early],
    ]);
    const strictly = (await cliHere(repo.dir, ['--since', 'root', '--preset', 'strict'])).results.filter((f) =>
      f.ruleId.endsWith('/phase-order'),
    );
    expect(strictly.map((f) => [f.ruleId, f.severity, f.commit ?? null])).toEqual([
      ['plan/phase-order', 'error', null],
    ]);
    repo.commit(
      'Phase 1 automated checks pass',
      { [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1] }) },
      { author: CLAUDE },
    );
    const later = (await cliHere(repo.dir, ['--since', 'root'])).results.filter((f) =>
      f.ruleId.endsWith('/phase-order'),
    );
    expect(later.map((f) => [f.ruleId, f.commit ?? null])).toEqual([['history/phase-order', early]]);
  });

  // Phase 1 was verified, then one commit unchecks its automated item and checks task 3 of phase 2: history/phase-order
  // sees phase 1 verified before the commit (P(verified) holds), so only the state shows it. The standing state is a
  // note in a full run; the change that brought it about is an error where changes are judged (a pull request).
  it('phase-order: the change that brings the state about is an error at --range, the standing state a note', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const base = task(repo, 2, [1, 2], { auto: [1] });
    task(repo, 3, [1, 2, 3]);
    const order = (r: { results: { ruleId: string; severity: string }[] }) =>
      r.results.filter((f) => f.ruleId.endsWith('/phase-order')).map((f) => [f.ruleId, f.severity]);
    expect(order(await cliHere(repo.dir, ['--since', 'root']))).toEqual([['plan/phase-order', 'info']]);
    const pr = await cliHere(repo.dir, ['--range', `${base}..HEAD`]);
    expect(order(pr)).toEqual([['plan/phase-order', 'error']]);
  });

  it('phase-order: an N/A manual item counts as verified', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: planDoc({ naManual: [1] }), [LEDGER]: ledgerDoc() }, { author: ANA });
    task(repo, 1, [1], { naManual: [1] });
    task(repo, 2, [1, 2], { naManual: [1], auto: [1] });
    task(repo, 3, [1, 2, 3], { naManual: [1], auto: [1] });
    expect(await historyFindings(repo.dir, 'history/phase-order')).toEqual([]);
  });

  it('handoff-rewritten: reordering or reformatting the frontmatter without changing a value is no rewrite', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const text = taskHandoff(1);
    const end = text.indexOf('\n---\n');
    const data = parse(text.slice(4, end)) as Record<string, unknown>;
    const reversed = Object.fromEntries(Object.entries(data).reverse());
    const reordered = `---\n${stringify(reversed, { collectionStyle: 'flow' })}---\n${text.slice(end + 5)}`;
    expect(reordered).not.toBe(text);
    repo.commit('Reformat handoff 1', { [handoffPath(1)]: reordered }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/handoff-rewritten', 'strict')).toEqual([]);
  });

  it('manual-confirmation: unchecking a manual item needs no confirmation; checking it again does', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2], { auto: [1] });
    repo.commit(
      'Confirm phase 1',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: ANA, confirmedBy: [ANA] },
    );
    repo.commit('Reopen phase 1 manual check', { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }) }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/manual-confirmation')).toEqual([]);
    const text = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
    const commit = repo.commit('Re-check it', { [PLAN]: text }, { author: CLAUDE });
    expectOne(await historyFindings(repo.dir, 'history/manual-confirmation'), 'history/manual-confirmation', {
      repo,
      commit,
      file: PLAN,
      line: lineOf(text, MANUAL(1)),
    });
  });

  // Round 3 (issue 20, case 2): this test said the opposite before. The human confirmed what the old words said; an
  // agent that rewords the checked item has checked the new words without her. Her own rewording is implicit.
  it('manual-confirmation: an agent editing the text of a checked manual item checks the new text', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2], { auto: [1] });
    const confirmed = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
    repo.commit('Confirm phase 1', { [PLAN]: confirmed }, { author: ANA, confirmedBy: [ANA] });
    const reworded = confirmed.replace(MANUAL(1), 'Phase 1 works in Firefox and Chrome');
    const sha = repo.commit('Reword', { [PLAN]: reworded }, { author: CLAUDE });
    expect(
      (await historyFindings(repo.dir, 'history/manual-confirmation')).map((f) => [f.commit, f.line, f.severity]),
    ).toEqual([[sha, lineOf(reworded, 'Phase 1 works in Firefox'), 'error']]);
    const human = repo.commit(
      'Reword again',
      { [PLAN]: reworded.replace('Firefox and Chrome', 'every browser we support') },
      { author: ANA },
    );
    expect(
      (await historyFindings(repo.dir, 'history/manual-confirmation'))
        .filter((f) => f.commit === human)
        .map((f) => f.severity),
    ).toEqual(['info']);
  });

  it('manual-confirmation: checking an automated item needs no confirmation', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const commit = task(repo, 2, [1, 2], { auto: [1] });
    expect(await historyFindings(repo.dir, 'history/manual-confirmation')).toEqual([]);
    expect(repo.show(commit, PLAN)).toContain(`[x] ${AUTO(1)}`);
  });
});
