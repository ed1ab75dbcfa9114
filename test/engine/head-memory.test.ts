// What a commit door keeps of the index it judged for the next door, whose HEAD that index becomes: that its files
// teach the sight nothing (history/fold.ts quietListing, by the digest of the listing the commit will have), and the
// texts of the versions it brought (engine/change-models.ts, history/store.ts knowBytes). The next door takes either
// only where git's own answer names the same thing: HEAD's listing by its digest, a text by its blob id. What a user
// sees is the verdict, which is the one a door with nothing kept gives; the rest is which questions were spared.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TIMING, cacheOf, coldly, committed, memoryOf, redigested, verdict } from './kept.js';
import {
  AGENT,
  ANA,
  CONFIG,
  LEDGER,
  PLAN,
  Repo,
  cli,
  handoffPath,
  ledger,
  ledgerDoc,
  messageFile,
  phaseOneCheckedOff,
  phaseOneReady,
  planDoc,
  taskHandoff,
  tempDir,
  TASK,
  type CliJson,
} from '../history/helpers.js';

const QUIET = "what HEAD's files name: nothing, as the last commit door saw";
const ASKED = "what HEAD's files name: asked";

/** The agent's check-off of phase 1's manual item (staged by the caller), judged by commit-msg; git's processes. */
function checkOffJudged(repo: Repo): { judged: CliJson; git: string[] } {
  const trace = join(tempDir(), 'trace.json');
  const judged = cli(repo.dir, ['commit-msg', messageFile('Phase 1 verified', AGENT)], {
    ...TIMING,
    GIT_TRACE2_EVENT: trace,
    ...repo.env(ANA),
  });
  const git = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"start"'))
    .map((l) => (JSON.parse(l) as { argv: string[] }).argv.filter((a) => !a.startsWith('-')).slice(1, 2)[0] ?? '');
  return { judged, git };
}

