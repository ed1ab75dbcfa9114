// pre-commit leaves its verdict in the worktree's git folder for commit-msg (engine/handover.ts). These tests hold
// the line that makes the shortcut safe: commit-msg takes the verdict only for the very change, committer and
// settings pre-commit judged, only when the message has no trailers, and the verdict it takes is commit-msg's own
// (manual items are commit-msg's to judge), never pre-commit's. The first test runs both doors as the built CLI and
// the second as git runs them, in a real `git commit`; the rest run the same CLI in this process (runCliHere).
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliHere } from '../helpers/repo.js';
import { ANA, CLAUDE, CONFIG, PLAN, Repo, hookedRepo, messageFile, planDoc } from '../history/helpers.js';

const record = (repo: Repo) => join(repo.dir, '.git', 'validate-workflow', 'staged-verdict.json');

/**
 * A repository with a plan whose phase 1 automated item is checked: its manual item is next. Set up with the hooks
 * skipped: its tasks were done without handoffs, which is not what these tests are about (and no finding below is).
 */
function planned(repo: Repo): void {
  repo.commit('Adopt validate-workflow and plan the auth flow', { [CONFIG]: '{ "preset": "recommended" }\n', [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }) }, { args: ['--no-verify'] });
}

describe('pre-commit hands its verdict to commit-msg', () => {
  it('refuses an agent that checks a manual item, though pre-commit (which leaves manual items to commit-msg) let it through', () => {
    const repo = hookedRepo();
    planned(repo);
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    const staged = runCli(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(staged.code).toBe(0);
    expect(existsSync(record(repo))).toBe(true);
    const msg = runCli(repo.dir, ['commit-msg', messageFile('Check the manual item')], repo.env(CLAUDE));
    expect(msg.code).toBe(1);
    expect(msg.stdout).toContain('history/manual-confirmation');
    // Taken once: the record is gone, so a later commit-msg judges again.
    expect(existsSync(record(repo))).toBe(false);
  });

  it('lets the same change through for a human committing it as their own confirmation, in one real `git commit`', () => {
    const repo = hookedRepo();
    planned(repo);
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    repo.commitStaged('Confirm phase 1 by hand');
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe('Confirm phase 1 by hand');
    expect(existsSync(record(repo))).toBe(false);
  });

  it('does not take a verdict left for another committer: a human passes pre-commit, an agent commits', async () => {
    const repo = hookedRepo();
    planned(repo);
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    expect((await runCliHere(repo.dir, ['--staged'], repo.env(ANA))).code).toBe(0);
    const msg = await runCliHere(repo.dir, ['commit-msg', messageFile('Check the manual item')], repo.env(CLAUDE));
    expect(msg.code).toBe(1);
    expect(msg.stdout).toContain('history/manual-confirmation');
  });

  it('does not take a verdict on another index: a change restaged after pre-commit is judged again', async () => {
    const repo = hookedRepo();
    planned(repo);
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }) + '\nA note.\n' });
    expect((await runCliHere(repo.dir, ['--staged'], repo.env(CLAUDE))).code).toBe(0);
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    const msg = await runCliHere(repo.dir, ['commit-msg', messageFile('Check the manual item')], repo.env(CLAUDE));
    expect(msg.code).toBe(1);
    expect(msg.stdout).toContain('history/manual-confirmation');
  });

  it('takes the verdict on an index rewritten with the same entries (as lint-staged leaves it after its tasks)', () => {
    const repo = hookedRepo();
    planned(repo);
    repo.stage({ [PLAN]: `${planDoc({ tasks: [1, 2], auto: [1] })}\nA note.\n` });
    expect(runCli(repo.dir, ['--staged'], repo.env(CLAUDE)).code).toBe(0);
    const index = join(repo.dir, '.git', 'index');
    const was = readFileSync(index);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(repo.dir, PLAN), later, later);
    repo.git('update-index', '--refresh');
    expect(readFileSync(index).equals(was)).toBe(false);
    const timed = { ...repo.env(CLAUDE), VALIDATE_WORKFLOW_TIMING: '1' };
    const msg = runCli(repo.dir, ['commit-msg', messageFile('A note')], timed);
    expect(msg.code).toBe(0);
    expect(msg.stderr).toContain("pre-commit's verdict taken");
  });

  it('judges again when the message has trailers: a Confirmed-by the agent writes for a human is still refused', async () => {
    const repo = hookedRepo();
    planned(repo);
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    expect((await runCliHere(repo.dir, ['--staged'], repo.env(CLAUDE))).code).toBe(0);
    const msg = await runCliHere(repo.dir, ['commit-msg', messageFile('Check the manual item', { confirmedBy: [ANA] })], repo.env(CLAUDE));
    expect(msg.code).toBe(1);
    expect(msg.stdout).toContain('history/manual-confirmation');
  });

  it('reports a verdict with findings as a full judgement of commit-msg reports them (cli/commit-msg.ts takes it)', async () => {
    const repo = hookedRepo();
    planned(repo);
    // A placeholder left in the plan: a warning (plan/placeholder), which lets the commit through.
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }).replace('- [ ] Phase 2 works', '- [ ] TODO: Phase 2 works') });
    const staged = await runCliHere(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(staged.code).toBe(0);
    expect(staged.stdout).toMatch(/warning/);
    const msg = messageFile('Note the rollout');
    const taken = await runCliHere(repo.dir, ['commit-msg', msg], repo.env(CLAUDE));
    expect(existsSync(record(repo))).toBe(false);
    // No record left: the same command judges the change itself.
    const judged = await runCliHere(repo.dir, ['commit-msg', msg], repo.env(CLAUDE));
    expect(taken).toEqual(judged);
    // The hooks of a thoughts repository name their config: the verdict is taken under the same --config.
    const config = join(repo.dir, CONFIG);
    expect((await runCliHere(repo.dir, ['--staged', '--config', config], repo.env(CLAUDE))).code).toBe(0);
    expect(await runCliHere(repo.dir, ['commit-msg', msg, '--config', config], repo.env(CLAUDE))).toEqual(judged);
    expect(existsSync(record(repo))).toBe(false);
  });

  it('does not take a verdict left under another config: one made invalid since pre-commit is reported as such', async () => {
    const repo = hookedRepo();
    planned(repo);
    repo.stage({ [PLAN]: `${planDoc({ tasks: [1, 2], auto: [1] })}\nA note.\n` });
    expect((await runCliHere(repo.dir, ['--staged'], repo.env(CLAUDE))).code).toBe(0);
    writeFileSync(join(repo.dir, CONFIG), '{ "preset": "recommended", "rules": { "plan/no-such-rule": "off" } }\n');
    const msg = await runCliHere(repo.dir, ['commit-msg', messageFile('A note')], repo.env(CLAUDE));
    expect(msg.code).toBe(2);
    expect(msg.stderr).toContain('unknown rule id');
  });

  it('leaves no verdict when pre-commit refuses', async () => {
    const repo = hookedRepo();
    planned(repo);
    // The manual item checked before its phase's automated item: an error at pre-commit already.
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], manual: [1] }) });
    expect((await runCliHere(repo.dir, ['--staged'], repo.env(ANA))).code).toBe(1);
    expect(existsSync(record(repo))).toBe(false);
  });
});
