// What `status` keeps between runs (.git/validate-workflow/status-index.json): each file's summary by its stat, the
// globs' walk by the stat of every folder it listed, and the last session view by a digest of what it was made from.
// Each test changes a real repository as a user would, then asks status twice: from the index, and afresh with the
// index removed; the two must agree. Changed files and folders are given a distinct modification time an hour ago,
// older than the index, so it is the index's own checks that must see the change (a file changed within two seconds
// of the index is read again anyway, and would hide a stale answer).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusData, type StatusData } from '../../src/cli/status.js';
import { defaultConfig } from '../../src/config/config.js';
import { discover, gitIgnored, type KeptWalk, type WalkMemo } from '../../src/read/discover.js';
import { CLI, git, makeRepo, writeFiles } from '../helpers/repo.js';
import { LEDGER, PLAN, SESSION, handoffPath, ledger, plan, taskHandoff, type Files } from '../rules/fixtures.js';

/** Phase 1 done and automated-verified, its manual item waiting; task 2's handoff blocked. */
function session(): Files {
  const text = plan({ checked: [1, 2] }).replace('- [ ] Phase 1 tests pass', '- [x] Phase 1 tests pass');
  return {
    [PLAN]: text,
    [LEDGER]: ledger({ state: ['- [x] Task 1: Do step 1', '- [x] Task 2: Do step 2', '- [→] Task 3: Do step 3'] }),
    [handoffPath(1)]: taskHandoff(1),
    [handoffPath(2)]: taskHandoff(2, { status: 'blocked', blocker: 'No role.', context_for_next: 'Role missing.' }),
  };
}

let tick = 0;
/** A distinct modification time an hour ago for each path (file or folder): older than any index, unlike any other. */
function settle(dir: string, ...paths: string[]): void {
  for (const path of paths) {
    const at = Date.now() / 1000 - 3600 + tick++;
    utimesSync(join(dir, path), at, at);
  }
}

/** Every workflow file, every folder above one, and the top folder, settled: nothing is too recent to be kept. */
function settleAll(dir: string, files: Files): void {
  const folders = new Set<string>(['.']);
  for (const path of Object.keys(files)) for (let d = dirname(path); d !== '.'; d = dirname(d)) folders.add(d);
  settle(dir, ...Object.keys(files), ...folders);
}

const INDEX = ['.git', 'validate-workflow', 'status-index.json'];

/** The view from the index, and afresh without it (the index then put back, so later steps start from it). */
async function keptAndFresh(dir: string, session?: string): Promise<StatusData> {
  const kept = await statusData(dir, session);
  const index = join(dir, ...INDEX);
  const saved = existsSync(index) ? readFileSync(index) : null;
  rmSync(index, { force: true });
  const fresh = await statusData(dir, session);
  if (saved) writeFileSync(index, saved);
  expect(kept).toEqual(fresh);
  return fresh;
}

/** Whether the last run kept the globs' walk (it does when no link is met): the folder checks are then exercised. */
function walkKept(dir: string): boolean {
  return (JSON.parse(readFileSync(join(dir, ...INDEX), 'utf8')) as { walk: unknown }).walk !== null;
}

