// Issue 12, bypass 7 ("plans out of sight"; convention section 6: "A workflow file stored as a symbolic link, or a
// plan named by a ledger or handoff outside the globs, is read all the same (and a symlink is reported)"). A plan the
// globs miss (an upper-case `.MD`, a dot-file, a folder up) that a ledger or handoff names is a plan at every door;
// a plan committed as a symbolic link is read through the link by history as by the working tree, and reported.
// Real repositories, real commits, every door, through the same engine path in-process (`door`, `cliHere`): the
// processes are the doors' own tests'.
import { symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import {
  AGENT,
  ANA,
  CONFIG,
  phaseOneCheckedOff,
  phaseOneReady,
  CLAUDE,
  PLAN,
  Repo,
  cli,
  cliHere,
  door,
  handoffPath,
  ledger,
  messageFile,
  planDoc,
  taskHandoff,
  tempDir,
  TASK,
} from './helpers.js';

const LEDGER = 'thoughts/ledgers/CONTINUITY_CLAUDE-auth-1.md';
const ledgerNaming = (plan: string) => ledger({ plan, state: [1, 2, 3, 4].map((t) => `- [ ] ${TASK(t)}`) });
const ready = phaseOneReady;
const checked = phaseOneCheckedOff;

const rule = (list: Finding[], id: string) => list.filter((f) => f.ruleId === id);

/** A repository adopted by the human with the plan at `plan` and the file that names it. */
function adopted(plan: string, namer: Record<string, string>): Repo {
  const repo = Repo.create();
  repo.commit('Adopt validate-workflow', { [CONFIG]: '{}\n', [plan]: ready(), ...namer }, { author: ANA });
  return repo;
}

/**
 * The agent's check-off of the manual item at every door: pre-commit and commit-msg, then the full run and --range.
 * Through the CLI's code (`cliHere`) when `real` (the first case of each family), else through the API (`door`); both
 * in this process, the doors' processes being parity.test.ts's and the hook tests' subject.
 */
async function expectRefusedEverywhere(
  repo: Repo,
  plan: string,
  write: () => void = () => repo.stage({ [plan]: checked() }),
  real = false,
): Promise<string> {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    real ? cliHere(repo.dir, args, env) : door(repo.dir, args, env);
  const base = repo.sha();
  write();
  const staged = rule((await run(['--staged'], repo.env(CLAUDE))).results, 'history/manual-confirmation');
  // Pre-commit leaves confirmations to commit-msg (convention section 6): the message is not known yet.
  expect(staged).toEqual([]);
  const msg = rule(
    (await run(['commit-msg', messageFile('Phase 1 verified', AGENT)], repo.env(ANA))).results,
    'history/manual-confirmation',
  );
  expect(msg.map((f) => [f.file, f.severity])).toEqual([[plan, 'error']]);
  const sha = repo.commitStaged('Phase 1 verified', AGENT);
  for (const args of [[], ['--range', `${base}..HEAD`]]) {
    const found = rule((await run(args)).results, 'history/manual-confirmation');
    expect(
      found.map((f) => [f.file, f.commit, f.severity]),
      args.join(' '),
    ).toEqual([[plan, sha, 'error']]);
  }
  return sha;
}

describe('a plan named outside the globs', () => {
  it('with an upper-case .MD, named by the ledger: judged at every door', async () => {
    const plan = 'thoughts/shared/plans/2026-11-20-auth.MD';
    const repo = adopted(plan, { [LEDGER]: ledgerNaming(plan) });
    await expectRefusedEverywhere(repo, plan, undefined, true);
    // The snapshot reads it as a plan too: `mode: direct` with four tasks is a plan rule's finding on it.
    expect(
      (await cliHere(repo.dir, ['--no-history'])).results.filter((f) => f.file === plan).map((f) => f.ruleId),
    ).toEqual(['plan/mode']);
  });

  it('a dot-file named by a handoff (`plan_file:`)', async () => {
    const plan = 'thoughts/shared/plans/.auth.md';
    const handoff = handoffPath(1);
    const repo = adopted(plan, { [handoff]: taskHandoff(1, { plan: undefined, plan_file: plan }) });
    await expectRefusedEverywhere(repo, plan);
  });

  it('one folder up, at the repository root, named by the ledger: the snapshot rules judge it as well', async () => {
    const plan = 'plans/auth.md';
    const repo = adopted(plan, { [LEDGER]: ledgerNaming(plan) });
    await expectRefusedEverywhere(repo, plan);
    // A snapshot rule on the plan (a manual item checked while phase 1's automated one is not): pre-commit reports
    // what the staged change introduces, and the full run what the files say.
    repo.stage({ [plan]: planDoc({ frontmatter: ['mode: direct'], tasks: [1, 2], manual: [1] }) });
    expect(
      rule((await door(repo.dir, ['--staged'])).results, 'plan/manual-before-automated').map((f) => f.file),
    ).toEqual([plan]);
    repo.commitStaged('Rework', { author: ANA });
    expect(rule((await door(repo.dir)).results, 'plan/manual-before-automated').map((f) => f.file)).toEqual([plan]);
  });

  it('named only after the check-off: the check-off itself is judged, and a later run from the cache keeps the plan in sight', async () => {
    const plan = 'plans/auth.md';
    const repo = adopted(plan, {});
    repo.commit('Phase 1 verified', { [plan]: checked() }, AGENT);
    const naming = repo.commit('Session ledger', { [LEDGER]: ledgerNaming(plan) }, AGENT);
    // The built CLI: its history cache is the point of this case.
    const found = rule(cli(repo.dir).results, 'history/manual-confirmation');
    // The fold knows the plan from the first commit on (history/sight.ts): the agent's check-off itself is judged.
    expect(found.map((f) => f.file)).toEqual([plan]);
    expect(found[0]!.commit).not.toBe(naming);
    // A later run continues from the cache, the named plan still in sight.
    const later = repo.commit(
      'Phase 2 verified',
      { [plan]: ready({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1, 2] }) },
      AGENT,
    );
    expect(rule(cli(repo.dir).results, 'history/manual-confirmation').map((f) => f.commit)).toEqual([
      found[0]!.commit,
      later,
    ]);
  });

  it('a reference that leaves the repository, or names no file, reads nothing', async () => {
    const repo = adopted(PLAN, { [LEDGER]: ledgerNaming('../elsewhere/plan.md') });
    repo.commit('Notes', { 'notes/plan.md': checked() }, AGENT);
    const res = await door(repo.dir);
    expect(res.results.filter((f) => f.file === '../elsewhere/plan.md' || f.file === 'notes/plan.md')).toEqual([]);
  });

  it('a plan inside the globs is unaffected', async () => {
    const repo = adopted(PLAN, { [LEDGER]: ledgerNaming(PLAN) });
    await expectRefusedEverywhere(repo, PLAN);
  });
});

