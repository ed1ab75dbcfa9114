// The baseline: today's findings counted per file and rule; later runs report only what is new, and an entry that
// counts more than remains is reported (baseline/stale) so the baseline can only shrink. Through lintRepository
// (the snapshot pass applies it) and through the CLI's run() in this process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, writeBaseline, BASELINE_FILE } from '../../src/engine/baseline.js';
import { lintRepository } from '../../src/engine/lint.js';
import { ConfigError, defaultConfig, type Config } from '../../src/config/config.js';
import type { Finding } from '../../src/model/finding.js';
import { makeRepo, runCliHere, writeFiles } from '../helpers/repo.js';
import { md } from '../rules/fixtures.js';
import {
  ANA,
  CLAUDE,
  CONFIG,
  PLAN,
  Repo,
  cliHere,
  door,
  messageFile,
  planDoc,
  type CliJson,
} from '../history/helpers.js';

const A = 'thoughts/shared/plans/2026-11-20-a.md';
const B = 'thoughts/shared/plans/2026-11-20-b.md';

/**
 * A plan with `missing` disable comments that give no reason (`disable/directive`, a warning, one finding per
 * comment). (Issue 10 made `disable/directive`, which these tests used to count, one finding per plan.)
 */
function planWithout(missing: number, phases = 2): string {
  const lines = ['# Plan', ''];
  for (let n = 1; n <= phases; n++) {
    lines.push(
      `## Phase ${n}: Part ${n}`,
      '',
      `- [ ] Task ${n}: Step ${n}`,
      '',
      '#### Automated Verification:',
      '',
      '- [ ] Tests pass',
      '',
    );
    lines.push('#### Manual Verification:', '', '- [ ] Works in the browser', '');
    if (n <= missing) lines.push('<!-- validate-workflow-disable plan/mode -->', '');
  }
  return md(...lines);
}

const config = (over: Partial<Config> = {}): Config => ({ ...defaultConfig(), ...over });
const raw = (dir: string, over: Partial<Config> = {}) =>
  lintRepository(dir, config(over), true, { baseline: false }).findings;
const judged = (dir: string, over: Partial<Config> = {}) => lintRepository(dir, config(over), true).findings;
const problems = (list: Finding[]) => list.filter((f) => f.severity !== 'info');

const finding = (file: string | null, ruleId: string, severity: Finding['severity'] = 'error', line = 1): Finding => ({
  ruleId,
  severity,
  file,
  line,
  column: 1,
  message: 'm',
});

describe('writeBaseline', () => {
  it('counts problems per file and rule with sorted keys, byte-identical whatever the order of the findings', () => {
    const list = [
      finding(B, 'plan/phase-order', 'error', 3),
      finding(A, 'disable/directive', 'warning', 9),
      finding(A, 'disable/directive', 'warning', 4),
      finding(A, 'history/manual-confirmation', 'error', 2),
      // Neither a note nor a finding about the repository as a whole is baselined.
      finding(A, 'handoff/missing', 'info'),
      finding(null, 'history/incomplete'),
    ];
    const one = makeRepo({});
    const two = makeRepo({});
    expect(writeBaseline(one, list)).toEqual({ entries: 3 });
    expect(writeBaseline(two, [...list].reverse())).toEqual({ entries: 3 });
    const text = readFileSync(join(one, BASELINE_FILE), 'utf8');
    expect(readFileSync(join(two, BASELINE_FILE), 'utf8')).toBe(text);
    expect(text).toBe(
      md(
        '{',
        `  "${A}": {`,
        '    "disable/directive": {',
        '      "count": 2',
        '    },',
        '    "history/manual-confirmation": {',
        '      "count": 1',
        '    }',
        '  },',
        `  "${B}": {`,
        '    "plan/phase-order": {',
        '      "count": 1',
        '    }',
        '  }',
        '}',
      ),
    );
  });
});

