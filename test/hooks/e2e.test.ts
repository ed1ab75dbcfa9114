// A new user's path, end to end: `npm i -D <packed tarball>` (the install the run shares, setup.ts installed()), `npx
// validate-workflow init`, the prepare script `npm install` runs, then real commits and pushes through the hooks init
// wrote. One repository is installed for the whole file, with a plan and two task commits on top; each test works in a
// copy of it that shares its node_modules, so the tests do not depend on each other's commits. The full run that
// confirms what the hooks decided goes through the installed bin once (the push); elsewhere it runs in this process
// (runCliHere), as does the second init: the hooks and git are the doors these tests are about. A commit whose hooks
// are not a test's subject skips them (--no-verify).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE, LEDGER, PLAN, handoffPath, ident, ledgerDoc, planDoc, taskHandoff } from '../history/helpers.js';
import { runCliHere } from '../helpers/repo.js';
import { bin, clone, commit, freshRepo, git, init, installed, linkInstalled, must, npm, run, state, tempDir, tree, type Run } from './setup.js';

let base = '';
let firstInit: Run;

beforeAll(() => {
  base = freshRepo();
  // `npm i -D <tarball>`: the package where npm installed it for the run (installed()), and the dependency npm wrote.
  linkInstalled(base);
  const installedPkg = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
  pkg.devDependencies = { 'validate-workflow': installedPkg.devDependencies['validate-workflow'] };
  writeFileSync(join(base, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  firstInit = init(base);
  // What init tells the user to do next, `npm install`, installs husky and lint-staged (installed() has the versions
  // init pins) and runs the prepare script: npm runs it here, against the installed folder, which an install would
  // write into. test/install/routes.test.ts runs the real `npm install`.
  npm(base, 'run', 'prepare');
  git(base, 'add', '-A');
  // Through the hooks just installed: a commit of the setup itself must go through.
  must(base, 'git', ['commit', '-q', '-m', 'Set up validate-workflow']);
  ready(base);
}, 240_000);

const AS_CLAUDE = `--author=${ident(CLAUDE)}`;

function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

function stage(dir: string, files: Record<string, string>): void {
  write(dir, files);
  git(dir, 'add', '-A');
}

/**
 * Plan and ledger by Ana, tasks 1 and 2 by Claude with their handoffs, phase 1's automated item checked. With
 * --no-verify: which commits of a clean protocol pass is the engine's verdict (test/history judges it); the hooks'
 * own passing case here is a human's confirmation below.
 */
function ready(dir: string): void {
  const skip = ['--no-verify'];
  stage(dir, { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() });
  expectOk(commit(dir, [...skip, '-m', 'Plan the auth flow']));
  stage(dir, { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) });
  expectOk(commit(dir, [...skip, AS_CLAUDE, '-m', 'Task 1']));
  stage(dir, { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) });
  expectOk(commit(dir, [...skip, AS_CLAUDE, '-m', 'Task 2']));
}

function expectOk(res: Run): void {
  expect(res.code, res.out).toBe(0);
}

/** Phase 1's manual item checked: the change only a human may make. */
const checkOff = () => ({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });

