// The shape of the history: merges (an event belongs to the commit that made it, not to the merge that joins it),
// a rebased (linear, replayed) history, renames, repositories without commits, and `--range`.
import { describe, expect, it } from 'vitest';
import {
  ANA,
  BOB,
  CLAUDE,
  CONFIG,
  LEDGER,
  MANUAL,
  PLAN,
  Repo,
  TASK,
  cli,
  cliHere,
  door,
  expectOne,
  handoffPath,
  historyOnly,
  judge,
  ledgerDoc,
  lineOf,
  planDoc,
  taskHandoff,
  tempDir,
} from './helpers.js';
import { makeRepo } from '../helpers/repo.js';

const OTHER_PLAN = 'thoughts/shared/plans/2026-12-01-billing.md';
const ZERO = '0000000000000000000000000000000000000000';

function planned(repo: Repo): string {
  return repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
}

function task(repo: Repo, n: number, done: number[], plan: Parameters<typeof planDoc>[0] = {}): string {
  return repo.commit(
    `Task ${n}: Do step ${n}`,
    { [PLAN]: planDoc({ tasks: done, ...plan }), [handoffPath(n)]: taskHandoff(n), [LEDGER]: ledgerDoc(done) },
    { author: CLAUDE },
  );
}

describe('merges', () => {
  /** main: the plan, tasks 1-2 and phase 1's automated check; a feature branch does the manual check-off; main moves on meanwhile. */
  function branchy(checkoff: 'ana' | 'claude'): { repo: Repo; branchCommit: string; merge: string } {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2], { auto: [1] });
    repo.git('checkout', '-q', '-b', 'verify');
    const text = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
    const branchCommit =
      checkoff === 'ana'
        ? repo.commit('Confirm phase 1', { [PLAN]: text }, { author: ANA, confirmedBy: [ANA] })
        : repo.commit('Check phase 1 manual items', { [PLAN]: text }, { author: CLAUDE });
    repo.git('checkout', '-q', 'main');
    repo.commit('Plan billing', { [OTHER_PLAN]: planDoc({ phases: [1] }) }, { author: BOB });
    repo.gitWith(repo.env(BOB), ['merge', '-q', '--no-ff', '-m', 'Merge branch verify', 'verify']);
    return { repo, branchCommit, merge: repo.sha() };
  }

  it('passes a branch with a confirmed check-off merged with --no-ff', async () => {
    const { repo, merge } = branchy('ana');
    expect(repo.git('rev-list', '--parents', '-n', '1', merge).trim().split(' ')).toHaveLength(3);
    const res = await judge(repo.dir);
    expect(res.findings).toEqual([]);
    expect(res.commits).toBe(6);
  });

  it("reports an agent's check-off on a branch at the branch commit, not at the merge", async () => {
    const { repo, branchCommit, merge } = branchy('claude');
    const { findings } = await judge(repo.dir);
    expectOne(findings, 'history/manual-confirmation', {
      repo,
      commit: branchCommit,
      file: PLAN,
      line: lineOf(repo.show(branchCommit, PLAN), MANUAL(1)),
    });
    expect(findings.filter((f) => f.commit === merge)).toEqual([]);
    expect((await door(repo.dir)).results.filter((f) => f.commit === merge)).toEqual([]);
  });

  it("keeps the event at the branch commit when the branch is the merge's first parent", async () => {
    const { repo, branchCommit } = branchy('claude');
    // Merge main into the branch instead: the check-off comes from the first parent this time.
    repo.git('checkout', '-q', 'verify');
    repo.gitWith(repo.env(BOB), ['merge', '-q', '--no-ff', '-m', 'Merge main into verify', 'main~1']);
    const { findings } = await judge(repo.dir);
    expect(findings.filter((f) => f.ruleId === 'history/manual-confirmation').map((f) => f.commit)).toEqual([
      branchCommit,
    ]);
  });

  it('reports a change made by the merge itself at the merge commit', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2], { auto: [1] });
    repo.git('checkout', '-q', '-b', 'side');
    repo.commit('Plan billing', { [OTHER_PLAN]: planDoc({ phases: [1] }) }, { author: BOB });
    repo.git('checkout', '-q', 'main');
    repo.commit('Start task 3', { [LEDGER]: ledgerDoc([1, 2], 3) }, { author: CLAUDE });
    // An "evil merge": the agent checks phase 1's manual item while resolving the merge.
    repo.git('merge', '-q', '--no-ff', '--no-commit', 'side');
    const text = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
    repo.write({ [PLAN]: text });
    repo.git('add', PLAN);
    const merge = repo.commitStaged('Merge branch side', { author: CLAUDE });
    expect(repo.git('rev-list', '--parents', '-n', '1', merge).trim().split(' ')).toHaveLength(3);
    const { findings } = await judge(repo.dir);
    expectOne(findings, 'history/manual-confirmation', {
      repo,
      commit: merge,
      file: PLAN,
      line: lineOf(text, MANUAL(1)),
    });
  });

  it('does not report both sides of a merge when each side changed a different workflow file', async () => {
    const repo = Repo.create();
    planned(repo);
    repo.git('checkout', '-q', '-b', 'a');
    const t1 = task(repo, 1, [1]);
    repo.git('checkout', '-q', 'main');
    const billing = repo.commit('Plan billing', { [OTHER_PLAN]: planDoc({ phases: [1] }) }, { author: BOB });
    repo.gitWith(repo.env(BOB), ['merge', '-q', '--no-ff', '-m', 'Merge a', 'a']);
    // A later agent commit deletes the handoff task 1 added on the branch: the merge carried it to main.
    const del = repo.commit('Remove handoff', {}, { author: CLAUDE, remove: [handoffPath(1)] });
    const { findings, commits } = await judge(repo.dir);
    expect(commits).toBe(5);
    expect(historyOnly(findings).map((f) => [f.ruleId, f.commit])).toEqual([['history/handoff-deleted', del]]);
    expect([t1, billing]).not.toContain(del);
  });
});

