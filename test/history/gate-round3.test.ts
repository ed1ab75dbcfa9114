// Issue 20, the gate round 3, in real repositories through every door it concerns: the pre-commit and commit-msg
// hooks as git runs them, the full run and `--range`.
// - Case 1 and 5: a merge brings a parent that was never judged (an orphan branch, a branch cut before adoption).
// - Case 2: an agent rewords a checked (confirmed) manual item.
// - Case 8: a person ticks her manual item and fixes prose in one commit (honest work, accepted).
// - `--range` with a base that is no revision at all: a usage error.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import {
  ANA,
  CLAUDE,
  CONFIG,
  LEDGER,
  MANUAL,
  PLAN,
  Repo,
  door,
  handoffPath,
  ident,
  installHooks,
  ledgerDoc,
  lineOf,
  messageFile,
  planDoc,
  taskHandoff,
  type CommitOpts,
} from './helpers.js';
import { runCli, runCliHere } from '../helpers/repo.js';

const SLOW = 180_000;
const errors = (list: Finding[], ruleId: string) => list.filter((f) => f.ruleId === ruleId && f.severity === 'error');

type Step = [subject: string, files: Record<string, string>, opts: CommitOpts];

/** Adopted by Ana, planned, task 1 done with its handoff. */
const ADOPTED: Step[] = [
  ['Adopt validate-workflow', { [CONFIG]: '{ "preset": "recommended" }\n' }, { author: ANA }],
  ['Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA }],
  [
    'Task 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    { author: ANA, coAuthors: [CLAUDE] },
  ],
];

/** Task 2 done by the agent with its handoff and ledger; phase 1's automated items checked when `auto` says so. */
const TASK_TWO = (auto: number[] = [1]): Step => [
  'Task 2',
  { [PLAN]: planDoc({ tasks: [1, 2], auto }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
  { author: ANA, coAuthors: [CLAUDE] },
];

function adopted(repo: Repo): void {
  for (const step of ADOPTED) repo.commit(...step);
}

function taskTwo(repo: Repo, auto: number[] = [1]): void {
  repo.commit(...TASK_TWO(auto));
}

function git(repo: Repo, args: string[], who = CLAUDE): { code: number | null; out: string } {
  const [name, email] = [who.name, who.email];
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
  const res = spawnSync('git', args, { cwd: repo.dir, encoding: 'utf8', env });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

it('the setup the cases share (adoption, plan, tasks 1 and 2 by Ana with the agent) passes the hooks', async () => {
  // The cases below build it without hooks and install them after: a hook refusing any of these commits fails here.
  // The hooks' two doors run in this process, as git runs them (the change staged, the committing identity in the
  // environment, the message in a file); cases 2, 4 and 8 commit through the built CLI as git's hooks.
  const commit = async (repo: Repo, [subject, files, opts]: Step) => {
    repo.stage(files);
    const who = opts.author!;
    const env = {
      GIT_AUTHOR_NAME: who.name,
      GIT_AUTHOR_EMAIL: who.email,
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
    };
    const staged = await door(repo.dir, ['--staged'], env);
    const msg = await door(repo.dir, ['commit-msg', messageFile(subject, opts)], env);
    const refused = [...staged.results, ...msg.results].filter((f) => f.severity === 'error');
    expect(refused, subject).toEqual([]);
    expect([staged.code, msg.code], subject).toEqual([0, 0]);
    repo.commit(subject, {}, opts);
  };
  const start = Repo.create();
  for (const step of ADOPTED) await commit(start, step);
  for (const auto of [[1], []]) {
    const repo = start.copy();
    await commit(repo, TASK_TWO(auto));
    expect(repo.git('log', '--format=%s').trim().split('\n')).toEqual([
      'Task 2',
      'Task 1',
      'Plan the auth flow',
      'Adopt validate-workflow',
    ]);
  }
});

describe('case 1: a merge brings a parent that was never judged', () => {
  /** An orphan branch whose plan has phase 1 verified by hand, manual item included, co-authored by the agent. */
  function orphan(repo: Repo): string {
    repo.git('checkout', '-q', '--orphan', 'elsewhere');
    repo.git('rm', '-rq', '--cached', '.');
    repo.commit(
      'Start over',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: ANA, coAuthors: [CLAUDE], args: ['--no-verify'] },
    );
    repo.git('checkout', '-q', '-f', 'main');
    return 'elsewhere';
  }

  it(
    'the merge is judged against its first parent: the full run and --range report it, even in strict',
    async () => {
      const repo = Repo.create();
      adopted(repo);
      const base = repo.sha();
      orphan(repo);
      const merged = git(
        repo,
        [
          'merge',
          '-q',
          '--no-edit',
          '--no-verify',
          '--allow-unrelated-histories',
          '-X',
          'theirs',
          '-m',
          `Merge elsewhere\n\nCo-authored-by: ${ident(CLAUDE)}`,
          'elsewhere',
        ],
        ANA,
      );
      expect(merged.code, merged.out).toBe(0);
      const merge = repo.sha();
      const full = await door(repo.dir);
      expect(full.code).toBe(1);
      expect(errors(full.results, 'history/manual-confirmation').map((f) => [f.commit, f.file, f.line])).toEqual([
        [merge, PLAN, lineOf(repo.show(merge, PLAN), MANUAL(1))],
      ]);
      expect(
        errors((await door(repo.dir, ['--range', `${base}..HEAD`])).results, 'history/manual-confirmation').map(
          (f) => f.commit,
        ),
      ).toEqual([merge]);
      expect(
        errors((await door(repo.dir, ['--preset', 'strict'])).results, 'history/manual-confirmation').map(
          (f) => f.commit,
        ),
      ).toEqual([merge]);
    },
    SLOW,
  );

  it(
    'a merge in progress is refused at commit-msg, and one that deletes a handoff already at pre-commit (case 5)',
    async () => {
      const repo = Repo.create();
      adopted(repo);
      orphan(repo);
      installHooks(repo);
      const started = git(
        repo,
        ['merge', '-q', '--no-commit', '--allow-unrelated-histories', '-X', 'theirs', 'elsewhere'],
        ANA,
      );
      expect(started.code, started.out).toBe(0);
      // Through git, pre-commit refuses it first (the ledger no longer agrees); the commit-msg door says why.
      const refused = git(
        repo,
        ['commit', '-q', '--no-edit', '-m', `Merge elsewhere\n\nCo-authored-by: ${ident(CLAUDE)}`],
        ANA,
      );
      expect(refused.code).not.toBe(0);
      const message = `${repo.dir}/.git/MERGE_TEST_MSG`;
      writeFileSync(message, `Merge elsewhere\n\nCo-authored-by: ${ident(CLAUDE)}\n`);
      // The doors themselves in this process: git's hook refusing went through the built CLI just above.
      const msg = await runCliHere(repo.dir, ['commit-msg', message]);
      expect(msg.code).toBe(1);
      expect(msg.stdout).toContain('history/manual-confirmation');
      // The same merge taking the handoff away as well: the pre-commit door already says so.
      repo.git('rm', '-q', handoffPath(1));
      const staged = await runCliHere(repo.dir, ['--staged']);
      expect(staged.code).toBe(1);
      expect(staged.stdout).toContain('history/handoff-deleted');
    },
    SLOW,
  );

  it(
    'honest: a feature branch cut after adoption and merged still vouches for its own judged commits',
    async () => {
      const repo = Repo.create();
      adopted(repo);
      repo.git('checkout', '-q', '-b', 'feature');
      taskTwo(repo, []);
      repo.commit(
        'Confirm phase 1',
        { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
        { author: ANA, confirmedBy: [ANA] },
      );
      repo.git('checkout', '-q', 'main');
      repo.commit('Readme', { 'README.md': '# Auth\n' }, { author: ANA });
      expect(git(repo, ['merge', '-q', '--no-edit', '--no-ff', 'feature'], ANA).code).toBe(0);
      const full = await door(repo.dir);
      expect(full.results.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(full.code).toBe(0);
    },
    SLOW,
  );
});

describe('case 2: rewording a confirmed manual item', () => {
  it(
    'is a new check of the new words: refused at commit-msg, reported by the full run',
    async () => {
      const repo = Repo.create();
      adopted(repo);
      taskTwo(repo, []);
      installHooks(repo);
      repo.commit(
        'Confirm phase 1',
        { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
        { author: ANA, confirmedBy: [ANA] },
      );
      const confirmed = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
      const reworded = confirmed.replace(MANUAL(1), 'Phase 1 totals match the ledger to the cent');
      expect(reworded).not.toBe(confirmed);
      repo.stage({ [PLAN]: reworded });
      const hook = git(repo, ['commit', '-q', '-m', `Clarify\n\nCo-authored-by: ${ident(CLAUDE)}`], CLAUDE);
      expect(hook.code).not.toBe(0);
      expect(hook.out).toContain('Phase 1 totals match the ledger to the cent');
      const sha = repo.commit('Clarify', {}, { author: CLAUDE, args: ['--no-verify'] });
      expect(
        errors((await door(repo.dir)).results, 'history/manual-confirmation').map((f) => [f.commit, f.line]),
      ).toEqual([[sha, lineOf(reworded, 'Phase 1 totals match')]]);
    },
    SLOW,
  );
});

describe('case 8: no agent anywhere', () => {
  it(
    'a person ticks her manual item and fixes a line of prose in one commit, without a trailer: every door accepts',
    async () => {
      const repo = Repo.create();
      adopted(repo);
      taskTwo(repo);
      installHooks(repo);
      const base = repo.sha();
      repo.stage({
        [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }).replace(
          '# Auth flow Implementation Plan',
          '# Auth flow Implementation Plan (v2)',
        ),
      });
      const res = git(repo, ['commit', '-q', '-m', 'Checked phase 1 in the browser'], ANA);
      expect(res.code, res.out).toBe(0);
      for (const args of [[], ['--range', `${base}..HEAD`]]) {
        const run = await door(repo.dir, args);
        expect(
          run.results.filter((f) => f.severity !== 'info'),
          args.join(' '),
        ).toEqual([]);
        expect(run.code).toBe(0);
      }
    },
    SLOW,
  );
});

describe('--range with a base that is no revision at all', () => {
  it(
    'is a usage error (exit 2); a base missing from a shallow clone stays history/incomplete',
    () => {
      const repo = Repo.create();
      adopted(repo);
      const res = runCli(repo.dir, ['--range', 'no-such-branch..HEAD']);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('no-such-branch');
      expect(res.stderr).not.toMatch(/\n\s+at /);
    },
    SLOW,
  );
});

describe('case 4: piggyback on a hand-made confirmation', () => {
  it(
    'commit-msg seals the human confirmation with Confirmed-items; an amend that adds an item breaks it at commit-msg and in the full run',
    async () => {
      const repo = Repo.create();
      adopted(repo);
      taskTwo(repo);
      installHooks(repo);
      // Ana confirms phase 1's first manual item by hand, with a trailer she typed (no digest).
      repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
      const mine = git(repo, ['commit', '-q', '-m', `Checked the login page\n\nConfirmed-by: ${ident(ANA)}`], ANA);
      expect(mine.code, mine.out).toBe(0);
      expect(mine.out).toContain('added `Confirmed-items:');
      const message = repo.git('log', '-1', '--format=%B');
      expect(message).toMatch(/^Confirmed-by: Ana Human <ana@example.com>\nConfirmed-items: [0-9a-f]+$/m);
      // The agent amends one more manual item into her commit: refused through the hooks...
      repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1], secondManual: [1] }) });
      const amend = git(repo, ['commit', '-q', '--amend', '--no-edit'], CLAUDE);
      expect(amend.code).not.toBe(0);
      expect(amend.out).toContain('does not match the manual items checked');
      // ...and, forced past them, reported by the full run.
      const forced = git(repo, ['commit', '-q', '--amend', '--no-edit', '--no-verify'], CLAUDE);
      expect(forced.code, forced.out).toBe(0);
      const found = errors((await door(repo.dir)).results, 'history/manual-confirmation');
      expect(found.map((f) => [f.commit, f.message.includes('does not match the manual items checked')])).toEqual([
        [repo.sha(), true],
      ]);
    },
    SLOW,
  );
});

