// A report piped into a reader that stops early (`validate-workflow | head -1`): the closed pipe is no crash, no
// stack trace, and the exit code still says that there were errors.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, makeRepo } from '../helpers/repo.js';

describe('a closed stdout', () => {
  it('stops quietly when the reader of a long report goes away', async () => {
    // 400 plans, each with a task numbering error: a report far longer than a pipe's buffer.
    const files = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [
        `thoughts/shared/plans/2026-11-20-plan-${i}.md`,
        `# Plan ${i}\n\n## Phase 1: Work\n\n- [ ] Task 1: Start\n- [ ] Task 3: Skip one\n`,
      ]),
    );
    const dir = makeRepo(files, { commit: true });
    const child = spawn(process.execPath, [CLI, '--no-history'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    let first = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Like `head -c`: read the first chunk, then close the pipe.
    child.stdout.once('data', (d: Buffer) => {
      first = d.toString();
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first).toContain('plan/task-numbering');
    expect(stderr).toBe('');
    expect(code).toBe(1);
  });
});
