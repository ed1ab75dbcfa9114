// The hook doors as git runs them: the CLI installed as pre-commit (`--staged`) and commit-msg hooks through
// core.hooksPath, and real `git commit` calls. A refused commit leaves HEAD where it was; an accepted one passes the
// full run afterwards too. The identities come from git (author via --author, exported to the hooks by git itself).
// The full runs after a commit, the pre-commit verdict that lets a check-off through and the commit-msg case of a
// trailer naming someone else go through the engine in this process (door): the real hooks are the other tests'.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  hookedRepo as hooked,
  ANA,
  CLAUDE,
  LEDGER,
  PLAN,
  Repo,
  door,
  handoffPath,
  historyOnly,
  ident,
  ledgerDoc,
  messageFile,
  planDoc,
  taskHandoff,
  type Who,
} from './helpers.js';

/** `git commit` as a person types it (hooks run); returns the exit code and git's output. */
function gitCommit(repo: Repo, args: string[]): { code: number | null; out: string } {
  const res = spawnSync('git', ['commit', '-q', ...args], { cwd: repo.dir, encoding: 'utf8' });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

const asAuthor = (w: Who) => `--author=${ident(w)}`;

/** Plan and ledger by Ana, tasks 1 and 2 by Claude, phase 1's automated item checked (hooks bypassed). */
function ready(): Repo {
  const repo = hooked();
  repo.commit('Plan', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA, args: ['--no-verify'] });
  repo.commit(
    'Task 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    { author: CLAUDE, args: ['--no-verify'] },
  );
  repo.commit(
    'Task 2',
    { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
    { author: CLAUDE, args: ['--no-verify'] },
  );
  return repo;
}

describe('installed hooks', () => {
  it("commit-msg refuses an agent's manual check-off and keeps HEAD", () => {
    const repo = ready();
    const head = repo.sha();
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    const res = gitCommit(repo, [asAuthor(CLAUDE), '-m', 'Phase 1 verified']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('history/manual-confirmation');
    expect(repo.sha()).toBe(head);
  });

  it('commit-msg refuses a check-off whose trailer names someone else than the committing human', async () => {
    // The commit-msg door in this process (the test above runs it as git does): Ana commits, Bob is named.
    const repo = ready();
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    const file = messageFile('Phase 1 verified', { trailers: ['Confirmed-by: Bob Builder <bob@example.com>'] });
    const res = await door(repo.dir, ['commit-msg', file], repo.env(ANA));
    expect(res.code).toBe(1);
    expect(res.results.map((f) => f.message).join('\n')).toContain('neither the author nor the committer');
  });

  it("commit-msg accepts Ana's own confirmation (git commit --trailer), and the full run agrees", async () => {
    const repo = ready();
    const head = repo.sha();
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    const res = gitCommit(repo, ['-m', 'Confirm phase 1', '--trailer', `Confirmed-by: ${ident(ANA)}`]);
    expect(res).toMatchObject({ code: 0 });
    expect(repo.git('rev-parse', 'HEAD~1').trim()).toBe(head);
    const full = await door(repo.dir);
    expect(full.code).toBe(0);
    expect(historyOnly(full.results)).toEqual([]);
  });

  it('pre-commit refuses a deleted handoff before any message is written', () => {
    const repo = ready();
    const head = repo.sha();
    repo.stage({}, { remove: [handoffPath(1)] });
    const res = gitCommit(repo, [asAuthor(CLAUDE), '-m', 'Tidy up']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('history/handoff-deleted');
    expect(repo.sha()).toBe(head);
  });

  it("pre-commit lets a manual check-off through (confirmation is commit-msg's job)", async () => {
    const repo = ready();
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    const staged = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(staged.code).toBe(0);
    expect(historyOnly(staged.results)).toEqual([]);
  });

  it('a task commit passes both hooks once the earlier phase is verified, and not before', async () => {
    const repo = ready();
    const head = repo.sha();
    // Phase 2 may not start before phase 1 is verified: pre-commit refuses it already. In `recommended` verified
    // means phase 1's automated items (issue 10: the manual boxes are a human's and often lag), so the early commit
    // also leaves that item open.
    repo.stage({
      [PLAN]: planDoc({ tasks: [1, 2, 3] }),
      [handoffPath(3)]: taskHandoff(3),
      [LEDGER]: ledgerDoc([1, 2, 3]),
    });
    const early = gitCommit(repo, [asAuthor(CLAUDE), '-m', 'Task 3']);
    expect(early.code).not.toBe(0);
    // The after state breaks phase order (plan/phase-order, a snapshot finding the change introduces, refused at
    // pre-commit since issue 9); history/phase-order would repeat the same cause.
    expect(early.out).toMatch(/plan\/phase-order|history\/phase-order/);
    expect(repo.sha()).toBe(head);
    repo.git('reset', '-q', '--hard', head);
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    expect(gitCommit(repo, ['-m', 'Confirm phase 1', '--trailer', `Confirmed-by: ${ident(ANA)}`]).code).toBe(0);
    repo.stage({
      [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] }),
      [handoffPath(3)]: taskHandoff(3),
      [LEDGER]: ledgerDoc([1, 2, 3]),
    });
    expect(
      gitCommit(repo, [asAuthor(CLAUDE), '-m', 'Task 3', '--trailer', `Co-authored-by: ${ident(CLAUDE)}`]),
    ).toMatchObject({ code: 0 });
    expect((await door(repo.dir)).code).toBe(0);
  });
});
