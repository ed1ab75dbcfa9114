// Issue 20, the Claude Code hook round 3, in real repositories with real payloads.
// - Case 6: `sed -i ... && git commit -n -am ...` in one Bash call leaves a clean working tree; PostToolUse and Stop
//   judge the commits made since the session began (HEAD recorded at SessionStart; else `@{upstream}..HEAD`).
// - Case 7: a Write to the target of a plan committed as a symbolic link is an edit of that plan.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, writeFiles } from '../helpers/repo.js';
import { PLAN, decision, hook, postBash, preToolUse, read, sessionStart, stop, workflowRepo } from './helpers.js';

const MANUAL = '- [ ] Phase 1 works in the browser';
const checked = (text: string) => text.replace(MANUAL, MANUAL.replace('[ ]', '[x]'));
const AGENT = ['-c', 'user.name=Claude', '-c', 'user.email=noreply@anthropic.com'];

describe('case 6: a commit made inside one Bash call', () => {
  it('PostToolUse and Stop judge the commits since SessionStart, though the working tree is clean', async () => {
    const dir = workflowRepo();
    expect((await hook(sessionStart(dir))).code).toBe(0);
    // What `sed -i ... && git commit -n -am "..."` leaves: a clean tree, the check-off in a new commit.
    writeFiles(dir, { [PLAN]: checked(read(dir, PLAN)) });
    git(dir, ...AGENT, 'commit', '-q', '-n', '-am', 'Phase 1 verified');
    expect(git(dir, 'status', '--porcelain').trim()).toBe('');
    const post = await hook(
      postBash(
        dir,
        `sed -i 's/- \\[ \\] Phase 1 works/- [x] Phase 1 works/' ${PLAN} && git commit -n -am "Phase 1 verified"`,
      ),
    );
    expect(post.json).toMatchObject({ decision: 'block' });
    expect(String(post.json!.reason)).toContain(
      'Manual item "Phase 1 works in the browser" is checked without a human\'s confirmation',
    );
    expect(String(post.json!.reason)).toContain('(history/manual-confirmation)');
    const end = await hook(stop(dir));
    expect(end.json).toMatchObject({
      decision: 'block',
      reason: expect.stringContaining('history/manual-confirmation'),
    });
  });

  it('without a recorded start, the commits not yet pushed (`@{upstream}..HEAD`) are judged', async () => {
    const dir = workflowRepo();
    const remote = join(dir, '..', `${dir.split('/').pop()}-remote.git`);
    git(dir, 'init', '-q', '--bare', remote);
    git(dir, 'remote', 'add', 'origin', remote);
    git(dir, 'push', '-q', '-u', 'origin', 'HEAD:refs/heads/main');
    writeFiles(dir, { [PLAN]: checked(read(dir, PLAN)) });
    git(dir, ...AGENT, 'commit', '-q', '-n', '-am', 'Phase 1 verified');
    const end = await hook(stop(dir));
    expect(end.json).toMatchObject({
      decision: 'block',
      reason: expect.stringContaining('history/manual-confirmation'),
    });
    rmSync(remote, { recursive: true, force: true });
  });

  it('honest: a commit since the session began that breaks nothing is not reported', async () => {
    const dir = workflowRepo();
    await hook(sessionStart(dir));
    writeFiles(dir, { 'README.md': '# Notes\n' });
    git(dir, 'add', 'README.md');
    git(dir, ...AGENT, 'commit', '-q', '-n', '-m', 'Notes');
    expect(await hook(postBash(dir, 'git commit -n -m Notes'))).toMatchObject({ code: 0, stdout: '' });
    expect(await hook(stop(dir))).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('case 7: a plan committed as a symbolic link', () => {
  /** The plan moved to docs/ and a symbolic link left at its path, committed (with `extra`). */
  function linked(extra: Record<string, string> = {}): { dir: string; target: string } {
    const dir = workflowRepo(extra);
    const target = 'docs/auth-plan.md';
    writeFiles(dir, { [target]: read(dir, PLAN) });
    git(dir, 'rm', '-q', PLAN);
    mkdirSync(dirname(join(dir, PLAN)), { recursive: true });
    symlinkSync(relative(dirname(join(dir, PLAN)), join(dir, target)), join(dir, PLAN));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'Keep the plan with the docs');
    return { dir, target };
  }

  it('a Write to the target that checks a manual item is denied at PreToolUse, and blocks Stop when made otherwise', async () => {
    const { dir, target } = linked();
    const run = await hook(preToolUse(dir, 'Write', { file_path: target, content: checked(read(dir, target)) }));
    expect(decision(run)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('Phase 1 works in the browser'),
    });
    writeFiles(dir, { [target]: checked(read(dir, target)) });
    const end = await hook(stop(dir));
    expect(end.json).toMatchObject({
      decision: 'block',
      reason: expect.stringContaining('history/manual-confirmation'),
    });
  });

  it('is found where the plans glob names no folder: git is asked about the whole tree', async () => {
    // `**/plans/*.md` has no static folder: the links were looked for only under the other globs' folders.
    const { dir, target } = linked({
      'validate-workflow.config.json': JSON.stringify({ paths: { plans: ['**/plans/*.md'] } }),
    });
    const run = await hook(preToolUse(dir, 'Write', { file_path: target, content: checked(read(dir, target)) }));
    expect(decision(run)).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining('Phase 1 works in the browser'),
    });
  });

  it('honest: a Write to the target that changes prose only is allowed', async () => {
    const { dir, target } = linked();
    const run = await hook(preToolUse(dir, 'Write', { file_path: target, content: `${read(dir, target)}\nA note.\n` }));
    expect(decision(run)).toBeNull();
  });
});