describe('status serves no stale answer from its index', () => {
  it('after an edit, staging, a commit, a new file, a rename, a deletion and a new session folder', async () => {
    const files = session();
    const dir = makeRepo(files, { commit: true });
    settleAll(dir, files);
    expect((await keptAndFresh(dir)).session).toBe(SESSION);
    expect(walkKept(dir)).toBe(true);

    // Edited, not staged: the same size, so only the modification time tells.
    const second = handoffPath(2);
    writeFileSync(join(dir, second), readFileSync(join(dir, second), 'utf8').replace('No role.', 'No user.'));
    settle(dir, second);
    expect((await keptAndFresh(dir)).blocked[0]?.blocker).toBe('No user.');

    git(dir, 'add', '-A');
    await keptAndFresh(dir);
    git(dir, 'commit', '-qm', 'Blocker reworded');
    await keptAndFresh(dir);

    // A new handoff in the session's folder: only the folder's stat shows it.
    const third = handoffPath(3);
    writeFiles(dir, { [third]: taskHandoff(3, { context_for_next: 'Step 3 is done.' }) });
    settle(dir, third, dirname(third));
    expect((await keptAndFresh(dir)).lastHandoff?.path).toBe(third);

    git(dir, 'add', third);
    git(dir, 'commit', '-qm', 'Task 3');
    const renamed = handoffPath(3, 'renamed');
    git(dir, 'mv', third, renamed);
    settle(dir, dirname(third));
    expect((await keptAndFresh(dir)).lastHandoff?.path).toBe(renamed);

    rmSync(join(dir, second));
    settle(dir, dirname(second));
    expect((await keptAndFresh(dir)).blocked).toEqual([]);

    // A new session's folder, in the handoffs folder the walk listed.
    const other = handoffPath(1, 'start', 'other-1');
    writeFiles(dir, { [other]: taskHandoff(1, { context_for_next: 'Other session.' }) });
    settle(dir, other, dirname(other), dirname(dirname(other)));
    expect((await keptAndFresh(dir, 'other-1')).lastHandoff?.contextForNext).toBe('Other session.');
    expect(walkKept(dir)).toBe(true);
  });

  it("after git's ignore rules change, and when an ignored file is tracked or untracked", async () => {
    const files = session();
    const dir = makeRepo(files, { commit: true });
    const extra = handoffPath(3);
    writeFiles(dir, { '.gitignore': 'thoughts/handoffs/*/task-03-*\n', [extra]: taskHandoff(3) });
    settleAll(dir, { ...files, [extra]: '', '.gitignore': '' });
    const shown = async () => (await keptAndFresh(dir)).handoffs.map((h) => h.path);
    expect(await shown()).not.toContain(extra);

    // Tracked, a file is never ignored: git's index says so, not the rules.
    git(dir, 'add', '-f', extra);
    expect(await shown()).toContain(extra);
    git(dir, 'rm', '-q', '--cached', extra);
    expect(await shown()).not.toContain(extra);

    writeFileSync(join(dir, '.gitignore'), '# nothing ignored now\n');
    settle(dir, '.gitignore');
    expect(await shown()).toContain(extra);
    writeFileSync(join(dir, '.git', 'info', 'exclude'), `${extra}\n`);
    expect(await shown()).not.toContain(extra);
  });

  it('after the config changes what is found, and for another build of the tool', async () => {
    const files = session();
    const dir = makeRepo(files, { commit: true });
    settleAll(dir, files);
    await keptAndFresh(dir);
    writeFiles(dir, { 'validate-workflow.config.json': '{ "ignore": ["**/task-02-*"] }\n' });
    expect((await keptAndFresh(dir)).blocked).toEqual([]);
    writeFiles(dir, {
      'validate-workflow.config.json': '{ "paths": { "handoffs": ["thoughts/elsewhere/**/*.md"] } }\n',
    });
    expect((await keptAndFresh(dir)).handoffs).toEqual([]);
    rmSync(join(dir, 'validate-workflow.config.json'));
    expect((await keptAndFresh(dir)).blocked).toHaveLength(1);

    // Through the built CLI: an index whose summaries say something else is believed by the build that wrote it
    // (so the index is read), and by no other build.
    const build = (id: string) => {
      const pkg = join(tmpdir(), `vw-build-${process.pid}-${id}`);
      rmSync(pkg, { recursive: true, force: true });
      mkdirSync(join(pkg, 'dist'), { recursive: true });
      cpSync(dirname(CLI), join(pkg, 'dist', 'bundle'), { recursive: true });
      cpSync(join(dirname(CLI), '..', '..', 'package.json'), join(pkg, 'package.json'));
      writeFileSync(join(pkg, 'dist', 'bundle', 'BUILD_ID'), `${id}\n`);
      return join(pkg, 'dist', 'bundle', 'main.js');
    };
    const [a, b] = [build('a'), build('b')];
    const run = (cli: string) =>
      spawnSync(process.execPath, [cli, 'status', '--format', 'json'], { cwd: dir, encoding: 'utf8' }).stdout;
    const truth = run(a);
    expect(JSON.parse(truth).session).toBe(SESSION);
    // The ledger's summary says it is no longer active: no session is picked.
    const index = join(dir, ...INDEX);
    writeFileSync(index, readFileSync(index, 'utf8').replaceAll('"status":"active"', '"status":"complete"'));
    expect(JSON.parse(run(a)).session).toBeNull();
    expect(run(b)).toBe(truth);
    for (const cli of [a, b]) rmSync(dirname(dirname(dirname(cli))), { recursive: true, force: true });
  });

  it('after a plan outside the globs, named by the ledger, changes', async () => {
    const outside = 'docs/auth-plan.md';
    const files = Object.fromEntries(Object.entries(session()).map(([p, t]) => [p === PLAN ? outside : p, t]));
    for (const p of Object.keys(files)) if (p !== outside) files[p] = String(files[p]).replaceAll(PLAN, outside);
    const dir = makeRepo(files, { commit: true });
    settleAll(dir, files);
    const first = await keptAndFresh(dir);
    expect(first.plan).toBe(outside);
    expect(first.manualChecks).toHaveLength(1);
    writeFileSync(join(dir, outside), readFileSync(join(dir, outside), 'utf8').replaceAll('- [ ] ', '- [x] '));
    settle(dir, outside);
    expect((await keptAndFresh(dir)).manualChecks).toEqual([]);
    rmSync(join(dir, outside));
    expect((await keptAndFresh(dir)).plan).toBeNull();
  });
});