describe('case 9: a violation reverted by a later commit', () => {
  it(
    "a human's `git revert` of an agent's unconfirmed check-off leaves a warning naming the revert; main is green again",
    async () => {
      const repo = Repo.create();
      adopted(repo);
      taskTwo(repo);
      const bad = repo.commit(
        'Phase 1 verified',
        { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
        { author: CLAUDE },
      );
      expect((await door(repo.dir)).code).toBe(1);
      expect(git(repo, ['revert', '--no-edit', bad], ANA).code).toBe(0);
      const revert = repo.sha();
      const run = await door(repo.dir);
      const found = run.results.filter((f) => f.ruleId === 'history/manual-confirmation');
      expect(found.map((f) => [f.commit, f.severity])).toEqual([[bad, 'warning']]);
      expect(found[0]!.message).toContain(`Reverted in ${revert.slice(0, 7)} (Revert "Phase 1 verified")`);
      expect(run.code).toBe(0);
    },
    SLOW,
  );

  it(
    'a deleted handoff restored later is a warning; checked again by the agent, the item is a new error',
    async () => {
      const repo = Repo.create();
      adopted(repo);
      const del = repo.commit('Tidy', {}, { author: CLAUDE, remove: [handoffPath(1)] });
      const restore = repo.commit('Put the handoff back', { [handoffPath(1)]: taskHandoff(1) }, { author: ANA });
      taskTwo(repo);
      const first = repo.commit(
        'Phase 1 verified',
        { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
        { author: CLAUDE },
      );
      repo.commit('Undo', { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }) }, { author: ANA });
      const again = repo.commit(
        'Phase 1 verified, really',
        { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
        { author: CLAUDE },
      );
      const run = await door(repo.dir);
      const sev = (ruleId: string) => run.results.filter((f) => f.ruleId === ruleId).map((f) => [f.commit, f.severity]);
      expect(sev('history/handoff-deleted')).toEqual([[del, 'warning']]);
      expect(run.results.find((f) => f.ruleId === 'history/handoff-deleted')!.message).toContain(
        `Reverted in ${restore.slice(0, 7)}`,
      );
      expect(sev('history/manual-confirmation')).toEqual([
        [first, 'warning'],
        [again, 'error'],
      ]);
      expect(run.code).toBe(1);
    },
    SLOW,
  );
});
