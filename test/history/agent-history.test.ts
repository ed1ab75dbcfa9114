// The history the convention is for: an agent does the tasks one per commit (with its handoff and ledger update),
// a human confirms each phase's manual checks in a commit of their own. It passes with no errors; the same history
// with the manual check-off made in an agent's commit fails, and the report names that commit.
import { describe, expect, it } from 'vitest';
import {
  ANA,
  BOB,
  CLAUDE,
  LEDGER,
  MANUAL,
  PLAN,
  Repo,
  cli,
  cliHere,
  door,
  errors,
  handoffPath,
  ledgerDoc,
  lineOf,
  planDoc,
  taskHandoff,
  type CommitOpts,
} from './helpers.js';

type Variant = 'human-confirms' | 'agent-checks' | 'agent-claims-confirmation' | 'agent-co-authored';

/**
 * Tasks 1 and 3 by Claude Code as the author; tasks 2 and 4 by Bob with Claude's co-author line (the way Claude Code
 * commits from a developer's terminal). Phase 1's manual check-off depends on the variant; phase 2's is Ana's.
 */
function agentHistory(variant: Variant): { repo: Repo; checkoff: string } {
  const repo = Repo.create();
  const viaBob: CommitOpts = { author: BOB, coAuthors: [CLAUDE] };
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
  repo.commit('Start task 1', { [LEDGER]: ledgerDoc([], 1) }, { author: CLAUDE });
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1], 2) },
    { author: CLAUDE },
  );
  repo.commit(
    'Task 2: Do step 2',
    { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
    viaBob,
  );

  const confirmed = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
  const checkoff = {
    'human-confirms': () =>
      repo.commit('Confirm phase 1 manual checks', { [PLAN]: confirmed }, { author: ANA, confirmedBy: [ANA] }),
    'agent-checks': () => repo.commit('Check phase 1 manual items', { [PLAN]: confirmed }, { author: CLAUDE }),
    // The trailer names Ana, but Ana is neither the author nor the committer: the agent wrote her name.
    'agent-claims-confirmation': () =>
      repo.commit('Ana confirmed phase 1', { [PLAN]: confirmed }, { author: CLAUDE, confirmedBy: [ANA] }),
    // Ana's word relayed in a commit Claude co-authored: counts in recommended (with an info), not in strict.
    'agent-co-authored': () =>
      repo.commit(
        'Confirm phase 1 manual checks',
        { [PLAN]: confirmed },
        { author: ANA, coAuthors: [CLAUDE], confirmedBy: [ANA] },
      ),
  }[variant]();

  repo.commit(
    'Task 3: Do step 3',
    {
      [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] }),
      [handoffPath(3)]: taskHandoff(3),
      [LEDGER]: ledgerDoc([1, 2, 3], 4),
    },
    { author: CLAUDE },
  );
  repo.commit(
    'Task 4: Do step 4',
    {
      [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1] }),
      [handoffPath(4)]: taskHandoff(4),
      [LEDGER]: ledgerDoc([1, 2, 3, 4]),
    },
    viaBob,
  );
  repo.commit(
    'Confirm phase 2 manual checks',
    { [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1, 2] }) },
    { author: ANA, confirmedBy: [ANA] },
  );
  repo.commit('Close the session', { [LEDGER]: ledgerDoc([1, 2, 3, 4], null, 4, 'complete') }, { author: CLAUDE });
  return { repo, checkoff };
}

describe('a clean agent history', () => {
  it('passes the full run with no errors and no warnings (exit 0), every commit judged', () => {
    const { repo } = agentHistory('human-confirms');
    const res = cli(repo.dir);
    expect(res.results).toEqual([]);
    expect(res.code).toBe(0);
    expect(res.summary).toMatchObject({ errors: 0, warnings: 0, commits: 9 });
  });

  it('passes in strict too', async () => {
    const { repo } = agentHistory('human-confirms');
    const res = await door(repo.dir, ['--preset', 'strict']);
    expect(res.results).toEqual([]);
    expect(res.code).toBe(0);
  });

  it('fails (exit 1) when an agent checks the manual items itself, naming that commit', async () => {
    const { repo, checkoff } = agentHistory('agent-checks');
    const res = await cliHere(repo.dir);
    expect(res.code).toBe(1);
    const text = repo.show(checkoff, PLAN);
    expect(errors(res.results)).toEqual([
      expect.objectContaining({
        ruleId: 'history/manual-confirmation',
        commit: checkoff,
        subject: 'Check phase 1 manual items',
        file: PLAN,
        line: lineOf(text, MANUAL(1)),
        message: expect.stringContaining('no `Confirmed-by:` trailer'),
      }),
    ]);
    expect(checkoff).toBe(repo.sha('HEAD~4'));
  });

  it("fails when the agent's commit carries the human's name in a trailer it wrote itself", async () => {
    const { repo, checkoff } = agentHistory('agent-claims-confirmation');
    const res = await door(repo.dir);
    expect(res.code).toBe(1);
    expect(errors(res.results)).toEqual([
      expect.objectContaining({
        ruleId: 'history/manual-confirmation',
        commit: checkoff,
        message: expect.stringContaining('neither the author nor the committer'),
      }),
    ]);
  });

  it("counts a human's confirmation in a commit an agent co-authored in recommended (info), not in strict", async () => {
    const { repo, checkoff } = agentHistory('agent-co-authored');
    const rec = await door(repo.dir);
    expect(rec.code).toBe(0);
    expect(rec.results).toEqual([
      expect.objectContaining({
        ruleId: 'history/manual-confirmation',
        severity: 'info',
        commit: checkoff,
        message: expect.stringContaining('relays'),
      }),
    ]);
    const strict = await door(repo.dir, ['--preset', 'strict']);
    expect(strict.code).toBe(1);
    expect(errors(strict.results)).toEqual([
      expect.objectContaining({
        ruleId: 'history/manual-confirmation',
        commit: checkoff,
        message: expect.stringContaining('strict'),
      }),
    ]);
  });

  it('is invisible to --no-history: the files alone cannot say who checked the box', async () => {
    const { repo } = agentHistory('agent-checks');
    const res = await door(repo.dir, ['--no-history']);
    expect(res.code).toBe(0);
    expect(res.results).toEqual([]);
  });
});