describe('applyBaseline through lintRepository', () => {
  it('reports only what is new after --baseline-write', () => {
    const dir = makeRepo({ [A]: planWithout(2) });
    expect(problems(raw(dir)).map((f) => f.ruleId)).toEqual(['disable/directive', 'disable/directive']);
    writeBaseline(dir, raw(dir));
    expect(problems(judged(dir))).toEqual([]);
    // A new file with the same problem is new: reported.
    writeFiles(dir, { [B]: planWithout(1) });
    expect(problems(judged(dir)).map((f) => [f.file, f.ruleId])).toEqual([[B, 'disable/directive']]);
  });

  it('reports every finding of a file and rule that grew beyond its count, saying how many the baseline allows', () => {
    const dir = makeRepo({ [A]: planWithout(1, 3) });
    writeBaseline(dir, raw(dir));
    writeFiles(dir, { [A]: planWithout(2, 3) });
    const got = problems(judged(dir));
    expect(got).toHaveLength(2);
    for (const f of got)
      expect(f.message).toContain(
        `(${BASELINE_FILE} allows 1 disable/directive finding in this file; there are 2 now)`,
      );
  });

  it('reports a stale entry when fewer findings remain, at the severity the config gives baseline/stale', () => {
    const dir = makeRepo({ [A]: planWithout(2) });
    writeBaseline(dir, raw(dir));
    writeFiles(dir, { [A]: planWithout(1) });
    expect(problems(judged(dir))).toEqual([
      {
        ruleId: 'baseline/stale',
        messageId: 'stale',
        severity: 'warning',
        file: A,
        line: null,
        column: null,
        message: expect.stringContaining(
          `${BASELINE_FILE} allows 2 disable/directive findings in this file but 1 remains`,
        ),
        fix: expect.stringContaining('--baseline-write'),
      },
    ]);
    expect(problems(judged(dir, { rules: { 'baseline/stale': 'error' } })).map((f) => f.severity)).toEqual(['error']);
    expect(problems(judged(dir, { rules: { 'baseline/stale': 'off' } }))).toEqual([]);
    // Writing the baseline again shrinks the entry, and the run is clean.
    writeBaseline(dir, raw(dir));
    expect(JSON.parse(readFileSync(join(dir, BASELINE_FILE), 'utf8'))).toEqual({
      [A]: { 'disable/directive': { count: 1 } },
    });
    expect(problems(judged(dir))).toEqual([]);
  });

  it('an entry whose findings are all gone is stale; history entries are left to the history pass', () => {
    const dir = makeRepo({ [A]: planWithout(0) });
    writeFileSync(
      join(dir, BASELINE_FILE),
      JSON.stringify({ [A]: { 'disable/directive': { count: 1 }, 'history/manual-confirmation': { count: 2 } } }),
    );
    expect(problems(judged(dir)).map((f) => [f.ruleId, f.message.includes('none remains')])).toEqual([
      ['baseline/stale', true],
    ]);
    // The history pass (the lead's check.ts) judges the history entry with the history findings.
    const history = [
      finding(A, 'history/manual-confirmation', 'error', 5),
      finding(A, 'history/manual-confirmation', 'error', 7),
    ];
    expect(applyBaseline(dir, history, { scope: (id) => id.startsWith('history/') })).toEqual([]);
    expect(
      applyBaseline(dir, history.slice(1), { scope: (id) => id.startsWith('history/') }).map((f) => f.ruleId),
    ).toEqual(['baseline/stale']);
  });

  it('without a baseline file the findings come back unchanged; a malformed one is a usage error naming it', () => {
    const dir = makeRepo({ [A]: planWithout(1) });
    const list = raw(dir);
    expect(applyBaseline(dir, list)).toBe(list);
    writeFileSync(join(dir, BASELINE_FILE), '{"findings": []}');
    expect(() => judged(dir)).toThrow(ConfigError);
    expect(() => judged(dir)).toThrow(/validate-workflow\.baseline\.json: "findings" is not an object of rule ids/);
    writeFileSync(join(dir, BASELINE_FILE), '{');
    expect(() => judged(dir)).toThrow(/validate-workflow\.baseline\.json: not valid JSON/);
  });
});

describe('the CLI applies the baseline to the snapshot findings', () => {
  // A warning alone exits 0.
  it('suppresses the recorded findings and reports the stale entry', async () => {
    const dir = makeRepo({ [A]: planWithout(2) });
    writeBaseline(dir, raw(dir));
    const clean = await runCliHere(dir, ['--no-history', '--format', 'json']);
    expect(JSON.parse(clean.stdout).results).toEqual([]);
    writeFiles(dir, { [A]: planWithout(1) });
    const stale = await runCliHere(dir, ['--no-history', '--format', 'json']);
    expect(stale.code).toBe(0);
    expect(JSON.parse(stale.stdout).results.map((f: Finding) => [f.ruleId, f.file])).toEqual([['baseline/stale', A]]);
  });
});

