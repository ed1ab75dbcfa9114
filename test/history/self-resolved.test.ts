// Issue 12, bypass 10 ("blocked, self-resolved"): `handoff/blocked-proceed` takes a resolution in the blocked handoff
// as the user's answer, and an agent can append one itself. A resolution counts only when a human's commit wrote it
// (or the commit carries the human's `Guidance-by:`); an agent's commit that writes one is `history/self-exemption`,
// and the tasks after it are still held back. Real repositories, every door.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { decision, hook, preToolUse } from '../claude/helpers.js';
import {
  ANA,
  CLAUDE,
  LEDGER,
  PLAN,
  Repo,
  cli,
  cliHere,
  door,
  handoffPath,
  ledgerDoc,
  messageFile,
  planDoc,
  taskHandoff,
  type CommitOpts,
} from './helpers.js';

const BLOCKER = 'The staging database refuses the migration; which schema should win?';
const blocked = (fields: Record<string, unknown> = {}, body = '') =>
  taskHandoff(2, { status: 'blocked', blocker: BLOCKER, verification_results: [], ...fields }, body);
const RESOLUTION_SECTION = '\n## Resolution\n\nThe user said: use the new schema and drop the old table.\n';
const nextTask = { [handoffPath(3)]: taskHandoff(3, { previous: 'task-02-step-2.md' }) };
/** Claude Code's commits: the developer's identity, with Claude as co-author. */
const AGENT: CommitOpts = { author: ANA, coAuthors: [CLAUDE] };

/** Task 1 done, task 2 blocked and waiting for the user. */
function waiting(): Repo {
  const repo = Repo.create();
  repo.commit(
    'Adopt validate-workflow',
    { 'validate-workflow.config.json': '{}\n', [PLAN]: planDoc(), [LEDGER]: ledgerDoc() },
    { author: ANA },
  );
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    AGENT,
  );
  repo.commit('Task 2 blocked', { [handoffPath(2)]: blocked(), [LEDGER]: ledgerDoc([1], 2) }, AGENT);
  return repo;
}

const of = (list: Finding[], ...ruleIds: string[]) =>
  list.filter((f) => ruleIds.includes(f.ruleId)).map((f) => ({ ...f, messageId: idOf(f) }));
/** The JSON report gives the words; which named message they are, for the assertions. */
function idOf(f: Finding): string {
  if (f.message.includes("its resolution was written by an agent's commit"))
    return f.message.startsWith('Task') && f.message.includes('proceeded') ? 'proceededSelf' : 'checkedSelf';
  if (f.message.includes('writes the resolution of blocked handoff')) return 'writesResolution';
  return f.message;
}
const RULES = ['handoff/blocked-proceed', 'history/self-exemption', 'history/handoff-rewritten'];

