// The GitHub Action's entry point (action.yml runs it in the checked-out repository): run.ts's work with this
// process's streams, and the CLI that ships beside it (dist/bundle/main.js) in a child process, once per output.
// The repeat runs are cheap: the first run leaves the parsed models and the judged history in .git/validate-workflow/,
// and a warm run of this repository's own 144 commits took 0.5 s against 2.7 s cold.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FAILURE, runAction, type CliRunner } from './run.js';
import { escapeData } from '../report/github.js';

const CLI = fileURLToPath(new URL('../bundle/main.js', import.meta.url));

/** The CLI as a child process; shown, its output goes straight to this process's (the log's annotations). */
const cli: CliRunner = (args, { cwd, env, show }) =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env,
      stdio: ['ignore', show ? 'inherit' : 'pipe', show ? 'inherit' : 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    child.on('close', (code) =>
      done({
        code: code ?? FAILURE,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });

process.exitCode = await runAction(process.env, process.cwd(), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cli,
}).catch((err: Error) => {
  process.stdout.write(`::error::${escapeData(`validate-workflow action: internal error: ${err.message}`)}\n`);
  return FAILURE;
});
