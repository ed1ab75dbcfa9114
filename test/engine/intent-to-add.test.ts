// `git add -N` puts an entry in the index with the empty blob, which `git diff --cached` leaves out and `git commit`
// does not record. The commit doors list the index, so such a plan was judged as an empty file that the commit was
// about to hold: a finding on a file that is not empty on disk and was never going to be committed. A plan really
// staged empty is still reported. Real repositories, the engine in this process.
import { describe, expect, it } from 'vitest';
import { ANA, CONFIG, PLAN, Repo, door, phaseOneReady } from '../history/helpers.js';

const NEXT = 'thoughts/shared/plans/2026-11-24-next.md';
const files = (res: { results: { file: string | null }[] }) => res.results.map((f) => f.file);

describe('an intent-to-add entry in the index', () => {
  it('is no file of the commit being judged; a plan staged empty is', async () => {
    const repo = Repo.create();
    repo.commit('Adopt', { [CONFIG]: '{}\n', [PLAN]: phaseOneReady() }, { author: ANA });
    // A change the doors judge in full (a Markdown file), beside the intent-to-add plan.
    repo.stage({ 'docs/notes.md': '# Notes\n' });
    repo.write({ [NEXT]: phaseOneReady() });
    repo.git('add', '-N', NEXT);
    expect(repo.git('diff', '--cached', '--name-only').trim()).toBe('docs/notes.md');
    expect(files(await door(repo.dir, ['--staged']))).not.toContain(NEXT);

    // The same path staged with no content: the commit will hold an empty plan.
    repo.git('reset', '-q', '--', NEXT);
    repo.stage({ [NEXT]: '' });
    const empty = await door(repo.dir, ['--staged']);
    expect(empty.results.filter((f) => f.file === NEXT).map((f) => f.message)).toContain('File is empty.');
  });

  it('over a path HEAD holds is the deletion git records', async () => {
    const repo = Repo.create();
    repo.commit('Adopt', { [CONFIG]: '{}\n', [PLAN]: phaseOneReady() }, { author: ANA });
    repo.git('rm', '-q', '--cached', PLAN);
    repo.git('add', '-N', PLAN);
    expect(repo.git('diff', '--cached', '--name-status').trim()).toBe(`D\t${PLAN}`);
    const res = await door(repo.dir, ['--staged']);
    expect(res.results.filter((f) => f.message === 'File is empty.')).toEqual([]);
  });
});