describe('the baseline at the doors that judge a change (issue 12: false refusals on a clean branch)', () => {
  // A baselined plan with two recorded findings, committed with its baseline; then a branch that touches it.
  function setup() {
    const repo = Repo.create();
    repo.write({ [A]: planWithout(2) });
    writeBaseline(repo.dir, raw(repo.dir));
    repo.commit('Adopt validate-workflow with a baseline', { [CONFIG]: '{}\n' });
    repo.git('checkout', '-q', '-b', 'touch');
    return repo;
  }
  const touched = planWithout(2).replace('# Plan', '# Plan\n\nA sentence added by a human.');
  const problemsOf = (run: CliJson) => run.results.filter((f) => f.severity !== 'info').map((f) => [f.ruleId, f.file]);
  /** Each door through the CLI's code (the family's first case), or through the API (`door`); both in this process. */
  const at = async (repo: Repo, args: string[], real = false) =>
    problemsOf(real ? await cliHere(repo.dir, args) : await door(repo.dir, args));

  it('a baselined plan merely touched gives nothing at pre-commit, commit-msg, pre-push and the full run', async () => {
    const repo = setup();
    repo.stage({ [A]: touched });
    expect(await at(repo, ['--staged'], true)).toEqual([]);
    expect(await at(repo, ['commit-msg', messageFile('Touch the plan')], true)).toEqual([]);
    repo.commitStaged('Touch the plan');
    expect(await at(repo, ['--range', 'main..touch'], true)).toEqual([]);
    expect(await at(repo, [], true)).toEqual([]);
  });

  it('fixing a baselined finding makes its entry stale at every door, a warning', async () => {
    const repo = setup();
    repo.stage({ [A]: planWithout(1) });
    const staged = await door(repo.dir, ['--staged']);
    expect(staged.code).toBe(0);
    expect(staged.results.map((f) => [f.ruleId, f.severity])).toEqual([['baseline/stale', 'warning']]);
    repo.commitStaged('Give the disable its reason');
    expect(await at(repo, ['--range', 'main..touch'])).toEqual([['baseline/stale', A]]);
    expect(await at(repo, [])).toEqual([['baseline/stale', A]]);
  });

  it('a third finding beyond the entry is refused at the hooks like in the full run', async () => {
    const repo = setup();
    repo.stage({ [A]: planWithout(3, 3) });
    const staged = await door(repo.dir, ['--staged']);
    expect(staged.results.filter((f) => f.ruleId === 'disable/directive').length).toBeGreaterThan(0);
    expect(staged.results.some((f) => /allows 2/.test(f.message))).toBe(true);
  });
});

describe('--baseline-write converges (issue 24)', () => {
  it('records a history finding hidden behind a snapshot finding of the same cause in the first write', async () => {
    // Task 1 checked without its handoff: handoff/missing (the snapshot) hides history/task-order (the commit).
    const repo = Repo.create();
    const fm = { frontmatter: ['mode: orchestration'] };
    repo.commit('Plan', { [PLAN]: planDoc(fm) }, { author: ANA });
    repo.commit('Task 1', { [PLAN]: planDoc({ ...fm, tasks: [1] }) }, { author: CLAUDE });
    expect((await door(repo.dir)).results.map((f) => f.ruleId)).toEqual(['handoff/missing']);
    const first = await runCliHere(repo.dir, ['--baseline-write']);
    expect(first.stdout).toBe(
      `validate-workflow: wrote ${BASELINE_FILE} with 2 entries (2 findings); later runs report only what is new.\n`,
    );
    const written = readFileSync(join(repo.dir, BASELINE_FILE), 'utf8');
    expect(Object.keys(JSON.parse(written)[PLAN])).toEqual(['handoff/missing', 'history/task-order']);
    expect((await door(repo.dir)).results).toEqual([]);
    // A second write records nothing new.
    await runCliHere(repo.dir, ['--baseline-write']);
    expect(readFileSync(join(repo.dir, BASELINE_FILE), 'utf8')).toBe(written);
  });
});
