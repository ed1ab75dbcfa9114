// One engine, three doors: the pre-commit check (`--staged`), the commit-msg check and the full history must agree on
// a commit. Each case stages a change, runs both hooks with the committing identity in the environment (as git runs
// them), then makes the commit with that same message and judges the whole history: the commit-msg verdict equals
// the full run's findings for that commit; `--staged` equals it minus the rules that need the message
// (confirmation and self-exemption are left to commit-msg by design).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import {
  ANA,
  BOB,
  CLAUDE,
  LEDGER,
  PLAN,
  Repo,
  cli,
  door,
  type CliJson,
  handoffPath,
  historyOnly,
  ledgerDoc,
  messageFile,
  planDoc,
  taskHandoff,
  type CommitOpts,
} from './helpers.js';

const NEEDS_MESSAGE = new Set(['history/manual-confirmation', 'history/self-exemption']);

interface Case {
  name: string;
  /** The history before the commit. */
  setup: (repo: Repo) => void;
  files: Record<string, string>;
  remove?: string[];
  subject: string;
  who: CommitOpts;
  /** The history rules the commit must break (at least this is asserted, so the case cannot pass vacuously). */
  expected: string[];
}

function planned(repo: Repo): void {
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
}

function task(repo: Repo, n: number, done: number[], plan: Parameters<typeof planDoc>[0] = {}): void {
  repo.commit(
    `Task ${n}: Do step ${n}`,
    { [PLAN]: planDoc({ tasks: done, ...plan }), [handoffPath(n)]: taskHandoff(n), [LEDGER]: ledgerDoc(done) },
    { author: CLAUDE },
  );
}

const CASES: Case[] = [
  {
    name: 'a clean task commit by the agent',
    setup: planned,
    files: { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    subject: 'Task 1: Do step 1',
    who: { author: CLAUDE },
    expected: [],
  },
  {
    name: 'a manual check-off by the agent',
    setup: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2], { auto: [1] });
    },
    files: { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
    subject: 'Phase 1 verified',
    who: { author: BOB, coAuthors: [CLAUDE] },
    expected: ['history/manual-confirmation'],
  },
  {
    name: 'a manual check-off by a human with a valid Confirmed-by',
    setup: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2], { auto: [1] });
    },
    files: { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
    subject: 'Confirm phase 1',
    who: { author: ANA, confirmedBy: [ANA] },
    expected: [],
  },
  {
    name: 'a batched commit (two tasks at once)',
    setup: planned,
    files: {
      [PLAN]: planDoc({ tasks: [1, 2] }),
      [handoffPath(1)]: taskHandoff(1),
      [handoffPath(2)]: taskHandoff(2),
      [LEDGER]: ledgerDoc([1, 2]),
    },
    subject: 'Tasks 1 and 2',
    who: { author: CLAUDE },
    expected: ['history/batched-tasks'],
  },
  {
    name: 'a deleted handoff',
    setup: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
      task(repo, 2, [1, 2]);
    },
    files: {},
    remove: [handoffPath(1)],
    subject: 'Remove the old handoff',
    who: { author: CLAUDE },
    expected: ['history/handoff-deleted'],
  },
  {
    name: 'a rewritten handoff frontmatter',
    setup: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
    },
    files: { [handoffPath(1)]: taskHandoff(1, { status: 'partial' }) },
    subject: 'Handoff 1 was partial after all',
    who: { author: CLAUDE },
    expected: ['history/handoff-rewritten'],
  },
  {
    name: 'a task out of order (and phase 2 before phase 1 is verified)',
    setup: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
    },
    files: { [PLAN]: planDoc({ tasks: [1, 3] }), [handoffPath(3)]: taskHandoff(3), [LEDGER]: ledgerDoc([1, 3]) },
    subject: 'Task 3: Do step 3',
    who: { author: CLAUDE },
    // One cause, one rule (issue 10): task 3 before task 2 is task-order's; phase-order does not repeat it.
    expected: ['history/task-order'],
  },
  {
    name: 'an agent that disables a rule',
    setup: (repo) => {
      planned(repo);
      task(repo, 1, [1]);
    },
    files: { [PLAN]: planDoc({ tasks: [1], tail: '<!-- validate-workflow-disable plan/phase-order -- later -->' }) },
    subject: 'Quiet the linter',
    who: { author: CLAUDE },
    expected: ['history/self-exemption'],
  },
];

