// history/task-order's late-handoff clause is handoff/missing's requirement seen in order (issue 19): in `recommended`
// it applies where the commit's own snapshot promises task handoffs (task handoffs in it, a ledger, an instruction,
// the config) or the plan declares `mode: orchestration`, and nowhere else; `strict` holds every orchestration plan
// to it. Real repositories, built commit by commit; the plan and handoffs are this file's own.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANA, CLAUDE, CONFIG, Repo, cliHere, historyFindings, lineOf, md } from './helpers.js';

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

interface Shape {
  /** The logger plan's frontmatter lines. */
  frontmatter?: string[];
  /** An earlier session's plan with its task handoffs, committed first. */
  earlierHandoffs?: boolean;
  /** The config a human commits first (it adopts the convention). */
  config?: Record<string, unknown>;
  /** Agent instructions committed with the plan. */
  instructions?: string;
}

/**
 * A human writes the logger plan; an agent checks its tasks one commit each and never writes a task handoff (no
 * ledger, no instruction asks for one). Returns the repository and the commit that checks Task 2.
 */
function checkedWithoutHandoffs(shape: Shape = {}): { repo: Repo; second: string } {
  const repo = Repo.create();
  if (shape.config) repo.commit('Adopt validate-workflow', { [CONFIG]: JSON.stringify(shape.config) }, { author: ANA });
  if (shape.earlierHandoffs) {
    repo.commit('Plan the valve timer', { [EARLIER]: valvePlan().replace(/\[x\]/g, '[ ]') }, { author: ANA });
    repo.commit(
      'Valve timer: open at dawn',
      {
        [EARLIER]: valvePlan().replace('[x] Task 2', '[ ] Task 2').replace('[x] Timer', '[ ] Timer'),
        'thoughts/handoffs/valve-session/task-01-open-at-dawn.md': valveHandoff(1, 'Open the valve at dawn'),
      },
      { author: CLAUDE },
    );
    repo.commit(
      'Valve timer: close after twenty minutes',
      {
        [EARLIER]: valvePlan(),
        'thoughts/handoffs/valve-session/task-02-close-after-twenty.md': valveHandoff(
          2,
          'Close the valve after twenty minutes',
        ),
      },
      { author: CLAUDE },
    );
  }
  repo.commit(
    'Plan the greenhouse logger',
    { [PLAN]: loggerPlan(0, shape.frontmatter), ...(shape.instructions ? { 'CLAUDE.md': shape.instructions } : {}) },
    { author: ANA },
  );
  repo.commit('Wire the probe', { [PLAN]: loggerPlan(1, shape.frontmatter) }, { author: CLAUDE });
  const second = repo.commit('Sample the probe', { [PLAN]: loggerPlan(2, shape.frontmatter) }, { author: CLAUDE });
  repo.commit('Store the readings', { [PLAN]: loggerPlan(3, shape.frontmatter) }, { author: CLAUDE });
  return { repo, second };
}

/** The late-handoff findings of history/task-order (its order findings have other messages). */
async function late(repo: Repo, preset?: 'recommended' | 'strict') {
  return (await historyFindings(repo.dir, 'history/task-order', preset)).filter((f) =>
    /handoff is not committed|handoffs are not committed/.test(f.message),
  );
}

