// The pre-commit door lists the whole index once (the handover's key, engine/handover.ts) and takes its listing of
// the workflow and trust files from it instead of asking git again (history/fold.ts underSpecs). What it takes must
// be what `git ls-files -s -z -- <specs>` prints, record for record; where it cannot be sure, git is asked.
import { afterEach, describe, expect, it } from 'vitest';
import { underSpecs } from '../../src/history/fold.js';
import { gitSync } from '../../src/shared/git.js';
import { Repo } from './helpers.js';

const SPECS = [
  'thoughts/shared/plans',
  'thoughts/handoffs',
  'validate-workflow.config.json',
  'package.json',
  ':(literal)docs/auth plan.md',
];

function repoWithNeighbours(): Repo {
  const repo = Repo.create();
  repo.stage({
    'thoughts/shared/plans/a.md': '# A\n',
    'thoughts/shared/plans/deep/b.md': '# B\n',
    // Names that start like a spec without being under it.
    'thoughts/shared/plansX/c.md': '# C\n',
    'thoughts/shared/plans.md': '# D\n',
    'thoughts/handoffs/s1/task-01-é.md': '# E\n',
    'package.json': '{}\n',
    'package.json.bak': '{}\n',
    // Another case: under GIT_ICASE_PATHSPECS, git would take it for `package.json`.
    'PACKAGE.JSON': '{}\n',
    'docs/auth plan.md': '# F\n',
    'docs/auth plan.md.orig': '# G\n',
    'src/index.ts': '\n',
  });
  return repo;
}

describe('the index listing the pre-commit door takes from the whole index', () => {
  afterEach(() => {
    delete process.env.GIT_ICASE_PATHSPECS;
  });

  it("is git's own listing under the same pathspecs", () => {
    const repo = repoWithNeighbours();
    const whole = repo.git('ls-files', '--stage', '-z');
    const git = repo.git('ls-files', '-s', '-z', '--', ...SPECS);
    expect(underSpecs(whole, SPECS)).toBe(git);
    expect(git.split('\0').filter(Boolean).length).toBe(5);
    // Nothing under the specs: nothing, as git prints.
    expect(underSpecs(whole, ['thoughts/ledgers'])).toBe(repo.git('ls-files', '-s', '-z', '--', 'thoughts/ledgers'));
  });

  it('leaves to git what it cannot be sure of', () => {
    const repo = repoWithNeighbours();
    const whole = repo.git('ls-files', '--stage', '-z');
    for (const spec of ['thoughts/*/plans', ':(glob)thoughts/**', ':!src', './thoughts', 'thoughts/', '', 'a/../b'])
      expect(underSpecs(whole, [...SPECS, spec]), spec).toBeNull();
    // No pathspec at all: git lists the whole index.
    expect(underSpecs(whole, [])).toBeNull();
  });

  it('is what git lists for the tool whatever the environment tells git of pathspecs (shared/git.ts gitEnv)', () => {
    const repo = repoWithNeighbours();
    const whole = repo.git('ls-files', '--stage', '-z');
    process.env.GIT_ICASE_PATHSPECS = '1';
    // A git run with the variable takes the other case for the spec; the tool's git does not, nor does the listing.
    expect(repo.git('ls-files', '-s', '-z', '--', ...SPECS)).toContain('PACKAGE.JSON');
    const listed = underSpecs(whole, SPECS);
    expect(listed).toBe(gitSync(repo.dir, ['ls-files', '-s', '-z', '--', ...SPECS]).out);
    expect(listed).not.toContain('PACKAGE.JSON');
  });
});