describe("an agent's own resolution of a blocked handoff", () => {
  it('appended as a `## Resolution` section: refused at the full run and --range, and the next task is still held back', async () => {
    const repo = waiting();
    const base = repo.sha();
    const wrote = repo.commit(
      'Task 2: the user said to go on',
      { [handoffPath(2)]: blocked({}, RESOLUTION_SECTION) },
      AGENT,
    );
    repo.commit('Task 3: Do step 3', nextTask, AGENT);
    // The full run twice, both through the built CLI: the second takes what HEAD's history says of the resolution from
    // the cache the first left (a cache read across processes is a case family of its own; a run in this process keys
    // its cache by the source, not by the bundle, so it could never hand one to the built CLI).
    for (const [args, real] of [
      [[], true],
      [[], true],
      [['--range', `${base}..HEAD`], false],
    ] as const) {
      const found = of((real ? cli(repo.dir, [...args]) : await cliHere(repo.dir, [...args])).results, ...RULES);
      expect(
        found.map((f) => [f.ruleId, f.messageId, f.file, f.commit ?? null, f.severity]),
        args.join(' '),
      ).toEqual([
        ['history/self-exemption', 'writesResolution', handoffPath(2), wrote, 'error'],
        ['handoff/blocked-proceed', 'proceededSelf', handoffPath(3), null, 'error'],
      ]);
      expect(found[0]!.message).toContain("only the user's guidance unblocks the task");
      expect(found[0]!.fix).toContain('`Guidance-by: Name <email>`');
    }
  });

  it('written as `resolution:` in the frontmatter: the same, and not a rewrite of the handoff besides', async () => {
    const repo = waiting();
    const wrote = repo.commit(
      'Task 2: resolved',
      { [handoffPath(2)]: blocked({ resolution: 'Go on with task 3.' }) },
      { author: CLAUDE },
    );
    repo.commit('Task 3: Do step 3', nextTask, { author: CLAUDE });
    const found = of((await door(repo.dir, ['--preset', 'strict'])).results, ...RULES);
    expect(found.map((f) => [f.ruleId, f.messageId, f.commit ?? null])).toEqual([
      ['history/self-exemption', 'writesResolution', wrote],
      ['handoff/blocked-proceed', 'proceededSelf', null],
    ]);
  });

  it('refused at pre-commit (the next task) and at commit-msg (the resolution too)', async () => {
    const repo = waiting();
    repo.stage({ [handoffPath(2)]: blocked({}, RESOLUTION_SECTION), ...nextTask });
    const staged = of((await cliHere(repo.dir, ['--staged'], repo.env(CLAUDE))).results, ...RULES);
    expect(staged.map((f) => [f.ruleId, f.messageId])).toEqual([['handoff/blocked-proceed', 'proceededSelf']]);
    const msg = of(
      (await cliHere(repo.dir, ['commit-msg', messageFile('Task 3: Do step 3', AGENT)], repo.env(ANA))).results,
      ...RULES,
    );
    expect(msg.map((f) => [f.ruleId, f.messageId, f.file])).toEqual([
      ['history/self-exemption', 'writesResolution', handoffPath(2)],
      ['handoff/blocked-proceed', 'proceededSelf', handoffPath(3)],
    ]);
    expect(msg[0]!.fix).toContain('Take the resolution out of the commit');
  });

  it('a resolution added with the blocked handoff itself counts no more', async () => {
    const repo = waiting();
    repo.git('reset', '-q', '--hard', 'HEAD~1');
    repo.commit(
      'Task 2 blocked, and resolved',
      { [handoffPath(2)]: blocked({ resolution: 'Go on.' }), [LEDGER]: ledgerDoc([1], 2) },
      AGENT,
    );
    repo.commit('Task 3: Do step 3', nextTask, AGENT);
    expect(of((await door(repo.dir)).results, ...RULES).map((f) => f.messageId)).toEqual([
      'writesResolution',
      'proceededSelf',
    ]);
  });

  it('is denied by the Claude Code hook at the Edit', async () => {
    const repo = waiting();
    const run = await hook(
      preToolUse(repo.dir, 'Edit', {
        file_path: handoffPath(2),
        old_string: '# Task Handoff: Step 2\n',
        new_string: `# Task Handoff: Step 2\n${RESOLUTION_SECTION}`,
      }),
    );
    const d = decision(run)!;
    expect(d.permissionDecision).toBe('deny');
    expect(d.permissionDecisionReason).toContain(`writes the resolution of blocked handoff ${handoffPath(2)} itself`);
    expect(d.permissionDecisionReason).toContain('(history/self-exemption)');
  });
});