describe('history/task-order: a late handoff only where handoff/missing would require it', () => {
  it(
    'a repository that keeps no task handoffs, ledger or instruction: no late handoff, no missing handoff',
    async () => {
      const { repo } = checkedWithoutHandoffs();
      expect(await late(repo)).toEqual([]);
      // The whole run, as a user sees it: neither rule speaks, and the order of the tasks was kept.
      const run = await cliHere(repo.dir);
      expect(run.results.filter((f) => f.ruleId === 'handoff/missing' || f.ruleId === 'history/task-order')).toEqual(
        [],
      );
    },
    SLOW,
  );

  it(
    'the same history with `mode: orchestration` in the plan: the plan promised its handoffs itself',
    async () => {
      const { repo, second } = checkedWithoutHandoffs({ frontmatter: ['mode: orchestration'] });
      const found = await late(repo);
      expect(found.map((f) => f.commit)).toHaveLength(3);
      expect(found).toContainEqual(
        expect.objectContaining({
          commit: second,
          file: PLAN,
          line: lineOf(repo.show(second, PLAN), 'Task 2:'),
          message: 'Task 2 is checked complete in this commit, but its handoff is not committed with it or before it.',
        }),
      );
      // The twin without the key (the first test's history) is told nothing: the key alone decides.
      expect(await late(checkedWithoutHandoffs().repo)).toEqual([]);
    },
    SLOW,
  );

  it(
    'a repository that wrote task handoffs for an earlier session: each check-off without its handoff is late',
    async () => {
      const { repo, second } = checkedWithoutHandoffs({ earlierHandoffs: true });
      const found = await late(repo);
      expect(found.map((f) => f.commit)).toHaveLength(3);
      expect(found).toContainEqual(expect.objectContaining({ commit: second, file: PLAN }));
      expect(await late(checkedWithoutHandoffs().repo)).toEqual([]);
    },
    SLOW,
  );

  it(
    "the repository's instructions name a task handoff path: they are read from the repository's root",
    async () => {
      const instructions = md(
        '# Working here',
        '',
        'After each task, write `thoughts/handoffs/<session>/task-NN-<what-you-did>.md` before checking the box.',
      );
      const { repo, second } = checkedWithoutHandoffs({ instructions });
      const found = await late(repo);
      expect(found.map((f) => f.commit)).toHaveLength(3);
      expect(found).toContainEqual(expect.objectContaining({ commit: second, file: PLAN }));
      // Instructions that name no task handoff promise none.
      const other = checkedWithoutHandoffs({
        instructions: md('# Working here', '', 'Run `npm test` before pushing.'),
      });
      expect(await late(other.repo)).toEqual([]);
    },
    SLOW,
  );

  it(
    "a cached history follows the instructions' promise: a warm run finds what a cold one finds",
    async () => {
      const { repo } = checkedWithoutHandoffs();
      // The handoffs come later, all at once: the state at HEAD is clean whatever the instructions say.
      repo.commit(
        'Write the handoffs after the fact',
        Object.fromEntries(
          [1, 2, 3].map((n) => [
            `thoughts/handoffs/logger-session/task-0${n}-step-${n}.md`,
            md(
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
            ),
          ]),
        ),
        { author: CLAUDE },
      );
      const taskOrder = async () =>
        (await cliHere(repo.dir)).results.filter((f) => f.ruleId === 'history/task-order').map((f) => f.commit);
      expect(await taskOrder()).toEqual([]);
      // Instructions written since (not committed yet) ask for a handoff per task: every check-off was late.
      repo.write({ 'CLAUDE.md': md('# Agents', '', 'Hand off in `thoughts/handoffs/<session>/task-NN-<desc>.md`.') });
      const warm = await taskOrder();
      expect(warm).toHaveLength(3);
      rmSync(join(repo.dir, '.git', 'validate-workflow'), { recursive: true, force: true });
      expect(await taskOrder()).toEqual(warm);
      // And back: the instructions gone, the cached findings go with them.
      rmSync(join(repo.dir, 'CLAUDE.md'));
      expect(await taskOrder()).toEqual([]);
      expect(await taskOrder()).toEqual([]);
    },
    SLOW,
  );

  it(
    '`strict` (forced, or the config preset) holds every orchestration plan to its handoffs',
    async () => {
      const { repo, second } = checkedWithoutHandoffs();
      expect(await late(repo, 'recommended')).toEqual([]);
      const forced = await late(repo, 'strict');
      expect(forced.map((f) => f.commit)).toHaveLength(3);
      expect(forced).toContainEqual(expect.objectContaining({ commit: second, file: PLAN }));
      const adopted = checkedWithoutHandoffs({ config: { preset: 'strict' } });
      expect(await late(adopted.repo)).toContainEqual(expect.objectContaining({ commit: adopted.second, file: PLAN }));
      const recommended = checkedWithoutHandoffs({ config: { preset: 'recommended' } });
      expect(await late(recommended.repo)).toEqual([]);
    },
    SLOW,
  );
});
