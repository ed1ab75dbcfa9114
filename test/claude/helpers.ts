// Hook payloads as Claude Code sends them (common fields plus each event's own) and the hook run in-process with
// its own streams, in real repositories. Not a test file itself.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeHook } from '../../src/cli/claude-hook.js';
import type { Io } from '../../src/cli/io.js';
import { git, makeRepo, writeFiles } from '../helpers/repo.js';
import { scratchDir } from '../helpers/scratch.js';
import { LEDGER, PLAN, handoffPath, ledger, plan, taskHandoff, type Files } from '../rules/fixtures.js';

export { LEDGER, PLAN, handoffPath, ledger, plan, taskHandoff };

export const SESSION_ID = '8f1d2c3b-4a5e-4f60-9b7a-0c1d2e3f4a5b';

export interface HookRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, or null when the hook printed nothing. */
  json: Record<string, unknown> | null;
}

export function common(dir: string, event: string): Record<string, unknown> {
  return {
    session_id: SESSION_ID,
    transcript_path: `/home/user/.claude/projects/repo/${SESSION_ID}.jsonl`,
    cwd: dir,
    permission_mode: 'default',
    hook_event_name: event,
  };
}

/** A PreToolUse payload: tool_input as the tool received it, file_path absolute as Claude Code sends it. */
export function preToolUse(dir: string, tool: 'Edit' | 'Write' | 'MultiEdit', input: Record<string, unknown>): string {
  const file = input.file_path as string;
  return JSON.stringify({
    ...common(dir, 'PreToolUse'),
    tool_name: tool,
    tool_input: { ...input, file_path: join(dir, file) },
    tool_use_id: 'toolu_01ABCdefGHIjklMNOpqrSTU',
  });
}

export function stop(dir: string, stopHookActive = false): string {
  return JSON.stringify({ ...common(dir, 'Stop'), stop_hook_active: stopHookActive, last_assistant_message: 'Done.' });
}

export function postBash(dir: string, command: string): string {
  return JSON.stringify({
    ...common(dir, 'PostToolUse'),
    tool_name: 'Bash',
    tool_input: { command, description: 'Run a command' },
    tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false },
    tool_use_id: 'toolu_01BashBashBashBashBash',
  });
}

export function sessionStart(dir: string, source = 'startup'): string {
  return JSON.stringify({ ...common(dir, 'SessionStart'), source, model: 'claude-sonnet-4-5' });
}

export async function hook(input: string, cwd = process.cwd()): Promise<HookRun> {
  let stdout = '';
  let stderr = '';
  const io: Io = { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false, env: {} };
  const code = await claudeHook(input, io);
  return { code, stdout, stderr, json: stdout.trim() ? (JSON.parse(stdout) as Record<string, unknown>) : null };
}

/** The PreToolUse decision as Claude Code reads it: null when the hook allowed by saying nothing. */
export function decision(run: HookRun): { permissionDecision: string; permissionDecisionReason: string } | null {
  if (!run.json) return null;
  const out = run.json.hookSpecificOutput as {
    hookEventName: string;
    permissionDecision: string;
    permissionDecisionReason: string;
  };
  if (out.hookEventName !== 'PreToolUse') throw new Error(`not a PreToolUse answer: ${run.stdout}`);
  return out;
}

/** Each repository committed once per test file, copied per test (a scratch folder, so gone after the file). */
const committed = new Map<string, string>();

function copyOf(name: string, make: () => string): string {
  let template = committed.get(name);
  if (template === undefined || !existsSync(template)) committed.set(name, (template = make()));
  const dir = scratchDir('vw-test-');
  cpSync(template, dir, { recursive: true });
  return dir;
}

/**
 * A committed workflow in orchestration mode (4 tasks): the plan, the session ledger, the handoff of task 1 with
 * task 1 checked. `extra` files are written after the commit (left uncommitted).
 */
export function workflowRepo(extra: Files = {}): string {
  const dir = copyOf('workflow', committedWorkflow);
  writeFiles(dir, extra);
  return dir;
}

function committedWorkflow(): string {
  return makeRepo(
    {
      [PLAN]: plan({ checked: [1] }),
      [LEDGER]: ledger({
        state: [
          '- [x] Task 1: Do step 1',
          '- [→] Task 2: Do step 2',
          '- [ ] Task 3: Do step 3',
          '- [ ] Task 4: Do step 4',
        ],
      }),
      [handoffPath(1)]: taskHandoff(1, { task_total: 4 }),
    },
    { commit: true },
  );
}

export function read(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

/** The workflow repository with `preset: strict` committed (the hook reads settings from HEAD). */
export function strictRepo(): string {
  return copyOf('strict', () => {
    const dir = workflowRepo({ 'validate-workflow.config.json': '{ "preset": "strict" }\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'strict');
    return dir;
  });
}