describe('a rebase-shaped history', () => {
  /** An agent's branch replayed onto main with `git rebase`: linear, new shas, the committer is whoever rebased. */
  function rebased(badCheckoff: boolean): { repo: Repo; replayed: string[] } {
    const repo = Repo.create();
    planned(repo);
    repo.git('checkout', '-q', '-b', 'agent');
    task(repo, 1, [1]);
    task(repo, 2, [1, 2], { auto: [1] });
    const text = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
    if (badCheckoff) repo.commit('Phase 1 verified', { [PLAN]: text }, { author: CLAUDE });
    else repo.commit('Confirm phase 1', { [PLAN]: text }, { author: ANA, confirmedBy: [ANA] });
    const before = repo.git('rev-list', '--reverse', 'main..agent').trim().split('\n');
    repo.git('checkout', '-q', 'main');
    repo.commit('Plan billing', { [OTHER_PLAN]: planDoc({ phases: [1] }) }, { author: BOB });
    repo.git('checkout', '-q', 'agent');
    repo.gitWith(repo.env(ANA), ['rebase', '-q', 'main']);
    const replayed = repo.git('rev-list', '--reverse', 'main..agent').trim().split('\n');
    expect(replayed).toHaveLength(3);
    expect(replayed.filter((s) => before.includes(s))).toEqual([]);
    expect(repo.git('rev-list', '--merges', 'HEAD').trim()).toBe('');
    return { repo, replayed };
  }

  it('passes when the replayed commits keep the rules (Ana is still the author of her confirmation)', async () => {
    const { repo } = rebased(false);
    const res = await judge(repo.dir);
    expect(res.findings).toEqual([]);
    expect(res.commits).toBe(5);
  });

  it('reports the replayed agent check-off at its new sha', async () => {
    const { repo, replayed } = rebased(true);
    const { findings } = await judge(repo.dir);
    expectOne(findings, 'history/manual-confirmation', {
      repo,
      commit: replayed[2]!,
      file: PLAN,
      line: lineOf(repo.show(replayed[2]!, PLAN), MANUAL(1)),
    });
  });
});

