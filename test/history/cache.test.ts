// The cache under .git/ keeps models and findings between runs; they are only as good as the build that made them.
// An upgraded tool (another build of readers, rules or engine) must rebuild them, never resume from them (issue 13:
// "a stale cache is rebuilt, never trusted"). The installed package is a copy of dist/, so its build id can change.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT } from '../hooks/setup.js';
import { runCliHere } from '../helpers/repo.js';
import { ANA, CLAUDE, PLAN, Repo, cli, cliHere, handoffPath, planDoc, taskHandoff, taskOneDone } from './helpers.js';

const pkg = mkdtempSync(join(tmpdir(), 'vw-pkg-'));
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

/** Whether a run folded history afresh: VALIDATE_WORKFLOW_TIMING reports the history step only then. */
const folded = (stderr: string) => /^timing history: /m.test(stderr);

/** Whether the installed copy's run (its bundle, or another entry point of it) folded history afresh. */
function foldsHistory(dir: string, main = join(pkg, 'dist/bundle/main.js')): boolean {
  const res = spawnSync(process.execPath, [main], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, VALIDATE_WORKFLOW_TIMING: '1', NO_COLOR: '1' },
  });
  expect(res.status, res.stderr).toBe(0);
  return folded(res.stderr);
}

/** The package installed in `dir`: a copy of this build, whose build ids a test may change. */
function installCopy(dir: string): void {
  cpSync(join(PROJECT, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(PROJECT, 'package.json'), join(dir, 'package.json'));
  // ajv's standalone validators require its runtime, as an installed package finds it.
  symlinkSync(join(PROJECT, 'node_modules'), join(dir, 'node_modules'));
}

describe('the cache and the build that wrote it', () => {
  it('is resumed by the same build and rebuilt by another one', () => {
    installCopy(pkg);
    const repo = taskOneDone();
    expect(foldsHistory(repo.dir)).toBe(true);
    expect(foldsHistory(repo.dir)).toBe(false);
    // An upgrade: the same version number, another build.
    writeFileSync(join(pkg, 'dist/bundle/BUILD_ID'), 'another build\n');
    expect(foldsHistory(repo.dir)).toBe(true);
    expect(foldsHistory(repo.dir)).toBe(false);
  });

  it("lends its models to another build with the same readers: that build's first commit parses only its change", () => {
    const copy = mkdtempSync(join(tmpdir(), 'vw-pkg-'));
    try {
      installCopy(copy);
      const run = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
        const res = spawnSync(process.execPath, [join(copy, 'dist/bundle/main.js'), '--format', 'json', ...args], {
          cwd: dir,
          encoding: 'utf8',
          env: { ...process.env, VALIDATE_WORKFLOW_TIMING: '1', NO_COLOR: '1', ...env },
        });
        expect(res.status, res.stderr).not.toBe(2);
        return { stderr: res.stderr, results: JSON.parse(res.stdout).results as unknown[] };
      };
      const build = (file: string, id: string) => writeFileSync(join(copy, 'dist/bundle', file), `${id}\n`);
      const lent = /timing models kept for the next commit \(\d+, lent by another build\)/;
      const kept = /timing models kept for the next commit \(\d+\)/;
      const repo = taskOneDone();
      const fresh = run(repo.dir, []);
      expect(folded(fresh.stderr)).toBe(true);
      repo.stage({ [PLAN]: planDoc({ tasks: [1, 2] }), [handoffPath(2)]: taskHandoff(2) });
      const env = repo.env(CLAUDE);
      const before = run(repo.dir, ['--staged'], env);
      // An upgrade that changed rules: another build, the same readers.
      build('BUILD_ID', 'another build');
      const upgraded = run(repo.dir, ['--staged'], env);
      expect(upgraded.stderr).toMatch(lent);
      const lentModels = Number(/cache models decoded \([1-9]\d* of (\d+)\)/.exec(upgraded.stderr)?.[1]);
      // Every model lent is kept, with the change's versions parsed now.
      expect(Number(/models kept for the next commit \((\d+)/.exec(upgraded.stderr)?.[1])).toBeGreaterThan(lentModels);
      expect(upgraded.results).toEqual(before.results);
      // The models it kept serve the next commit under this build's key, and the full run, which judges history again.
      const next = run(repo.dir, ['--staged'], env);
      expect(next.stderr).not.toMatch(kept);
      expect(next.stderr).not.toMatch(lent);
      expect(next.results).toEqual(before.results);
      const full = run(repo.dir, []);
      expect(folded(full.stderr)).toBe(true);
      rmSync(join(repo.dir, '.git/validate-workflow/cache.pack'));
      expect(full.results).toEqual(run(repo.dir, []).results);
      // Readers changed too: nothing is lent, and the commit parses HEAD's files as with no cache.
      build('BUILD_ID', 'a third build');
      build('READERS_ID', 'other readers');
      const reread = run(repo.dir, ['--staged'], env);
      expect(reread.stderr).toMatch(kept);
      expect(reread.stderr).not.toMatch(lent);
      expect(reread.results).toEqual(before.results);
      // A commit that reads no workflow file (a README) still keeps what it was lent: the next one borrows nothing.
      build('BUILD_ID', 'a fourth build');
      repo.git('reset', '-q', '--hard');
      repo.git('clean', '-fdq');
      repo.stage({ 'README.md': '# Auth\n' });
      expect(run(repo.dir, ['--staged'], env).stderr).toMatch(lent);
      expect(run(repo.dir, ['--staged'], env).stderr).not.toMatch(lent);
      // Two builds taking turns lend each other HEAD's and the index's models, not every version either one parsed.
      const counts = ['x', 'y', 'x', 'y'].map((id, i) => {
        build('BUILD_ID', `build ${id}`);
        repo.stage({ [PLAN]: `${planDoc({ tasks: [1] })}\nA note (${i}).\n` });
        const res = run(repo.dir, ['--staged'], env);
        expect(res.stderr).toMatch(lent);
        return Number(/models kept for the next commit \((\d+)/.exec(res.stderr)?.[1]);
      });
      expect(new Set(counts).size, counts.join(' ')).toBe(1);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('unbundled (dist/cli/main.js), is rebuilt when a rule changes, as the bundle is by its build id', () => {
    const copy = mkdtempSync(join(tmpdir(), 'vw-pkg-'));
    try {
      installCopy(copy);
      const folds = (dir: string) => foldsHistory(dir, join(copy, 'dist/cli/main.js'));
      const repo = taskOneDone();
      expect(folds(repo.dir)).toBe(true);
      expect(folds(repo.dir)).toBe(false);
      // A rule rebuilt (here: one line more in its module), the readers and package.json as they were.
      const rule = join(copy, 'dist/rules/history/phase-order.js');
      writeFileSync(rule, `${readFileSync(rule, 'utf8')}\n// another build of this rule\n`);
      expect(folds(repo.dir)).toBe(true);
      expect(folds(repo.dir)).toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

// The cache is one file of sections (history/cache.ts): a header naming the head judged, then each variant's
// findings and timeline and each model as a JSON slice decoded only when asked for. What it holds must never change
// a verdict: a warm run says what a cold run says, and a cache that is broken in any way is rebuilt, not trusted.
describe('the cache file', () => {
  const timed = { VALIDATE_WORKFLOW_TIMING: '1' };
  const decoded = (stderr: string) => {
    const m = /^timing cache models decoded \((\d+) of (\d+)\)/m.exec(stderr);
    return m ? { decoded: Number(m[1]), of: Number(m[2]) } : null;
  };
  const cacheOf = (repo: Repo) => join(repo.dir, '.git/validate-workflow/cache.pack');

  /** A history with a finding in it (an agent checks a manual item), and handoffs and a ledger at HEAD. */
  function history(): Repo {
    const repo = taskOneDone();
    repo.commit('Phase 1 verified', { [PLAN]: planDoc({ tasks: [1], auto: [1], manual: [1] }) }, { author: CLAUDE });
    return repo;
  }

  /**
   * The cache file as last written: the cache is written to a new file renamed over the old one (writeCacheFile),
   * so a rewrite changes the inode. Runs in this process print no timing (timing.ts reads the environment when it is
   * loaded), so a run that changed nothing, and so wrote nothing, is told by this.
   */
  const written = (repo: Repo) => {
    const st = statSync(cacheOf(repo));
    return `${st.ino} ${st.mtimeMs}`;
  };

  // Through the built CLI: a warm run is another process, with nothing in memory but what it reads from the cache
  // (and a cache is keyed by the build, so runs in this process and the built CLI's never share one).
  it('gives a warm run the findings of a cold one, also after a new commit and under another preset', async () => {
    const repo = history();
    const cold = cli(repo.dir, [], timed);
    expect(cold.results.some((f) => f.ruleId === 'history/manual-confirmation')).toBe(true);
    const warm = cli(repo.dir, [], timed);
    expect(folded(warm.stderr)).toBe(false);
    expect(warm.results).toEqual(cold.results);
    // The cold runs to compare with run in this process: another build's cache is none (cacheKey), so each is cold.
    const strictCold = await cliHere(repo.dir, ['--preset', 'strict']);
    repo.commit(
      'Task 2: Do step 2',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }), [handoffPath(2)]: taskHandoff(2) },
      { author: CLAUDE },
    );
    const resumed = cli(repo.dir, [], timed);
    expect(folded(resumed.stderr)).toBe(true);
    const resumedStrict = cli(repo.dir, ['--preset', 'strict'], timed);
    expect(folded(resumedStrict.stderr)).toBe(false);
    rmSync(cacheOf(repo));
    expect((await cliHere(repo.dir)).results).toEqual(resumed.results);
    expect((await cliHere(repo.dir, ['--preset', 'strict'])).results).toEqual(resumedStrict.results);
    expect(resumedStrict.results.length).toBeGreaterThanOrEqual(strictCold.results.length);
  });

  it('ignores a broken or older cache and rebuilds it, whatever is wrong with it', async () => {
    const repo = history();
    const cold = await cliHere(repo.dir);
    const good = readFileSync(cacheOf(repo));
    const header = good.indexOf(10, good.indexOf(10) + 1) + 1;
    const brokenModel = Buffer.from(good);
    // The last bytes belong to the last model's slice: its JSON no longer closes.
    brokenModel.fill(0x20, brokenModel.length - 40);
    // Whether the first run rewrites the file: a model's slice is decoded only when a run asks for that model, and
    // an unchanged tree asks for none (its verdict is cached), so a broken slice is left until a run needs it.
    const cases: [string, Buffer, boolean][] = [
      ['garbage', Buffer.from('not a cache at all\n'), true],
      ['empty', Buffer.alloc(0), true],
      ['truncated in the header', good.subarray(0, Math.floor(header / 2)), true],
      ['truncated in the body', good.subarray(0, header + Math.floor((good.length - header) / 2)), true],
      ['the format before this one', Buffer.from(JSON.stringify({ format: 4, key: 'x', state: [], models: {} })), true],
      ['a model that does not decode', brokenModel, false],
    ];
    // In this process: what is read is the file's bytes, whichever process reads them (the built CLI meets garbage
    // below).
    for (const [what, bytes, rewrites] of cases) {
      writeFileSync(cacheOf(repo), bytes);
      const planted = written(repo);
      const run = await cliHere(repo.dir);
      expect(run.code, what).toBe(cold.code);
      expect(run.results, what).toEqual(cold.results);
      if (rewrites) expect(written(repo), what).not.toBe(planted);
      // Rebuilt: the next run takes everything from it, and so has nothing to write.
      const rebuilt = written(repo);
      const next = await cliHere(repo.dir);
      expect(written(repo), what).toBe(rebuilt);
      expect(next.results, what).toEqual(cold.results);
    }
    writeFileSync(cacheOf(repo), 'not a cache at all\n');
    const real = cli(repo.dir, [], timed);
    expect(real.code).toBe(cold.code);
    expect(real.results).toEqual(cold.results);
    const next = cli(repo.dir, [], timed);
    expect(folded(next.stderr)).toBe(false);
    expect(decoded(next.stderr)).not.toBeNull();
    expect(next.results).toEqual(cold.results);
    // A cache folder that is a file, a cache that is a folder: the run judges as if there were none.
    rmSync(cacheOf(repo));
    mkdirSync(cacheOf(repo));
    expect((await cliHere(repo.dir)).results).toEqual(cold.results);
  });

  it('writes a history judged again at its own head as judged, not the section that did not decode', () => {
    const repo = history();
    const cold = cli(repo.dir, [], timed);
    // The parent variant's findings no longer decode (blanked in place: the header still points at them). The
    // history is judged again at the cache's own head; a tree changed since makes the run write the cache.
    const bytes = readFileSync(cacheOf(repo));
    const magic = bytes.indexOf(10);
    const nl = bytes.indexOf(10, magic + 1);
    const header = JSON.parse(bytes.toString('utf8', magic + 1, nl)) as { sections: Record<string, [number, number]> };
    const [at, length] = header.sections['findings:parent']!;
    bytes.fill(0x20, nl + 1 + at, nl + 1 + at + length);
    writeFileSync(cacheOf(repo), bytes);
    repo.write({ 'thoughts/shared/plans/2026-01-03-notes.md': planDoc() });
    const judgedAgain = cli(repo.dir, [], timed);
    expect(folded(judgedAgain.stderr)).toBe(true);
    // The next run takes the history from the cache: the broken section was not written back.
    const next = cli(repo.dir, [], timed);
    expect(folded(next.stderr)).toBe(false);
    expect(next.results).toEqual(judgedAgain.results);
    expect(next.results.filter((f) => f.commit)).toEqual(cold.results.filter((f) => f.commit));
  });

  it("is read by the hooks for HEAD's side of a change, and not rewritten by them or by an unchanged warm run", () => {
    const repo = history();
    const other = 'thoughts/shared/plans/2026-01-02-other.md';
    repo.commit('Plan another flow', { [other]: planDoc() }, { author: ANA });
    cli(repo.dir);
    const before = statSync(cacheOf(repo)).mtimeMs;
    const warm = cli(repo.dir, [], timed);
    // An unchanged working tree is judged by the snapshot verdict the last run left: no model is decoded.
    expect(decoded(warm.stderr)?.decoded).toBe(0);
    expect(statSync(cacheOf(repo)).mtimeMs).toBe(before);
    repo.stage({ [other]: planDoc({ tasks: [1] }) });
    const staged = cli(repo.dir, ['--staged'], { ...timed, ...repo.env(CLAUDE) });
    const seen = decoded(staged.stderr)!;
    // HEAD's snapshot rules read every model HEAD holds (no door judged HEAD before), the changed plan's among them:
    // its HEAD version is taken from the cache, and the staged version derived from it, not parsed (round 23; before,
    // both sides of a change were parsed and that plan was not decoded).
    expect(seen.decoded).toBe(seen.of);
    expect(staged.stderr).toMatch(/versions changed \(plans: 0 parsed, 1 derived; 1 of HEAD's known\)/);
    expect(statSync(cacheOf(repo)).mtimeMs).toBe(before);
  });

  // The snapshot pass's verdict (engine/lint.ts Verdict) is kept with a digest of everything its rules read: the
  // files found and their contents, the config, what history hands over, the instruction files.
  const VERDICT = /^timing snapshot pass \(cached verdict\)/m;

  it('judges an unchanged working tree by its verdict, and a tree changed in anything the rules read afresh', async () => {
    const repo = history();
    // In this process, where the verdict shows as a cache left as it was (engine/doors.ts: a kept verdict on an
    // unchanged history writes nothing), and a stale verdict as findings that differ from a run without a cache.
    const cold = await cliHere(repo.dir);
    let kept = written(repo);
    const warm = await cliHere(repo.dir);
    expect(written(repo)).toBe(kept);
    expect(warm.results).toEqual(cold.results);
    const changes: [string, () => void][] = [
      ['a handoff edited', () => repo.write({ [handoffPath(1)]: '---\nstatus: whatever\n---\n# Handoff\n' })],
      ['a handoff added', () => repo.write({ [handoffPath(2)]: taskHandoff(2) })],
      ['the handoff deleted', () => rmSync(join(repo.dir, handoffPath(1)))],
    ];
    for (const [what, change] of changes) {
      change();
      const after = await cliHere(repo.dir);
      expect(written(repo), what).not.toBe(kept);
      kept = written(repo);
      const again = await cliHere(repo.dir);
      expect(written(repo), what).toBe(kept);
      expect(again.results, what).toEqual(after.results);
      rmSync(cacheOf(repo));
      expect((await cliHere(repo.dir)).results, what).toEqual(after.results);
      kept = written(repo);
    }
    expect((await cliHere(repo.dir)).results).not.toEqual(cold.results);
  });

  it('judges a tree afresh when an instruction file appears, through the built CLI', () => {
    // Through the built CLI: its timing lines tell a cached verdict from a fresh one (this process prints none).
    const repo = history();
    const cold = cli(repo.dir, [], timed);
    repo.write({ 'CLAUDE.md': '# Rules\n\nEvery task gets a handoff.\n' });
    const after = cli(repo.dir, [], timed);
    expect(after.stderr).not.toMatch(VERDICT);
    const again = cli(repo.dir, [], timed);
    expect(again.stderr).toMatch(VERDICT);
    expect(again.results).toEqual(after.results);
    // That an instruction file read afresh changes what a run in one process says is test/api/rerun.test.ts's.
    expect(after.results).toEqual(cold.results);
  });

  it('reads a file again when its stat changed, even with the same size and modification time', async () => {
    const repo = history();
    const file = join(repo.dir, handoffPath(1));
    // Old enough that its stat stands for its content (engine/lint.ts RACY).
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    const cold = await cliHere(repo.dir);
    const text = readFileSync(file, 'utf8');
    const edited = text.replace(/^status: \w+$/m, (line) => `status: ${'x'.repeat(line.length - 'status: '.length)}`);
    expect(edited.length).toBe(text.length);
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    utimesSync(file, past, past);
    // Findings other than the cold run's: not the cached verdict.
    const warm = await cliHere(repo.dir);
    expect(warm.results).not.toEqual(cold.results);
    rmSync(cacheOf(repo));
    expect((await cliHere(repo.dir)).results).toEqual(warm.results);
  });

  it('writes the review of an unchanged tree from the verdict as a run without a cache writes it', async () => {
    const repo = history();
    const review = () => runCliHere(repo.dir, ['--format', 'markdown']);
    const cold = await review();
    const kept = written(repo);
    const warm = await review();
    expect(written(repo)).toBe(kept);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stdout).toContain('Task 1');
  });
});