describe('init in a fresh repository', () => {
  it('says what it did, pins husky and lint-staged, and sets a prepare script that survives --omit=dev', () => {
    expect(firstInit.code, firstInit.out).toBe(0);
    for (const file of ['.husky/pre-commit', '.husky/commit-msg', '.husky/pre-push', 'validate-workflow.config.json', '.github/workflows/validate-workflow.yml', 'thoughts/shared/plans/.gitkeep', 'thoughts/handoffs/.gitkeep', 'thoughts/ledgers/.gitkeep']) {
      expect(firstInit.stdout).toMatch(new RegExp(`created\\s+${file.replace(/\./g, '\\.')}`));
      expect(existsSync(join(base, file)), file).toBe(true);
    }
    expect(firstInit.stdout).toContain('npm install');
    const pkg = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
    expect(pkg.devDependencies).toMatchObject({ husky: '9.1.7', 'lint-staged': '16.4.0' });
    expect(pkg.devDependencies['validate-workflow']).toMatch(/^file:/);
    expect(pkg.scripts.prepare).toBe('husky || true');
    expect(Object.values(pkg['lint-staged'])).toEqual(['validate-workflow --staged .']);
    const config = JSON.parse(readFileSync(join(base, 'validate-workflow.config.json'), 'utf8'));
    expect(config.$schema).toBe('./node_modules/validate-workflow/schemas/config.schema.json');
    expect(existsSync(join(base, config.$schema))).toBe(true);
    const ci = readFileSync(join(base, '.github/workflows/validate-workflow.yml'), 'utf8');
    expect(ci).toContain('fetch-depth: 0');
    expect(ci).toContain('uses: validate-workflow/validate-workflow@v0');
    for (const hook of ['pre-commit', 'commit-msg', 'pre-push']) {
      const text = readFileSync(join(base, '.husky', hook), 'utf8');
      // husky 9: plain scripts; the v4-8 sourcing line is deprecated and fails in husky 10.
      expect(text).not.toContain('husky.sh');
      expect(text).toContain(`node_modules/validate-workflow/hooks/${hook}`);
      expect(existsSync(join(base, 'node_modules/validate-workflow/hooks', hook))).toBe(true);
    }
    expect(git(base, 'config', 'core.hooksPath').trim()).toBe('.husky/_');
  });

  it('changes nothing when run a second time, and says so', async () => {
    const dir = clone(base);
    const before = tree(dir);
    // The init code the installed bin runs (the first init went through npx): what it compares names no folder of
    // the package's own, so this tree's copy decides as the installed one does.
    const again = await runCliHere(dir, ['init']);
    expect(again.code, `${again.stdout}${again.stderr}`).toBe(0);
    expect(again.stdout).toContain('Nothing to change');
    expect(again.stdout).not.toMatch(/^\s+(created|updated|moved)\s/m);
    expect(tree(dir)).toEqual(before);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });
});