describe('renames', () => {
  it('a renamed handoff is a deleted one (reported at the new path, naming the old)', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const to = handoffPath(1, 'add-users-table');
    const commit = repo.commit('Rename handoff 1', {}, { author: CLAUDE, rename: [[handoffPath(1), to]] });
    expect(repo.git('show', '--format=', '-M', '--name-status', commit)).toMatch(/^R100/);
    const { findings } = await judge(repo.dir);
    const f = expectOne(findings, 'history/handoff-deleted', { repo, commit, file: to, line: 1 });
    expect(f.message).toContain(handoffPath(1));
    expect(historyOnly(findings).map((x) => x.ruleId)).toEqual(['history/handoff-deleted']);
  });

  // Until round 3 this was reported as a deletion at the old path: the trace's diffs are limited to the workflow
  // folders, so git could not see where the file went. It is a move, and the message now says where to.
  it("an agent's move of a handoff out of the handoff folders is reported as a rename, naming both paths", async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const to = 'thoughts/archive/task-01-step-1.md';
    const commit = repo.commit('Archive handoff 1', {}, { author: CLAUDE, rename: [[handoffPath(1), to]] });
    const { findings } = await judge(repo.dir);
    const f = expectOne(findings, 'history/handoff-deleted', { repo, commit, file: to, line: 1 });
    expect(f.message).toBe(`Handoff ${handoffPath(1)} was renamed to ${to}.`);
  });

  it("a person's move of one handoff, unchanged, into an archive folder is housekeeping (info); strict still reports it", async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const commit = repo.commit(
      'Clean up thoughts',
      {},
      { author: ANA, rename: [[handoffPath(1), 'thoughts/old/handoffs/task-01-step-1.md']] },
    );
    const { findings } = await judge(repo.dir);
    const f = findings.find((x) => x.ruleId === 'history/handoff-deleted');
    expect(f?.severity).toBe('info');
    expect(f?.commit).toBe(commit);
    expect(historyOnly(findings).filter((x) => x.severity !== 'info')).toEqual([]);
    const strict = await judge(repo.dir, { preset: 'strict' });
    expect(strict.findings.filter((x) => x.ruleId === 'history/handoff-deleted').map((x) => x.severity)).toEqual([
      'error',
    ]);
  });

  it("a person's move that also rewrites the handoff is still a deleted record", async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const to = 'thoughts/old/handoffs/task-01-step-1.md';
    const body = repo.show('HEAD', handoffPath(1)).replace(/complete/g, 'failed');
    const commit = repo.commit('Clean up thoughts', { [to]: body }, { author: ANA, remove: [handoffPath(1)] });
    const { findings } = await judge(repo.dir);
    expectOne(findings, 'history/handoff-deleted', { repo, commit, file: handoffPath(1), line: 1 });
  });

  it('a renamed plan is not a deletion, and its checked items are not checked again', async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    task(repo, 2, [1, 2], { auto: [1] });
    repo.commit(
      'Confirm phase 1',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: ANA, confirmedBy: [ANA] },
    );
    const moved = 'thoughts/shared/plans/2026-11-21-auth-flow.md';
    const commit = repo.commit('Rename the plan', {}, { author: CLAUDE, rename: [[PLAN, moved]] });
    expect(repo.git('show', '--format=', '-M', '--name-status', commit)).toMatch(/^R100/);
    const { findings, commits } = await judge(repo.dir);
    expect(commits).toBe(5);
    expect(historyOnly(findings)).toEqual([]);
  });
});

