// What the install-route tests share: this repository as GitHub would serve it (a stand-in git repository), and the
// protocol every route must gate the same way: an agent's check of a manual item refused, a human's confirmation
// accepted, both through real `git commit` calls and whatever hooks the route installed. Not a test file.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { CLAUDE, LEDGER, PLAN, handoffPath, ident, ledgerDoc, planDoc, taskHandoff } from '../history/helpers.js';
import { commit, git, identity, must, PROJECT, tempDir, type Run } from '../hooks/setup.js';

/**
 * A git repository whose one commit is this working tree (tracked and untracked files, not ignored ones), standing
 * in for github.com/validate-workflow/validate-workflow: what a user installs from it is what is checked out here,
 * uncommitted changes included.
 */
export function standIn(): { dir: string; sha: string } {
  const dir = tempDir('vw-standin-');
  const files = must(PROJECT, 'git', ['ls-files', '-z', '-co', '--exclude-standard']).split('\0');
  for (const file of files) {
    if (!file || !existsSync(join(PROJECT, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(PROJECT, file), join(dir, file));
  }
  git(dir, 'init', '-q', '-b', 'main');
  identity(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--no-verify', '-m', 'validate-workflow as published');
  return { dir, sha: git(dir, 'rev-parse', 'HEAD').trim() };
}

function stage(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'add', '-A');
}

const AS_CLAUDE = `--author=${ident(CLAUDE)}`;

/**
 * In a repository the route set up (its adoption committed): Ana plans, Claude does tasks 1 and 2 with their
 * handoffs, all through the hooks, which let that through; then Claude checks phase 1's manual item (refused, nothing
 * recorded) and Ana commits the same change as her confirmation (accepted).
 */
export function gate(dir: string, env: NodeJS.ProcessEnv = {}): { refused: Run; accepted: Run } {
  const ok = (res: Run) => expect(res.code, res.out).toBe(0);
  stage(dir, { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() });
  ok(commit(dir, ['-m', 'Plan the auth flow'], env));
  stage(dir, { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) });
  ok(commit(dir, [AS_CLAUDE, '-m', 'Task 1'], env));
  stage(dir, {
    [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }),
    [handoffPath(2)]: taskHandoff(2),
    [LEDGER]: ledgerDoc([1, 2]),
  });
  ok(commit(dir, [AS_CLAUDE, '-m', 'Task 2'], env));
  stage(dir, { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
  const head = git(dir, 'rev-parse', 'HEAD');
  const refused = commit(dir, [AS_CLAUDE, '-m', 'Phase 1 verified'], env);
  expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
  expect(git(dir, 'diff', '--cached', '--name-only').trim()).toBe(PLAN);
  const accepted = commit(dir, ['-m', 'Phase 1 verified', '-m', 'Confirmed-by: Ana Human <ana@example.com>'], env);
  return { refused, accepted };
}

/** What a refused check-off shows, whatever ran the hook. */
export function expectGate({ refused, accepted }: { refused: Run; accepted: Run }): void {
  expect(refused.code, refused.out).not.toBe(0);
  expect(refused.out).toContain('history/manual-confirmation');
  expect(refused.out).toContain('commit refused');
  expect(accepted.code, accepted.out).toBe(0);
}
