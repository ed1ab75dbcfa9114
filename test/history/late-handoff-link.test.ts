// Round 18: history/task-order's late-handoff part judges only plans that handoff/missing holds to task handoffs.
// A repository that keeps no task handoff and no session ledger links none to its plans, and handoff/missing asks
// it for none (convention section 4: checks that need a link the tool cannot make are skipped); a plan whose task
// handoffs are linked to it keeps the finding for the one that came late.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { ANA, CLAUDE, CONFIG, PLAN, Repo, door, handoffPath, lineOf, planDoc, taskHandoff } from './helpers.js';

const of = (list: Finding[], ruleId: string) => list.filter((f) => f.ruleId === ruleId);

/** Ana adopts the convention and commits a four-task plan (orchestration by its size); no ledger. */
function planned(): Repo {
  const repo = Repo.create();
  repo.commit('Adopt validate-workflow', { [CONFIG]: '{ "preset": "recommended" }\n' }, { author: ANA });
  repo.commit('Plan the auth flow', { [PLAN]: planDoc() }, { author: ANA });
  return repo;
}

describe('history/task-order: a late handoff only where handoffs link to the plan', () => {
  it('a repository that keeps no task handoffs: check-offs without one are no late handoff', async () => {
    const repo = planned();
    repo.commit('Task 1: Do step 1', { [PLAN]: planDoc({ tasks: [1] }) }, { author: CLAUDE });
    repo.commit('Task 2: Do step 2', { [PLAN]: planDoc({ tasks: [1, 2] }) }, { author: CLAUDE });
    const full = await door(repo.dir);
    expect(of(full.results, 'handoff/missing')).toEqual([]);
    expect(of(full.results, 'history/task-order')).toEqual([]);
  }, 60_000);

  it('task handoffs linked to the plan: the check-off whose handoff came later is reported', async () => {
    const repo = planned();
    repo.commit(
      'Task 1: Do step 1',
      { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1) },
      { author: CLAUDE },
    );
    const check = repo.commit('Task 2: Do step 2', { [PLAN]: planDoc({ tasks: [1, 2] }) }, { author: CLAUDE });
    repo.commit('Handoff of task 2', { [handoffPath(2)]: taskHandoff(2) }, { author: CLAUDE });
    const full = await door(repo.dir);
    expect(of(full.results, 'history/task-order')).toEqual([
      expect.objectContaining({
        severity: 'error',
        commit: check,
        file: PLAN,
        line: lineOf(repo.show(check, PLAN), 'Task 2:'),
        message: 'Task 2 is checked complete in this commit, but its handoff is not committed with it or before it.',
      }),
    ]);
  }, 60_000);
});
