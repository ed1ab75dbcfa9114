// Issue 12, in real repositories through every door: the pre-commit and commit-msg hooks as git runs them
// (core.hooksPath to the built CLI), `--staged`, the full run and `--range`.
// - Bypass 8, "second session": copies of a session's handoffs in a new session folder with a complete handoff for
//   the task that failed (handoff/one-per-task), against an honest retry and an honest continuation.
// - Bypass 9, "late handoff": a task checked with `--no-verify`, its handoff added in a later commit
//   (history/task-order), against a handoff committed with or before its check-off.
// - A false refusal: a human inserts a task mid-plan; the old handoffs and the ledger keep their task by its text.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { kebab, ledger, titledPlan } from '../rules/fixtures.js';
import {
  ANA,
  CLAUDE,
  CONFIG,
  LEDGER,
  PLAN,
  Repo,
  cliHere,
  door,
  handoffPath,
  ident,
  ledgerDoc,
  lineOf,
  messageFile,
  planDoc,
  taskHandoff,
  installHooks,
} from './helpers.js';

/**
 * A repository adopted by Ana, with what `setup` commits (her plan), whose later commits run the CLI as pre-commit
 * (`--staged`) and commit-msg hooks. The setup is committed before the hooks are installed: the hooks judging Ana's
 * adoption and plan is no case of this file (test/hooks/e2e.test.ts commits them through the hooks).
 */
function hooked(setup: (repo: Repo) => void): Repo {
  const repo = Repo.create();
  repo.commit('Adopt validate-workflow', { [CONFIG]: '{ "preset": "recommended" }\n' }, { author: ANA });
  setup(repo);
  return installHooks(repo);
}

/** Ana's plan and ledger, committed. */
const planned = (repo: Repo): void => {
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
};

