// The doors that judge the commit being made (--staged, commit-msg) read the instruction files that commit holds, the
// index's: an untracked command or an edit not staged is no part of it, and a run on a checkout of the commit (CI)
// never reads either. Where git lists a link on the way to them (a linked .claude/commands), the working tree's walk
// reads them as before. The full run judges the working tree and reads its files. Real repositories, the engine in
// this process.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREATE_PLAN_COMMAND } from '../helpers/repo.js';
import { OTHER_PLAN, PLAN, Repo, door, planDoc, unpromisedPlans } from '../history/helpers.js';

const OTHER = OTHER_PLAN;
const THIRD = 'thoughts/shared/plans/2026-11-22-third.md';
const COMMAND = '.claude/commands/create_plan.md';
const RULE = 'plan/phase-manual-criteria';

/** Plans that promise no manual checks, and a third staged like them: nothing is asked of it until a command asks. */
function unpromised(): Repo {
  const repo = unpromisedPlans();
  repo.stage({ [THIRD]: planDoc({ noManual: [1, 2] }) });
  return repo;
}

/** The plans reported for lacking manual criteria (the repository-wide note of plans that promise none left out). */
const reported = async (repo: Repo, args: string[]) =>
  (await door(repo.dir, args)).results.filter((f) => f.ruleId === RULE && f.file !== null).map((f) => f.file);

describe('the instruction files of the commit being made', () => {
  it('are the index’s at the commit doors: a command only written asks nothing of the commit', async () => {
    const repo = unpromised();
    repo.write({ [COMMAND]: CREATE_PLAN_COMMAND });
    expect(await reported(repo, ['--staged'])).toEqual([]);
    // The full run judges the working tree, whose command asks for manual checks of every plan.
    expect((await reported(repo, ['--no-history'])).sort()).toEqual([OTHER, PLAN, THIRD].sort());
    // Staged, the command is the commit's: the staged plan is held to it (HEAD's were not, and are not reported).
    repo.git('add', COMMAND);
    expect(await reported(repo, ['--staged'])).toEqual([THIRD]);
  });

  it('are read as staged, whatever the working tree holds since', async () => {
    const repo = unpromised();
    repo.stage({ [COMMAND]: CREATE_PLAN_COMMAND });
    repo.write({ [COMMAND]: '# Create a plan\n\nWrite the phases down.\n' });
    expect(await reported(repo, ['--staged'])).toEqual([THIRD]);
    // And the other way round: a command that asks only in the working tree asks nothing of the commit.
    repo.stage({ [COMMAND]: '# Create a plan\n\nWrite the phases down.\n' });
    repo.write({ [COMMAND]: CREATE_PLAN_COMMAND });
    expect(await reported(repo, ['--staged'])).toEqual([]);
  });

  it('are the working tree’s where git lists a link on the way to them', async () => {
    const repo = unpromised();
    repo.write({ 'docs/commands/create_plan.md': CREATE_PLAN_COMMAND });
    mkdirSync(join(repo.dir, '.claude'));
    symlinkSync('../docs/commands', join(repo.dir, '.claude/commands'));
    repo.git('add', '-A');
    // git holds .claude/commands as a link: what it leads to is read by the walk, which follows it.
    expect(repo.git('ls-files', '--stage', '.claude/commands')).toMatch(/^120000 /);
    expect(await reported(repo, ['--staged'])).toEqual([THIRD]);
  });
});
