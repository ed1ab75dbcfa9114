// The adoption point (convention section 6): history rules judge the commit that adopts the convention and every
// later one; earlier commits are folded (so later ones have the right "before") but not judged. `--since` overrides
// it, `--since root` judges all, and a repository without any config is an audit where what enters git already
// progressed is a note. Real repositories, the CLI in this process.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../helpers/repo.js';
import {
  ANA,
  CLAUDE,
  CONFIG,
  LEDGER,
  PLAN,
  Repo,
  cliHere,
  door,
  errors,
  handoffPath,
  historyOnly,
  ledgerDoc,
  planDoc,
  taskHandoff,
} from './helpers.js';

const CONFIG_TEXT = `${JSON.stringify({ preset: 'recommended' }, null, 2)}\n`;

/** A project whose agent checked manual items without confirmation, twice: once before and once after adoption. */
function midwayAdoption(): { repo: Repo; before: string; adopt: string; after: string } {
  const repo = Repo.create();
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: planDoc({ tasks: [1], auto: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    { author: CLAUDE },
  );
  const before = repo.commit(
    'Phase 1 verified',
    { [PLAN]: planDoc({ tasks: [1], auto: [1], manual: [1] }) },
    { author: CLAUDE },
  );
  const adopt = repo.commit('Adopt validate-workflow', { [CONFIG]: CONFIG_TEXT }, { author: ANA });
  repo.commit(
    'Task 2: Do step 2',
    {
      [PLAN]: planDoc({ tasks: [1, 2], auto: [1, 2], manual: [1] }),
      [handoffPath(2)]: taskHandoff(2),
      [LEDGER]: ledgerDoc([1, 2]),
    },
    { author: CLAUDE },
  );
  const after = repo.commit(
    'Phase 2 verified',
    { [PLAN]: planDoc({ tasks: [1, 2], auto: [1, 2], manual: [1, 2] }) },
    { author: CLAUDE },
  );
  return { repo, before, adopt, after };
}

describe('the adoption point', () => {
  it('judges only the commits from the one that adds the config: the earlier check-off is folded, the later one is an error', async () => {
    const { repo, before, after } = midwayAdoption();
    const run = await cliHere(repo.dir);
    const manual = historyOnly(run.results).filter((f) => f.ruleId === 'history/manual-confirmation');
    expect(manual.map((f) => f.commit)).toEqual([after]);
    expect(manual.some((f) => f.commit === before)).toBe(false);
    expect(run.code).toBe(1);
    // Three commits judged: the adoption commit and the two after it.
    expect(run.summary.commits).toBe(3);
  });

  it('says in the summary line which commits were judged and from where', async () => {
    const { repo, adopt } = midwayAdoption();
    const res = await runStylish(repo.dir);
    expect(res).toContain(
      `history: judged since ${adopt.slice(0, 7)}, the adoption point (the first human commit that added ${CONFIG})`,
    );
  });

  it('a config committed after a run with it only in the working tree (init, run, commit) becomes the adoption point', async () => {
    const repo = Repo.create();
    repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Phase 1 verified', { [PLAN]: planDoc({ auto: [1], manual: [1] }) }, { author: CLAUDE });
    repo.write({ [CONFIG]: CONFIG_TEXT });
    expect(await runStylish(repo.dir)).toContain('history: an audit of every commit');
    const adopt = repo.commit('Adopt validate-workflow', {}, { author: ANA });
    expect(await runStylish(repo.dir)).toContain(`history: judged since ${adopt.slice(0, 7)}, the adoption point`);
  });

  it('the review still names the commit that completed a task before the adoption point (the timeline is not judgement)', async () => {
    const { repo } = midwayAdoption();
    const task1 = repo.git('log', '--format=%H', '--grep=^Task 1: Do step 1').trim();
    const report = (await runCliHere(repo.dir, ['--format', 'markdown'])).stdout;
    const row = report.split('\n').find((l) => l.includes('| Task 1: Do step 1 |'));
    expect(row).toContain(`✅ done | \`${task1.slice(0, 7)}\``);
  });

  it('--since root judges every commit: the early check-off is an error too', async () => {
    const { repo, before, after } = midwayAdoption();
    const manual = errors((await door(repo.dir, ['--since', 'root'])).results).filter(
      (f) => f.ruleId === 'history/manual-confirmation',
    );
    expect([...new Set(manual.map((f) => f.commit))].sort()).toEqual([before, after].sort());
  });

  it('--since <rev> and history.since move the adoption point', async () => {
    const { repo, after } = midwayAdoption();
    const last = errors((await door(repo.dir, ['--since', after])).results).filter(
      (f) => f.ruleId === 'history/manual-confirmation',
    );
    expect(last.map((f) => f.commit)).toEqual([after]);
    repo.commit(
      'Judge from the last commit',
      { [CONFIG]: `${JSON.stringify({ preset: 'recommended', history: { since: 'HEAD' } }, null, 2)}\n` },
      { author: ANA },
    );
    expect(errors((await door(repo.dir)).results).filter((f) => f.ruleId === 'history/manual-confirmation')).toEqual(
      [],
    );
  });

  it('with both a config file and a validateWorkflow key in package.json, the older of the two adopts', async () => {
    const PKG = `${JSON.stringify({ name: 'app', validateWorkflow: { preset: 'recommended' } }, null, 2)}\n`;
    const orders: [Record<string, string>, Record<string, string>][] = [
      [{ 'package.json': PKG }, { [CONFIG]: CONFIG_TEXT }],
      [{ [CONFIG]: CONFIG_TEXT }, { 'package.json': PKG }],
    ];
    for (const [first, second] of orders) {
      const repo = Repo.create();
      const adopt = repo.commit('Adopt validate-workflow', first, { author: ANA });
      repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
      const check = repo.commit(
        'Phase 1 verified',
        { [PLAN]: planDoc({ auto: [1], manual: [1] }) },
        { author: CLAUDE },
      );
      repo.commit('Adopt it again', second, { author: ANA });
      const run = await door(repo.dir);
      expect(run.summary.commits, JSON.stringify(first)).toBe(4);
      const manual = errors(run.results).filter((f) => f.ruleId === 'history/manual-confirmation');
      expect(manual.map((f) => f.commit)).toEqual([check]);
      expect(adopt).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('an unknown --since is a usage error (exit 2) that names it', async () => {
    // In this process: the exit code of a usage error through the built CLI is cli.test.ts's and gate-round3's.
    const { repo } = midwayAdoption();
    const res = await runCliHere(repo.dir, ['--since', 'no-such-commit']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no-such-commit');
  });

  it('a config only an agent added is no adoption: the history is audited, and that commit judged as loosening', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
    const config = repo.commit('Config', { [CONFIG]: CONFIG_TEXT }, { author: CLAUDE });
    const check = repo.commit('Phase 1 verified', { [PLAN]: planDoc({ auto: [1], manual: [1] }) }, { author: CLAUDE });
    const run = await door(repo.dir);
    expect(
      errors(run.results)
        .filter((f) => f.ruleId === 'history/self-exemption')
        .map((f) => f.commit),
    ).toEqual([config]);
    expect(
      errors(run.results)
        .filter((f) => f.ruleId === 'history/manual-confirmation')
        .map((f) => f.commit),
    ).toEqual([check]);
    expect(await runStylish(repo.dir)).toContain('history: an audit of every commit');
  });

  it('after adoption, a plan added with manual items already checked is an unconfirmed check-off (an error)', async () => {
    const repo = Repo.create();
    repo.commit('Adopt', { [CONFIG]: CONFIG_TEXT }, { author: ANA });
    const add = repo.commit(
      'Add the plan, already verified',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: CLAUDE },
    );
    const manual = errors((await door(repo.dir)).results).filter((f) => f.ruleId === 'history/manual-confirmation');
    expect(manual.map((f) => f.commit)).toEqual([add]);
  });
});

describe('an audit (no config anywhere)', () => {
  it('a plan that enters git already progressed is a note, not an error; a later check-off is still an error', async () => {
    const repo = Repo.create();
    // A squashed pull request (`(#12)`): the commits that checked the boxes are not in this history (round 3: an
    // agent's co-authorship alone would make it an unconfirmed check-off even in an audit).
    const add = repo.commit(
      'Add the plan after the work (#12)',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }), [LEDGER]: ledgerDoc([1, 2]) },
      { author: ANA, coAuthors: [CLAUDE] },
    );
    const later = repo.commit(
      'Phase 2 verified',
      { [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1, 2] }), [LEDGER]: ledgerDoc([1, 2, 3, 4]) },
      { author: CLAUDE },
    );
    const run = await door(repo.dir);
    const atAdd = historyOnly(run.results).filter((f) => f.commit === add);
    expect(atAdd.length).toBeGreaterThan(0);
    expect(atAdd.every((f) => f.severity === 'info')).toBe(true);
    expect(
      errors(run.results)
        .filter((f) => f.ruleId === 'history/manual-confirmation')
        .map((f) => f.commit),
    ).toEqual([later]);
    expect(await runStylish(repo.dir)).toContain('history: an audit of every commit');
  });
});

describe('the cache follows settings, not spelling', () => {
  it('--preset on a warm cache gives what a cold run with that preset gives, and no flag equals --preset recommended', async () => {
    // In this process: what is asked is which cache on disk a run takes for which settings (history/cache.ts keys
    // it); a warm run as another process is cache.test.ts's.
    const { repo } = midwayAdoption();
    const cold = async (args: string[]) => {
      rmSync(join(repo.dir, '.git', 'validate-workflow'), { recursive: true, force: true });
      return (await cliHere(repo.dir, args)).results;
    };
    const coldStrict = await cold(['--preset', 'strict']);
    const coldDefault = await cold([]);
    // Warm from here on: the cache was written by the default run.
    expect((await cliHere(repo.dir, ['--preset', 'strict'])).results).toEqual(coldStrict);
    expect((await cliHere(repo.dir, ['--preset', 'recommended'])).results).toEqual(coldDefault);
    expect((await cliHere(repo.dir)).results).toEqual(coldDefault);
  });
});

/** The stylish report of the CLI run in this process (its summary line). */
async function runStylish(dir: string): Promise<string> {
  return (await runCliHere(dir, [])).stdout;
}
