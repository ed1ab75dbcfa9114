// The commit doors judge the snapshot before a change and after it and report what is new; the `before` side's
// findings are taken from what the last door found when everything the snapshot rules are given is what they were
// judged from (engine/snapshot-memory.ts). What it holds must never change a verdict: each door says what it says
// without it, when HEAD's versions, the preset, the tree's instruction files or the guidance history hands over have
// changed since. The change's own side is never recalled: it is judged afresh, or, when it reads to HEAD's models,
// given HEAD's side's findings, so that it introduces nothing whatever the memory holds. Real repositories; the
// engine in this process (door), the built CLI where its timing lines are the point.
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { sameValue } from '../../src/engine/judge.js';
import { CREATE_PLAN_COMMAND } from '../helpers/repo.js';
import {
  ANA,
  CLAUDE,
  CONFIG,
  LEDGER,
  PLAN,
  Repo,
  cli,
  door,
  handoffPath,
  ledger,
  ledgerDoc,
  messageFile,
  planDoc,
  taskHandoff,
  taskOneDone,
  TASK,
  type CommitOpts,
  unpromisedPlans,
} from '../history/helpers.js';

const memoryOf = (repo: Repo) => join(repo.dir, '.git/validate-workflow/snapshot-findings.json');
const THIRD = 'thoughts/shared/plans/2026-11-22-third.md';

/** The door's verdict, and the same door's without the memory (the memory left as it was). */
async function judged(
  repo: Repo,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ results: Finding[]; fresh: Finding[] }> {
  const results = (await door(repo.dir, args, env)).results;
  const file = memoryOf(repo);
  const kept = existsSync(file) ? readFileSync(file) : null;
  rmSync(file, { force: true });
  const fresh = (await door(repo.dir, args, env)).results;
  if (kept) writeFileSync(file, kept);
  else rmSync(file, { force: true });
  return { results, fresh };
}

const of = (list: Finding[], ruleId: string) => list.filter((f) => f.ruleId === ruleId).map((f) => f.file);

/** Plans that promise no manual checks: `recommended` notes it once, `strict` (the canonical shape) per plan. */
const unpromised = unpromisedPlans;

const blocked = (resolved: boolean) =>
  taskHandoff(
    2,
    {
      status: 'blocked',
      blocker: 'The staging database refuses the migration; which schema should win?',
      verification_results: [],
    },
    resolved ? '\n## Resolution\n\nKeep the new schema; drop the old table.\n' : '',
  );

/**
 * Task 2 blocked by the agent (its blocker answered in a commit by `resolver`, if one is given), task 3 handed off
 * after it, and task 4's handoff staged.
 */
function blockedThenOn(resolver?: CommitOpts, repo = taskOneDone()): Repo {
  if (repo.git('log', '--format=%s').split('\n')[0] !== 'Task 2 blocked')
    repo.commit(
      'Task 2 blocked',
      { [handoffPath(2)]: blocked(false), [LEDGER]: ledgerDoc([1], 2) },
      { author: CLAUDE },
    );
  if (resolver) repo.commit('Answer the blocker', { [handoffPath(2)]: blocked(true) }, resolver);
  repo.commit('Task 3', { [handoffPath(3)]: taskHandoff(3, { previous: 'task-02-step-2.md' }) }, { author: CLAUDE });
  repo.stage({ [handoffPath(4)]: taskHandoff(4, { previous: 'task-03-step-3.md' }) });
  return repo;
}