describe('repositories without history', () => {
  it('a repository without commits is not incomplete (exit 0): history starts empty', async () => {
    const dir = makeRepo({ [PLAN]: planDoc(), [LEDGER]: ledgerDoc() });
    expect(await judge(dir)).toMatchObject({ findings: [], commits: 0, incomplete: false });
    const res = await cliHere(dir);
    expect(res.results.filter((f) => f.ruleId === 'history/incomplete')).toEqual([]);
    expect(res.code).toBe(0);
  });

  it('the first commit after init is judged, and passes when clean', async () => {
    const repo = Repo.create();
    planned(repo);
    const res = await door(repo.dir);
    expect(res).toMatchObject({ code: 0, results: [] });
    expect(res.summary.commits).toBe(1);
  });

  // Issue 10: without a config the run is an audit, where a plan that enters git already checked is a note; after
  // the adoption point (the human commit that adds the config) it is an unconfirmed check-off, an error.
  it('the first commit after init is judged, and fails when it plants a violation', async () => {
    const repo = Repo.create();
    repo.commit('Adopt validate-workflow', { [CONFIG]: '{}\n' }, { author: ANA });
    const text = planDoc({ auto: [1], manual: [1] });
    const commit = repo.commit('Import the plan', { [PLAN]: text }, { author: CLAUDE });
    const res = await door(repo.dir);
    expect(res.code).toBe(1);
    expectOne(res.results, 'history/manual-confirmation', { repo, commit, file: PLAN, line: lineOf(text, MANUAL(1)) });
  });
});

