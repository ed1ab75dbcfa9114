// The GitHub Action's entry point (action.yml runs it in the checked-out repository). It runs the CLI that ships
// beside it (dist/bundle/main.js) once per output, rather than calling the engine itself: the CLI is the one door
// whose exit codes, messages, --summary and formats users already know, and the action stays a thin wrapper with
// no judgement of its own. The repeat runs are cheap: the first run leaves the parsed models and the judged history
// in .git/validate-workflow/, and a warm run of this repository's own 144 commits took 0.5 s against 2.7 s cold.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeData } from '../report/github.js';
import { ApiError, upsertComment } from './comment.js';
import { eventFacts } from './event.js';
import { InputError, parseInputs, type ActionInputs } from './inputs.js';

const CLI = fileURLToPath(new URL('../bundle/main.js', import.meta.url));

/** The CLI's exit codes (src/cli/io.ts): 1 is findings, 2 a usage error or a failure of the tool. */
const FINDINGS = 1;
const FAILURE = 2;

const say = (text: string) => process.stdout.write(text);
/** A workflow command (`::error::`, `::warning::`, `::notice::`): shown in the log and as an annotation. */
const command = (kind: 'error' | 'warning' | 'notice', text: string) => say(`::${kind}::${escapeData(text)}\n`);

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI with `args`; `show` streams its output into the log (annotations), otherwise it is collected. */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv, show: boolean): Promise<Ran> {
  return new Promise((done, fail) => {
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
}

/** core.setOutput: the heredoc form, so no value can end the entry early. */
function setOutput(env: NodeJS.ProcessEnv, name: string, value: string): void {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

/** The CLI failed as a tool, not on findings: its own message is in `ran.stderr` (or already in the log). */
function failed(what: string, ran: Ran): number {
  if (ran.stderr) process.stderr.write(ran.stderr);
  command(
    'error',
    `validate-workflow ${what} exited ${ran.code}${ran.stderr ? `: ${ran.stderr.trim().split('\n')[0]}` : ' (see the log above)'}`,
  );
  return FAILURE;
}

async function comment(
  inputs: ActionInputs,
  env: NodeJS.ProcessEnv,
  pullRequest: number,
  report: string,
): Promise<void> {
  if (!inputs.token)
    return void command('warning', 'comment: no token (input "token" is empty), so no pull-request comment was posted');
  if (!env.GITHUB_REPOSITORY)
    return void command('warning', 'comment: GITHUB_REPOSITORY is not set, so no pull-request comment was posted');
  const api = {
    url: env.GITHUB_API_URL || 'https://api.github.com',
    token: inputs.token,
    repository: env.GITHUB_REPOSITORY,
  };
  try {
    const done = await upsertComment(api, pullRequest, report);
    say(`validate-workflow: ${done.action} the report comment on #${pullRequest}${done.url ? `: ${done.url}` : ''}\n`);
  } catch (err) {
    // A pull request from a fork gets a read-only token: the report is still in the log, annotations and summary,
    // so the comment failing is worth a warning, not a failed check.
    const e = err as Error;
    const hint =
      e instanceof ApiError && (e.status === 403 || e.status === 404)
        ? ' (the job needs `permissions: pull-requests: write`; a pull request from a fork gets a read-only token)'
        : '';
    command('warning', `comment: ${e.message}${hint}`);
  }
}

/** One run of the action; the exit code follows fail-on, or is 2 when the action could not do its work. */
async function runAction(env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  let inputs: ActionInputs;
  let event: ReturnType<typeof eventFacts>;
  try {
    inputs = parseInputs(env);
    event = eventFacts(env, cwd);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    command('error', `validate-workflow action: ${err.message}`);
    return FAILURE;
  }
  if (event.note && !inputs.range) command('notice', event.note);
  const range = inputs.range ?? event.range;
  // The CLI needs none of the inputs, the token least of all: it stays in this process.
  const cliEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('INPUT_')));
  const common = [...(range ? ['--range', range] : []), ...(inputs.preset ? ['--preset', inputs.preset] : [])];
  say(`validate-workflow: judging ${range ? `the commits of ${range}` : 'the repository and its history'}\n`);

  const main = await cli(
    [
      ...common,
      '--format',
      inputs.format,
      '--summary',
      ...(inputs.failOn === 'warning' ? ['--max-warnings', '0'] : []),
    ],
    cwd,
    cliEnv,
    true,
  );
  if (main.code !== 0 && main.code !== FINDINGS) return failed(`--format ${inputs.format}`, main);
  let code = main.code;

  // The claims are re-run once, here; the markdown for the comment reads the verdicts back from the cache.
  if (inputs.verify) {
    say(`validate-workflow: re-running the automated items ticked in ${range ?? 'the history'} (verify)\n`);
    const verified = await cli(
      ['verify', ...(range ? ['--range', range] : []), '--format', inputs.format, '--summary'],
      cwd,
      cliEnv,
      true,
    );
    if (verified.code !== 0 && verified.code !== FINDINGS) return failed(`verify --format ${inputs.format}`, verified);
    code = Math.max(code, verified.code);
  }

  if (inputs.sarif) {
    const sarif = await cli([...common, '--format', 'sarif'], cwd, cliEnv, false);
    if (sarif.code !== 0 && sarif.code !== FINDINGS) return failed('--format sarif', sarif);
    const path = resolve(cwd, inputs.sarif);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, sarif.stdout);
    setOutput(env, 'sarif', inputs.sarif);
    say(`validate-workflow: wrote the SARIF report to ${inputs.sarif}\n`);
  }

  if (inputs.comment && event.pullRequest !== null) {
    const markdown = await cli([...common, '--format', 'markdown'], cwd, cliEnv, false);
    if (markdown.code !== 0 && markdown.code !== FINDINGS) return failed('--format markdown', markdown);
    let body = markdown.stdout;
    if (inputs.verify) {
      const verified = await cli(
        ['verify', ...(range ? ['--range', range] : []), '--format', 'markdown'],
        cwd,
        cliEnv,
        false,
      );
      if (verified.code !== 0 && verified.code !== FINDINGS) return failed('verify --format markdown', verified);
      // One comment: the review, then the re-runs under their own heading.
      body = `${body}\n${verified.stdout.replace(/^## validate-workflow review/, '## validate-workflow verify')}`;
    }
    await comment(inputs, env, event.pullRequest, body);
  } else if (inputs.comment) say('validate-workflow: not a pull request, so no comment\n');

  return inputs.failOn === 'never' ? 0 : code;
}

process.exitCode = await runAction(process.env, process.cwd()).catch((err: Error) => {
  command('error', `validate-workflow action: internal error: ${err.message}`);
  return FAILURE;
});