describe('a workflow file committed as a symbolic link', () => {
  /** The plan's path in the plans folder, a link to the real file elsewhere in the repository. */
  function linked(target = 'docs/auth-plan.md'): Repo {
    const repo = Repo.create();
    repo.write({ [CONFIG]: '{}\n', [target]: ready(), [LEDGER]: ledgerNaming(PLAN) });
    symlinkSync(relative(dirname(join(repo.dir, PLAN)), join(repo.dir, target)), mkdirFor(repo, PLAN));
    repo.stage();
    repo.commitStaged('Adopt validate-workflow', { author: ANA });
    return repo;
  }

  it('history reads the target: a check-off made in the target is judged at every door, on the plan the link shows', async () => {
    const repo = linked();
    await expectRefusedEverywhere(repo, PLAN, () => repo.stage({ 'docs/auth-plan.md': checked() }));
  });

  it('is reported by layout/paths at the full run, and at the doors when a commit adds it', async () => {
    const repo = linked();
    const full = rule((await cliHere(repo.dir)).results, 'layout/paths');
    expect(full.map((f) => [f.file, f.severity, f.message])).toEqual([
      [
        PLAN,
        'warning',
        'Workflow file is stored as a symbolic link to ../../../docs/auth-plan.md; commit the file itself.',
      ],
    ]);
    expect(full[0]!.fix).toContain('git rm --cached');
    expect(rule((await door(repo.dir, ['--preset', 'strict'])).results, 'layout/paths')[0]!.severity).toBe('error');
    // A second plan committed as a link: pre-commit and --range report what the change introduces.
    const base = repo.sha();
    const second = 'thoughts/shared/plans/second.md';
    symlinkSync('../../../docs/auth-plan.md', mkdirFor(repo, second));
    repo.stage();
    expect(rule((await door(repo.dir, ['--staged'])).results, 'layout/paths').map((f) => f.file)).toEqual([second]);
    repo.commitStaged('Second plan', { author: ANA });
    expect(
      rule((await door(repo.dir, ['--range', `${base}..HEAD`])).results, 'layout/paths').map((f) => f.file),
    ).toEqual([second]);
  });

  it('a link out of the repository is not followed, at the full run or in history; it is reported', async () => {
    const repo = Repo.create();
    const outside = join(tempDir(), 'plan.md');
    writeFileSync(outside, checked());
    repo.write({ [CONFIG]: '{}\n', [LEDGER]: ledgerNaming(PLAN) });
    symlinkSync(outside, mkdirFor(repo, PLAN));
    repo.stage();
    repo.commitStaged('Adopt', { author: ANA });
    const found = (await door(repo.dir, ['--preset', 'strict'])).results.filter((f) => f.file === PLAN);
    expect(found.map((f) => [f.ruleId, f.message])).toEqual([
      [
        'layout/paths',
        `Workflow file is stored as a symbolic link to ${outside}, which leaves the repository or points at another link, so it is not read; commit the file itself.`,
      ],
    ]);
  });
});

function mkdirFor(repo: Repo, path: string): string {
  repo.write({ [`${dirname(path)}/.keep`]: '' });
  return join(repo.dir, path);
}