describe('--range', () => {
  /** c1 plan; c2 agent checks a manual item (bad); c3 task 1; c4 task 3 before task 2 (bad). */
  function ranged(): { repo: Repo; c: string[] } {
    const repo = Repo.create();
    const c1 = planned(repo);
    const c2 = repo.commit('Sneak a check-off', { [PLAN]: planDoc({ auto: [1], manual: [1] }) }, { author: CLAUDE });
    const c3 = task(repo, 1, [1], { auto: [1], manual: [1] });
    const c4 = task(repo, 3, [1, 3], { auto: [1], manual: [1] });
    return { repo, c: [c1, c2, c3, c4] };
  }

  it('judges only the commits in A..B, starting from the model at the base', () => {
    const { repo, c } = ranged();
    const res = cli(repo.dir, ['--range', `${c[1]}..HEAD`]);
    expect(res.code).toBe(1);
    expect(res.summary.commits).toBe(2);
    const hist = historyOnly(res.results);
    expect(hist.map((f) => [f.ruleId, f.commit])).toEqual([['history/task-order', c[3]]]);
    // Phase 1 was verified at the base (by the commit before the range), so task 3 is no phase-order finding.
    expect(hist[0]).toMatchObject({
      file: PLAN,
      line: lineOf(repo.show(c[3]!, PLAN), TASK(3)),
      subject: 'Task 3: Do step 3',
    });
  });

  it('a range without violations passes', async () => {
    const { repo, c } = ranged();
    const res = await door(repo.dir, ['--range', `${c[1]}..${c[2]}`]);
    expect(res.code).toBe(0);
    expect(historyOnly(res.results)).toEqual([]);
    expect(res.summary.commits).toBe(1);
  });

  it('the full run reports both violations the range split', async () => {
    const { repo, c } = ranged();
    const res = await door(repo.dir);
    expect(
      res.results
        .filter((f) => f.ruleId.startsWith('history/'))
        .map((f) => f.commit)
        .sort(),
    ).toEqual([c[1], c[3]].sort());
  });

  it('from a branch point: merge-base(A, B), so commits only on A are not judged', async () => {
    const { repo, c } = ranged();
    repo.git('checkout', '-q', '-b', 'other', c[0]!);
    repo.commit('Other work', { [OTHER_PLAN]: planDoc({ phases: [1] }) }, { author: BOB });
    const res = await door(repo.dir, ['--range', `other..main`]);
    expect(res.summary.commits).toBe(3);
    expect(
      res.results
        .filter((f) => f.ruleId.startsWith('history/'))
        .map((f) => f.commit)
        .sort(),
    ).toEqual([c[1], c[3]].sort());
  });

  it(`${ZERO.slice(0, 7)}..HEAD (a push to an empty remote) starts from an empty history`, async () => {
    const { repo, c } = ranged();
    const res = await door(repo.dir, ['--range', `${ZERO}..HEAD`]);
    expect(res.code).toBe(1);
    expect(res.summary.commits).toBe(4);
    expect(res.results.find((f) => f.ruleId === 'history/incomplete')).toBeUndefined();
    expect(
      res.results
        .filter((f) => f.ruleId.startsWith('history/'))
        .map((f) => f.commit)
        .sort(),
    ).toEqual([c[1], c[3]].sort());
  });

  it(`${ZERO.slice(0, 7)}..HEAD passes a clean first push`, async () => {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1]);
    const res = await door(repo.dir, ['--range', `${ZERO}..HEAD`]);
    expect(res).toMatchObject({ code: 0, results: [] });
    expect(res.summary.commits).toBe(2);
  });

  it('a branch commit whose parent lies below the base is judged against its own parent, not the base', async () => {
    const repo = Repo.create();
    const c1 = planned(repo);
    const c2 = task(repo, 1, [1]);
    repo.git('checkout', '-q', '-b', 'side', c1);
    const text = planDoc({ auto: [1], manual: [1] });
    const b1 = repo.commit('Side: check phase 1', { [PLAN]: text }, { author: CLAUDE });
    repo.git('checkout', '-q', 'main');
    repo.gitWith(repo.env(BOB), ['merge', '-q', '--no-ff', '-m', 'Merge side', 'side']);
    const merged = repo.show('HEAD', PLAN);
    expect(merged).toContain(`[x] ${TASK(1)}`);
    expect(merged).toContain(`[x] ${MANUAL(1)}`);
    const res = await door(repo.dir, ['--range', `${c2}..HEAD`]);
    expect(res.summary.commits).toBe(2);
    // b1 unchecks nothing (its parent c1 had no task checked) and checks the manual item: that alone is reported.
    const hist = historyOnly(res.results);
    expect(hist.map((f) => [f.ruleId, f.commit])).toEqual([['history/manual-confirmation', b1]]);
    expect(hist[0]).toMatchObject({ file: PLAN, line: lineOf(text, MANUAL(1)) });
  });

  it('a missing base is history/incomplete (exit 1), never a silent pass', async () => {
    const { repo } = ranged();
    const missing = 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
    const res = await cliHere(repo.dir, ['--range', `${missing}..HEAD`]);
    expect(res.code).toBe(1);
    const hit = res.results.find((f) => f.ruleId === 'history/incomplete');
    expect(hit).toMatchObject({ severity: 'error', file: null, line: null, message: expect.stringContaining(missing) });
    expect(hit!.fix).toContain('fetch-depth: 0');
    // A full clone: fetching the base or fixing a typo helps, unshallowing does not (issue 24).
    expect(hit!.fix).toBe(
      `Fetch the base (\`git fetch origin ${missing}\`, or \`fetch-depth: 0\` in actions/checkout), or correct the range if the name is mistyped.`,
    );
  });

  it('a base that exists upstream but not in a shallow clone is incomplete too', async () => {
    const { repo, c } = ranged();
    const dir = `${tempDir()}/clone`;
    repo.git('clone', '-q', '--depth', '1', `file://${repo.dir}`, dir);
    const res = await cliHere(dir, ['--range', `${c[1]}..HEAD`]);
    expect(res.code).toBe(1);
    expect(res.results.map((f) => f.ruleId)).toContain('history/incomplete');
  });
});
