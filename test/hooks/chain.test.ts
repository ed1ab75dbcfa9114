// Repositories that already have hooks: a plain .git/hooks/pre-commit, a core.hooksPath folder, a husky setup of
// their own (with and without lint-staged), HumanLayer's pre-commit with its `.old` chain, and a thoughts/ that links
// into a separate thoughts repository. After `init` and the prepare script, both the old hooks and ours run.
// The package is installed once for the run (packed tarball, husky, lint-staged); each repository links that
// node_modules.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE, LEDGER, PLAN, handoffPath, ident, ledgerDoc, planDoc, taskHandoff } from '../history/helpers.js';
import { runCliHere } from '../helpers/repo.js';
import { bin, commit, git, gitInit, identity, installed, linkInstalled, must, run, tempDir, tree, type Run } from './setup.js';

// The package, husky and lint-staged, installed once for the run (installed() in setup.ts): before the first test,
// not inside its timeout.
beforeAll(() => void installed(), 240_000);

/** A new repository with package.json and the installed node_modules; `prepare` runs what init's prepare script runs. */
function project(pkg: Record<string, unknown> = {}): string {
  const dir = tempDir();
  gitInit(dir);
  identity(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true, ...pkg }, null, 2)}\n`);
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
  linkInstalled(dir);
  return dir;
}

/**
 * `validate-workflow init` through the installed bin (e2e.test.ts runs it through npx, as the README says), for the
 * thoughts layouts: the hooks it writes into a thoughts repository name the package's folder, which differs between
 * this tree and the install.
 */
function initOk(dir: string): Run {
  const res = bin(dir, 'init');
  expect(res.code, res.out).toBe(0);
  return res;
}

/**
 * `validate-workflow init` in this process (runCliHere: the init code the bin runs), for the husky layouts: what it
 * writes there names no folder of the package's own, so this tree's copy writes what the installed one would. The
 * subject is what it chains and that the hooks then run, not the process.
 */
async function initHere(dir: string): Promise<{ stdout: string }> {
  const res = await runCliHere(dir, ['init']);
  expect(res.code, `${res.stdout}${res.stderr}`).toBe(0);
  return res;
}

/**
 * What `npm run prepare` runs: the package's prepare script (init's `husky || true`, or the user's own) in a shell,
 * the package's bins on the PATH; it points git at .husky/_. Without npm's own node process around it (e2e.test.ts
 * runs the script through `npm run prepare`).
 */
function prepare(dir: string): void {
  const script = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { prepare: string } })
    .scripts.prepare;
  must(dir, 'sh', ['-c', script], { env: { PATH: `${join(dir, 'node_modules', '.bin')}${delimiter}${process.env.PATH}` } });
  expect(git(dir, 'config', 'core.hooksPath').trim()).toBe('.husky/_');
}

/** An executable hook that appends its name (and arguments) to a marker file outside the repository. */
function markerHook(path: string, marker: string, name: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho "${name}" >> '${marker}'\n`, { mode: 0o755 });
}

function marks(marker: string): string[] {
  return existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n') : [];
}

/** A plan whose task numbering is wrong: the pre-commit check refuses it (plan/task-numbering). */
const BAD_PLAN = '# Broken Implementation Plan\n\n## Phase 1: A\n\n- [ ] Task 1: a\n- [ ] Task 3: b\n';

function commitFile(dir: string, path: string, text: string, args: string[] = []): Run {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
  git(dir, 'add', '-A');
  return commit(dir, ['-m', `Change ${path}`, ...args]);
}

/**
 * Both hooks run: a clean commit passes both, leaving the marks `passing` names, and a bad plan is refused by ours. A
 * chained hook runs before ours (so ours judges the index it leaves); a block in the user's own husky hook runs before
 * the rest of it (so an early `exit 0` there cannot skip the gate), and a refusal then stops the rest. `passing` null:
 * the refusal alone shows both ran (a chained pre-commit that marks before ours refuses), no clean commit.
 */