describe('the kept walk is trusted only where its checks vouch for it', () => {
  it('after a glob base that was missing is made', async () => {
    const files = session();
    const dir = makeRepo(files, { commit: true });
    settleAll(dir, files);
    await keptAndFresh(dir);
    // thoughts/shared/handoffs was no folder: its parent was not listed, so no listed folder's stat shows it.
    const made = handoffPath(3).replace('thoughts/handoffs/', 'thoughts/shared/handoffs/');
    writeFiles(dir, { [made]: taskHandoff(3, { context_for_next: 'Made later.' }) });
    settle(dir, made, dirname(made), dirname(dirname(made)), 'thoughts/shared');
    expect((await keptAndFresh(dir)).handoffs.map((h) => h.path)).toContain(made);
  });

  it('after the folder above the globs becomes a link into another repository', async () => {
    const files = session();
    const dir = makeRepo(files, { commit: true });
    settleAll(dir, files);
    expect((await keptAndFresh(dir)).blocked).toHaveLength(1);
    // The listed folders keep their stats; only their real place changes, and with it whose ignore rules apply.
    const other = makeRepo({ '.gitignore': 'thoughts/handoffs/*/task-02-*\n' });
    renameSync(join(dir, 'thoughts'), join(other, 'thoughts'));
    symlinkSync(join(other, 'thoughts'), join(dir, 'thoughts'));
    expect((await keptAndFresh(dir)).blocked).toEqual([]);
  });

  it('not over a folder changed within two seconds of the walk', () => {
    const files = session();
    const dir = makeRepo(files, { commit: true });
    settleAll(dir, files);
    const config = defaultConfig();
    let walk: KeptWalk | null = null;
    const memo = (kept: KeptWalk | null): WalkMemo => ({ kept, keep: (w) => void (walk = w) });
    const paths = (kept: KeptWalk | null) => discover(dir, config, true, memo(kept)).map((d) => d.path);
    const all = paths(null);
    expect(walk).not.toBeNull();
    const gone = handoffPath(2);
    // A walk that says something else than the folders hold, believed when it was taken long after their last change:
    // what the folders' stats cannot show, only the time of the walk can.
    const stale: KeptWalk = { ...walk!, found: walk!.found.filter(([p]) => p !== gone) };
    expect(paths(stale)).toEqual(all.filter((p) => p !== gone));
    const changed = statSync(join(dir, dirname(gone))).mtimeMs;
    expect(paths({ ...stale, at: changed + 1000 })).toEqual(all);
  });
});