/** `git commit` of what is staged, hooks and all, as `who`; the exit code and what the hooks printed. */
function gitCommit(
  repo: Repo,
  subject: string,
  who = CLAUDE,
  extra: string[] = [],
): { code: number | null; out: string } {
  const res = spawnSync('git', ['commit', '-q', `--author=${ident(who)}`, '-m', subject, ...extra], {
    cwd: repo.dir,
    encoding: 'utf8',
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

/** Stage and commit through the hooks, which must accept it; returns the commit. */
function accepted(repo: Repo, subject: string, files: Record<string, string>, who = CLAUDE): string {
  repo.stage(files);
  const res = gitCommit(repo, subject, who);
  expect(res, res.out).toMatchObject({ code: 0 });
  return repo.sha();
}

/**
 * A commit the hooks would accept, judged in this process (`door`: `--staged` then commit-msg, as git runs them for
 * `who` with Ana committing) and committed without them. Each case family keeps one commit through the real hooks
 * (`accepted`, `gitCommit`): a refusal (bypass 8, bypass 9) and an acceptance (a retry, session 2 continuing, the
 * agent's task after an insertion). Returns the commit.
 */
async function admitted(repo: Repo, subject: string, files: Record<string, string>, who = CLAUDE): Promise<string> {
  repo.stage(files);
  const env = repo.env(who, ANA);
  const staged = await door(repo.dir, ['--staged'], env);
  expect(staged.code, JSON.stringify(staged.results)).toBe(0);
  const msg = await door(repo.dir, ['commit-msg', messageFile(subject)], env);
  expect(msg.code, JSON.stringify(msg.results)).toBe(0);
  return repo.commitStaged(subject, { author: who, committer: ANA, args: ['--no-verify'] });
}

/** Each case commits through the hooks and runs the CLI at every door: slow on a busy machine. */
const SLOW = 180_000;

const problems = (list: Finding[]) => list.filter((f) => f.severity !== 'info');
const of = (list: Finding[], ruleId: string) => list.filter((f) => f.ruleId === ruleId);

/**
 * The verdicts of the full run and of `--range base..HEAD`: through the CLI's code when `real` (one refused and one
 * clean case keep its exit code), else through the API (`door`); both in this process.
 */
async function doors(
  repo: Repo,
  base: string,
  real = false,
): Promise<{ full: Finding[]; range: Finding[]; fullCode: number | null; rangeCode: number | null }> {
  const run = (args: string[]) => (real ? cliHere(repo.dir, args) : door(repo.dir, args));
  const full = await run([]);
  const range = await run(['--range', `${base}..HEAD`]);
  return { full: full.results, range: range.results, fullCode: full.code, rangeCode: range.code };
}

describe('bypass 8: a second session for a task whose handoff failed', () => {
  const S2 = 'auth-2';
  const copy = (n: number) => handoffPath(n, `step-${n}`, S2);

  /** Task 1 done; task 2's handoff says failed and the task stays open. */
  async function failedTask2(): Promise<{ repo: Repo; base: string }> {
    const repo = hooked(planned);
    await admitted(repo, 'Task 1: Do step 1', {
      [PLAN]: planDoc({ tasks: [1] }),
      [handoffPath(1)]: taskHandoff(1),
      [LEDGER]: ledgerDoc([1]),
    });
    const base = await admitted(repo, 'Task 2 failed', {
      [handoffPath(2)]: taskHandoff(2, { status: 'failed' }),
      [LEDGER]: ledgerDoc([1], 2),
    });
    return { repo, base };
  }

  it(
    'copies of the session with a complete handoff for task 2: refused at pre-commit, reported by the full run and --range',
    async () => {
      const { repo, base } = await failedTask2();
      repo.stage({
        [PLAN]: planDoc({ tasks: [1, 2] }),
        [copy(1)]: taskHandoff(1),
        [copy(2)]: taskHandoff(2),
        [LEDGER]: ledgerDoc([1, 2]),
      });
      const staged = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
      expect(staged.code).toBe(1);
      const expected = {
        ruleId: 'handoff/one-per-task',
        severity: 'error',
        file: copy(1),
        line: 1,
        message: `2 tasks (Task 1, Task 2) already have handoffs in session "auth-1" (first: ${handoffPath(1)}), and the later ones here name none of them.`,
      };
      expect(of(staged.results, 'handoff/one-per-task')).toEqual([expect.objectContaining(expected)]);
      const hook = gitCommit(repo, 'Task 2: Do step 2');
      expect(hook.code).not.toBe(0);
      expect(hook.out).toContain('handoff/one-per-task');
      expect(repo.sha()).toBe(base);

      repo.commitStaged('Task 2: Do step 2', { author: CLAUDE, args: ['--no-verify'] });
      const { full, range, fullCode, rangeCode } = await doors(repo, base, true);
      expect([fullCode, rangeCode]).toEqual([1, 1]);
      expect(of(full, 'handoff/one-per-task')).toEqual([expect.objectContaining(expected)]);
      expect(of(range, 'handoff/one-per-task')).toEqual([expect.objectContaining(expected)]);
    },
    SLOW,
  );

  it(
    'a retry that names the failed handoff passes every door',
    async () => {
      const { repo, base } = await failedTask2();
      const retry = handoffPath(2, 'step-2-retry', S2);
      const files = {
        [PLAN]: planDoc({ tasks: [1, 2] }),
        [retry]: taskHandoff(2, { retry_of: handoffPath(2), previous: handoffPath(1) }),
        [LEDGER]: ledgerDoc([1, 2]),
      };
      repo.stage(files);
      expect(problems((await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results)).toEqual([]);
      accepted(repo, 'Task 2: Do step 2 (retry)', {});
      const { full, range, fullCode, rangeCode } = await doors(repo, base, true);
      expect(problems(full)).toEqual([]);
      expect(problems(range)).toEqual([]);
      expect([fullCode, rangeCode]).toEqual([0, 0]);
    },
    SLOW,
  );

  it(
    'session 2 continuing the plan with tasks 3 and 4 after session 1 did 1 and 2 passes every door',
    async () => {
      const repo = hooked(planned);
      await admitted(repo, 'Task 1: Do step 1', {
        [PLAN]: planDoc({ tasks: [1] }),
        [handoffPath(1)]: taskHandoff(1),
        [LEDGER]: ledgerDoc([1]),
      });
      const base = await admitted(repo, 'Task 2: Do step 2', {
        [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }),
        [handoffPath(2)]: taskHandoff(2),
        [LEDGER]: ledgerDoc([1, 2]),
      });
      accepted(repo, 'Task 3: Do step 3', {
        [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1] }),
        [copy(3)]: taskHandoff(3, { previous: handoffPath(2) }),
        [LEDGER]: ledgerDoc([1, 2, 3]),
      });
      await admitted(repo, 'Task 4: Do step 4', {
        [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1] }),
        [copy(4)]: taskHandoff(4),
        [LEDGER]: ledgerDoc([1, 2, 3, 4]),
      });
      const { full, range, fullCode, rangeCode } = await doors(repo, base);
      expect(problems(full)).toEqual([]);
      expect(problems(range)).toEqual([]);
      expect([fullCode, rangeCode]).toEqual([0, 0]);
    },
    SLOW,
  );
});