/** What must agree across the doors: rule, file, line and severity of each history finding. */
const keys = (list: Finding[]) =>
  historyOnly(list)
    .map((f) => `${f.ruleId} ${f.file}:${f.line} ${f.severity}`)
    .sort();

/**
 * The doors of a case, for both presets, over one repository: the full run before, then with the change staged
 * `--staged` and commit-msg (the committing identity in the environment, as git runs them), then the commit and the
 * full run after. The hooks of the first two cases (one clean, one refused) go through the built CLI under the
 * recommended preset, a process per door: the suite's real-process runs of --staged and commit-msg for exit 0 and 1.
 * The full runs, strict and the other cases take the same code path in this process (`door`): a preset is an option
 * of the engine, not of the process, and the full run's process is cli.test.ts's and agent-history.test.ts's.
 */
async function runCase(c: Case, real: boolean) {
  const hook = (args: string[]) => args.includes('--staged') || args.includes('commit-msg');
  const judgeAt = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
    real && hook(args) && args.includes('recommended') ? Promise.resolve(cli(dir, args, env)) : door(dir, args, env);
  const repo = Repo.create();
  c.setup(repo);
  const presets = ['recommended', 'strict'] as const;
  const fullBefore = Object.fromEntries(
    await Promise.all(presets.map(async (p) => [p, await judgeAt(repo.dir, ['--preset', p])] as const)),
  );
  repo.stage(c.files, { remove: c.remove });
  const author = c.who.author ?? ANA;
  const env = repo.env(author, c.who.committer ?? author);
  // A confirmation carries the digest of what it confirms, as `confirm` writes it (strict requires it).
  const who: CommitOpts = c.who.confirmedBy
    ? { ...c.who, trailers: [...(c.who.trailers ?? []), repo.stagedDigest()] }
    : c.who;
  const hooks: Record<string, { staged: CliJson; msg: CliJson }> = {};
  for (const p of presets) {
    hooks[p] = {
      staged: await judgeAt(repo.dir, ['--preset', p, '--staged'], env),
      msg: await judgeAt(repo.dir, ['--preset', p, 'commit-msg', messageFile(c.subject, who)], env),
    };
  }
  const commit = repo.commitStaged(c.subject, who);
  const out: Record<string, { fullBefore: CliJson; staged: CliJson; msg: CliJson; full: CliJson; commit: string }> = {};
  for (const p of presets)
    out[p] = { fullBefore: fullBefore[p]!, ...hooks[p]!, full: await judgeAt(repo.dir, ['--preset', p]), commit };
  return out;
}

