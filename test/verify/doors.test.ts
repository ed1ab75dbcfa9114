// `verify` through the built CLI and the GitHub Action (dist/), as users and CI run it: the formats, the exit codes,
// the progress on stderr, usage errors, and the Action's `verify` input over a pull request's range with the
// verification table in the comment. The repository is real; the commands are plain `node`. The first CLI test and
// the Action run as processes; the CLI's formats, usage errors and help run the same run() in this process
// (runCliHere).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, makeRepo, runCli, runCliHere, writeFiles } from '../helpers/repo.js';
import { tempDir } from '../history/helpers.js';
import { env as cleanEnv } from '../hooks/setup.js';
import { fakeGitHub, type FakeGitHub } from '../action/fake-github.js';

const ACTION = fileURLToPath(new URL('../../dist/action/main.js', import.meta.url));
const PLAN = 'thoughts/shared/plans/2026-11-20-auth.md';
const AGENT = 'Claude <noreply@anthropic.com>';

const plan = (ticked: boolean) =>
  [
    '# Auth flow Implementation Plan',
    '',
    '## Phase 1: Login',
    '',
    `- [${ticked ? 'x' : ' '}] Task 1: Add the login function`,
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    `- [${ticked ? 'x' : ' '}] Types check: \`node types.js\``,
    `- [${ticked ? 'x' : ' '}] Tests pass: \`node test.js\``,
    '',
    '#### Manual Verification:',
    '',
    '- [ ] Logging in from the browser works',
    '',
  ].join('\n');

/** A human plans and allows `node *`; the agent ticks both items while test.js still fails; base is the plan commit. */
let dir: string;
let base: string;
let ticked: string;
beforeAll(() => {
  dir = makeRepo({
    'validate-workflow.config.json': '{ "verify": { "allow": ["node *"] } }\n',
    'types.js': "console.log('types ok');\n",
    'test.js': "console.error('FAIL login accepts the right password'); process.exit(1);\n",
    [PLAN]: plan(false),
  });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Plan the auth flow');
  base = git(dir, 'rev-parse', 'HEAD').trim();
  writeFiles(dir, { [PLAN]: plan(true) });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Task 1: add the login function', '--author', AGENT);
  ticked = git(dir, 'rev-parse', 'HEAD').trim();
});

describe('validate-workflow verify (the CLI)', () => {
  it('prints the failed claim with its output, says what runs on stderr, and exits 1', () => {
    const res = runCli(dir, ['verify', '--range', `${base}..HEAD`]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `Tests pass: \`node test.js\` was ticked in ${ticked.slice(0, 7)} but fails there (exit 1). Last lines of its output:`,
    );
    expect(res.stdout).toContain('FAIL login accepts the right password');
    expect(res.stdout).toContain('1 problem (1 error, 0 warnings, 1 info)');
    expect(res.stderr).toMatch(/validate-workflow verify: \w{7} node test\.js: failed \(exit 1/);
  });

  it('gives every format; the markdown report has the verification table with the commit', async () => {
    const json = await runCliHere(dir, ['verify', '--range', `${base}..HEAD`, '--format', 'json', '--quiet']);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    const out = JSON.parse(json.stdout) as { results: { ruleId: string; severity: string; commit: string }[] };
    expect(out.results).toEqual([
      expect.objectContaining({ ruleId: 'verify/claim', severity: 'error', commit: ticked }),
    ]);
    for (const format of ['sarif', 'github'])
      expect((await runCliHere(dir, ['verify', '--range', `${base}..HEAD`, '--format', format])).stdout).toContain(
        'verify/claim',
      );
    const md = (await runCliHere(dir, ['verify', '--range', `${base}..HEAD`, '--format', 'markdown'])).stdout;
    const sha = ticked.slice(0, 7);
    expect(md).toContain('| Plan | Phase | Item | Ticked in | Verification |');
    expect(md).toMatch(
      new RegExp(`Types check: \`node types\\.js\` \\| \`${sha}\` Task 1: add the login function \\| ✅ passed`),
    );
    expect(md).toMatch(
      new RegExp(
        `Tests pass: \`node test\\.js\` \\| \`${sha}\` Task 1: add the login function \\| ❌ failed \\(exit 1`,
      ),
    );
  });

  it('refuses what it cannot do as a usage error (exit 2)', async () => {
    expect((await runCliHere(dir, ['verify', '--phase', 'one'])).code).toBe(2);
    expect((await runCliHere(dir, ['verify', '--range', 'nope..HEAD'])).stderr).toContain(
      '--range base "nope" is no revision',
    );
    expect((await runCliHere(dir, ['verify', 'thoughts'])).stderr).toContain('verify takes no paths');
    const outside = makeRepo({});
    const notGit = tempDir();
    expect((await runCliHere(notGit, ['verify'])).code).toBe(2);
    expect((await runCliHere(outside, ['verify'])).code).toBe(0);
  });

  it('lists itself among the commands', async () => {
    expect((await runCliHere(dir, ['--help'])).stdout).toMatch(
      /^\s+verify\s+re-run the commands of ticked automated items/m,
    );
  });
});

describe('the Action with verify: true', () => {
  let api: FakeGitHub | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('re-runs the claims of the pull request, fails the step, and adds the table to the comment', async () => {
    api = await fakeGitHub('acme/app');
    const scratch = tempDir();
    const event = join(scratch, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha: base }, head: { sha: ticked } } }));
    const vars: NodeJS.ProcessEnv = {
      GITHUB_STEP_SUMMARY: join(scratch, 'summary.md'),
      GITHUB_OUTPUT: join(scratch, 'output'),
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_API_URL: api.url,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      INPUT_TOKEN: 'ghs_test',
      INPUT_VERIFY: 'true',
    };
    const base_ = Object.fromEntries(Object.entries(cleanEnv()).filter(([k]) => !/^(GITHUB_|INPUT_|RUNNER_)/.test(k)));
    const child = spawn(process.execPath, [ACTION], { cwd: dir, env: { ...base_, ...vars } });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(1);
    expect(stdout).toContain('::error file=thoughts/shared/plans/2026-11-20-auth.md,line=12');
    expect(readFileSync(join(scratch, 'summary.md'), 'utf8')).toContain('Automated items re-run');
    const posted = api.calls.find((c) => c.method === 'POST')?.body?.body ?? '';
    expect(posted).toContain('## validate-workflow verify');
    expect(posted).toContain('| Plan | Phase | Item | Ticked in | Verification |');
  });
});
