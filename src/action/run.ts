// The GitHub Action's work, given what it may touch of the outside world (ActionIo): its log, and a way to run the
// CLI. main.ts, the entry point action.yml runs, hands it this process's streams and a CLI in a child process; tests
// hand it the CLI in their own process, so each case of the action costs no node process (a door keeps its
// real-process tests in test/action/action.test.ts). The action runs the CLI once per output, rather than calling
// the engine itself: the CLI is the one door whose exit codes, messages, --summary and formats users already know,
// and the action stays a thin wrapper with no judgement of its own.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { escapeData } from '../report/github.js';
import { ApiError, upsertComment } from './comment.js';
import { eventFacts } from './event.js';
import { InputError, parseInputs, type ActionInputs } from './inputs.js';

/** The CLI's exit codes (src/cli/io.ts): 1 is findings, 2 a usage error or a failure of the tool. */
const FINDINGS = 1;
export const FAILURE = 2;

/** What one run of the CLI gave: its exit code, and its output when it was collected rather than shown. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI with `args` in `cwd`, under `env`. `show`: its output goes into the log as it comes (the annotations),
 * and `stdout` and `stderr` of the result are empty; otherwise they are collected and returned.
 */
export type CliRunner = (args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; show: boolean }) => Promise<Ran>;

export interface ActionIo {
  /** The job's log. */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cli: CliRunner;
}

/** The log of one run: plain lines, and workflow commands (`::error::` ...), shown in the log and as annotations. */
class Log {
  constructor(private readonly io: ActionIo) {}

  say(text: string): void {
    this.io.stdout(text);
  }

  command(kind: 'error' | 'warning' | 'notice', text: string): void {
    this.say(`::${kind}::${escapeData(text)}\n`);
  }

  /** The CLI failed as a tool, not on findings: its own message is in `ran.stderr` (or already in the log). */
  failed(what: string, ran: Ran): number {
    if (ran.stderr) this.io.stderr(ran.stderr);
    this.command(
      'error',
      `validate-workflow ${what} exited ${ran.code}${ran.stderr ? `: ${ran.stderr.trim().split('\n')[0]}` : ' (see the log above)'}`,
    );
    return FAILURE;
  }
}

/** core.setOutput: the heredoc form, so no value can end the entry early. */
function setOutput(env: NodeJS.ProcessEnv, name: string, value: string): void {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

async function comment(
  log: Log,
  inputs: ActionInputs,
  env: NodeJS.ProcessEnv,
  pullRequest: number,
  report: string,
): Promise<void> {
  if (!inputs.token)
    return log.command('warning', 'comment: no token (input "token" is empty), so no pull-request comment was posted');
  if (!env.GITHUB_REPOSITORY)
    return log.command('warning', 'comment: GITHUB_REPOSITORY is not set, so no pull-request comment was posted');
  const api = {
    url: env.GITHUB_API_URL || 'https://api.github.com',
    token: inputs.token,
    repository: env.GITHUB_REPOSITORY,
  };
  try {
    const done = await upsertComment(api, pullRequest, report);
    log.say(
      `validate-workflow: ${done.action} the report comment on #${pullRequest}${done.url ? `: ${done.url}` : ''}\n`,
    );
  } catch (err) {
    // A pull request from a fork gets a read-only token: the report is still in the log, annotations and summary,
    // so the comment failing is worth a warning, not a failed check.
    const e = err as Error;
    const hint =
      e instanceof ApiError && (e.status === 403 || e.status === 404)
        ? ' (the job needs `permissions: pull-requests: write`; a pull request from a fork gets a read-only token)'
        : '';
    log.command('warning', `comment: ${e.message}${hint}`);
  }
}

/** One run of the action; the exit code follows fail-on, or is 2 when the action could not do its work. */
export async function runAction(env: NodeJS.ProcessEnv, cwd: string, io: ActionIo): Promise<number> {
  const log = new Log(io);
  let inputs: ActionInputs;
  let event: ReturnType<typeof eventFacts>;
  try {
    inputs = parseInputs(env);
    event = eventFacts(env, cwd);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    log.command('error', `validate-workflow action: ${err.message}`);
    return FAILURE;
  }
  if (event.note && !inputs.range) log.command('notice', event.note);
  const range = inputs.range ?? event.range;
  // The CLI needs none of the inputs, the token least of all: it stays in this process.
  const cliEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('INPUT_')));
  const cli = (args: string[], show: boolean) => io.cli(args, { cwd, env: cliEnv, show });
  const common = [...(range ? ['--range', range] : []), ...(inputs.preset ? ['--preset', inputs.preset] : [])];
  log.say(`validate-workflow: judging ${range ? `the commits of ${range}` : 'the repository and its history'}\n`);

  const main = await cli(
    [
      ...common,
      '--format',
      inputs.format,
      '--summary',
      ...(inputs.failOn === 'warning' ? ['--max-warnings', '0'] : []),
    ],
    true,
  );
  if (main.code !== 0 && main.code !== FINDINGS) return log.failed(`--format ${inputs.format}`, main);
  let code = main.code;

  // The claims are re-run once, here; the markdown for the comment reads the verdicts back from the cache.
  if (inputs.verify) {
    log.say(`validate-workflow: re-running the automated items ticked in ${range ?? 'the history'} (verify)\n`);
    const verified = await cli(
      ['verify', ...(range ? ['--range', range] : []), '--format', inputs.format, '--summary'],
      true,
    );
    if (verified.code !== 0 && verified.code !== FINDINGS)
      return log.failed(`verify --format ${inputs.format}`, verified);
    code = Math.max(code, verified.code);
  }

  if (inputs.sarif) {
    const sarif = await cli([...common, '--format', 'sarif'], false);
    if (sarif.code !== 0 && sarif.code !== FINDINGS) return log.failed('--format sarif', sarif);
    const path = resolve(cwd, inputs.sarif);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, sarif.stdout);
    setOutput(env, 'sarif', inputs.sarif);
    log.say(`validate-workflow: wrote the SARIF report to ${inputs.sarif}\n`);
  }

  if (inputs.comment && event.pullRequest !== null) {
    const markdown = await cli([...common, '--format', 'markdown'], false);
    if (markdown.code !== 0 && markdown.code !== FINDINGS) return log.failed('--format markdown', markdown);
    let body = markdown.stdout;
    if (inputs.verify) {
      const verified = await cli(['verify', ...(range ? ['--range', range] : []), '--format', 'markdown'], false);
      if (verified.code !== 0 && verified.code !== FINDINGS) return log.failed('verify --format markdown', verified);
      // One comment: the review, then the re-runs under their own heading.
      body = `${body}\n${verified.stdout.replace(/^## validate-workflow review/, '## validate-workflow verify')}`;
    }
    await comment(log, inputs, env, event.pullRequest, body);
  } else if (inputs.comment) log.say('validate-workflow: not a pull request, so no comment\n');

  return inputs.failOn === 'never' ? 0 : code;
}
