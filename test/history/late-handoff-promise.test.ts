// history/task-order's late-handoff clause is handoff/missing's requirement seen in order (issue 19). History judges
// it at every commit; each door then reports it in `recommended` only where the state the door judges (HEAD, the
// range's end, the index) promises task handoffs as handoff/missing reads that state (task handoffs, a ledger, an
// instruction, the config) or the plan there declares `mode: orchestration`; `strict` reports it for every
// orchestration plan. Real repositories, built commit by commit; the plans and handoffs are this file's own.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { ANA, CLAUDE, CONFIG, Repo, cli, cliHere, historyFindings, lineOf, md } from './helpers.js';

const SLOW = 180_000;
const PLAN = 'thoughts/shared/plans/2026-09-14-greenhouse-logger.md';
const EARLIER = 'thoughts/shared/plans/2026-08-02-valve-timer.md';

const TASKS = [
  'Wire the humidity probe to the board',
  'Sample the probe every ten seconds',
  'Store readings in the ring buffer',
  'Draw the readings on the panel',
];

/** The logger plan: two phases of two tasks (four: orchestration by the table), its first `done` tasks checked. */
function loggerPlan(done: number, frontmatter: string[] = []): string {
  const box = (n: number) => (n <= done ? '[x]' : '[ ]');
  return md(
    ...(frontmatter.length ? ['---', ...frontmatter, '---'] : []),
    '# Greenhouse Logger Implementation Plan',
    '',
    '## Phase 1: Probe',
    '',
    `- ${box(1)} Task 1: ${TASKS[0]}`,
    `- ${box(2)} Task 2: ${TASKS[1]}`,
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    '- [ ] Probe tests pass: `npm run test:probe`',
    '',
    '#### Manual Verification:',
    '',
    '- [ ] The probe reads the same as the wall hygrometer',
    '',
    '## Phase 2: Storage and panel',
    '',
    `- ${box(3)} Task 3: ${TASKS[2]}`,
    `- ${box(4)} Task 4: ${TASKS[3]}`,
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    '- [ ] Buffer tests pass: `npm run test:buffer`',
    '',
    '#### Manual Verification:',
    '',
    '- [ ] The panel shows the last hour of readings',
  );
}

/** A two-task plan of an earlier session, done with a task handoff per task. */
function valvePlan(): string {
  return md(
    '# Valve Timer Implementation Plan',
    '',
    '## Phase 1: Timer',
    '',
    '- [x] Task 1: Open the valve at dawn',
    '- [x] Task 2: Close the valve after twenty minutes',
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    '- [x] Timer tests pass: `npm run test:timer`',
    '',
    '#### Manual Verification:',
    '',
    '- [ ] N/A: no screen in this phase',
  );
}

function valveHandoff(n: number, desc: string): string {
  return md(
    '---',
    'status: complete',
    `task: ${n}`,
    'task_total: 2',
    `task_desc: ${desc}`,
    `plan: ${EARLIER}`,
    ...(n > 1 ? ['previous: task-01-open-at-dawn.md'] : []),
    `files_modified: [src/valve-${n}.ts]`,
    'verification_results:',
    '  - check: npm run test:timer',
    '    result: pass',
    `context_for_next: The valve relay is on pin ${n + 6}.`,
    'blocker: null',
    'decisions: []',
    'open_questions: []',
    '---',
    `# Task Handoff: ${desc}`,
  );
}

/** The logger's task handoff for task `n`, written by the agent. */
function loggerHandoff(n: number): string {
  return md(
    '---',
    'status: complete',
    `task: ${n}`,
    'task_total: 4',
    `task_desc: ${TASKS[n - 1]}`,
    `plan: ${PLAN}`,
    `files_modified: [src/logger-${n}.ts]`,
    'verification_results:',
    '  - check: npm test',
    '    result: pass',
    `context_for_next: Reading ${n} is stored.`,
    'blocker: null',
    'decisions: []',
    'open_questions: []',
    '---',
    `# Task Handoff: ${TASKS[n - 1]}`,
  );
}

const loggerHandoffPath = (n: number) => `thoughts/handoffs/logger-session/task-0${n}-step-${n}.md`;

/** The valve session's handoffs, as the earlier session left them. */
const VALVE_HANDOFFS = {
  'thoughts/handoffs/valve-session/task-01-open-at-dawn.md': valveHandoff(1, 'Open the valve at dawn'),
  'thoughts/handoffs/valve-session/task-02-close-after-twenty.md': valveHandoff(
    2,
    'Close the valve after twenty minutes',
  ),
};

