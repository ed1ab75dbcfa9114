// The safety promises of `verify`: a Ctrl-C in the middle of a command stops it and removes the worktree, and no
// door but the verify command (and the Action, through it) can reach the engine that runs commands: the git hooks
// and the Claude Code hook never run one.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, git, makeRepo, writeFiles } from '../helpers/repo.js';

const PLAN = 'thoughts/shared/plans/2026-11-27-hang.md';
const plan = (ticked: boolean) =>
  `# Hang Implementation Plan\n\n## Phase 1: Serve\n\n- [${ticked ? 'x' : ' '}] Task 1: Serve\n\n### Success Criteria:\n\n#### Automated Verification:\n\n- [${ticked ? 'x' : ' '}] Serves: \`node serve.js\`\n\n#### Manual Verification:\n\n- [ ] Looks right\n`;

describe('verify interrupted', () => {
  it('stops the running command and removes its worktree on Ctrl-C (SIGINT)', async () => {
    const dir = makeRepo({
      'validate-workflow.config.json': '{ "verify": { "allow": ["node serve.js"] } }\n',
      // Writes its pid where the test can find it, then runs until stopped.
      'serve.js':
        "require('fs').writeFileSync(process.env.PID_FILE, String(process.pid)); setInterval(() => {}, 1000);\n",
      [PLAN]: plan(false),
    });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'Plan');
    writeFiles(dir, { [PLAN]: plan(true) });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'Task 1', '--author', 'Claude <noreply@anthropic.com>');
    const pidFile = join(dir, '.git', 'serve.pid');
    const child = spawn(process.execPath, [CLI, 'verify'], { cwd: dir, env: { ...process.env, PID_FILE: pidFile } });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const deadline = Date.now() + 30_000;
    while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(pidFile), stderr).toBe(true);
    const served = Number(readFileSync(pidFile, 'utf8'));
    const listed = git(dir, 'worktree', 'list', '--porcelain').match(/^worktree (.*)$/gm)!;
    expect(listed).toHaveLength(2);
    const tree = listed[1]!.slice('worktree '.length);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(130);
    expect(git(dir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(existsSync(tree)).toBe(false);
    // The command and everything it started are gone (or dead and waiting for init to reap them).
    const gone = () => {
      try {
        process.kill(served, 0);
      } catch {
        return true;
      }
      const stat = existsSync(`/proc/${served}/stat`) ? readFileSync(`/proc/${served}/stat`, 'utf8') : '';
      return / Z /.test(stat.slice(stat.lastIndexOf(')')));
    };
    const until = Date.now() + 5000;
    while (!gone() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(gone()).toBe(true);
  });
});

describe('who may run commands', () => {
  it('only the verify command reaches src/verify/ (the hooks and the Claude Code hook never do)', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : [],
      );
    const importers = files(src)
      .filter((f) => !relative(src, f).startsWith(`verify${sep}`))
      .filter((f) => /from '\.\.\/verify\/|import\('\.\.\/verify\//.test(readFileSync(f, 'utf8')))
      .map((f) => relative(src, f).split(sep).join('/'));
    expect(importers).toEqual(['cli/verify.ts']);
  });
});
