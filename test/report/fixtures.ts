// One real repository whose working tree and history break rules of every family, judged by the engine in-process
// exactly as the CLI judges it: the findings every report format is tested on. Not a test file itself.
import { join } from 'node:path';
import { defaultConfig } from '../../src/config/config.js';
import type { Finding } from '../../src/model/finding.js';
import { lintRepository } from '../../src/engine/lint.js';
import {
  ANA,
  CLAUDE,
  LEDGER,
  PLAN,
  Repo,
  handoffPath,
  judge,
  ledgerDoc,
  planDoc,
  taskHandoff,
  tempDir,
} from '../history/helpers.js';
import { ledger } from '../rules/fixtures.js';
import { CREATE_PLAN_COMMAND } from '../rules/fixtures.js';

export const OTHER_PLAN = 'thoughts/shared/plans/2026-12-01-billing.md';
export const OTHER_LEDGER = 'thoughts/ledgers/CONTINUITY_CLAUDE-billing-1.md';
/** A handoff outside a session folder, with URI-unsafe characters in its name. */
export const STRAY = 'thoughts/handoffs/stray notes #1 100%.md';
export const BAD_NAME = handoffPath(3, 'Bad_Name');

export interface Violations {
  repo: Repo;
  /** Claude checks phase 1's manual item itself: history/manual-confirmation. */
  manualCommit: string;
  /** Claude deletes task 1's handoff: history/handoff-deleted (and handoff/missing, handoff/chain in the snapshot). */
  deleteCommit: string;
  findings: Finding[];
}

export async function violations(): Promise<Violations> {
  const repo = Repo.create();
  const task = (n: number, done: number[], plan: Parameters<typeof planDoc>[0] = {}) =>
    repo.commit(
      `Task ${n}: Do step ${n}`,
      { [PLAN]: planDoc({ tasks: done, ...plan }), [handoffPath(n)]: taskHandoff(n), [LEDGER]: ledgerDoc(done) },
      { author: CLAUDE },
    );
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
  task(1, [1]);
  task(2, [1, 2], { auto: [1] });
  const manualCommit = repo.commit(
    'Phase 1 verified',
    { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
    { author: CLAUDE },
  );
  const deleteCommit = repo.commit('Tidy up old handoffs', {}, { author: CLAUDE, remove: [handoffPath(1)] });
  repo.commit(
    'Start billing',
    {
      [STRAY]: taskHandoff(3), // layout/paths
      [BAD_NAME]: taskHandoff(3), // handoff/path
      [LEDGER]: ledgerDoc([1]), // ledger/sync: the plan has tasks 1 and 2 checked
      // plan/phase-manual-criteria (the repository's create_plan asks for manual criteria; this plan has none), disable/directive
      ...CREATE_PLAN_COMMAND,
      [OTHER_PLAN]: planDoc({ noManual: [1, 2], tail: '<!-- validate-workflow-disable plan/phase-order -->' }),
      [OTHER_LEDGER]: ledger({
        session: 'billing-1',
        plan: null,
        status: 'active',
        state: [
          '- [x] Task 1: Do step 1',
          '- [x] Task 2: Do step 2',
          '- [x] Task 3: Do step 3',
          '- [x] Task 4: Do step 4',
        ],
      }), // ledger/state info
    },
    { author: ANA },
  );
  const snapshot = lintRepository(repo.dir, defaultConfig(), true).findings;
  const history = (await judge(repo.dir)).findings;
  return { repo, manualCommit, deleteCommit, findings: [...snapshot, ...history] };
}

/** The finding about the repository as a whole: history judged in a shallow clone of `repo`. */
export async function shallowFindings(repo: Repo): Promise<Finding[]> {
  const dir = join(tempDir(), 'shallow');
  repo.git('clone', '-q', '--depth', '1', `file://${repo.dir}`, dir);
  return (await judge(dir)).findings;
}

export const family = (ruleId: string) => ruleId.split('/')[0]!;