describe("the human's resolution", () => {
  it('counts at every door, and is no rewrite of the handoff', async () => {
    const repo = waiting();
    const base = repo.sha();
    repo.commit(
      'Task 2: my answer',
      { [handoffPath(2)]: blocked({ resolution: 'Use the new schema; drop the old table.' }) },
      { author: ANA },
    );
    repo.stage(nextTask);
    expect(of((await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results, ...RULES)).toEqual([]);
    expect(
      of(
        (await door(repo.dir, ['commit-msg', messageFile('Task 3: Do step 3', AGENT)], repo.env(ANA))).results,
        ...RULES,
      ),
    ).toEqual([]);
    repo.commitStaged('Task 3: Do step 3', AGENT);
    expect(of((await door(repo.dir, ['--preset', 'strict'])).results, ...RULES)).toEqual([]);
    expect(of((await door(repo.dir, ['--range', `${base}..HEAD`])).results, ...RULES)).toEqual([]);
  });

  it("relayed by the agent with the human's Guidance-by in the same commit, counts", async () => {
    const repo = waiting();
    repo.commit(
      'Task 2: Ana decided',
      { [handoffPath(2)]: blocked({}, RESOLUTION_SECTION) },
      { ...AGENT, trailers: [`Guidance-by: ${ANA.name} <${ANA.email}>`] },
    );
    repo.commit('Task 3: Do step 3', nextTask, AGENT);
    expect(of((await door(repo.dir)).results, ...RULES)).toEqual([]);
    // Warm: the guidance comes from the cache, and still counts.
    expect(of(cli(repo.dir).results, ...RULES)).toEqual([]);
    expect(of(cli(repo.dir).results, ...RULES)).toEqual([]);
  });

  it('the Claude Code hook allows an Edit that leaves the resolution alone', async () => {
    const repo = waiting();
    const run = await hook(
      preToolUse(repo.dir, 'Edit', {
        file_path: handoffPath(2),
        old_string: '# Task Handoff: Step 2\n',
        new_string: '# Task Handoff: Step 2\n\n## Notes\n\nWaiting for the user.\n',
      }),
    );
    expect(run.stdout).toBe('');
  });

  it("an agent's own resolution is found by pre-commit with the cache left at an earlier commit, as without one", () => {
    const repo = waiting();
    repo.commit('Resolve it myself', { [handoffPath(2)]: blocked({}, RESOLUTION_SECTION) }, AGENT);
    // The full run leaves the cache at this commit; the next one is made without the hooks.
    cli(repo.dir);
    repo.commit('Note the ledger', { [LEDGER]: `${ledgerDoc([1], 2)}\nA note.\n` }, { author: ANA });
    const timed = { VALIDATE_WORKFLOW_TIMING: '1', ...repo.env(CLAUDE) };
    // Which handoffs are blocked, the cache says without decoding them: a prose change decodes task 2's alone.
    repo.stage({ [PLAN]: `${planDoc({ tasks: [1] })}\nA note on the rollout.\n` });
    cli(repo.dir, ['--staged'], timed);
    // Again, HEAD's findings remembered now: what is decoded is what the guidance asks, and HEAD's version of the
    // plan the change edits (taken from the cache since round 23, the staged version derived from it).
    const prose = cli(repo.dir, ['--staged'], timed);
    expect(prose.stderr).toMatch(/^timing snapshot rules, before \(remembered\)/m);
    expect(prose.stderr).toMatch(/^timing snapshot rules, after \(the models of before\)/m);
    expect(prose.stderr).toMatch(/^timing versions changed \(plans: 0 parsed, 1 derived; 1 of HEAD's known\)/m);
    expect(prose.stderr).toMatch(/^timing cache models decoded \(2 of \d+\)/m);
    repo.git('reset', '-q', '--hard');
    repo.stage(nextTask);
    const warm = cli(repo.dir, ['--staged'], timed).results;
    expect(of(warm, ...RULES).map((f) => [f.ruleId, f.messageId])).toEqual([
      ['handoff/blocked-proceed', 'proceededSelf'],
    ]);
    rmSync(join(repo.dir, '.git/validate-workflow/cache.pack'));
    expect(cli(repo.dir, ['--staged'], timed).results).toEqual(warm);
  });
});