function expectBothRun(dir: string, marker: string, passing: string[] | null, oursFirst = false): void {
  if (passing) {
    const ok = commitFile(dir, 'README.md', 'hello\n');
    expect(ok.code, ok.out).toBe(0);
    expect(marks(marker)).toEqual(passing);
  }
  const head = run(dir, 'git', ['rev-parse', '-q', '--verify', 'HEAD']).stdout;
  const ran = marks(marker).filter((m) => m === 'pre-commit').length;
  const bad = commitFile(dir, 'thoughts/shared/plans/broken.md', BAD_PLAN);
  expect(bad.code).not.toBe(0);
  expect(bad.out).toContain('plan/task-numbering');
  expect(run(dir, 'git', ['rev-parse', '-q', '--verify', 'HEAD']).stdout).toBe(head);
  expect(marks(marker).filter((m) => m === 'pre-commit').length).toBe(oursFirst ? ran : ran + 1);
  git(dir, 'rm', '-q', '-f', 'thoughts/shared/plans/broken.md');
}

/**
 * A second `init` changes nothing and says so. It runs in this process (runCliHere: the init code the bin runs) where
 * what it compares names no folder of the package's own; `real` runs the installed bin, for a layout whose hooks do
 * (a thoughts repository's .git/hooks name the package's folder, which differs between this tree and the install).
 */
async function expectRerunChangesNothing(dir: string, also: string[] = [], real = false): Promise<void> {
  const snapshot = () => JSON.stringify([tree(dir), ...also.map((d) => tree(d))]);
  const before = snapshot();
  if (real) expect(initOk(dir).stdout).toContain('Nothing to change');
  else {
    const again = await runCliHere(dir, ['init']);
    expect(again.code, `${again.stdout}${again.stderr}`).toBe(0);
    expect(again.stdout).toContain('Nothing to change');
  }
  expect(snapshot()).toEqual(before);
}