describe('bypass 9: a task checked before its handoff is committed', () => {
  /** Task 1 done with its handoff. */
  async function started(): Promise<Repo> {
    const repo = hooked(planned);
    await admitted(repo, 'Task 1: Do step 1', {
      [PLAN]: planDoc({ tasks: [1] }),
      [handoffPath(1)]: taskHandoff(1),
      [LEDGER]: ledgerDoc([1]),
    });
    return repo;
  }

  it(
    'checked with --no-verify, the handoff in a later commit: the full run and --range report the check-off commit',
    async () => {
      const repo = await started();
      const base = repo.sha();
      const checked = { [PLAN]: planDoc({ tasks: [1, 2] }), [LEDGER]: ledgerDoc([1, 2]) };
      repo.stage(checked);
      // Pre-commit: handoff/missing says it (the snapshot the commit would leave); task-order does not repeat it.
      const staged = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
      expect(staged.code).toBe(1);
      expect(of(staged.results, 'handoff/missing')).toHaveLength(1);
      expect(of(staged.results, 'history/task-order')).toEqual([]);
      expect(gitCommit(repo, 'Task 2: Do step 2').code).not.toBe(0);
      const check = repo.commitStaged('Task 2: Do step 2', { author: CLAUDE, args: ['--no-verify'] });

      // While the handoff is missing, the full run and --range report one cause once: handoff/missing.
      let d = await doors(repo, base);
      for (const list of [d.full, d.range]) {
        expect(of(list, 'handoff/missing')).toHaveLength(1);
        expect(of(list, 'history/task-order')).toEqual([]);
      }

      // The handoff comes later: the hooks see nothing wrong with that commit, and the final state is clean.
      await admitted(repo, 'Handoff of task 2', { [handoffPath(2)]: taskHandoff(2) });
      d = await doors(repo, base);
      const text = repo.show(check, PLAN);
      const expected = {
        ruleId: 'history/task-order',
        severity: 'error',
        commit: check,
        file: PLAN,
        line: lineOf(text, 'Task 2:'),
        message: 'Task 2 is checked complete in this commit, but its handoff is not committed with it or before it.',
      };
      for (const list of [d.full, d.range]) {
        expect(problems(list)).toEqual([expect.objectContaining(expected)]);
        expect(list[0]!.fix).toMatch(/^The order of a commit already made cannot change/);
      }
      expect([d.fullCode, d.rangeCode]).toEqual([1, 1]);
    },
    SLOW,
  );

  it(
    'a handoff committed with its check-off, or before it, passes every door',
    async () => {
      const repo = await started();
      const base = repo.sha();
      // A complete handoff of an unchecked task is handoff/plan-sync's at pre-commit (the files disagree until the
      // plan is updated), so this commit skips the hooks; the order itself is what history judges.
      repo.commit('Handoff of task 2', { [handoffPath(2)]: taskHandoff(2) }, { author: CLAUDE, args: ['--no-verify'] });
      await admitted(repo, 'Task 2: Do step 2', {
        [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }),
        [LEDGER]: ledgerDoc([1, 2]),
      });
      await admitted(repo, 'Task 3: Do step 3', {
        [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1] }),
        [handoffPath(3)]: taskHandoff(3),
        [LEDGER]: ledgerDoc([1, 2, 3]),
      });
      const d = await doors(repo, base);
      expect(problems(d.full)).toEqual([]);
      expect(problems(d.range)).toEqual([]);
    },
    SLOW,
  );
});