/** Instructions that ask for a handoff per task, naming its path. */
const HANDOFF_INSTRUCTIONS = md(
  '# Working here',
  '',
  'After each task, write `thoughts/handoffs/<session>/task-NN-<what-you-did>.md` before checking the box.',
);

interface Shape {
  /** The logger plan's frontmatter lines. */
  frontmatter?: string[];
  /** An earlier session's plan with its task handoffs, committed first. */
  earlierHandoffs?: boolean;
  /** The config a human commits first (it adopts the convention). */
  config?: Record<string, unknown>;
  /** Agent instructions committed with the plan. */
  instructions?: string;
  /**
   * A human reopens Task 3 last (the default): its late check-off is then history/task-order's alone to report,
   * since handoff/missing judges checked tasks only, while Tasks 1 and 2 stay checked without handoffs.
   */
  reopen?: boolean;
}

/**
 * A human writes the logger plan; an agent checks Tasks 1 to 3 one commit each and never writes a task handoff (no
 * ledger, no instruction asks for one); a human reopens Task 3. Returns the repository, the commit that plans the
 * logger, and the commits that check Task 2 and Task 3.
 */
function checkedWithoutHandoffs(shape: Shape = {}): { repo: Repo; planned: string; second: string; third: string } {
  const repo = Repo.create();
  if (shape.config) repo.commit('Adopt validate-workflow', { [CONFIG]: JSON.stringify(shape.config) }, { author: ANA });
  if (shape.earlierHandoffs) {
    const [first, second] = Object.entries(VALVE_HANDOFFS);
    repo.commit('Plan the valve timer', { [EARLIER]: valvePlan().replace(/\[x\]/g, '[ ]') }, { author: ANA });
    repo.commit(
      'Valve timer: open at dawn',
      {
        [EARLIER]: valvePlan().replace('[x] Task 2', '[ ] Task 2').replace('[x] Timer', '[ ] Timer'),
        [first![0]]: first![1],
      },
      { author: CLAUDE },
    );
    repo.commit(
      'Valve timer: close after twenty minutes',
      { [EARLIER]: valvePlan(), [second![0]]: second![1] },
      {
        author: CLAUDE,
      },
    );
  }
  const planned = repo.commit(
    'Plan the greenhouse logger',
    { [PLAN]: loggerPlan(0, shape.frontmatter), ...(shape.instructions ? { 'CLAUDE.md': shape.instructions } : {}) },
    { author: ANA },
  );
  repo.commit('Wire the probe', { [PLAN]: loggerPlan(1, shape.frontmatter) }, { author: CLAUDE });
  const second = repo.commit('Sample the probe', { [PLAN]: loggerPlan(2, shape.frontmatter) }, { author: CLAUDE });
  const third = repo.commit('Store the readings', { [PLAN]: loggerPlan(3, shape.frontmatter) }, { author: CLAUDE });
  if (shape.reopen !== false)
    repo.commit(
      'Reopen Task 3: the buffer drops readings',
      { [PLAN]: loggerPlan(2, shape.frontmatter) },
      { author: ANA },
    );
  return { repo, planned, second, third };
}

const isLate = (f: Finding) =>
  f.ruleId === 'history/task-order' && /handoff is not committed|handoffs are not committed/.test(f.message);

/** The late-handoff findings of history/task-order a door reports (its order findings have other messages). */
async function late(repo: Repo, args: string[] = []): Promise<Finding[]> {
  return (await cliHere(repo.dir, args)).results.filter(isLate);
}

/** The same at the pre-commit door: the agent's Task 3 check-off staged again without its handoff. */
async function lateStaged(repo: Repo, frontmatter?: string[]): Promise<Finding[]> {
  repo.stage({ [PLAN]: loggerPlan(3, frontmatter) });
  const found = (await cliHere(repo.dir, ['--staged'], repo.env(CLAUDE))).results;
  repo.git('reset', '-q', '--hard');
  return found.filter((f) => isLate(f) || f.ruleId === 'handoff/missing');
}