describe('the hooks init installed', () => {
  it("refuse an agent's manual check-off with a clear message, and touch nothing", () => {
    const dir = clone(base);
    stage(dir, checkOff());
    // Around it, what hooks must not disturb: a partly staged file, an unstaged change, an untracked file.
    write(dir, { 'notes.md': 'staged line\n' });
    git(dir, 'add', 'notes.md');
    write(dir, { 'notes.md': 'staged line\nunstaged line\n', '.gitignore': 'node_modules\n# unstaged\n', 'scratch.txt': 'untracked\n' });
    const before = state(dir);
    const res = commit(dir, [AS_CLAUDE, '-m', 'Phase 1 verified']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('history/manual-confirmation');
    expect(res.out).toContain('Confirmed-by');
    expect(res.out).toContain('commit refused');
    expect(state(dir)).toEqual(before);
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('staged line\nunstaged line\n');
    expect(git(dir, 'show', ':notes.md')).toBe('staged line\n');
  });

  it("accept the same change as a human's confirmation commit, and the full run agrees", async () => {
    const dir = clone(base);
    stage(dir, checkOff());
    const head = git(dir, 'rev-parse', 'HEAD');
    const res = commit(dir, ['-m', 'Phase 1 verified', '-m', 'Confirmed-by: Ana Human <ana@example.com>']);
    expectOk(res);
    expect(git(dir, 'rev-parse', 'HEAD^')).toBe(head);
    expect(git(dir, 'log', '-1', '--format=%an <%ae> / %cn <%ce>').trim()).toBe('Ana Human <ana@example.com> / Ana Human <ana@example.com>');
    const full = await runCliHere(dir, []);
    expect(full.code, `${full.stdout}${full.stderr}`).toBe(0);
  });

  it('check a commit that only deletes a handoff (lint-staged lists no deleted file)', () => {
    const dir = clone(base);
    git(dir, 'rm', '-q', handoffPath(1));
    const before = state(dir);
    const res = commit(dir, [AS_CLAUDE, '-m', 'Tidy up']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('history/handoff-deleted');
    // Refused by pre-commit, in its own words, before commit-msg (which would catch it too) ran.
    expect(res.out).toContain('Skipping hooks (--no-verify, HUSKY=0) does not help');
    expect(res.out).not.toContain('Your message is kept');
    expect(state(dir)).toEqual(before);
  });

  it('refuse a push of a bad history made with --no-verify, which the full run catches too', () => {
    const dir = clone(base);
    const remote = tempDir('vw-remote-');
    git(remote, 'init', '-q', '--bare');
    git(dir, 'remote', 'add', 'origin', remote);
    // An empty remote: the whole history is judged from the start, and it is clean.
    const first = run(dir, 'git', ['push', '-q', '-u', 'origin', 'main']);
    expectOk(first);
    const pushed = git(dir, 'rev-parse', 'HEAD').trim();
    stage(dir, checkOff());
    expectOk(commit(dir, ['--no-verify', AS_CLAUDE, '-m', 'Phase 1 verified']));
    const full = bin(dir);
    expect(full.code, full.out).toBe(1);
    expect(full.out).toContain('history/manual-confirmation');

    const push = run(dir, 'git', ['push', 'origin', 'main']);
    expect(push.code).not.toBe(0);
    expect(push.out).toContain('history/manual-confirmation');
    expect(push.out).toContain('push of refs/heads/main');
    expect(git(remote, 'rev-parse', 'main').trim()).toBe(pushed);
    // A new branch is judged from where it leaves the remote's default branch.
    const branch = run(dir, 'git', ['push', 'origin', 'HEAD:refs/heads/feature']);
    expect(branch.code).not.toBe(0);
    expect(branch.out).toContain('history/manual-confirmation');
    expect(run(remote, 'git', ['rev-parse', '--verify', '-q', 'refs/heads/feature']).code).not.toBe(0);
    // The remote-tracking ref is local state: moved onto the violating commit (or past it), it must not hide the
    // commit from a new branch's push. The hook asks the remote where its default branch is.
    writeFileSync(join(dir, 'NOTES.md'), 'A clean commit on top.\n');
    git(dir, 'add', 'NOTES.md');
    expectOk(commit(dir, ['--no-verify', '-m', 'Notes']));
    git(dir, 'update-ref', 'refs/remotes/origin/main', 'HEAD~1');
    const forged = run(dir, 'git', ['push', 'origin', 'HEAD:refs/heads/forged']);
    expect(forged.code).not.toBe(0);
    expect(forged.out).toContain('history/manual-confirmation');
    // A new branch holding only commits the remote already has: nothing new to judge.
    expect(run(dir, 'git', ['push', '-q', 'origin', 'HEAD~2:refs/heads/clean']).code).toBe(0);
    // A deletion pushes no commits: nothing to judge.
    expectOk(run(dir, 'git', ['push', '-q', 'origin', '--delete', 'clean']));
  });

  it('are off with HUSKY=0 (the documented escape), which the full run still catches', async () => {
    const dir = clone(base);
    stage(dir, checkOff());
    expectOk(commit(dir, [AS_CLAUDE, '-m', 'Phase 1 verified'], { HUSKY: '0' }));
    const full = await runCliHere(dir, []);
    expect(full.code, `${full.stdout}${full.stderr}`).toBe(1);
    expect(`${full.stdout}${full.stderr}`).toContain('history/manual-confirmation');
  });

  it('fail closed when the package is gone from node_modules', () => {
    const dir = clone(base);
    rmSync(join(dir, 'node_modules'));
    mkdirSync(join(dir, 'node_modules'));
    stage(dir, { 'README.md': 'hello\n' });
    const res = commit(dir, ['-m', 'Readme']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('run npm install');
  });
});
