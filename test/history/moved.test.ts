// Issue 19, a miss: workflow folders renamed (`thoughts/` moved to `docs/notes/`) made the run report no files and say
// nothing. The note now says where they went and what to set. Each case runs the CLI's run() in this process
// (runCliHere: the stdout, stderr and exit code a user sees); the built CLI's process is its doors' tests' subject.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, runCliHere } from '../helpers/repo.js';
import { md } from '../rules/fixtures.js';

const PLAN = md('# Export Implementation Plan', '## Phase 1: Columns', '- [ ] Task 1: Pick the columns');

describe('a moved workflow folder', () => {
  it('is named in the note of a run that finds no workflow file, with the commit and the key to set', async () => {
    const dir = makeRepo(
      { 'thoughts/shared/plans/2026-11-20-export.md': PLAN, 'thoughts/shared/plans/2026-11-21-import.md': PLAN },
      { commit: true },
    );
    git(dir, 'mv', 'thoughts', 'docs-notes');
    git(dir, 'commit', '-q', '-m', 'Move the notes');
    const sha = git(dir, 'rev-parse', '--short=7', 'HEAD').trim();
    const res = await runCliHere(dir, []);
    expect(res.code).toBe(0);
    expect(res.stdout + res.stderr).toContain(
      `Workflow files moved to docs-notes/shared/plans/ in ${sha} (2 files): set \`paths\` in validate-workflow.config.json to judge them there.`,
    );
  });

  it('says nothing of a move when the files were deleted, or never there', async () => {
    const dir = makeRepo({ 'thoughts/shared/plans/2026-11-20-export.md': PLAN }, { commit: true });
    git(dir, 'rm', '-q', '-r', 'thoughts');
    git(dir, 'commit', '-q', '-m', 'Drop the notes');
    const res = await runCliHere(dir, []);
    expect(res.code).toBe(0);
    expect(res.stdout + res.stderr).not.toContain('moved to');
    const empty = await runCliHere(makeRepo({ 'README.md': '# x\n' }, { commit: true }), []);
    expect(empty.stdout + empty.stderr).not.toContain('moved to');
  });
});

describe("plans in people's own folders", () => {
  it('are counted in a note, not judged, while the default globs are in use; a config that reads them ends it', async () => {
    const dir = makeRepo(
      {
        'thoughts/shared/plans/2026-11-20-export.md': PLAN,
        'thoughts/ana/plans/2026-11-21-import.md': PLAN,
        'thoughts/ana/plans/old/2026-10-01-sync.md': PLAN,
        'thoughts/searchable/ana/plans/2026-11-21-import.md': PLAN,
      },
      { commit: true },
    );
    const res = await runCliHere(dir, ['--no-history']);
    expect(res.stderr).toContain(
      'validate-workflow: 2 plans in personal folders (thoughts/ana/plans/) are not judged: add `thoughts/*/plans/**/*.md` to `paths.plans` in validate-workflow.config.json to judge them.',
    );
    const configured = makeRepo(
      {
        'thoughts/ana/plans/2026-11-21-import.md': PLAN,
        'validate-workflow.config.json': JSON.stringify({ paths: { plans: ['thoughts/*/plans/**/*.md'] } }),
      },
      { commit: true },
    );
    expect((await runCliHere(configured, ['--no-history'])).stderr).not.toContain('personal folders');
  });

  it("follow a person's folder that is a symbolic link, and are said when they are the only plans", async () => {
    const dir = makeRepo({ 'README.md': '# x\n' }, { commit: true });
    const outside = makeRepo({ 'plans/2026-11-21-import.md': PLAN });
    mkdirSync(join(dir, 'thoughts'));
    symlinkSync(outside, join(dir, 'thoughts', 'carol'));
    const res = await runCliHere(dir, ['--no-history']);
    expect(res.stdout + res.stderr).toContain('no workflow files found');
    expect(res.stdout + res.stderr).toContain(
      'validate-workflow: 1 plan in personal folders (thoughts/carol/plans/) is not judged: add `thoughts/*/plans/**/*.md`',
    );
  });
});