describe.each(CASES.map((c, i) => ({ ...c, real: i < 2 })))('parity: $name', (c) => {
  let ran: Awaited<ReturnType<typeof runCase>>;
  beforeAll(async () => {
    ran = await runCase(c, c.real);
  });

  for (const preset of ['recommended', 'strict'] as const) {
    it(`--staged and commit-msg give the full run's verdict on the commit (${preset})`, () => {
      const { fullBefore, staged, msg, full, commit } = ran[preset]!;
      const atCommit = full.results.filter((f) => f.commit === commit);

      expect(ids(atCommit)).toEqual([...c.expected].sort());
      expect(keys(msg.results)).toEqual(keys(atCommit));
      expect(keys(staged.results)).toEqual(keys(atCommit.filter((f) => !NEEDS_MESSAGE.has(f.ruleId))));
      // The hooks report no commit (it does not exist yet); the full run names it.
      for (const f of historyOnly([...staged.results, ...msg.results])) expect(f.commit ?? '').toBe('');
      // The snapshot findings the commit introduces agree too, wherever they land (a rewritten handoff status
      // breaks handoff/validated on the plan, a file the commit did not touch), and so the exit codes. (Issue 9
      // widened this from "findings in the files the commit changes" to what the convention now says.)
      const had = new Set(fullBefore.results.map((f) => `${f.ruleId} ${f.file} ${f.message}`));
      const ofChanged = (list: Finding[]) =>
        list.filter(
          (f) => !f.ruleId.startsWith('history/') && f.file !== null && !had.has(`${f.ruleId} ${f.file} ${f.message}`),
        );
      const snap = (list: Finding[]) =>
        ofChanged(list)
          .map((f) => `${f.ruleId} ${f.file}:${f.line}`)
          .sort();
      expect(snap(msg.results)).toEqual(snap(full.results));
      expect(snap(staged.results)).toEqual(snap(full.results));
      const failing = (list: Finding[]) => (list.some((f) => f.severity === 'error') ? 1 : 0);
      expect(msg.code).toBe(failing([...atCommit, ...ofChanged(full.results)]));
      expect(staged.code).toBe(
        failing([...atCommit.filter((f) => !NEEDS_MESSAGE.has(f.ruleId)), ...ofChanged(full.results)]),
      );
    });
  }
});

it('the doors through the built CLI include a refused commit (exit 1) and an accepted one (exit 0)', () => {
  // The real-process cases above must cover both exit codes, or the in-process ones would rest on an untested rule.
  const real = CASES.slice(0, 2);
  expect(real.map((c) => c.expected.length > 0)).toEqual([false, true]);
});

function ids(list: Finding[]): string[] {
  return [
    ...new Set(
      historyOnly(list)
        .filter((f) => f.severity !== 'info')
        .map((f) => f.ruleId),
    ),
  ].sort();
}

describe('parity of renames and amends', () => {
  function ready(): Repo {
    const repo = Repo.create();
    planned(repo);
    task(repo, 1, [1], { auto: [1] });
    repo.commit(
      'Confirm phase 1 (part)',
      { [PLAN]: planDoc({ tasks: [1], auto: [1], manual: [1] }) },
      { author: ANA, confirmedBy: [ANA] },
    );
    return repo;
  }

  /** Hooks then commit then the full run, as in the cases above (in this process: `door`); the history keys of each. */
  async function doors(repo: Repo, subject: string, who: CommitOpts, amend = false) {
    const env = repo.env(who.author ?? ANA);
    const msg = await door(repo.dir, ['commit-msg', messageFile(subject, who)], env);
    const staged = await door(repo.dir, ['--staged'], env);
    const commit = repo.commitStaged(subject, { ...who, args: amend ? ['--amend'] : [] });
    const full = (await door(repo.dir)).results.filter((f) => f.commit === commit);
    return { msg: keys(msg.results), staged: keys(staged.results), full: keys(full) };
  }

  it('a plan renamed by the agent: the hooks see the rename, not a new plan with checked manual items', async () => {
    const repo = ready();
    repo.stage({}, { rename: [[PLAN, 'thoughts/shared/plans/2026-11-21-auth-flow.md']] });
    const d = await doors(repo, 'Rename the plan', { author: CLAUDE });
    expect(d.full).toEqual([]);
    expect(d.msg).toEqual(d.full);
  });

  it('a renamed handoff: the hooks and the full run name the same path', async () => {
    const repo = ready();
    repo.stage({}, { rename: [[handoffPath(1), handoffPath(1, 'users-table')]] });
    const d = await doors(repo, 'Rename handoff 1', { author: CLAUDE });
    expect(d.full).toHaveLength(1);
    expect(d.msg).toEqual(d.full);
    expect(d.staged).toEqual(d.full);
  });

  // `git commit --amend` is judged against HEAD^ when the hooks run inside it (issue 12): see the real-hook tests in
  // test/engine/doors-parity.test.ts. Run by hand outside git, as here, the CLI cannot know a commit is an amend.
});
