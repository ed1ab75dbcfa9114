// Answers asked ahead of their use (issue 22: a pre-commit's git processes run while it works). Each is taken once,
// by the first question of the same kind, and never outlives that: a later question asks git again.
import { describe, expect, it } from 'vitest';
import { ask, askEarly, dropEarly, repositoryAndHead, repositoryAndHeadLent } from '../../src/shared/git.js';
import { git, makeRepo, writeFiles } from '../helpers/repo.js';

function commitNote(dir: string, subject: string): string {
  writeFiles(dir, { [`${subject}.md`]: `${subject}\n` });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', subject);
  return git(dir, 'rev-parse', 'HEAD').trim();
}

describe('a git question asked early', () => {
  it('answers the first ask of the same question, as git answered it then, and only that one', async () => {
    const dir = makeRepo({ 'a.md': 'a\n' }, { commit: true });
    const question = ['log', '-1', '--format=%s'];
    // Answered before the repository moves on.
    await askEarly(dir, question);
    commitNote(dir, 'second');
    expect((await ask(dir, question)).out.trim()).toBe('initial');
    expect((await ask(dir, question)).out.trim()).toBe('second');
  });

  it('is not taken once the run dropped it', async () => {
    const dir = makeRepo({ 'a.md': 'a\n' }, { commit: true });
    const question = ['log', '-1', '--format=%s'];
    await askEarly(dir, question);
    dropEarly(dir);
    commitNote(dir, 'second');
    expect((await ask(dir, question)).out.trim()).toBe('second');
  });

  it('is not taken by another question, nor by one from another folder', async () => {
    const dir = makeRepo({ 'a.md': 'a\n' }, { commit: true });
    const other = makeRepo({ 'b.md': 'b\n' });
    askEarly(dir, ['log', '-1', '--format=%s']);
    expect((await ask(dir, ['log', '-1', '--format=%an'])).out.trim()).toBe('Test Human');
    expect((await ask(other, ['log', '-1', '--format=%s'])).ok).toBe(false);
  });
});

describe("the repository and HEAD lent to the command line's first question", () => {
  it('is taken once from the same folder; the next question sees where HEAD is now', () => {
    const dir = makeRepo({ 'a.md': 'a\n' }, { commit: true });
    const first = git(dir, 'rev-parse', 'HEAD').trim();
    expect(repositoryAndHeadLent(dir)?.head).toBe(first);
    const second = commitNote(dir, 'second');
    expect(repositoryAndHead(dir)?.head).toBe(first);
    expect(repositoryAndHead(dir)?.head).toBe(second);
  });
});