describe('history/task-order: a late handoff where the judged end state requires it', () => {
  it(
    'a repository that keeps no task handoffs, ledger or instruction: no late handoff at any door, though history judged each',
    async () => {
      const { repo, planned } = checkedWithoutHandoffs();
      // The fold judges every check-off alike, whatever the repository promised: the door decides what is reported.
      const judged = (await historyFindings(repo.dir, 'history/task-order')).filter(isLate);
      expect(judged).toHaveLength(3);
      expect(judged.every((f) => f.requires === 'taskHandoffs')).toBe(true);
      // The whole run, as a user sees it: neither rule speaks, and the order of the tasks was kept.
      const run = await cliHere(repo.dir);
      expect(run.results.filter((f) => f.ruleId === 'handoff/missing' || f.ruleId === 'history/task-order')).toEqual(
        [],
      );
      expect(await late(repo, ['--range', `${planned}..HEAD`])).toEqual([]);
      // The next check-off at pre-commit: the index promises no handoffs either.
      expect(await lateStaged(repo)).toEqual([]);
    },
    SLOW,
  );

  it(
    'the same history with `mode: orchestration` in the plan: the plan promised its handoffs itself',
    async () => {
      const frontmatter = ['mode: orchestration'];
      const { repo, planned, third } = checkedWithoutHandoffs({ frontmatter });
      const found = await late(repo);
      expect(found).toEqual([
        expect.objectContaining({
          commit: third,
          file: PLAN,
          line: lineOf(repo.show(third, PLAN), 'Task 3:'),
          message: 'Task 3 is checked complete in this commit, but its handoff is not committed with it or before it.',
        }),
      ]);
      // Tasks 1 and 2 are still checked without handoffs at HEAD: handoff/missing says so, and its finding stands for
      // the late one of the same task (one cause, one finding).
      const run = await cliHere(repo.dir);
      expect(run.results.filter((f) => f.ruleId === 'handoff/missing')).toHaveLength(2);
      expect(await late(repo, ['--range', `${planned}..HEAD`])).toEqual([
        expect.objectContaining({ commit: third, file: PLAN }),
      ]);
      // Pre-commit refuses the check-off without its handoff, by handoff/missing's finding.
      expect((await lateStaged(repo, frontmatter)).map((f) => f.ruleId)).toEqual(['handoff/missing']);
    },
    SLOW,
  );

  it(
    'a repository that wrote task handoffs for an earlier session: each check-off without its handoff is late',
    async () => {
      const { repo, planned, third } = checkedWithoutHandoffs({ earlierHandoffs: true });
      expect(await late(repo)).toEqual([expect.objectContaining({ commit: third, file: PLAN })]);
      expect(await late(repo, ['--range', `${planned}..HEAD`])).toEqual([
        expect.objectContaining({ commit: third, file: PLAN }),
      ]);
      expect((await lateStaged(repo)).map((f) => f.ruleId)).toEqual(['handoff/missing']);
    },
    SLOW,
  );

  it(
    'a check-off that deletes the only handoffs, restored later, escapes nothing: the end state decides',
    async () => {
      const { repo, planned } = checkedWithoutHandoffs({ earlierHandoffs: true });
      // A fresh plan's first check-off deletes the valve session's handoffs; a later commit restores them and
      // reopens the task (so that handoff/missing does not stand for it at HEAD).
      const logger = 'thoughts/shared/plans/2026-09-20-cellar-logger.md';
      const cellar = (done: number) => loggerPlan(done).replace('Greenhouse Logger', 'Cellar Logger');
      repo.commit('Plan the cellar logger', { [logger]: cellar(0) }, { author: ANA });
      const deleting = repo.commit(
        'Wire the cellar probe',
        { [logger]: cellar(1) },
        { author: CLAUDE, remove: Object.keys(VALVE_HANDOFFS) },
      );
      repo.commit('Restore the valve handoffs', { ...VALVE_HANDOFFS, [logger]: cellar(0) }, { author: ANA });
      const found = await late(repo);
      expect(found).toContainEqual(expect.objectContaining({ commit: deleting, file: logger }));
      expect(await late(repo, ['--range', `${planned}..HEAD`])).toContainEqual(
        expect.objectContaining({ commit: deleting, file: logger }),
      );
    },
    SLOW,
  );

  it(
    "the repository's instructions name a task handoff path: they are read from the repository's root",
    async () => {
      const { repo, third } = checkedWithoutHandoffs({ instructions: HANDOFF_INSTRUCTIONS });
      expect(await late(repo)).toEqual([expect.objectContaining({ commit: third, file: PLAN })]);
      // Instructions that name no task handoff promise none.
      const other = checkedWithoutHandoffs({
        instructions: md('# Working here', '', 'Run `npm test` before pushing.'),
      });
      expect(await late(other.repo)).toEqual([]);
    },
    SLOW,
  );

  it(
    "handoffs written after the fact, the repository's first: every check-off before them was late (full run and --range)",
    async () => {
      // The human adopts the convention and plans; the agent checks three tasks with --no-verify, no handoffs; a
      // last commit adds the three handoffs at once. HEAD is clean; each commit that checked a task was late, though
      // none of their own snapshots held a task handoff yet.
      const { repo, planned, second } = checkedWithoutHandoffs({ config: { preset: 'recommended' }, reopen: false });
      const added = Object.fromEntries([1, 2, 3].map((n) => [loggerHandoffPath(n), loggerHandoff(n)]));
      repo.commit('Write the handoffs after the fact', added, { author: CLAUDE });
      const found = await late(repo);
      expect(found).toHaveLength(3);
      expect(found).toContainEqual(
        expect.objectContaining({
          commit: second,
          file: PLAN,
          message: 'Task 2 is checked complete in this commit, but its handoff is not committed with it or before it.',
        }),
      );
      const ranged = await late(repo, ['--range', `${planned}..HEAD`]);
      expect(ranged.map((f) => f.commit).sort()).toEqual(found.map((f) => f.commit).sort());
      // HEAD itself is clean: every checked task has its handoff.
      expect((await cliHere(repo.dir)).results.filter((f) => f.ruleId === 'handoff/missing')).toEqual([]);
    },
    SLOW,
  );

  it(
    '`strict` (forced, or the config preset) holds every orchestration plan to its handoffs',
    async () => {
      const { repo, planned, third } = checkedWithoutHandoffs();
      expect(await late(repo, ['--preset', 'recommended'])).toEqual([]);
      const forced = await late(repo, ['--preset', 'strict']);
      expect(forced).toEqual([expect.objectContaining({ commit: third, file: PLAN })]);
      expect(await late(repo, ['--preset', 'strict', '--range', `${planned}..HEAD`])).toEqual(forced);
      const adopted = checkedWithoutHandoffs({ config: { preset: 'strict' } });
      expect(await late(adopted.repo)).toEqual([expect.objectContaining({ commit: adopted.third, file: PLAN })]);
      expect((await lateStaged(adopted.repo)).map((f) => f.ruleId)).toEqual(['handoff/missing']);
      const recommended = checkedWithoutHandoffs({ config: { preset: 'recommended' } });
      expect(await late(recommended.repo)).toEqual([]);
      expect(await late(recommended.repo, ['--range', `${recommended.planned}..HEAD`])).toEqual([]);
      expect(await lateStaged(recommended.repo)).toEqual([]);
    },
    SLOW,
  );

  it(
    'a warm run finds what a cold one finds as instructions come and go, without judging history again',
    async () => {
      // Task 3, reopened, is history/task-order's alone to report whichever instructions the working tree has.
      const { repo } = checkedWithoutHandoffs();
      const timed = { VALIDATE_WORKFLOW_TIMING: '1' };
      const folded = (stderr: string) => /^timing history: /m.test(stderr);
      const cacheDir = join(repo.dir, '.git', 'validate-workflow');
      const lateIn = (run: { results: Finding[] }) => run.results.filter(isLate);
      // The built CLI, a process per run: nothing in memory but the cache.
      const cold = cli(repo.dir, [], timed);
      expect(folded(cold.stderr)).toBe(true);
      expect(lateIn(cold)).toEqual([]);
      // Instructions written since (not committed yet) ask for a handoff per task: every check-off was late.
      repo.write({ 'CLAUDE.md': HANDOFF_INSTRUCTIONS });
      const warm = cli(repo.dir, [], timed);
      expect(folded(warm.stderr)).toBe(false);
      expect(lateIn(warm)).toEqual([
        expect.objectContaining({ file: PLAN, message: expect.stringMatching(/^Task 3 /) }),
      ]);
      rmSync(cacheDir, { recursive: true, force: true });
      expect(cli(repo.dir).results).toEqual(warm.results);
      // And back: the instructions gone, the late finding goes, from the cache as it stands.
      rmSync(join(repo.dir, 'CLAUDE.md'));
      const back = cli(repo.dir, [], timed);
      expect(folded(back.stderr)).toBe(false);
      expect(back.results).toEqual(cold.results);
      rmSync(cacheDir, { recursive: true, force: true });
      expect(cli(repo.dir).results).toEqual(back.results);
    },
    SLOW,
  );
});