describe('init with hooks already there', () => {
  it('chains a plain .git/hooks/pre-commit (git stops running it once husky owns core.hooksPath)', async () => {
    const dir = project();
    const marker = join(tempDir(), 'marker');
    markerHook(join(dir, '.git/hooks/pre-commit'), marker, 'pre-commit');
    const res = await initHere(dir);
    expect(res.stdout).toMatch(/created\s+\.husky\/pre-commit: chains \.git\/hooks\/pre-commit/);
    prepare(dir);
    expectBothRun(dir, marker, null);
    await expectRerunChangesNothing(dir);
  });

  it('chains the hooks of an earlier core.hooksPath folder, commit-msg and its argument included', async () => {
    const dir = project();
    const marker = join(tempDir(), 'marker');
    markerHook(join(dir, '.githooks/pre-commit'), marker, 'pre-commit');
    writeFileSync(join(dir, '.githooks/commit-msg'), `#!/bin/sh\necho "commit-msg $(head -n1 "$1")" >> '${marker}'\n`, { mode: 0o755 });
    git(dir, 'config', 'core.hooksPath', '.githooks');
    const res = await initHere(dir);
    expect(res.stdout).toContain('chains .githooks/pre-commit');
    expect(res.stdout).toContain('chains .githooks/commit-msg');
    prepare(dir);
    expectBothRun(dir, marker, ['pre-commit', 'commit-msg Change README.md']);
    await expectRerunChangesNothing(dir);
  });

  it("keeps a user's own .husky/pre-commit and puts a block in front of it", async () => {
    const dir = project({ scripts: { prepare: 'husky' } });
    const marker = join(tempDir(), 'marker');
    mkdirSync(join(dir, '.husky'));
    const theirs = `echo pre-commit >> '${marker}'\n`;
    writeFileSync(join(dir, '.husky/pre-commit'), theirs);
    must(dir, join(dir, 'node_modules/.bin/husky'), []);
    const res = await initHere(dir);
    expect(res.stdout).toMatch(/updated\s+\.husky\/pre-commit: your hook kept/);
    expect(readFileSync(join(dir, '.husky/pre-commit'), 'utf8')).toContain(theirs);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    // Their bare `husky` stays theirs; init says why it breaks `npm ci --omit=dev`.
    expect(pkg.scripts.prepare).toBe('husky');
    expect(res.stdout).toContain('husky || true');
    expectBothRun(dir, marker, ['pre-commit'], true);
    await expectRerunChangesNothing(dir);
  });

  it('hands git\'s pre-push ref lines to every hook: the chained one, ours, and the rest of the user\'s', async () => {
    const dir = project({ scripts: { prepare: 'husky' } });
    const marker = join(tempDir(), 'marker');
    writeFileSync(join(dir, '.git/hooks/pre-push'), `#!/bin/sh\nwhile read -r ref sha rest; do echo "old $ref" >> '${marker}'; done\n`, { mode: 0o755 });
    mkdirSync(join(dir, '.husky'));
    writeFileSync(join(dir, '.husky/pre-push'), `while read -r ref sha rest; do echo "user $ref" >> '${marker}'; done\n`);
    const res = await initHere(dir);
    expect(res.stdout).toMatch(/updated\s+\.husky\/pre-push: your hook kept; a validate-workflow block runs first \(chains \.git\/hooks\/pre-push\)/);
    prepare(dir);
    const remote = tempDir('vw-remote-');
    git(remote, 'init', '-q', '--bare');
    git(dir, 'remote', 'add', 'origin', remote);
    // Pushed is what pre-push judges; the commit's own hooks are the other tests'.
    expect(commitFile(dir, 'README.md', 'hello\n', ['--no-verify']).code).toBe(0);
    const ok = run(dir, 'git', ['push', '-q', 'origin', 'main']);
    expect(ok.code, ok.out).toBe(0);
    expect(marks(marker)).toEqual(['old refs/heads/main', 'user refs/heads/main']);
    const bad = commitFile(dir, 'thoughts/shared/plans/broken.md', BAD_PLAN, ['--no-verify']);
    expect(bad.code, bad.out).toBe(0);
    const refused = run(dir, 'git', ['push', 'origin', 'main']);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('plan/task-numbering');
    // The chained hook ran first; the refusal stopped the rest of the user's hook.
    expect(marks(marker)).toEqual(['old refs/heads/main', 'user refs/heads/main', 'old refs/heads/main']);
    await expectRerunChangesNothing(dir);
  });

  it('runs lint-staged once when the user hook already runs it: the block checks directly', async () => {
    const marker = join(tempDir(), 'marker');
    const task = join(tempDir(), 'task.cjs');
    writeFileSync(task, `require('fs').appendFileSync(${JSON.stringify(marker)}, 'lint-staged ' + process.argv.slice(2).length + '\\n');\n`);
    const dir = project({ scripts: { prepare: 'husky' }, 'lint-staged': { '*.md': `node ${task}` } });
    mkdirSync(join(dir, '.husky'));
    writeFileSync(join(dir, '.husky/pre-commit'), 'lint-staged\n');
    must(dir, join(dir, 'node_modules/.bin/husky'), []);
    const res = await initHere(dir);
    expect(res.stdout).toContain('runs lint-staged itself');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg['lint-staged']).toEqual({ '*.md': `node ${task}` });
    const ok = commitFile(dir, 'README.md', 'hello\n');
    expect(ok.code, ok.out).toBe(0);
    expect(marks(marker)).toEqual(['lint-staged 1']);
    const bad = commitFile(dir, 'thoughts/shared/plans/broken.md', BAD_PLAN);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('plan/task-numbering');
    await expectRerunChangesNothing(dir);
  });
});

/** A one-task plan whose automated item passed; its manual item is the only thing left, for a human. */
function thoughtsPlan(manual: boolean): string {
  return `# Auth flow Implementation Plan\n\n## Phase 1: Part 1\n\n- [ ] Task 1: Do step 1\n\n### Success Criteria:\n\n#### Automated Verification:\n\n- [x] Phase 1 tests pass: \`npm test\`\n\n#### Manual Verification:\n\n- [${manual ? 'x' : ' '}] Phase 1 works in the browser\n`;
}

