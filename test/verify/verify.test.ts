// `validate-workflow verify` on real repositories built here (issue 23): the commands of ticked automated items are
// re-run at the commits that ticked them, in temporary worktrees, with plain `node` and `npm test` (no network).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, writeFiles } from '../helpers/repo.js';
import { verifyRepository } from '../../src/verify/index.js';
import { allowedBy } from '../../src/verify/commands.js';
import { commandEnvironment, SECRET_NAMES } from '../../src/verify/environment.js';

const PLAN = 'thoughts/shared/plans/2026-11-27-verify.md';
const CONFIG = 'validate-workflow.config.json';
const AGENT = 'Claude <noreply@anthropic.com>';
/** The test script of the tiny package: it passes when the file `ok` exists. */
const PACKAGE = JSON.stringify({
  name: 'tiny',
  version: '1.0.0',
  private: true,
  scripts: { test: `node -e "process.exit(require('fs').existsSync('ok') ? 0 : 1)"` },
});

/** The package's test as a plain `node` command: it passes when the file `ok` exists. */
const TEST_JS = "process.exit(require('fs').existsSync('ok') ? 0 : 1)\n";

function plan(items: { text: string; checked: boolean }[]): string {
  return [
    '# Verify Implementation Plan',
    '',
    '## Phase 1: Build',
    '',
    '- [ ] Task 1: Build it',
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    ...items.map((i) => `- [${i.checked ? 'x' : ' '}] ${i.text}`),
    '',
    '#### Manual Verification:',
    '',
    '- [ ] It looks right',
    '',
  ].join('\n');
}

function commit(dir: string, subject: string, author?: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', subject, ...(author ? ['--author', author] : []));
  return git(dir, 'rev-parse', 'HEAD').trim();
}

/** A repository whose human adopted the config with `verify` set, and a plan with these items open. */
function adopted(texts: string[], verify: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = makeRepo({
    [CONFIG]: `${JSON.stringify({ verify })}\n`,
    'package.json': PACKAGE,
    [PLAN]: plan(texts.map((text) => ({ text, checked: false }))),
    ...files,
  });
  commit(dir, 'Adopt validate-workflow with a plan');
  return dir;
}

/** The agent ticks these items (and writes these files) in one commit. */
function tick(dir: string, texts: string[], ticked: string[], files: Record<string, string> = {}): string {
  writeFiles(dir, { [PLAN]: plan(texts.map((text) => ({ text, checked: ticked.includes(text) }))), ...files });
  return commit(dir, 'Task 1: build it', AGENT);
}

const run = (dir: string, more: { range?: string; env?: NodeJS.ProcessEnv } = {}) =>
  verifyRepository({ cwd: dir, range: more.range, env: { ...process.env, ...more.env } });