describe('what the last commit door kept of its index, at the next commit', () => {
  it("HEAD's files are asked nothing and no version is read through git, and the check-off is refused as with nothing kept", () => {
    const repo = committed();
    repo.stage({ [PLAN]: phaseOneCheckedOff() });
    const { judged, git } = checkOffJudged(repo);
    expect(judged.stderr).toContain(QUIET);
    expect(judged.stderr).toContain("HEAD's blocked handoffs: none, as the last commit door saw");
    // HEAD's plan text came with its model, the staged one from the working tree: no `git cat-file`.
    expect(git).not.toContain('cat-file');
    expect(judged.code).toBe(1);
    expect(judged.results.map((f) => f.ruleId)).toContain('history/manual-confirmation');
    const cold = coldly(repo);
    expect(cold.stderr).toContain(ASKED);
    expect(verdict(judged)).toEqual(verdict(cold));
  });

  it('HEAD is asked again when it is not the index the last door judged: a plan named outside the globs by a commit made without the hooks', () => {
    const repo = committed();
    // Committed past the hooks: a ledger naming a plan no glob covers, and that plan.
    const outside = 'plans/auth.md';
    repo.commit(
      'Session ledger and the plan',
      {
        [outside]: phaseOneReady(),
        [LEDGER]: ledger({ plan: outside, state: [1, 2, 3, 4].map((t) => `- [ ] ${TASK(t)}`) }),
      },
      { author: ANA },
    );
    // The check-off changes the outside plan alone: only HEAD's ledger says it is a plan.
    repo.stage({ [outside]: phaseOneCheckedOff() });
    const { judged } = checkOffJudged(repo);
    expect(judged.stderr).toContain(ASKED);
    expect(judged.results.filter((f) => f.ruleId === 'history/manual-confirmation').map((f) => f.file)).toEqual([
      outside,
    ]);
    expect(verdict(judged)).toEqual(verdict(coldly(repo)));
  });

  it("the staged version is judged, not the working tree's, when the two differ", () => {
    const repo = committed();
    repo.stage({ [PLAN]: phaseOneCheckedOff() });
    // The check-off staged, then undone in the working tree only: the commit records the staged text.
    repo.write({ [PLAN]: phaseOneReady() });
    const { judged, git } = checkOffJudged(repo);
    expect(git).toContain('cat-file');
    expect(judged.code).toBe(1);
    expect(judged.results.map((f) => f.ruleId)).toContain('history/manual-confirmation');
    expect(verdict(judged)).toEqual(verdict(coldly(repo)));
  });

  it('a text kept under a version it is not is not taken: HEAD is read through git', () => {
    const repo = committed();
    const text = readFileSync(memoryOf(repo), 'utf8');
    const body = JSON.parse(text.slice(text.indexOf('\n') + 1)) as { entries: [string, unknown, string?][] };
    expect(body.entries[0]?.[2]).toBe(phaseOneReady());
    // HEAD's plan kept as already checked off: derived from it, the check-off would read as no change at all.
    body.entries[0]![2] = phaseOneCheckedOff();
    const forged = JSON.stringify(body);
    writeFileSync(memoryOf(repo), redigested(`x\n${forged}`));
    rmSync(cacheOf(repo));
    repo.stage({ [PLAN]: phaseOneCheckedOff() });
    const { judged, git } = checkOffJudged(repo);
    expect(git).toContain('cat-file');
    expect(judged.code).toBe(1);
    expect(judged.results.map((f) => f.ruleId)).toContain('history/manual-confirmation');
    expect(verdict(judged)).toEqual(verdict(coldly(repo)));
  });

  it("HEAD's snapshot findings are not taken from the last door when the sight reads the same listing otherwise", () => {
    // A plan the plans glob misses (upper case `.MD`) in the plans folder: listed under that folder's pathspec, and a
    // plan only once a ledger names it.
    const outside = 'thoughts/shared/plans/2026-11-20-billing.MD';
    const repo = committed();
    repo.commit('Billing plan', { [outside]: planDoc({ frontmatter: ['mode: direct'] }) }, { author: ANA });
    repo.stage({ [PLAN]: phaseOneReady({ tasks: [1, 2, 3] }) });
    expect(cli(repo.dir, ['--staged'], repo.env(ANA)).code).toBe(0);
    repo.commitStaged('Task 3 done', AGENT);
    // The ledger names it: the same listing of HEAD now holds a plan, and its snapshot findings are HEAD's too (a
    // `mode: direct` plan of four tasks is plan/mode's), not something this commit brings.
    repo.stage({ [LEDGER]: ledger({ plan: outside, state: [1, 2, 3, 4].map((t) => `- [ ] ${TASK(t)}`) }) });
    const staged = cli(repo.dir, ['--staged'], { ...TIMING, ...repo.env(ANA) });
    expect(staged.results.filter((f) => f.file === outside)).toEqual([]);
    expect(staged.stderr).toMatch(/timing snapshot rules, before: /);
    rmSync(memoryOf(repo).replace('change-models', 'snapshot-findings'), { force: true });
    expect(verdict(staged)).toEqual(verdict(cli(repo.dir, ['--staged'], repo.env(ANA))));
    // The full run reads it as a plan.
    expect(
      cli(repo.dir, ['--no-history'])
        .results.filter((f) => f.file === outside)
        .map((f) => f.ruleId),
    ).toContain('plan/mode');
  });

  describe('a blocked handoff an agent resolved itself', () => {
    const BLOCKER = 'The staging database refuses the migration; which schema should win?';
    const resolved = () =>
      taskHandoff(
        2,
        { status: 'blocked', blocker: BLOCKER, verification_results: [] },
        '\n## Resolution\n\nThe user said: use the new schema and drop the old table.\n',
      );
    const nextTask = { [handoffPath(3)]: taskHandoff(3, { previous: 'task-02-step-2.md' }) };
    /** Task 1 done through the hooks: the door kept that its index holds no blocked handoff. */
    function started(): Repo {
      const repo = Repo.create();
      repo.commit('Adopt', { [CONFIG]: '{}\n', [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
      repo.stage({ [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) });
      expect(cli(repo.dir, ['--staged'], repo.env(ANA)).code).toBe(0);
      repo.commitStaged('Task 1: Do step 1', AGENT);
      return repo;
    }
    /** Task 3 staged: pre-commit refuses it, task 2's resolution being the agent's own. */
    function expectNextTaskHeldBack(repo: Repo): void {
      repo.stage(nextTask);
      const staged = cli(repo.dir, ['--staged'], repo.env(ANA));
      const proceeded = staged.results.filter(
        (f) => f.ruleId === 'handoff/blocked-proceed' && f.message.includes('written by an agent'),
      );
      expect(proceeded.map((f) => f.file)).toEqual([handoffPath(3)]);
    }

    it('committed past the hooks: the next task is held back, HEAD no longer the index the door saw', () => {
      const repo = started();
      repo.commit('Task 2 blocked, and resolved', { [handoffPath(2)]: resolved(), [LEDGER]: ledgerDoc([1], 2) }, AGENT);
      expectNextTaskHeldBack(repo);
    });

    it('merged from a branch through pre-commit: the door kept no word that the merge holds none', () => {
      const repo = started();
      repo.git('branch', 'side');
      repo.git('checkout', '-q', 'side');
      repo.commit('Task 2 blocked, and resolved', { [handoffPath(2)]: resolved() }, AGENT);
      repo.git('checkout', '-q', '-');
      repo.commit('Notes', { 'notes.txt': 'x\n' }, { author: ANA });
      repo.gitWith(repo.env(ANA), ['merge', '--no-ff', '--no-commit', 'side']);
      cli(repo.dir, ['--staged'], repo.env(ANA));
      repo.gitWith(repo.env(ANA), ['commit', '-q', '--no-edit', '--no-verify']);
      expectNextTaskHeldBack(repo);
    });

    it('committed through pre-commit: the door kept no word that its index holds none', () => {
      const repo = started();
      repo.stage({ [handoffPath(2)]: resolved(), [LEDGER]: ledgerDoc([1], 2) });
      cli(repo.dir, ['--staged'], repo.env(ANA));
      repo.commitStaged('Task 2 blocked, and resolved', AGENT);
      expectNextTaskHeldBack(repo);
    });
  });

  it("with the cache gone, HEAD's handoffs are read in one batch, not a git process each", () => {
    const repo = Repo.create();
    const handoffs = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        handoffPath(i + 1),
        taskHandoff(i + 1, i > 0 ? { previous: `task-${String(i).padStart(2, '0')}-step-${i}.md` } : {}),
      ]),
    );
    repo.commit(
      'Plan and handoffs',
      { [PLAN]: planDoc({ frontmatter: ['mode: direct'] }), ...handoffs },
      { author: ANA },
    );
    repo.stage({ [PLAN]: phaseOneReady() });
    expect(cli(repo.dir, ['--staged'], repo.env(ANA)).code).not.toBe(2);
    repo.commitStaged('Phase 1 done', AGENT);
    rmSync(cacheOf(repo));
    // What HEAD's files name is kept, whether they hold a blocked handoff is not: they are asked that.
    const text = readFileSync(memoryOf(repo), 'utf8');
    const body = text.slice(text.indexOf('\n') + 1).replace(/"unblocked":\[[^\]]*\]/, '"unblocked":[]');
    writeFileSync(memoryOf(repo), redigested(`x\n${body}`));
    repo.stage({ [PLAN]: phaseOneCheckedOff() });
    const { judged, git } = checkOffJudged(repo);
    expect(judged.stderr).toContain(QUIET);
    expect(judged.stderr).not.toContain("HEAD's blocked handoffs: none");
    expect(git.filter((g) => g === 'cat-file').length).toBeLessThanOrEqual(2);
    expect(verdict(judged)).toEqual(verdict(coldly(repo)));
  });

  it("an empty file HEAD holds as it is (a folder's .gitkeep, as init writes) does not keep the door from knowing HEAD", () => {
    const repo = Repo.create();
    repo.commit(
      'Plan the auth flow',
      { [PLAN]: planDoc({ frontmatter: ['mode: direct'] }), 'thoughts/ledgers/.gitkeep': '' },
      { author: ANA },
    );
    repo.stage({ [PLAN]: phaseOneReady() });
    expect(cli(repo.dir, ['--staged'], repo.env(ANA)).code).toBe(0);
    repo.commitStaged('Phase 1 done', AGENT);
    repo.stage({ [PLAN]: phaseOneCheckedOff() });
    const { judged } = checkOffJudged(repo);
    expect(judged.stderr).toContain(QUIET);
    expect(judged.stderr).toContain('snapshot rules, before (remembered)');
    expect(verdict(judged)).toEqual(verdict(coldly(repo)));
  });
});