// The pre-commit hook where lint-staged is installed (cli/pre-commit.ts): the check judges the index itself and
// lint-staged runs the rest of its configuration in the same process, or not at all when the check was its only task;
// a configuration it does not read stays lint-staged's, the check running as its task.
describe("the pre-commit hook and lint-staged's configuration", () => {
  /** A task that records how many files lint-staged gave it, and fails when `fail` is set. */
  function markingTask(marker: string, fail = false): string {
    const task = join(tempDir(), 'task.cjs');
    writeFileSync(
      task,
      `require('fs').appendFileSync(${JSON.stringify(marker)}, 'task ' + process.argv.slice(2).length + '\\n');${fail ? " console.error('the task says no'); process.exit(1);" : ''}\n`,
    );
    return task;
  }

  async function hooked(pkg: Record<string, unknown>, files: Record<string, string> = {}): Promise<string> {
    const dir = project({ scripts: { prepare: 'husky || true' }, ...pkg });
    for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
    await initHere(dir);
    prepare(dir);
    return dir;
  }

  it('runs no lint-staged when the check is its only task, and refuses a bad plan in its own words', async () => {
    const dir = await hooked({});
    expect(Object.values(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))['lint-staged'])).toEqual([
      'validate-workflow --staged .',
    ]);
    // A workflow file: the file lint-staged ran the check for, reporting each step (`Running tasks for staged files`).
    const ok = commitFile(dir, 'thoughts/shared/plans/notes.md', '# Notes\n\nNothing planned yet.\n');
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('no problems');
    expect(ok.out).not.toContain('Running tasks for staged files');
    const head = git(dir, 'rev-parse', 'HEAD');
    const bad = commitFile(dir, 'thoughts/shared/plans/broken.md', BAD_PLAN);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('plan/task-numbering');
    expect(bad.out).toContain('validate-workflow: commit refused');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
  });

  it("runs the configuration's other tasks in the same pass, beside the check, and refuses when one fails", async () => {
    const marker = join(tempDir(), 'marker');
    const dir = await hooked({ 'lint-staged': { '*.md': `node ${markingTask(marker)}` } });
    const ok = commitFile(dir, 'README.md', 'hello\n');
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('Running tasks for staged files');
    expect(marks(marker)).toEqual(['task 1']);
    // lint-staged's API is an ES module the hooks' CommonJS build imports (cli/import-outside.ts): with no warning of
    // an experimental loader on the way.
    expect(ok.out).not.toContain('Warning');
    // In this process, from the configuration object cli/pre-commit.ts gives it (a lint-staged that could not be
    // imported would run as a program, with the check as its task, and pass as well).
    expect(ok.out).toContain('Config object');
    // The tasks run beside the check, as they ran beside it as lint-staged's task; the check's report comes after
    // lint-staged's (which may redraw its lines on a terminal meanwhile).
    const bad = commitFile(dir, 'thoughts/shared/plans/broken.md', BAD_PLAN);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('plan/task-numbering');
    expect(bad.out.lastIndexOf('Running tasks for staged files')).toBeLessThan(bad.out.indexOf('plan/task-numbering'));
    expect(marks(marker)).toEqual(['task 1', 'task 1']);
    git(dir, 'rm', '-q', '-f', 'thoughts/shared/plans/broken.md');

    const failing = join(tempDir(), 'marker');
    const strict = await hooked({ 'lint-staged': { '*.md': `node ${markingTask(failing, true)}` } });
    const no = commitFile(strict, 'README.md', 'hello\n');
    expect(no.code).not.toBe(0);
    expect(no.out).toContain('the task says no');
    expect(marks(failing)).toEqual(['task 1']);
  });

  it('loads lint-staged beside a package.json at the top that does not parse, as lint-staged itself runs there', async () => {
    const marker = join(tempDir(), 'marker');
    const dir = await hooked({});
    const rc = { 'thoughts/**': 'validate-workflow --staged .', '*.md': `node ${markingTask(marker)}` };
    writeFileSync(join(dir, '.lintstagedrc.json'), JSON.stringify(rc));
    writeFileSync(join(dir, 'package.json'), '// a comment lint-staged reads past\n{ "name": "app" }\n');
    const ok = commitFile(dir, 'README.md', 'hello\n');
    expect(ok.code, ok.out).toBe(0);
    expect(marks(marker)).toEqual(['task 1']);
  });

  it('runs lint-staged as a program when it finds another configuration below the top, and drops the early report', async () => {
    // The top's configuration is init's (the check alone), so the hook judges while git lists the configurations;
    // the listing then finds one in a subfolder, which is lint-staged's to run: its task judges, and the report the
    // hook made meanwhile is never printed (one report, one refusal).
    const marker = join(tempDir(), 'marker');
    const dir = await hooked({});
    mkdirSync(join(dir, 'packages/app'), { recursive: true });
    writeFileSync(join(dir, 'packages/app/.lintstagedrc.json'), JSON.stringify({ '*.md': `node ${markingTask(marker)}` }));
    const ok = commitFile(dir, 'packages/app/README.md', 'hello\n');
    expect(ok.code, ok.out).toBe(0);
    expect(marks(marker)).toEqual(['task 1']);
    // Remembered: the next commits list first, and judge once (lint-staged's task), as before the early check.
    const mark = join(dir, '.git/validate-workflow/lint-staged-elsewhere');
    expect(existsSync(mark)).toBe(true);
    const head = git(dir, 'rev-parse', 'HEAD');
    const bad = commitFile(dir, 'thoughts/shared/plans/broken.md', BAD_PLAN);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('plan/task-numbering');
    // lint-staged ran the check as its task; the hook's own refusal belongs to the report it dropped.
    expect(bad.out).toContain('validate-workflow --staged .');
    expect(bad.out).not.toContain('validate-workflow: commit refused');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    git(dir, 'rm', '-q', '-f', 'thoughts/shared/plans/broken.md');
    // The subfolder's configuration gone, the top's is the only one again: forgotten, and the hook judges early.
    git(dir, 'rm', '-q', 'packages/app/.lintstagedrc.json');
    const alone = commitFile(dir, 'thoughts/shared/plans/notes.md', '# Notes\n\nNothing planned yet.\n');
    expect(alone.code, alone.out).toBe(0);
    expect(existsSync(mark)).toBe(false);
  });

  it("leaves a JavaScript configuration to lint-staged, whose task runs the check", async () => {
    const marker = join(tempDir(), 'marker');
    const config = `export default {\n  '*.md': 'node ${markingTask(marker)}',\n  'thoughts/**': 'validate-workflow --staged .',\n};\n`;
    const dir = await hooked({}, { 'lint-staged.config.mjs': config });
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))['lint-staged']).toBeUndefined();
    const ok = commitFile(dir, 'README.md', 'hello\n');
    expect(ok.code, ok.out).toBe(0);
    expect(marks(marker)).toEqual(['task 1']);
    const bad = commitFile(dir, 'thoughts/shared/plans/broken.md', BAD_PLAN);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('plan/task-numbering');
    // lint-staged ran the check as its task (the task on *.md ran too, on the plan).
    expect(bad.out).toContain('validate-workflow --staged .');
    git(dir, 'rm', '-q', '-f', 'thoughts/shared/plans/broken.md');

    // lint-staged lists no deleted file: a commit that only deletes a handoff is judged by the hook itself.
    for (const [path, text] of Object.entries({
      [PLAN]: planDoc({ tasks: [1] }),
      [LEDGER]: ledgerDoc([1]),
      [handoffPath(1)]: taskHandoff(1),
    })) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    git(dir, 'add', '-A');
    expect(commit(dir, ['--no-verify', '-m', 'Task 1']).code).toBe(0);
    git(dir, 'rm', '-q', handoffPath(1));
    const head = git(dir, 'rev-parse', 'HEAD');
    const gone = commit(dir, [`--author=${ident(CLAUDE)}`, '-m', 'Tidy up']);
    expect(gone.code).not.toBe(0);
    expect(gone.out).toContain('history/handoff-deleted');
    // Refused by pre-commit, in its own words, before commit-msg (which would catch it too) ran.
    expect(gone.out).toContain('Skipping hooks (--no-verify, HUSKY=0) does not help');
    expect(gone.out).not.toContain('Your message is kept');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
  });
});