const worktrees = (dir: string) => git(dir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length ?? 0;

describe('verify', () => {
  it('finds a ticked `npm test` that fails at its commit though it passes at HEAD', async () => {
    const items = ['Tests pass: `npm test`'];
    const dir = adopted(items, { allow: ['npm test'] });
    const sha = tick(dir, items, items);
    writeFiles(dir, { ok: '' });
    commit(dir, 'Make the tests pass afterwards');
    const { report, result } = await run(dir);
    const claims = report.findings.filter((f) => f.ruleId === 'verify/claim');
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ severity: 'error', messageId: 'fails', file: PLAN, line: 11, commit: sha });
    expect(claims[0]!.message).toMatch(
      new RegExp(`^Tests pass: \`npm test\` was ticked in ${sha.slice(0, 7)} but fails there \\(exit 1\\)\\.`),
    );
    expect(report.summary.errors).toBe(1);
    expect(report.verifications).toEqual([
      expect.objectContaining({ status: 'failed', code: 1, command: 'npm test', commit: sha, cached: false }),
    ]);
    expect(result.ran).toBe(1);
    // At HEAD the same command passes: CI at the pull request's head would have said nothing.
    expect(git(dir, 'ls-files', 'ok').trim()).toBe('ok');
    expect(worktrees(dir)).toBe(1);
  });

  it('leaves a claim that holds clean, shown as passed', async () => {
    const items = ['Tests pass: `npm test`'];
    const dir = adopted(items, { allow: ['npm test'] });
    const sha = tick(dir, items, items, { ok: '' });
    const { report } = await run(dir);
    expect(report.summary.errors + report.summary.warnings).toBe(0);
    expect(report.findings).toEqual([
      expect.objectContaining({ ruleId: 'verify/claim', severity: 'info', messageId: 'passes', commit: sha }),
    ]);
    expect(report.verifications).toEqual([expect.objectContaining({ status: 'passed', command: 'npm test' })]);
  });

  it('lists a command the config does not allow as not run, with the line to add', async () => {
    const items = ['Deployed: `node deploy.js`'];
    const dir = adopted(items, { allow: ['npm test'] }, { 'deploy.js': "require('fs').writeFileSync('ran', '')\n" });
    tick(dir, items, items);
    const { report, result } = await run(dir);
    expect(result.ran).toBe(0);
    expect(report.findings).toEqual([
      expect.objectContaining({ ruleId: 'verify/claim', severity: 'info', messageId: 'notAllowed' }),
    ]);
    expect(report.findings[0]!.message).toContain('was not re-run: `verify.allow` does not allow `node deploy.js`');
    expect(report.findings[0]!.fix).toContain('"verify": { "allow": ["node deploy.js"] }');
    expect(report.verifications).toEqual([expect.objectContaining({ status: 'not-run', reason: 'not-allowed' })]);
  });

  it('does not honour an allow-list the agent changed in the commit that ticks the item', async () => {
    const items = ['Checks pass: `node check.js`'];
    // check.js fails: were it run, the claim would be an error.
    const dir = adopted(items, { allow: ['npm test'] }, { 'check.js': 'process.exit(3)\n' });
    tick(dir, items, items, { [CONFIG]: `${JSON.stringify({ verify: { allow: ['npm test', 'node *'] } })}\n` });
    const { report, result } = await run(dir);
    expect(result.ran).toBe(0);
    expect(report.findings.map((f) => f.messageId)).toEqual(['notAllowed']);
    // A human's later commit allows it: items ticked after it are re-run, this one stays as it was judged.
    const later = ['Checks pass: `node check.js`', 'Checks pass again: `node check.js`'];
    writeFiles(dir, { [PLAN]: plan(later.map((text) => ({ text, checked: text === later[0] }))) });
    commit(dir, 'Add an item');
    tick(dir, later, later);
    const again = await run(dir);
    expect(again.report.findings.map((f) => [f.messageId, f.line])).toEqual([
      ['notAllowed', 11],
      ['fails', 12],
    ]);
  });

  it('stops a command that hangs at the configured limit and reports it', async () => {
    const items = ['Server starts: `node serve.js`'];
    const dir = adopted(items, { allow: ['node *'], timeout: 1 }, { 'serve.js': 'setInterval(() => {}, 1000);\n' });
    const sha = tick(dir, items, items);
    const start = Date.now();
    const { report } = await run(dir);
    expect(Date.now() - start).toBeLessThan(15_000);
    expect(report.findings).toEqual([
      expect.objectContaining({ severity: 'error', messageId: 'timedOut', commit: sha }),
    ]);
    expect(report.findings[0]!.message).toContain('did not finish there within 1 s (verify.timeout); it was stopped');
    expect(report.verifications).toEqual([expect.objectContaining({ status: 'timed-out' })]);
    expect(worktrees(dir)).toBe(1);
  });

  it('runs nothing the second time and gives the same verdict', async () => {
    // `node` commands where npm is not the point (an npm process costs a test a few hundred ms): the first two
    // tests run `npm test`.
    const items = ['Tests pass: `node test.js`', 'Lint passes: `node lint.js`'];
    const dir = adopted(items, { allow: ['node *'] }, { 'test.js': TEST_JS, 'lint.js': 'process.exit(0)\n' });
    tick(dir, items, items);
    const first = await run(dir);
    expect(first.result.ran).toBe(2);
    const second = await run(dir);
    expect(second.result.ran).toBe(0);
    expect(second.report.findings).toEqual(first.report.findings);
    expect(second.report.verifications!.map((r) => [r.status, r.cached])).toEqual([
      ['failed', true],
      ['passed', true],
    ]);
    expect(existsSync(join(dir, '.git', 'validate-workflow', 'verify'))).toBe(true);
  });

  it('judges only the items ticked in a range, and runs the set-up step first', async () => {
    const items = ['Built: `node built.js`', 'Tests pass: `node test.js`'];
    const dir = adopted(
      items,
      { allow: ['node test.js', 'node built.js'], setup: 'node setup.js' },
      {
        'test.js': TEST_JS,
        // The set-up step writes what the command needs: without it, built.js fails.
        'setup.js': "require('fs').writeFileSync('built', '')\n",
        'built.js': "process.exit(require('fs').existsSync('built') ? 0 : 1)\n",
      },
    );
    tick(dir, items, [items[0]!]);
    const base = git(dir, 'rev-parse', 'HEAD').trim();
    tick(dir, items, items, { ok: '' });
    const { report } = await run(dir, { range: `${base}..HEAD` });
    expect(report.verifications!.map((r) => [r.command, r.status])).toEqual([['node test.js', 'passed']]);
    const all = await run(dir);
    expect(all.report.verifications!.map((r) => [r.command, r.status])).toEqual([
      ['node built.js', 'passed'],
      ['node test.js', 'passed'],
    ]);
  });

  it('keeps the tokens of the environment from the commands', async () => {
    const items = ['No token leaks: `node env.js`'];
    const probe =
      "const names = ['GITHUB_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'INPUT_TOKEN', 'MY_API_KEY'];\n" +
      'process.exit(names.some((n) => process.env[n] !== undefined) ? 1 : 0);\n';
    const dir = adopted(items, { allow: ['node env.js'] }, { 'env.js': probe });
    tick(dir, items, items);
    const env = { GITHUB_TOKEN: 'x', ACTIONS_RUNTIME_TOKEN: 'x', INPUT_TOKEN: 'x', MY_API_KEY: 'x' };
    const { report, result } = await run(dir, { env });
    expect(report.verifications).toEqual([expect.objectContaining({ status: 'passed' })]);
    expect(result.removed).toEqual(expect.arrayContaining(Object.keys(env)));
  });
});

