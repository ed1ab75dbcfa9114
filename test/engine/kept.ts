// What the tests of the commit doors' memories share (change-models.test.ts, head-memory.test.ts): where the doors
// keep what they saw, a repository whose last commit went through pre-commit, and the same change judged with
// nothing kept, whose verdict the kept memories must give.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { AGENT, ANA, PLAN, Repo, cli, messageFile, phaseOneReady, planDoc, type CliJson } from '../history/helpers.js';

export const TIMING = { VALIDATE_WORKFLOW_TIMING: '1' };
export const memoryOf = (repo: Repo) => join(repo.dir, '.git/validate-workflow/change-models.json');
export const cacheOf = (repo: Repo) => join(repo.dir, '.git/validate-workflow/cache.pack');
export const verdict = (r: CliJson) => ({ code: r.code, results: r.results });

/** The file with its body's digest made again, as anyone who writes the git folder can. */
export function redigested(text: string): string {
  const body = text.slice(text.indexOf('\n') + 1);
  return `${createHash('sha1').update(body).digest('hex')}\n${body}`;
}

/** Ana's plan; the agent's tasks of phase 1 judged by pre-commit and committed: the commit door kept the plan. */
export function committed(): Repo {
  const repo = Repo.create();
  repo.commit('Plan the auth flow', { [PLAN]: planDoc({ frontmatter: ['mode: direct'] }) }, { author: ANA });
  repo.stage({ [PLAN]: phaseOneReady() });
  const staged = cli(repo.dir, ['--staged'], repo.env(ANA));
  expect(staged.code, staged.stderr).toBe(0);
  repo.commitStaged('Phase 1 done', AGENT);
  return repo;
}

/** The staged change judged by commit-msg with nothing kept: no change models, no cache. */
export function coldly(repo: Repo): CliJson {
  rmSync(memoryOf(repo), { force: true });
  rmSync(cacheOf(repo), { force: true });
  return cli(repo.dir, ['commit-msg', messageFile('Phase 1 verified', AGENT)], { ...TIMING, ...repo.env(ANA) });
}