describe('status reads a broken index as no index', () => {
  it('field by field, and answers as it would without one', async () => {
    const files = session();
    const dir = makeRepo(files, { commit: true });
    settleAll(dir, files);
    const truth = await keptAndFresh(dir);
    const index = join(dir, ...INDEX);
    const good = JSON.parse(readFileSync(index, 'utf8')) as Record<string, unknown>;
    const broken: Record<string, unknown>[] = [
      { entries: null },
      { entries: 5 },
      { entries: { [LEDGER]: 'x' } },
      { summaries: 'x' },
      { walk: 7 },
      { walk: { folders: 'x' } },
      { view: { ...(good.view as object), named: [1] } },
    ];
    for (const fields of broken) {
      writeFileSync(index, JSON.stringify({ ...good, ...fields }));
      expect(await statusData(dir)).toEqual(truth);
    }
  });
});

describe('discover asks git which files are ignored as `git check-ignore --stdin` would', () => {
  /** The answer of one index-aware `git check-ignore` for every path, as discover asked it before. */
  function reference(dir: string, paths: string[]): Set<string> {
    const res = spawnGit(dir, ['check-ignore', '--stdin', '-z'], paths.join('\0'));
    return res.status === 0 || res.status === 1 ? new Set(res.out.split('\0').filter(Boolean)) : new Set();
  }

  function spawnGit(dir: string, args: string[], input: string): { status: number | null; out: string } {
    // The test's own git, not the tool's: the reference must not share the code it checks.
    const res = spawnSync('git', args, { cwd: dir, input, encoding: 'utf8' });
    return { status: res.status, out: res.stdout };
  }

  const workflow = {
    '.gitignore': 'thoughts/handoffs/s1/task-02-*\nthoughts/handoffs/s2/\n',
    'thoughts/handoffs/s1/task-01-a.md': 'x\n',
    'thoughts/handoffs/s1/task-02-b.md': 'x\n',
    'thoughts/handoffs/s2/task-01-c.md': 'x\n',
    'thoughts/handoffs/s3/task-01-d.md': 'x\n',
  };
  const paths = Object.keys(workflow).filter((p) => p.startsWith('thoughts/'));

  it('with tracked files that match a rule', () => {
    const dir = makeRepo(workflow);
    git(dir, 'add', '-f', 'thoughts/handoffs/s2/task-01-c.md');
    expect(gitIgnored(dir, paths)).toEqual(reference(dir, paths));
    expect(gitIgnored(dir, paths)).toEqual(new Set(['thoughts/handoffs/s1/task-02-b.md']));
    expect(discover(dir, defaultConfig(), true).map((d) => d.path)).toEqual(
      paths.filter((p) => p !== 'thoughts/handoffs/s1/task-02-b.md'),
    );
  });

  it('when a path lies inside a submodule (git fails, and nothing is ignored)', () => {
    const sub = makeRepo({ 'x.md': 'x\n' }, { commit: true });
    const dir = makeRepo(workflow, { commit: true });
    git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'thoughts/handoffs/s3/sub');
    const all = [...paths, 'thoughts/handoffs/s3/sub/x.md'];
    expect(reference(dir, all)).toEqual(new Set());
    expect(gitIgnored(dir, all)).toEqual(new Set());
  });

  it('in a sparse checkout', () => {
    const dir = makeRepo(workflow, { commit: true });
    git(dir, 'sparse-checkout', 'set', '--no-cone', '/thoughts/', '!/thoughts/handoffs/s3/');
    expect(gitIgnored(dir, paths)).toEqual(reference(dir, paths));
  });
});