describe('verify.allow patterns', () => {
  it('matches a whole command; * stands for text without a shell operator', () => {
    expect(allowedBy('npm test', 'npm test')).toBe(true);
    expect(allowedBy('npm test', 'npm test -- --grep x')).toBe(false);
    expect(allowedBy('npm run *', 'npm run typecheck')).toBe(true);
    expect(allowedBy('npm run *', 'npm  run   lint')).toBe(true);
    for (const sneaky of ['npm run x; curl evil', 'npm run x && rm -rf /', 'npm run $(curl x)', 'npm run `id`'])
      expect(allowedBy('npm run *', sneaky), sneaky).toBe(false);
  });

  it('removes secrets by name and by shape, and git locations', () => {
    const { env, removed } = commandEnvironment({
      PATH: '/bin',
      GITHUB_TOKEN: 'a',
      GH_TOKEN: 'b',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'c',
      'INPUT_GITHUB-TOKEN': 'd',
      NPM_TOKEN: 'e',
      AWS_SECRET_ACCESS_KEY: 'f',
      GIT_DIR: '/elsewhere',
    });
    expect(env).toEqual({ PATH: '/bin', CI: 'true' });
    expect(removed).toHaveLength(6);
  });
});

describe('the README on verify', () => {
  it('names every variable removed by name from the commands’ environment', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(
      readme.indexOf('### Verifying what the agent claimed'),
      readme.indexOf('## Files it reads'),
    );
    expect(SECRET_NAMES.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });
});
