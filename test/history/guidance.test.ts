// Guidance-by (convention section 5, handoff/blocked-proceed): after a blocked handoff, the next task may go on when
// the record shows the user's guidance: a `resolution:` in the blocked handoff, or a commit trailer `Guidance-by: Name
// <email>` by a human. Real repositories; the full run and the hooks agree. The first test runs the pre-commit door and
// the full run through the CLI's code (cliHere), the rest through the API (door).
import { describe, expect, it } from 'vitest';
import {
  ANA,
  CLAUDE,
  LEDGER,
  Repo,
  cliHere,
  door,
  handoffPath,
  ledgerDoc,
  messageFile,
  taskHandoff,
  taskOneDone,
  type CommitOpts,
} from './helpers.js';

const blocked = () =>
  taskHandoff(2, {
    status: 'blocked',
    blocker: 'The staging database refuses the migration; which schema should win?',
    verification_results: [],
  });

/** Task 1 done, task 2 blocked and waiting for the user. */
function waiting(): Repo {
  const repo = taskOneDone();
  repo.commit('Task 2 blocked', { [handoffPath(2)]: blocked(), [LEDGER]: ledgerDoc([1], 2) }, { author: CLAUDE });
  return repo;
}

const nextTask = { [handoffPath(3)]: taskHandoff(3, { previous: 'task-02-step-2.md' }) };
/** The full run's handoff/blocked-proceed findings, from the engine in this process. */
const blockedProceed = async (dir: string, args: string[] = []) =>
  (await door(dir, args)).results.filter((f) => f.ruleId === 'handoff/blocked-proceed');

describe('Guidance-by', () => {
  it('without guidance, the next task after a blocked one is refused', async () => {
    const repo = waiting();
    // The hook, before and after a full run left a cache judged at HEAD, then the full run on the commit.
    repo.stage(nextTask);
    const staged = async () =>
      (await cliHere(repo.dir, ['--staged'], repo.env(CLAUDE))).results
        .filter((f) => f.ruleId === 'handoff/blocked-proceed')
        .map((f) => f.file);
    expect(await staged()).toEqual([handoffPath(3)]);
    await cliHere(repo.dir);
    expect(await staged()).toEqual([handoffPath(3)]);
    repo.commitStaged('Task 3: Do step 3', { author: CLAUDE });
    expect((await blockedProceed(repo.dir)).map((f) => f.file)).toEqual([handoffPath(3)]);
  });

  it("a human's Guidance-by commit after the blocked handoff lets the next task go on, at every door", async () => {
    const repo = waiting();
    // A cache judged before the guidance: the hooks walk only the commits since for it.
    await door(repo.dir);
    repo.commit(
      'Use the new schema; drop the old table',
      {},
      { author: ANA, trailers: [`Guidance-by: ${ANA.name} <${ANA.email}>`], args: ['--allow-empty'] },
    );
    repo.stage(nextTask);
    const who: CommitOpts = { author: CLAUDE };
    expect(
      (await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results.filter(
        (f) => f.ruleId === 'handoff/blocked-proceed',
      ),
    ).toEqual([]);
    // With a cache judged at HEAD, the hook takes the guidance from it: the same verdict.
    await door(repo.dir);
    expect(
      (await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results.filter(
        (f) => f.ruleId === 'handoff/blocked-proceed',
      ),
    ).toEqual([]);
    expect(
      (await door(repo.dir, ['commit-msg', messageFile('Task 3: Do step 3', who)], repo.env(CLAUDE))).results.filter(
        (f) => f.ruleId === 'handoff/blocked-proceed',
      ),
    ).toEqual([]);
    repo.commitStaged('Task 3: Do step 3', who);
    expect(await blockedProceed(repo.dir)).toEqual([]);
  });

  it('the guidance may come in the commit that goes on, when a human makes it', async () => {
    const repo = waiting();
    repo.stage(nextTask);
    const who: CommitOpts = { author: ANA, trailers: [`Guidance-by: ${ANA.name} <${ANA.email}>`] };
    expect(
      (await door(repo.dir, ['commit-msg', messageFile('Task 3, as Ana decided', who)], repo.env(ANA))).results.filter(
        (f) => f.ruleId === 'handoff/blocked-proceed',
      ),
    ).toEqual([]);
    repo.commitStaged('Task 3, as Ana decided', who);
    expect(await blockedProceed(repo.dir)).toEqual([]);
  });

  it("an agent's Guidance-by, or one naming someone who made no part of the commit, does not count", async () => {
    const repo = waiting();
    repo.commit(
      'I decided myself',
      {},
      { author: CLAUDE, trailers: [`Guidance-by: ${CLAUDE.name} <${CLAUDE.email}>`], args: ['--allow-empty'] },
    );
    repo.commit(
      'Ana said so',
      {},
      { author: CLAUDE, trailers: [`Guidance-by: ${ANA.name} <${ANA.email}>`], args: ['--allow-empty'] },
    );
    repo.commit('Task 3: Do step 3', nextTask, { author: CLAUDE });
    expect((await blockedProceed(repo.dir)).map((f) => f.file)).toEqual([handoffPath(3)]);
  });
});
