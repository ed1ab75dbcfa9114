// The command line as a function of this process: its arguments, streams and environment. Two files start it: the
// `validate-workflow` bin (main.ts, an ES module) and the hooks' start (fast-start.ts, which loads it from one
// CommonJS file with V8's code cache). One body here, so both run the same program.
import { EXIT, wantsColor, type Io } from './io.js';

// For the hooks' start: whether the run parsed Markdown, which decides the code cache it keeps (cli/fast-start.ts).
export { parsedMarkdown } from '../read/lazy.js';

/** This process's streams and environment as an Io; a reader that closes the pipe early ends the run quietly. */
export function processIo(): Io {
  // A reader that stops early (`| head`) closes the pipe: the report is not wanted any more, which is no failure of
  // the tool and no reason for a stack trace. The exit code is the run's, as far as it got.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? EXIT.ok);
  });
  return {
    cwd: process.cwd(),
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    color: wantsColor({ env: process.env, tty: Boolean(process.stdout.isTTY) }),
    env: process.env,
    stderrTTY: Boolean(process.stderr.isTTY),
  };
}

/** Runs the command line on `argv` and returns its exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  // The commit-msg hook takes pre-commit's verdict through a door that loads no more than that needs (commit-msg.ts);
  // everything else, and commit-msg when there is no verdict to take, through the command line.
  // The pre-commit hook, where lint-staged is installed, judges the index and runs lint-staged in one process.
  const taken =
    argv[0] === 'commit-msg'
      ? await (await import('./commit-msg.js')).commitMsgFromVerdict(argv, io)
      : argv[0] === 'pre-commit'
        ? await (await import('./pre-commit.js')).preCommit(argv, io)
        : null;
  const code = taken ?? (await (await import('./run.js')).run(argv, io));
  // The bench reads peak memory this way: the process's own high-water mark, worker threads included.
  if (process.env.VALIDATE_WORKFLOW_TIMING)
    process.stderr.write(`timing peak rss: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`);
  return code;
}
