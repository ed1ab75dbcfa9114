// The GitHub Action (src/action/run.ts, what action.yml runs through dist/action/main.js) as the runner starts it:
// INPUT_* variables, an event payload, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, in a real repository, with a
// local stand-in for the REST API that records every call. What is asserted is what a user sees: the log
// (annotations), the files, the exit code, and the comments on the pull request. One case of each family runs the
// built entry point as a process, as the runner does; the others run the action and its CLI in this process (the
// same code, given the CLI in-process instead of a child: two node processes fewer per CLI run).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MARKER } from '../../src/action/comment.js';
import { runAction, type ActionIo } from '../../src/action/run.js';
import { run as runCommandLine } from '../../src/cli/run.js';
import { wantsColor } from '../../src/cli/io.js';
import {
  ANA,
  CLAUDE,
  LEDGER,
  PLAN,
  Repo,
  handoffPath,
  ledgerDoc,
  planDoc,
  taskHandoff,
  tempDir,
} from '../history/helpers.js';
import { env as cleanEnv } from '../hooks/setup.js';
import { fakeGitHub, type FakeGitHub } from './fake-github.js';

const ACTION = fileURLToPath(new URL('../../dist/action/main.js', import.meta.url));
const REPOSITORY = 'acme/app';
const PR = 7;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  summary: string | null;
  output: string | null;
}

/** The action's entry point as the runner starts it: a node process, which runs the CLI in processes of its own. */
async function inProcessOfItsOwn(dir: string, env: NodeJS.ProcessEnv): Promise<Omit<Ran, 'summary' | 'output'>> {
  const child = spawn(process.execPath, [ACTION], { cwd: dir, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stdout, stderr };
}

/**
 * The action in this process, the CLI too: what it shows goes into the log as the child's inherited streams would,
 * in the order it is written. The entry point's only other work is its top-level catch.
 */
async function inThisProcess(dir: string, env: NodeJS.ProcessEnv): Promise<Omit<Ran, 'summary' | 'output'>> {
  let stdout = '';
  let stderr = '';
  const io: ActionIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cli: async (args, opts) => {
      let out = '';
      let err = '';
      const code = await runCommandLine(args, {
        cwd: opts.cwd,
        env: opts.env,
        stdout: (t) => (opts.show ? (stdout += t) : (out += t)),
        stderr: (t) => (opts.show ? (stderr += t) : (err += t)),
        color: wantsColor({ env: opts.env, tty: false }),
        stderrTTY: false,
      });
      return { code, stdout: out, stderr: err };
    },
  };
  const code = await runAction(env, dir, io);
  return { code, stdout, stderr };
}

/**
 * One run of the action, in this process unless `process` asks for the built entry point in a child. Asynchronous
 * on purpose: the fake API answers from this process's event loop, which a synchronous spawn would block.
 */
async function action(
  dir: string,
  inputs: Record<string, string>,
  opts: { event?: { name: string; payload: unknown }; api?: FakeGitHub; process?: boolean } = {},
): Promise<Ran> {
  const scratch = tempDir();
  const summary = join(scratch, 'summary.md');
  const output = join(scratch, 'output');
  const vars: NodeJS.ProcessEnv = {
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: output,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_API_URL: opts.api?.url ?? 'http://127.0.0.1:9',
  };
  if (opts.event) {
    writeFileSync(join(scratch, 'event.json'), JSON.stringify(opts.event.payload));
    Object.assign(vars, { GITHUB_EVENT_NAME: opts.event.name, GITHUB_EVENT_PATH: join(scratch, 'event.json') });
  }
  for (const [name, value] of Object.entries({ token: 'ghs_test', ...inputs }))
    vars[`INPUT_${name.toUpperCase()}`] = value;
  // Nothing of a real runner around this test may leak in: its event, its inputs, its output files.
  const base = Object.fromEntries(Object.entries(cleanEnv()).filter(([k]) => !/^(GITHUB_|INPUT_|RUNNER_)/.test(k)));
  const ran = await (opts.process ? inProcessOfItsOwn : inThisProcess)(dir, { ...base, ...vars });
  const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : null);
  return { ...ran, summary: read(summary), output: read(output) };
}

/** GITHUB_OUTPUT read as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks. */
function outputs(text: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = (text ?? '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      out[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('='))
      out[lines[i]!.slice(0, lines[i]!.indexOf('='))] = lines[i]!.slice(lines[i]!.indexOf('=') + 1);
  }
  return out;
}

/** A plan worked by Claude; the second handoff's name breaks the pattern: one warning (handoff/path), no error. */
function warnedRepo(): { repo: Repo; planned: string } {
  const repo = Repo.create();
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
  const planned = repo.sha();
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    { author: CLAUDE },
  );
  repo.commit(
    'Task 2: Do step 2',
    { [PLAN]: planDoc({ tasks: [1, 2] }), [handoffPath(2, 'Bad_Name')]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
    { author: CLAUDE },
  );
  return { repo, planned };
}