describe('a human inserts a task mid-plan (issue 12, a false refusal)', () => {
  const SESSION = '2026-11-20-auth';
  const S2 = '2026-11-21-auth';
  const TITLES = [
    'Add users table',
    'Add sessions table',
    'Add login endpoint',
    'Add logout endpoint',
    'Add refresh endpoint',
  ];
  const INSERTED = 'Add audit log table';
  const RENUMBERED = [TITLES[0]!, INSERTED, ...TITLES.slice(1)];
  const LEDGER_1 = `thoughts/ledgers/CONTINUITY_CLAUDE-${SESSION}.md`;
  const plan = (titles: readonly string[], done: readonly string[]) =>
    titledPlan({ titles, done, phase2From: 'Add logout endpoint', verified: done.includes('Add login endpoint') });
  const at = (n: number, title: string, session = SESSION) =>
    `thoughts/handoffs/${session}/task-${String(n).padStart(2, '0')}-${kebab(title)}.md`;
  const handoff = (n: number, title: string, prev: string | null, total = 5) =>
    taskHandoff(n, { task_desc: title, task_total: total, previous: prev ?? undefined });
  const state = (titles: readonly string[], done: readonly string[]) =>
    ledger({
      session: SESSION,
      state: titles.map((t, i) => `- [${done.includes(t) ? 'x' : ' '}] Task ${i + 1}: ${t}`),
    });

  /** Session 1 did tasks 1-3, each with its handoff (the full run below judges them); then Ana inserts a task 2. */
  async function inserted(): Promise<{ repo: Repo; insertion: string }> {
    const repo = hooked((r) => {
      r.commit('Plan the auth flow', { [PLAN]: plan(TITLES, []), [LEDGER_1]: state(TITLES, []) }, { author: ANA });
      TITLES.slice(0, 3).forEach((t, i) => {
        const done = TITLES.slice(0, i + 1);
        const prev = i === 0 ? null : `task-0${i}-${kebab(TITLES[i - 1]!)}.md`;
        r.commit(
          `Task ${i + 1}: ${t}`,
          { [PLAN]: plan(TITLES, done), [at(i + 1, t)]: handoff(i + 1, t, prev), [LEDGER_1]: state(TITLES, done) },
          { author: CLAUDE },
        );
      });
    });
    const insertion = await admitted(
      repo,
      'Insert the audit log task',
      { [PLAN]: plan(RENUMBERED, TITLES.slice(0, 3)) },
      ANA,
    );
    return { repo, insertion };
  }

  it(
    "the human's insertion and the agent's later work pass the hooks, the full run and --range",
    async () => {
      const { repo, insertion } = await inserted();
      let d = await doors(repo, `${insertion}~1`);
      expect(problems(d.full)).toEqual([]);
      expect(problems(d.range)).toEqual([]);
      // The agent does the inserted task in a new session, and brings the ledger to the new numbering.
      const done = [...TITLES.slice(0, 3), INSERTED];
      const files = {
        [PLAN]: plan(RENUMBERED, done),
        [at(2, INSERTED, S2)]: handoff(2, INSERTED, at(1, TITLES[0]!), 6),
        [LEDGER_1]: state(RENUMBERED, done),
      };
      repo.stage(files);
      expect(problems((await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results)).toEqual([]);
      accepted(repo, `Task 2: ${INSERTED}`, {});
      // And the next task, Task 5 now (Task 4 when session 1 wrote its handoffs).
      const next = [...done, 'Add logout endpoint'];
      await admitted(repo, 'Task 5: Add logout endpoint', {
        [PLAN]: plan(RENUMBERED, next),
        [at(5, 'Add logout endpoint', S2)]: handoff(5, 'Add logout endpoint', at(3, 'Add login endpoint'), 6),
        [LEDGER_1]: state(RENUMBERED, next),
      });
      d = await doors(repo, `${insertion}~1`);
      expect(problems(d.full)).toEqual([]);
      expect(problems(d.range)).toEqual([]);
      expect([d.fullCode, d.rangeCode]).toEqual([0, 0]);
    },
    SLOW,
  );

  it(
    'a handoff whose task_desc names no task still reports on its number',
    async () => {
      const { repo, insertion } = await inserted();
      // Task 5 (the logout endpoint) is open; a complete handoff numbered 5 that names no task's text is its handoff.
      repo.stage({ [at(5, 'wire-up', S2)]: handoff(5, 'Wire up the session store', at(3, 'Add login endpoint'), 6) });
      const staged = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
      const text = plan(RENUMBERED, TITLES.slice(0, 3));
      const expected = {
        ruleId: 'handoff/plan-sync',
        file: PLAN,
        line: lineOf(text, 'Task 5: Add logout endpoint'),
        severity: 'error',
      };
      // Task 5 also starts while the inserted Task 2 is open: history/task-order, in the plan's numbering.
      const order = {
        ruleId: 'history/task-order',
        file: at(5, 'wire-up', S2),
        message: `Task 5 starts while Task 2 of ${PLAN} is still open.`,
      };
      expect(problems(staged.results)).toEqual([expect.objectContaining(order), expect.objectContaining(expected)]);
      expect(staged.code).toBe(1);
      repo.commitStaged('Handoff 5', { author: CLAUDE, args: ['--no-verify'] });
      const d = await doors(repo, insertion);
      expect(problems(d.full)).toEqual([expect.objectContaining(order), expect.objectContaining(expected)]);
      expect(problems(d.range)).toEqual([expect.objectContaining(order), expect.objectContaining(expected)]);
    },
    SLOW,
  );
});
