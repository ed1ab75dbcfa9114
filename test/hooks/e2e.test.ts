// A new user's path, end to end: `npm i -D <packed tarball>` (the install the run shares, setup.ts installed()), `npx
// validate-workflow init`, the prepare script `npm install` runs, then real commits and pushes through the hooks init
// wrote. One repository is installed for the whole file, with a plan and two task commits on top; each test works in a
// copy of it that shares its node_modules, so the tests do not depend on each other's commits. The full run that
// confirms what the hooks decided goes through the installed bin once (the push); elsewhere it runs in this process
// (runCliHere), as does the second init: the hooks and git are the doors these tests are about. A commit whose hooks
// are not a test's subject skips them (--no-verify).
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it("refuse an agent's amend of the human's confirmation that stages code alone, and touch nothing", () => {
    const dir = clone(base);
    stage(dir, checkOff());
    expectOk(commit(dir, ['-m', 'Phase 1 verified', '-m', 'Confirmed-by: Ana Human <ana@example.com>']));
    // The amended commit replaces the human's: judged against HEAD's parent, it is the agent's check-off, though
    // against HEAD it stages nothing the check reads.
    stage(dir, { 'src/app.ts': 'export const answer = 42;\n' });
    const head = git(dir, 'rev-parse', 'HEAD');
    const before = state(dir);
    // Spelled in full, and as git also takes it (any unambiguous start of the option).
    for (const amend of ['--amend', '--am']) {
      const res = commit(dir, [amend, AS_CLAUDE, '-m', 'Phase 1 verified, tidied']);
      expect(res.code, amend).not.toBe(0);
      expect(res.out).toContain('history/manual-confirmation');
      expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
      expect(state(dir)).toEqual(before);
    }
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

  it('judge alone where lint-staged is not installed, and say the refusal once, in the same words', () => {
    const dir = clone(base);
    // node_modules with validate-workflow and nothing else: no lint-staged for the hook to run.
    const pkg = realpathSync(join(dir, 'node_modules', 'validate-workflow'));
    rmSync(join(dir, 'node_modules'), { recursive: true });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(pkg, join(dir, 'node_modules', 'validate-workflow'));
    stage(dir, checkOff());
    const before = state(dir);
    const res = commit(dir, [AS_CLAUDE, '-m', 'Phase 1 verified']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('history/manual-confirmation');
    expect(res.out).not.toContain('lint-staged could not run');
    expect(res.out.split('validate-workflow: commit refused').length - 1).toBe(1);
    expect(state(dir)).toEqual(before);
  });

  it('say the commit was refused when the check could not run, and touch nothing', () => {
    const dir = clone(base);
    stage(dir, { 'README.md': 'hello\n' });
    // A config that does not parse, not staged: the check stops on it (exit 2) before it judges anything.
    write(dir, { 'validate-workflow.config.json': '{ broken' });
    const before = state(dir);
    const res = commit(dir, ['-m', 'Readme']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('validate-workflow.config.json: not valid JSON');
    expect(res.out).toContain('validate-workflow: commit refused: the check could not run');
    expect(state(dir)).toEqual(before);
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

// commit-msg takes a clean verdict pre-commit left in the shell, without starting node (hooks/commit-msg, issue 22):
// pre-commit leaves a stamp binding it to its `git commit` process, HEAD and the index (engine/handover.ts). These
// commits run with a `node` first on the PATH that logs each start and runs the real one: the hooks call `node`.
describe("the commit-msg hook's shell", () => {
  const stampOf = (dir: string) => join(dir, '.git', 'validate-workflow', 'staged-verdict.stamp');
  const recordOf = (dir: string) => join(dir, '.git', 'validate-workflow', 'staged-verdict.json');

  /** A `node` that logs its arguments, for `git commit`'s environment; `starts()` says what it started since. */
  function logged(): { env: NodeJS.ProcessEnv; starts: () => string[] } {
    const bin = tempDir('vw-node-');
    const log = join(bin, 'log');
    writeFileSync(join(bin, 'node'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
    return {
      env: { PATH: `${bin}:${process.env.PATH}` },
      starts: () => {
        const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
        rmSync(log, { force: true });
        // The CLI's command word, as the hooks start it (`fast-start.cjs pre-commit`, `fast-start.cjs commit-msg <file>`).
        return lines.map((l) => /(?:fast-start\.cjs|main\.js) (\S+)/.exec(l)?.[1] ?? l);
      },
    };
  }

  /** The config with a rule turned off: nothing to say of it when a person commits it, an agent loosening its rules. */
  const loosened = () => ({ 'validate-workflow.config.json': '{ "preset": "recommended", "rules": { "plan/placeholder": "off" } }\n' });

  it('takes a clean verdict without node, and says "no problems" once, pre-commit\'s', () => {
    const dir = clone(base);
    const node = logged();
    stage(dir, { 'README.md': 'hello\n' });
    const res = commit(dir, ['-m', 'Readme'], node.env);
    expectOk(res);
    expect(node.starts()).toEqual(['pre-commit']);
    expect(res.out.match(/no problems/g)).toHaveLength(1);
    // Taken once: neither the stamp nor the record stays for another commit-msg.
    expect(existsSync(stampOf(dir))).toBe(false);
    expect(existsSync(recordOf(dir))).toBe(false);
    expect(git(dir, 'log', '-1', '--format=%s').trim()).toBe('Readme');
  });

  it('takes it as git hands it to the hooks in `commit -a`, a commit of paths, an amend and a linked worktree', async () => {
    const dir = clone(base);
    const node = logged();
    write(dir, { 'README.md': 'one\n' });
    git(dir, 'add', 'README.md');
    write(dir, { 'README.md': 'two\n' });
    // git's own temporary index (GIT_INDEX_FILE), which node and the shell both read.
    expectOk(commit(dir, ['-a', '-m', 'All of it'], node.env));
    expect(git(dir, 'show', 'HEAD:README.md')).toBe('two\n');
    write(dir, { 'README.md': 'three\n', 'NOTES.md': 'left out\n' });
    git(dir, 'add', 'NOTES.md');
    expectOk(commit(dir, ['-m', 'Only the readme', 'README.md'], node.env));
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('README.md');
    expect(node.starts()).toEqual(['pre-commit', 'pre-commit']);
    // Claude's task 2 amended with its handoff renamed: against HEAD^ (as an amend is judged) the handoff is new, no
    // deletion, and the amend goes through; against HEAD it would be refused.
    git(dir, 'reset', '-q', '--hard', 'HEAD~2');
    git(dir, 'mv', handoffPath(2), handoffPath(2, 'users-table'));
    expectOk(commit(dir, ['--amend', '--no-edit'], node.env));
    expect(node.starts()).toEqual(['pre-commit']);
    expect(git(dir, 'log', '-1', '--format=%an %s').trim()).toBe('Claude Task 2');
    // A linked worktree: its own git folder (the stamp's), its own index; husky's folder of hooks made there as
    // `npm install` (husky) makes it in each checkout.
    const wt = join(tempDir('vw-wt-'), 'wt');
    git(dir, 'worktree', 'add', '-q', wt);
    cpSync(join(dir, '.husky', '_'), join(wt, '.husky', '_'), { recursive: true });
    symlinkSync(join(dir, 'node_modules'), join(wt, 'node_modules'));
    stage(wt, { 'README.md': 'from the worktree\n' });
    expectOk(commit(wt, ['-m', 'From the worktree'], node.env));
    expect(node.starts()).toEqual(['pre-commit']);
    expect(git(wt, 'log', '-1', '--format=%s').trim()).toBe('From the worktree');
    // The full run agrees with what the hooks let through.
    const full = await runCliHere(dir, []);
    expect(full.code, `${full.stdout}${full.stderr}`).toBe(0);
  });

  it("does not take a stamp another `git commit` left: an agent's commit after a person's aborted one is judged", () => {
    const dir = clone(base);
    const node = logged();
    stage(dir, loosened());
    // Ana's commit passes pre-commit, then stops before commit-msg (the editor fails): its stamp stays.
    const aborted = run(dir, 'git', ['commit'], { env: { ...node.env, GIT_EDITOR: 'false' } });
    expect(aborted.code).not.toBe(0);
    expect(existsSync(stampOf(dir))).toBe(true);
    // The next commit, the same index on the same HEAD, by Claude, with a pre-commit that leaves nothing (a hook of
    // the user's that skips the check): only the git process tells the stamp is not this commit's.
    writeFileSync(join(dir, '.husky', 'pre-commit'), 'true\n');
    node.starts();
    const res = commit(dir, [AS_CLAUDE, '-m', 'Loosen the placeholder rule'], node.env);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('history/self-exemption');
    expect(node.starts()).toEqual(['commit-msg']);
  });

  it('leaves no stamp behind a pre-commit that refuses, though an aborted commit left one', () => {
    const dir = clone(base);
    stage(dir, loosened());
    expect(run(dir, 'git', ['commit'], { env: { GIT_EDITOR: 'false' } }).code).not.toBe(0);
    expect(existsSync(stampOf(dir))).toBe(true);
    stage(dir, { 'thoughts/shared/plans/broken.md': '# Broken Implementation Plan\n\n## Phase 1: A\n\n- [ ] Task 1: a\n- [ ] Task 3: b\n' });
    const res = commit(dir, ['-m', 'Broken plan']);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('plan/task-numbering');
    expect(existsSync(stampOf(dir))).toBe(false);
  });

  it('judges with node when a pre-commit step changes the index after the check', () => {
    const dir = clone(base);
    const node = logged();
    // The user's own step after ours stages a plan the check would refuse (its tasks numbered 1, 3).
    const bad = join(tempDir(), 'broken.md');
    writeFileSync(bad, '# Broken Implementation Plan\n\n## Phase 1: A\n\n- [ ] Task 1: a\n- [ ] Task 3: b\n');
    appendFileSync(join(dir, '.husky', 'pre-commit'), `cp '${bad}' thoughts/shared/plans/broken.md\ngit add thoughts/shared/plans/broken.md\n`);
    stage(dir, { 'README.md': 'hello\n' });
    const res = commit(dir, ['-m', 'Readme'], node.env);
    expect(res.code).not.toBe(0);
    expect(res.out).toContain('plan/task-numbering');
    expect(res.out).toContain('Your message is kept');
    expect(node.starts()).toEqual(['pre-commit', 'commit-msg']);
  });

  it("judges with node when a pre-commit step rewrites the working tree's config after the check", () => {
    const dir = clone(base);
    const node = logged();
    // Not staged: the index is what pre-commit judged, the config node reads (and keys the record by) is not.
    appendFileSync(join(dir, '.husky', 'pre-commit'), `printf '%s\\n' '{ "preset": "strict" }' > validate-workflow.config.json\n`);
    stage(dir, { 'README.md': 'hello\n' });
    expectOk(commit(dir, ['-m', 'Readme'], node.env));
    expect(node.starts()).toEqual(['pre-commit', 'commit-msg']);
  });

  it('judges with node a message that names a co-author or a confirmation, wherever it says so', () => {
    const dir = clone(base);
    const node = logged();
    stage(dir, loosened());
    const head = git(dir, 'rev-parse', 'HEAD');
    // git reads `Co:` in a trailer block as `Co-authored-by:` where the config says so: no word of it is in the message.
    git(dir, 'config', 'trailer.co.key', 'Co-authored-by');
    // A trailer block, and a Co-authored-by line in the subject's own paragraph (node reads those anywhere).
    for (const message of [
      'Loosen the placeholder rule\n\nCo: Claude <noreply@anthropic.com>\n',
      'Loosen the placeholder rule\nCo-authored-by: Claude <noreply@anthropic.com>\n',
    ]) {
      const res = run(dir, 'git', ['commit', '-q', '-F', '-'], { env: node.env, input: message });
      expect(res.code).not.toBe(0);
      expect(res.out).toContain('history/self-exemption');
      expect(node.starts()).toEqual(['pre-commit', 'commit-msg']);
    }
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    // Ana's own: one paragraph with a Confirmed-by line (as squash messages carry them) goes to node too.
    const ok = run(dir, 'git', ['commit', '-q', '-F', '-'], { env: node.env, input: 'Loosen the placeholder rule\nConfirmed-by: Ana Human <ana@example.com>\n' });
    expectOk(ok);
    expect(node.starts()).toEqual(['pre-commit', 'commit-msg']);
  });

  it('sends a change that checks a manual item to node, though nothing is found in it', () => {
    const dir = clone(base);
    const node = logged();
    // The confirmation rule off: Ana's check-off draws no finding at all (not even the info on her own confirmation).
    // Whether a confirmation counts, and the digest that seals it into the message, are node's (cli/check.ts).
    stage(dir, { 'validate-workflow.config.json': '{ "preset": "recommended", "rules": { "history/manual-confirmation": "off" } }\n' });
    expectOk(commit(dir, ['--no-verify', '-m', 'Quiet the confirmation rule']));
    stage(dir, checkOff());
    const res = commit(dir, ['-m', 'Phase 1 verified'], node.env);
    expectOk(res);
    expect(res.out.match(/no problems/g)).toHaveLength(2);
    expect(node.starts()).toEqual(['pre-commit', 'commit-msg']);
  });

  it('leaves no stamp for a verdict with findings: node reports them at commit-msg as before', () => {
    const dir = clone(base);
    const node = logged();
    // A placeholder left in the plan: a warning (plan/placeholder), which lets the commit through.
    stage(dir, { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }).replace('- [ ] Phase 2 works', '- [ ] TODO: Phase 2 works') });
    const aborted = run(dir, 'git', ['commit'], { env: { ...node.env, GIT_EDITOR: 'false' } });
    expect(aborted.code).not.toBe(0);
    expect(existsSync(recordOf(dir))).toBe(true);
    expect(existsSync(stampOf(dir))).toBe(false);
    node.starts();
    const res = commit(dir, ['-m', 'Mark the rollout'], node.env);
    expectOk(res);
    expect(res.out.match(/plan\/placeholder/g)).toHaveLength(2);
    expect(node.starts()).toEqual(['pre-commit', 'commit-msg']);
  });
});
