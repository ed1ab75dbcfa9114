// Stop and PostToolUse (Bash): an agent can change files without an Edit hook (`sed -i`, `git rm`), so at the end of
// its turn, and after each Bash command, the hook compares the working tree with HEAD.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, writeFiles } from '../helpers/repo.js';
import {
  LEDGER,
  PLAN,
  handoffPath,
  hook,
  postBash,
  read,
  stop,
  strictRepo,
  taskHandoff,
  workflowRepo,
} from './helpers.js';

const MANUAL = '- [ ] Phase 1 works in the browser';

/** What `sed -i 's/- \[ \] Phase 1 works/- [x] Phase 1 works/'` leaves on disk. */
function sedCheckManual(dir: string): void {
  writeFiles(dir, { [PLAN]: read(dir, PLAN).replace(MANUAL, MANUAL.replace('[ ]', '[x]')) });
}

describe('Stop', () => {
  it('allows the stop silently when the working tree is clean or its changes are fine', async () => {
    const dir = workflowRepo();
    expect(await hook(stop(dir))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // Task 2 checked with its handoff, the ledger updated: what an agent should leave.
    writeFiles(dir, {
      [PLAN]: read(dir, PLAN).replace('- [ ] Task 2:', '- [x] Task 2:'),
      [handoffPath(2)]: taskHandoff(2, { task_total: 4 }),
      [LEDGER]: read(dir, LEDGER).replace('- [→] Task 2', '- [x] Task 2'),
    });
    expect(await hook(stop(dir))).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('blocks after `sed -i` checked a manual item, with the reason; then lets go when the agent reverted it', async () => {
    const dir = workflowRepo();
    sedCheckManual(dir);
    const run = await hook(stop(dir));
    // The rule's own words, as commit-msg prints them: the item, why it does not count, and what to do.
    expect(run.json).toEqual({
      decision: 'block',
      reason: expect.stringContaining(
        'Manual item "Phase 1 works in the browser" is checked without a human\'s confirmation',
      ),
    });
    expect(String(run.json!.reason)).toContain(`confirm ${PLAN} --phase 1`);
    expect(String(run.json!.reason)).toContain('(history/manual-confirmation)');
    // The agent unchecks it: the next stop (stop_hook_active, since the hook sent it back) goes through.
    writeFiles(dir, { [PLAN]: read(dir, PLAN).replace(MANUAL.replace('[ ]', '[x]'), MANUAL) });
    expect(await hook(stop(dir, true))).toMatchObject({ code: 0, stdout: '' });
  });

  it('does not block twice in a row for the same reasons: the second time it tells the user instead', async () => {
    const dir = workflowRepo();
    sedCheckManual(dir);
    expect((await hook(stop(dir))).json).toMatchObject({ decision: 'block' });
    const again = await hook(stop(dir, true));
    expect(again.json).not.toHaveProperty('decision');
    expect(again.json).toEqual({ systemMessage: expect.stringContaining('Phase 1 works in the browser') });
    // A new turn (stop_hook_active false) blocks again: the violation is still there.
    expect((await hook(stop(dir))).json).toMatchObject({ decision: 'block' });
  });

  it('blocks again within the loop when the violations changed', async () => {
    const dir = workflowRepo();
    sedCheckManual(dir);
    expect((await hook(stop(dir))).json).toMatchObject({ decision: 'block' });
    git(dir, 'rm', '-q', handoffPath(1));
    const run = await hook(stop(dir, true));
    expect(run.json).toMatchObject({ decision: 'block' });
    expect(String(run.json!.reason)).toContain(`Handoff ${handoffPath(1)} was deleted.`);
  });

  it('blocks for a deleted handoff, a task checked without a handoff, and a rewritten frontmatter where that is an error', async () => {
    const dir = workflowRepo();
    rmSync(join(dir, handoffPath(1)));
    writeFiles(dir, { [PLAN]: read(dir, PLAN).replace('- [ ] Task 2:', '- [x] Task 2:') });
    const run = await hook(stop(dir));
    const reason = String(run.json!.reason);
    expect(reason).toContain(`git restore --source=HEAD --staged --worktree -- ${handoffPath(1)}`);
    expect(reason).toContain('Task 2 is checked complete but has no task handoff');

    // A rewritten frontmatter is a warning in `recommended`: the git hooks pass it, so Stop does too (the hook
    // blocks for exactly what the hooks refuse). With `strict` committed it is an error, and Stop blocks.
    const other = workflowRepo();
    writeFiles(other, {
      [handoffPath(1)]: read(other, handoffPath(1)).replace(
        /context_for_next: .*/,
        'context_for_next: Changed my mind.',
      ),
    });
    expect((await hook(stop(other))).stdout).toBe('');
    const strict = strictRepo();
    writeFiles(strict, {
      [handoffPath(1)]: read(strict, handoffPath(1)).replace(
        /context_for_next: .*/,
        'context_for_next: Changed my mind.',
      ),
    });
    expect(String((await hook(stop(strict))).json!.reason)).toContain('`context_for_next`');
  });
});

describe('PostToolUse (Bash)', () => {
  it('reports what a command broke once, not after every later command, and again when it changes', async () => {
    const dir = workflowRepo();
    expect((await hook(postBash(dir, 'npm test'))).stdout).toBe('');
    git(dir, 'rm', '-q', handoffPath(1));
    const first = await hook(postBash(dir, `git rm ${handoffPath(1)}`));
    expect(first.json).toEqual({
      decision: 'block',
      reason: expect.stringContaining(`Handoff ${handoffPath(1)} was deleted.`),
    });
    expect((await hook(postBash(dir, 'ls'))).stdout).toBe('');
    sedCheckManual(dir);
    expect((await hook(postBash(dir, 'sed -i ...'))).json).toMatchObject({ decision: 'block' });
  });

  it('ignores PostToolUse of other tools', async () => {
    const dir = workflowRepo();
    sedCheckManual(dir);
    const payload = JSON.stringify({
      session_id: 's',
      cwd: dir,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: {},
      tool_response: {},
    });
    expect(await hook(payload)).toMatchObject({ code: 0, stdout: '' });
  });
});
