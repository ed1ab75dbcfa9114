// One command run in a worktree: through the shell (the commands are written for one), in its own process group so a
// time limit stops everything it started (`npm test` runs a shell that runs node that may run more), with its output
// captured up to a cap (a test suite can print megabytes; the report needs its last lines).
import { spawn } from 'node:child_process';

export type Ran =
  | { outcome: 'passed'; ms: number; output: string }
  | { outcome: 'failed'; code: number | null; signal: string | null; ms: number; output: string }
  | { outcome: 'timed-out'; ms: number; output: string };

/** Output kept per command: the last this many bytes. */
export const OUTPUT_CAP = 64 * 1024;
/** After the limit, SIGTERM; this long after, SIGKILL for whatever did not listen. */
const GRACE_MS = 2000;

/** Processes still running, so an interrupted run can stop them (worktrees.ts). */
const running = new Set<number>();

export function stopAll(): void {
  for (const pid of running) kill(pid, 'SIGKILL');
  running.clear();
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    // The whole group: the shell and everything it started.
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}

export function runCommand(
  command: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Ran> {
  return new Promise((resolve) => {
    const start = Date.now();
    const child = spawn(command, {
      cwd: opts.cwd,
      env: opts.env,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    let kept = Buffer.alloc(0);
    const keep = (chunk: Buffer) => {
      kept = Buffer.concat([kept, chunk]);
      if (kept.length > OUTPUT_CAP) kept = kept.subarray(kept.length - OUTPUT_CAP);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    if (child.pid !== undefined) running.add(child.pid);
    let timedOut = false;
    let hard: NodeJS.Timeout | undefined;
    const limit = setTimeout(() => {
      timedOut = true;
      if (child.pid === undefined) return;
      kill(child.pid, 'SIGTERM');
      hard = setTimeout(() => kill(child.pid!, 'SIGKILL'), GRACE_MS);
    }, opts.timeoutMs);
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      if (hard) clearTimeout(hard);
      if (child.pid !== undefined) running.delete(child.pid);
      const ms = Date.now() - start;
      const output = kept.toString('utf8');
      const { code, signal } = exit ?? { code: 127, signal: null };
      if (timedOut) resolve({ outcome: 'timed-out', ms, output });
      else if (code === 0) resolve({ outcome: 'passed', ms, output });
      else resolve({ outcome: 'failed', code, signal, ms, output });
    };
    child.on('error', (err) => {
      keep(Buffer.from(`${err.message}\n`));
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the command started and left running (a server, a watcher) would hold the pipes open and the run
      // with them: the group goes with its shell.
      if (child.pid !== undefined) kill(child.pid, 'SIGKILL');
    });
    // After 'exit' and the pipes' end, so the last output is kept.
    child.on('close', finish);
  });
}

/** The last `lines` non-empty lines of an output, each cut to a readable width. */
export function lastLines(output: string, lines = 10): string[] {
  return (
    output
      // Colour codes a test runner prints: the report is no terminal.
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g'), '')
      .split(/\r?\n|\r/)
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== '')
      .slice(-lines)
      .map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l))
  );
}