/** The same, then Claude checks phase 1's manual item itself: an error (history/manual-confirmation) too. */
function failingRepo(): { repo: Repo; planned: string; confirmed: string } {
  const { repo, planned } = warnedRepo();
  const confirmed = repo.commit(
    'Phase 1 verified',
    { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
    { author: CLAUDE },
  );
  return { repo, planned, confirmed };
}

const pullRequest = (base: string, head: string) => ({
  name: 'pull_request',
  payload: { pull_request: { number: PR, base: { sha: base }, head: { sha: head } } },
});

let api: FakeGitHub;
afterEach(async () => {
  await api?.close();
});

describe('the pull-request comment', () => {
  it('is created on the first run and edited in place on the next; a comment without the marker is left alone', async () => {
    api = await fakeGitHub(REPOSITORY);
    const human = api.seed(PR, 'Looks good, but see the plan.');
    const { repo, planned } = warnedRepo();

    const first = await action(repo.dir, {}, { event: pullRequest(planned, repo.sha()), api, process: true });
    expect(first.code).toBe(0);
    expect(api.calls.map((c) => c.method)).toEqual(['GET', 'POST']);
    expect(api.calls.every((c) => c.authorization === 'Bearer ghs_test')).toBe(true);
    const posted = api.calls[1]!;
    expect(posted.url).toBe(`/repos/${REPOSITORY}/issues/${PR}/comments`);
    expect(posted.body!.body!.startsWith(`${MARKER}\n## validate-workflow review`)).toBe(true);
    expect(posted.body!.body).toContain('handoff/path');
    expect(posted.body!.body).not.toContain('history/manual-confirmation');
    const ours = api.comments.get(PR)!.find((c) => c.id !== human.id)!;
    expect(first.stdout).toContain(`created the report comment on #${PR}`);

    // Claude pushes again, with a violation this time: the same comment tells of it.
    const confirmed = repo.commit(
      'Phase 1 verified',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: CLAUDE },
    );
    api.calls.length = 0;
    const second = await action(repo.dir, {}, { event: pullRequest(planned, confirmed), api });
    expect(second.code).toBe(1);
    expect(api.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET /repos/${REPOSITORY}/issues/${PR}/comments?per_page=100`,
      `PATCH /repos/${REPOSITORY}/issues/comments/${ours.id}`,
    ]);
    expect(second.stdout).toContain(`updated the report comment on #${PR}`);
    expect(api.comments.get(PR)!.map((c) => c.id)).toEqual([human.id, ours.id]);
    expect(ours.body.startsWith(MARKER)).toBe(true);
    expect(ours.body).toContain('history/manual-confirmation');
    expect(human.body).toBe('Looks good, but see the plan.');
  });

  it('follows the pages of the comment list to the marked comment', async () => {
    api = await fakeGitHub(REPOSITORY);
    for (let i = 1; i <= 4; i++) api.seed(PR, `review note ${i}`);
    const marked = api.seed(PR, `${MARKER}\nan older report`, 'github-actions[bot]');
    api.seed(PR, 'a reply after the report');
    const { repo, planned } = warnedRepo();
    const res = await action(repo.dir, {}, { event: pullRequest(planned, repo.sha()), api });
    expect(res.code).toBe(0);
    const list = `/repos/${REPOSITORY}/issues/${PR}/comments?per_page=100`;
    // Two to a page here: the report is the fifth comment, on page 3; page 4 is never needed.
    expect(api.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET ${list}`,
      `GET ${list}&page=2`,
      `GET ${list}&page=3`,
      `PATCH /repos/${REPOSITORY}/issues/comments/${marked.id}`,
    ]);
    expect(marked.body).toContain('## validate-workflow review');
    expect(api.comments.get(PR)).toHaveLength(6);
  });

  it('with comment: false, or outside a pull request, makes no call at all', async () => {
    api = await fakeGitHub(REPOSITORY);
    const { repo, planned } = warnedRepo();
    const off = await action(repo.dir, { comment: 'false' }, { event: pullRequest(planned, repo.sha()), api });
    expect(off.code).toBe(0);
    const push = await action(
      repo.dir,
      {},
      { event: { name: 'push', payload: { before: planned, after: repo.sha() } }, api },
    );
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('not a pull request, so no comment');
    expect(api.calls).toEqual([]);
  });

  it('that the token may not write is a warning; the step still follows fail-on', async () => {
    api = await fakeGitHub(REPOSITORY);
    api.failWith(403);
    const { repo, planned } = warnedRepo();
    const res = await action(repo.dir, {}, { event: pullRequest(planned, repo.sha()), api });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^::warning::comment: GET 127\.0\.0\.1:\d+\/repos\/acme\/app\/issues\/7\/comments answered 403: Resource not accessible by integration \(the job needs `permissions: pull-requests: write`; .*\)$/m,
    );
  });
});

describe('what the run leaves', () => {
  let failing: ReturnType<typeof failingRepo>;
  beforeAll(() => {
    failing = failingRepo();
  });

  it('annotations in the log, the review in the job summary, and SARIF at the path the sarif output names', async () => {
    const res = await action(
      failing.repo.dir,
      { comment: 'false', sarif: 'reports/validate-workflow.sarif' },
      { process: true },
    );
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(
      new RegExp(
        `^::error file=${PLAN.replace(/\./g, '\\.')},line=\\d+,col=\\d+,title=history/manual-confirmation::`,
        'm',
      ),
    );
    expect(res.stdout).toMatch(/^::warning file=[^,]*Bad_Name[^,]*,line=\d+,col=\d+,title=handoff\/path::/m);
    expect(res.summary).toMatch(/^## validate-workflow review/);
    expect(res.summary).toContain('history/manual-confirmation');
    expect(outputs(res.output)).toEqual({ sarif: 'reports/validate-workflow.sarif' });
    const sarif = JSON.parse(readFileSync(join(failing.repo.dir, 'reports/validate-workflow.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId).sort()).toEqual([
      'handoff/path',
      'history/manual-confirmation',
    ]);
  });

  it('no SARIF and no output when the sarif input is empty', async () => {
    const res = await action(failing.repo.dir, { comment: 'false', sarif: '' });
    expect(res.code).toBe(1);
    expect(outputs(res.output)).toEqual({});
  });

  it("judges the pull request's base..head by default, the whole history on a new branch's push", async () => {
    const { repo, confirmed } = failing;
    // A pull request opened after the violation: its own commits are clean.
    const later = repo.commit(
      'Task 3: Do step 3',
      {
        [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] }),
        [handoffPath(3)]: taskHandoff(3),
        [LEDGER]: ledgerDoc([1, 2, 3]),
      },
      { author: CLAUDE },
    );
    const pr = await action(
      repo.dir,
      { comment: 'false', 'fail-on': 'error' },
      { event: pullRequest(confirmed, later) },
    );
    expect(pr.stdout).toContain(`judging the commits of ${confirmed}..${later}`);
    expect(pr.stdout).not.toContain('title=history/manual-confirmation');
    const branch = await action(
      repo.dir,
      { comment: 'false' },
      { event: { name: 'push', payload: { before: '0'.repeat(40), after: later } } },
    );
    expect(branch.stdout).toContain('judging the repository and its history');
    expect(branch.stdout).toContain('title=history/manual-confirmation');
    expect(branch.code).toBe(1);
    // A range the clone does not have (a force-pushed `before`) is judged as the whole history, and said so.
    const gone = await action(
      repo.dir,
      { comment: 'false' },
      { event: { name: 'push', payload: { before: 'f'.repeat(40), after: later } } },
    );
    expect(gone.stdout).toMatch(
      /^::notice::ffffffffffff \(of the event's range .*\) is not in this clone: judging the whole history$/m,
    );
    expect(gone.code).toBe(1);
  });
});

describe('fail-on', () => {
  let warned: Repo;
  let failing: Repo;
  beforeAll(() => {
    warned = warnedRepo().repo;
    failing = failingRepo().repo;
  });

  it.each([
    ['errors', 'error', 1],
    ['errors', 'warning', 1],
    ['errors', 'never', 0],
    ['only a warning', 'error', 0],
    ['only a warning', 'warning', 1],
    ['only a warning', 'never', 0],
  ] as const)('with %s and fail-on %s exits %i', async (what, failOn, exit) => {
    const res = await action(what === 'errors' ? failing.dir : warned.dir, { comment: 'false', 'fail-on': failOn });
    expect(res.code).toBe(exit);
    expect(res.stdout).toContain(what === 'errors' ? '::error file=' : '::warning file=');
  });

  it('refuses an input it does not know with a clear error, before running anything', async () => {
    api = await fakeGitHub(REPOSITORY);
    const res = await action(
      failing.dir,
      { 'fail-on': 'maybe' },
      { event: pullRequest('HEAD~1', 'HEAD'), api, process: true },
    );
    expect(res.code).toBe(2);
    expect(res.stdout).toBe(
      '::error::validate-workflow action: input "fail-on" must be one of error, warning, never (got "maybe")\n',
    );
    expect(res.stderr).toBe('');
    expect(res.summary).toBeNull();
    expect(api.calls).toEqual([]);
    const yes = await action(failing.dir, { comment: 'yes' });
    expect(yes.code).toBe(2);
    expect(yes.stdout).toBe(
      '::error::validate-workflow action: input "comment" must be a boolean: true | True | TRUE | false | False | FALSE (got "yes")\n',
    );
  });

  it("a range the tool cannot read fails the step with the tool's own message, not a stack trace", async () => {
    const res = await action(warned.dir, { comment: 'false', range: 'main', 'fail-on': 'never' }, { process: true });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--range needs <from>..<to> (got "main")');
    expect(res.stdout).toMatch(/^::error::validate-workflow --format github exited 2/m);
    expect(`${res.stdout}${res.stderr}`).not.toMatch(/\n\s+at /);
  });
});