describe("the memory of HEAD's snapshot findings", () => {
  it('is taken by the next commit through the hooks, whose verdict stays what it is without it', () => {
    const repo = taskOneDone();
    const timed = { VALIDATE_WORKFLOW_TIMING: '1', ...repo.env(CLAUDE) };
    const remembered = (stderr: string) => /^timing snapshot rules, before \(remembered\)/m.test(stderr);
    const steps: [string, Record<string, string>][] = [
      ['Task 2: Do step 2', { [PLAN]: planDoc({ tasks: [1, 2] }), [handoffPath(2)]: taskHandoff(2) }],
      // A manual item checked before the automated one: a snapshot finding the change brings.
      ['Phase 1 checks', { [PLAN]: planDoc({ tasks: [1, 2], manual: [1] }) }],
      ['Task 3: Do step 3', { [PLAN]: planDoc({ tasks: [1, 2, 3], manual: [1] }), [handoffPath(3)]: taskHandoff(3) }],
    ];
    for (const [i, [subject, files]] of steps.entries()) {
      repo.stage(files);
      // The built CLI: a door is a process of its own, with only the git folder to go on.
      const staged = cli(repo.dir, ['--staged'], timed);
      // The first commit finds no memory; each later one finds what the one before it judged after its change.
      expect(remembered(staged.stderr), subject).toBe(i > 0);
      rmSync(memoryOf(repo), { force: true });
      const fresh = cli(repo.dir, ['--staged'], timed);
      expect(remembered(fresh.stderr), subject).toBe(false);
      expect(staged.results, subject).toEqual(fresh.results);
      repo.commitStaged(subject, { author: CLAUDE });
    }
  });

  it('is not taken for the change being judged, whatever it holds', async () => {
    const repo = taskOneDone();
    repo.stage({ [PLAN]: planDoc({ tasks: [1], manual: [1] }) });
    const first = await judged(repo, ['--staged']);
    expect(of(first.results, 'plan/manual-before-automated')).toEqual([PLAN]);
    // Every judgement kept says the snapshot had no finding, the change's side among them.
    const data = JSON.parse(readFileSync(memoryOf(repo), 'utf8')) as { entries: { findings: unknown[] }[] };
    expect(data.entries.length).toBeGreaterThanOrEqual(2);
    for (const e of data.entries) e.findings = [];
    writeFileSync(memoryOf(repo), JSON.stringify(data));
    const again = await judged(repo, ['--staged']);
    expect(of(again.results, 'plan/manual-before-automated')).toEqual([PLAN]);
    expect(again.results).toEqual(again.fresh);
  });

  it("is not taken once HEAD's versions changed, the paths the same", async () => {
    const repo = taskOneDone();
    repo.commit('Phase 1 checks', { [PLAN]: planDoc({ tasks: [1], manual: [1] }) }, { author: ANA });
    repo.stage({ [handoffPath(2)]: taskHandoff(2) });
    // Remembered: HEAD's plan has a manual item checked before the automated one.
    expect(of((await door(repo.dir, ['--staged'])).results, 'plan/manual-before-automated')).toEqual([]);
    repo.git('reset', '-q');
    repo.stage({ [PLAN]: planDoc({ tasks: [1] }) });
    repo.commitStaged('Phase 1 unchecked', { author: ANA, args: ['--amend', '--no-verify'] });
    // HEAD's plan no longer has the finding: checking the item again brings it.
    repo.stage({ [PLAN]: planDoc({ tasks: [1], manual: [1] }) });
    const { results, fresh } = await judged(repo, ['--staged']);
    expect(of(results, 'plan/manual-before-automated')).toEqual([PLAN]);
    expect(results).toEqual(fresh);
  });

  it('is not taken under another preset', async () => {
    const repo = unpromised();
    repo.stage({ [THIRD]: planDoc({ noManual: [1, 2] }) });
    const rule = 'plan/phase-manual-criteria';
    // `recommended`: HEAD's plans promise no manual checks, so nothing is asked of them.
    await door(repo.dir, ['--staged']);
    // `strict` holds every plan to the canonical shape: HEAD's two plans had the finding already, the third is new.
    const { results, fresh } = await judged(repo, ['--staged', '--preset', 'strict']);
    expect(of(results, rule)).toEqual([THIRD]);
    expect(results).toEqual(fresh);
  });

  it("is not taken once the tree's instruction files promise something else", async () => {
    const repo = unpromised();
    repo.stage({ [THIRD]: planDoc({ noManual: [1, 2] }) });
    const rule = 'plan/phase-manual-criteria';
    await door(repo.dir, ['--staged']);
    // The repository's plan command now asks for manual checks, staged with the plan: the commit doors read the
    // instruction files the commit holds (engine/instructions.ts). Before, it was only written: the doors read the
    // working tree's then.
    repo.stage({
      '.claude/commands/create_plan.md': CREATE_PLAN_COMMAND,
    });
    const { results, fresh } = await judged(repo, ['--staged']);
    expect(of(results, rule)).toEqual([THIRD]);
    expect(results).toEqual(fresh);
  });

  it('is not taken when the guidance history hands over differs', async () => {
    // Task 3 went on past the blocked task 2 (committed without the hooks): HEAD has the finding.
    const repo = blockedThenOn();
    const rule = 'handoff/blocked-proceed';
    // Ana's guidance in the commit: neither side has the finding, and so the memory says of HEAD.
    const ana: CommitOpts = { author: ANA, trailers: [`Guidance-by: ${ANA.name} <${ANA.email}>`] };
    const guided = await door(repo.dir, ['commit-msg', messageFile('Task 4, as Ana decided', ana)], repo.env(ANA));
    expect(of(guided.results, rule)).toEqual([]);
    // The agent's commit, without it: task 3's handoff was past the blocked one already, task 4's is new.
    const { results, fresh } = await judged(repo, ['--staged'], repo.env(CLAUDE));
    expect(of(results, rule)).toEqual([handoffPath(4)]);
    expect(results).toEqual(fresh);
  });

  it('is not taken when history says otherwise of who wrote a resolution, the tree the same', async () => {
    // Ana answered the blocker: the resolution is her guidance, and nothing holds task 3 or 4 back.
    const repo = blockedThenOn({ author: ANA });
    const rule = 'handoff/blocked-proceed';
    expect(of((await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results, rule)).toEqual([]);
    // The same trees, but the agent wrote the answer itself: task 3 had gone on past it already, task 4 is new.
    repo.git('reset', '-q', '--hard', 'HEAD~2');
    blockedThenOn({ author: CLAUDE }, repo);
    const { results, fresh } = await judged(repo, ['--staged'], repo.env(CLAUDE));
    expect(of(results, rule)).toEqual([handoffPath(4)]);
    expect(results).toEqual(fresh);
  });

  it('is not taken when the sight reads a file of the tree as something else', async () => {
    // The plan committed as a symbolic link to a file outside the globs: the target is read as the link's version,
    // not as a plan of its own, until a ledger names it (history/sight.ts).
    const target = 'docs/auth-plan.md';
    const naming = (plan: string) => ledger({ plan, state: [1, 2, 3, 4].map((t) => `- [ ] ${TASK(t)}`) });
    const repo = Repo.create();
    repo.write({
      [CONFIG]: '{}\n',
      [target]: planDoc({ frontmatter: ['mode: direct'], tasks: [1, 2], auto: [1] }),
      [LEDGER]: naming(PLAN),
      [`${dirname(PLAN)}/.keep`]: '',
    });
    symlinkSync(relative(dirname(join(repo.dir, PLAN)), join(repo.dir, target)), join(repo.dir, PLAN));
    repo.stage();
    repo.commitStaged('Adopt validate-workflow', { author: ANA });
    const rule = 'plan/mode';
    repo.stage({ [handoffPath(1)]: taskHandoff(1) });
    expect(of((await door(repo.dir, ['--staged'])).results, rule)).toEqual([]);
    // The ledger now names the target: it is a plan on both sides of the change, HEAD's as well, with the finding
    // the link's plan has.
    repo.stage({ [LEDGER]: naming(target) });
    const { results, fresh } = await judged(repo, ['--staged']);
    expect(of(results, rule)).toEqual([]);
    expect(results).toEqual(fresh);
  });

  it('is not taken under other settings (the size of a file read)', async () => {
    const repo = unpromised();
    repo.stage({ [THIRD]: planDoc({ noManual: [1, 2] }) });
    repo.write({ 'roomy.json': '{}\n', 'tight.json': `${JSON.stringify({ maxFileBytes: 64 })}\n` });
    await door(repo.dir, ['--staged', '--config', 'roomy.json']);
    // Too large to read under the tight settings: HEAD's plans were already, the third plan is new.
    const { results, fresh } = await judged(repo, ['--staged', '--config', 'tight.json']);
    expect(results.filter((f) => /maxFileBytes/.test(f.message)).map((f) => f.file)).toEqual([THIRD]);
    expect(results).toEqual(fresh);
  });

  it("takes HEAD's findings for the change's side when the change reads to HEAD's models, and only then", () => {
    // HEAD has a finding of its own: a manual item checked before the automated one.
    const repo = taskOneDone();
    const checked = planDoc({ tasks: [1], manual: [1] });
    repo.commit('Phase 1 checks', { [PLAN]: checked }, { author: ANA });
    const timed = { VALIDATE_WORKFLOW_TIMING: '1', ...repo.env(ANA) };
    const alike = (stderr: string) => /^timing snapshot rules, after \(the models of before\)/m.test(stderr);
    const rule = 'plan/manual-before-automated';
    // A sentence added to the plan's prose: the same model, so the same findings, none of them new.
    repo.stage({ [PLAN]: `${checked}\nA note on the rollout, in prose.\n` });
    const prose = cli(repo.dir, ['--staged'], timed);
    expect(alike(prose.stderr)).toBe(true);
    rmSync(memoryOf(repo), { force: true });
    const fresh = cli(repo.dir, ['--staged'], timed);
    expect(alike(fresh.stderr)).toBe(true);
    expect(prose.results).toEqual(fresh.results);
    expect(of(prose.results, rule)).toEqual([]);
    // The same file with a task checked past the open automated item: another model, judged afresh.
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], manual: [1, 2] }) });
    const boxes = cli(repo.dir, ['--staged'], timed);
    expect(alike(boxes.stderr)).toBe(false);
    expect(of(boxes.results, rule)).toEqual([PLAN]);
  });

  it('judges a plan replaced by a link to the same words: the version is a link, whatever it reads to', async () => {
    // The plan becomes a symbolic link to a copy outside the globs: the same path, a model equal to HEAD's, but a
    // version layout/paths reports. Taken as alike, the change would bring no finding.
    const repo = taskOneDone();
    const copy = 'docs/plan-copy.md';
    repo.write({ [copy]: readFileSync(join(repo.dir, PLAN), 'utf8') });
    rmSync(join(repo.dir, PLAN));
    symlinkSync(relative(dirname(join(repo.dir, PLAN)), join(repo.dir, copy)), join(repo.dir, PLAN));
    repo.stage();
    const found = (await door(repo.dir, ['--staged'])).results.filter((f) => f.ruleId === 'layout/paths');
    expect(found.map((f) => [f.file, f.severity, f.message])).toEqual([
      [
        PLAN,
        'warning',
        'Workflow file is stored as a symbolic link to ../../../docs/plan-copy.md; commit the file itself.',
      ],
    ]);
  });

  it('judges a file moved with its content unchanged: the paths are not the same', async () => {
    const repo = taskOneDone();
    const moved = 'thoughts/shared/plans/2026-11-23-moved.md';
    repo.git('mv', PLAN, moved);
    const { results, fresh } = await judged(repo, ['--staged']);
    expect(results).toEqual(fresh);
    // The ledger and the handoff name the plan by its old path: what they link to is gone.
    expect(results.filter((f) => f.severity !== 'info').length).toBeGreaterThan(0);
  });
});

describe('the models two sides of a change are compared by (judgedAlike)', () => {
  it('are the same only as the same value, keys in any order', () => {
    expect(sameValue({ a: 1, b: [{ c: 'x' }] }, { b: [{ c: 'x' }], a: 1 })).toBe(true);
    expect(sameValue({ a: NaN }, { a: NaN })).toBe(true);
    // What JSON would blur: NaN and null, a key set to undefined and no key, a Map and an object.
    expect(sameValue({ a: NaN }, { a: null })).toBe(false);
    expect(sameValue({ a: undefined }, {})).toBe(false);
    expect(sameValue({ a: new Map() }, { a: {} })).toBe(false);
    expect(sameValue({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameValue({ a: [1] }, { a: { 0: 1 } })).toBe(false);
  });
});