describe('HumanLayer layouts: thoughts/ in a separate repository', () => {
  /** A thoughts repository with a plan by Ana, as `humanlayer thoughts sync` would have committed it. */
  function thoughtsRepo(prefix: string): { repo: string; plan: string } {
    const repo = tempDir('vw-thoughts-');
    gitInit(repo);
    identity(repo);
    const plan = `${prefix}/shared/plans/2026-11-20-auth.md`;
    mkdirSync(join(repo, plan, '..'), { recursive: true });
    writeFileSync(join(repo, plan), thoughtsPlan(false));
    git(repo, 'add', '-A');
    must(repo, 'git', ['commit', '-q', '--no-verify', '-m', 'Plan']);
    return { repo, plan };
  }

  function agentCheckOff(repo: string, plan: string): Run {
    writeFileSync(join(repo, plan), thoughtsPlan(true));
    git(repo, 'add', '-A');
    return commit(repo, [`--author=${ident(CLAUDE)}`, '-m', 'Phase 1 verified']);
  }

  it("keeps HumanLayer's pre-commit and its .old chain, and judges commits in the thoughts repository", async () => {
    const { repo, plan } = thoughtsRepo('repos/app');
    const dir = project();
    const marker = join(tempDir(), 'marker');
    // HumanLayer's own hook (as `humanlayer thoughts init` writes it), which chains to pre-commit.old.
    const hooks = join(dir, '.git/hooks');
    writeFileSync(
      join(hooks, 'pre-commit'),
      `#!/bin/bash\n# HumanLayer thoughts protection - prevent committing thoughts directory\n\nif git diff --cached --name-only | grep -q "^thoughts/"; then\n    echo "Cannot commit thoughts/ to code repository"\n    exit 1\nfi\n\nif [ -f "${hooks}/pre-commit.old" ]; then\n    "${hooks}/pre-commit.old" "$@"\nfi\n`,
      { mode: 0o755 },
    );
    markerHook(join(hooks, 'pre-commit.old'), marker, 'pre-commit');
    markerHook(join(hooks, 'post-commit'), marker, 'post-commit');
    mkdirSync(join(dir, 'thoughts'));
    symlinkSync(join(repo, 'repos/app/shared'), join(dir, 'thoughts/shared'));
    // thoughts/ never goes into the code repository (HumanLayer's hook refuses it); ignoring it keeps `add -A` honest.
    appendFileSync(join(dir, '.gitignore'), 'thoughts/\n');
    const res = initOk(dir);
    expect(res.stdout).toContain('chains .git/hooks/pre-commit');
    expect(res.stdout).toContain('chains .git/hooks/post-commit');
    expect(res.stdout).toContain('no skeleton created');
    expect(res.stdout).toContain(`${repo}: .git/hooks/commit-msg`);
    prepare(dir);
    const ok = commitFile(dir, 'README.md', 'hello\n');
    expect(ok.code, ok.out).toBe(0);
    expect(marks(marker)).toEqual(['pre-commit', 'post-commit']);
    // In the thoughts repository: the agent's check-off is refused, a human's confirmation goes in.
    const head = git(repo, 'rev-parse', 'HEAD');
    const refused = agentCheckOff(repo, plan);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('history/manual-confirmation');
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    const confirmed = commit(repo, ['-m', 'Phase 1 verified', '-m', 'Confirmed-by: Ana Human <ana@example.com>']);
    expect(confirmed.code, confirmed.out).toBe(0);
    await expectRerunChangesNothing(dir, [repo], true);
  });

  it('installs the hooks where thoughts/ itself links, chaining the hook that repository had', async () => {
    const { repo, plan } = thoughtsRepo('app');
    const marker = join(tempDir(), 'marker');
    markerHook(join(repo, '.git/hooks/pre-commit'), marker, 'pre-commit');
    const dir = project();
    symlinkSync(join(repo, 'app'), join(dir, 'thoughts'));
    const res = initOk(dir);
    expect(res.stdout).toMatch(/moved\s+.*pre-commit: to pre-commit\.pre-validate-workflow/);
    const config = JSON.parse(readFileSync(join(dir, '.git/validate-workflow', readdirOne(join(dir, '.git/validate-workflow'))), 'utf8'));
    expect(config.paths.plans).toEqual(['app/shared/plans/**/*.md', 'app/plans/**/*.md']);
    expect(config.paths.ledgers).toEqual(['app/ledgers/CONTINUITY_*.md']);
    const refused = agentCheckOff(repo, plan);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('history/manual-confirmation');
    expect(marks(marker)).toEqual(['pre-commit']);
    await expectRerunChangesNothing(dir, [repo], true);
    // A second code repository sharing the thoughts repository adds its own line; the first one's stays.
    const other = project();
    symlinkSync(join(repo, 'app'), join(other, 'thoughts'));
    initOk(other);
    const hook = readFileSync(join(repo, '.git/hooks/pre-commit'), 'utf8');
    expect(hook.match(/^vw_project /gm)).toHaveLength(2);
  });
});

function readdirOne(dir: string): string {
  const names = readdirSync(dir).filter((n) => n.startsWith('thoughts-'));
  expect(names).toHaveLength(1);
  return names[0]!;
}
