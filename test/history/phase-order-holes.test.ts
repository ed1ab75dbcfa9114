// history/phase-order after review of issue 19's round: a start that completes one earlier phase while another
// stays open, a note that must not stand for a later error or for the state at HEAD, and sub-phases that share a
// number (`2A`, `2B`). Each case is a real repository; the plan is a small one of our own.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { ANA, CLAUDE, Repo, cliHere, historyFindings, lineOf, md } from './helpers.js';

const PLAN = 'thoughts/shared/plans/2026-10-14-tide-tables.md';
const RULE = 'history/phase-order';

interface PhaseText {
  label: string;
  title: string;
  automated: string[];
}

const TIDES: PhaseText[] = [
  {
    label: '1',
    title: 'Station list',
    automated: ['Station parser tests pass: `npm test -- stations`', 'Lint is clean: `npm run lint`', 'Schema builds'],
  },
  { label: '2', title: 'Harmonics', automated: ['Harmonic fit tests pass: `npm test -- fit`'] },
  { label: '3', title: 'Chart page', automated: ['Chart snapshots match: `npm test -- chart`'] },
];

const SPLIT: PhaseText[] = [
  { label: '1', title: 'Station list', automated: ['Station parser tests pass: `npm test -- stations`'] },
  { label: '2A', title: 'Harmonic fit', automated: ['Harmonic fit tests pass: `npm test -- fit`'] },
  { label: '2B', title: 'Harmonic cache', automated: ['Cache tests pass: `npm test -- cache`'] },
  { label: '3', title: 'Chart page', automated: ['Chart snapshots match: `npm test -- chart`'] },
];

/** Each phase's state: its task checked or not, which automated items (by index) and its manual item checked. */
interface PhaseState {
  task?: boolean;
  auto?: number[];
  manual?: boolean;
}

/** The plan in the canonical format, one task per phase numbered in order (direct mode: no handoffs needed). */
function render(phases: PhaseText[], state: PhaseState[] = []): string {
  const lines = ['# Tide Tables Implementation Plan', '', '## Overview', '', 'Tide tables for the harbour app.', ''];
  const box = (on: boolean | undefined) => (on ? '[x]' : '[ ]');
  phases.forEach((p, i) => {
    const s = state[i] ?? {};
    lines.push(`## Phase ${p.label}: ${p.title}`, '', `- ${box(s.task)} Task ${i + 1}: Build the ${p.title}`, '');
    lines.push('### Success Criteria:', '', '#### Automated Verification:', '');
    p.automated.forEach((a, k) => lines.push(`- ${box(s.auto?.includes(k))} ${a}`));
    lines.push('', '#### Manual Verification:', '', `- ${box(s.manual)} The ${p.title} reads well on a phone`, '');
  });
  return md(...lines);
}

function planned(phases: PhaseText[]): Repo {
  const repo = Repo.create();
  repo.commit('Plan the tide tables', { [PLAN]: render(phases) }, { author: ANA });
  return repo;
}

const agent = (repo: Repo, subject: string, text: string) => repo.commit(subject, { [PLAN]: text }, { author: CLAUDE });
const summary = (list: Finding[]) => list.map((f) => [f.severity, f.messageId, f.commit ?? null, f.line]);
const order = (list: Finding[]) =>
  list.filter((f) => f.ruleId.endsWith('/phase-order')).map((f) => [f.ruleId, f.severity, f.commit ?? null]);

describe('a commit that completes one earlier phase and starts a later one while another stays open', () => {
  it('is judged: the phase still open after it holds the start, in recommended and strict', async () => {
    const repo = planned(TIDES);
    agent(repo, 'Station list', render(TIDES, [{ task: true }]));
    // Phase 1's checks all pass in this commit, and the chart's check is ticked, while phase 2 was never touched.
    const text = render(TIDES, [{ task: true, auto: [0, 1, 2], manual: true }, {}, { auto: [0] }]);
    const jump = agent(repo, 'Verify the station list, chart snapshots', text);
    const at = lineOf(text, 'Chart snapshots match');
    const recommended = await historyFindings(repo.dir, RULE, 'recommended');
    expect(summary(recommended)).toEqual([['error', 'startedEarly', jump, at]]);
    expect(recommended[0]!.message).toBe(
      'First check-off in Phase 3 (Chart page) comes before Phase 2 (Harmonics) was verified (that needs its automated items checked or N/A).',
    );
    const strict = await historyFindings(repo.dir, RULE, 'strict');
    expect(summary(strict)).toEqual([['error', 'startedEarly', jump, at]]);
    expect(strict[0]!.message).toContain('before Phase 2 (Harmonics) was verified');
  });

  it('is not judged when every earlier phase is verified after it (no order shows)', async () => {
    const repo = planned(TIDES);
    agent(repo, 'Station list', render(TIDES, [{ task: true }]));
    agent(repo, 'Harmonics', render(TIDES, [{ task: true }, { task: true, auto: [0], manual: true }]));
    agent(
      repo,
      'Verify the station list, chart page',
      render(TIDES, [
        { task: true, auto: [0, 1, 2], manual: true },
        { task: true, auto: [0], manual: true },
        {
          task: true,
        },
      ]),
    );
    // Phase 2 went ahead of phase 1 (its error), and the commit that verifies phase 1 and starts phase 3 is none.
    const found = await historyFindings(repo.dir, RULE, 'strict');
    expect(found.map((f) => f.message)).toEqual([expect.stringContaining('Phase 2 (Harmonics) comes before Phase 1')]);
  });
});

describe('a note on boxes left open is not the last word on its phase', () => {
  /** Phase 1 begun (one check of three) when the agent starts phase 2, then the tick is taken back. */
  function undone(): { repo: Repo; start: string } {
    const repo = planned(TIDES);
    agent(repo, 'Station list', render(TIDES, [{ task: true, auto: [0] }]));
    const start = agent(repo, 'Harmonics', render(TIDES, [{ task: true, auto: [0] }, { task: true }]));
    agent(repo, 'The station tests were not run after all', render(TIDES, [{ task: true }, { task: true }]));
    return { repo, start };
  }

  it('a later start while the same phase shows no beginning is the error, not swallowed by the earlier note', async () => {
    const { repo } = undone();
    const text = render(TIDES, [{ task: true }, { task: true, auto: [0] }, { task: true }]);
    const later = agent(repo, 'Chart page', text);
    const run = await cliHere(repo.dir, ['--since', 'root']);
    expect(order(run.results)).toEqual([[RULE, 'error', later]]);
    expect(run.results.find((f) => f.ruleId === RULE)!.message).toContain('before Phase 1 (Station list) was verified');
    expect(run.code).toBe(1);
  });

  it('at HEAD, a beginning since undone: plan/phase-order says the state now, the stale note gives way', async () => {
    const { repo } = undone();
    const run = await cliHere(repo.dir, ['--since', 'root']);
    expect(order(run.results)).toEqual([['plan/phase-order', 'info', null]]);
    // The beginning restored at HEAD: the history's note names the commit again, as the state now agrees with it.
    const start = (await historyFindings(repo.dir, RULE, 'recommended'))[0]!.commit;
    agent(repo, 'Station tests ran', render(TIDES, [{ task: true, auto: [0] }, { task: true }]));
    expect(order((await cliHere(repo.dir, ['--since', 'root'])).results)).toEqual([[RULE, 'info', start]]);
  });
});

describe('sub-phases that share a number (2A, 2B) are phases of their own', () => {
  it('starting 2B while 2A is implemented without a check is the error', async () => {
    const repo = planned(SPLIT);
    agent(repo, 'Station list', render(SPLIT, [{ task: true, auto: [0] }]));
    agent(repo, 'Harmonic fit', render(SPLIT, [{ task: true, auto: [0] }, { task: true }]));
    const text = render(SPLIT, [{ task: true, auto: [0] }, { task: true }, { task: true }]);
    const start = agent(repo, 'Harmonic cache', text);
    const found = await historyFindings(repo.dir, RULE, 'recommended');
    expect(summary(found)).toEqual([['error', 'startedEarly', start, lineOf(text, 'Task 3:')]]);
    expect(found[0]!.message).toBe(
      'First check-off in Phase 2B (Harmonic cache) comes before Phase 2A (Harmonic fit) was verified (that needs its automated items checked or N/A).',
    );
  });

  it('starting phase 3 while 2B is implemented without a check is the error, though 2A is verified', async () => {
    const repo = planned(SPLIT);
    agent(repo, 'Station list', render(SPLIT, [{ task: true, auto: [0] }]));
    agent(
      repo,
      'Harmonic fit',
      render(SPLIT, [
        { task: true, auto: [0] },
        { task: true, auto: [0] },
      ]),
    );
    agent(
      repo,
      'Harmonic cache',
      render(SPLIT, [{ task: true, auto: [0] }, { task: true, auto: [0] }, { task: true }]),
    );
    const text = render(SPLIT, [{ task: true, auto: [0] }, { task: true, auto: [0] }, { task: true }, { task: true }]);
    const start = agent(repo, 'Chart page', text);
    const found = await historyFindings(repo.dir, RULE, 'recommended');
    expect(summary(found)).toEqual([['error', 'startedEarly', start, lineOf(text, 'Task 4:')]]);
    expect(found[0]!.message).toContain('before Phase 2B (Harmonic cache) was verified');
  });
});

describe('a phase verified in an earlier commit and unchecked since: P(verified(n-1)) reads the whole past', () => {
  const STATIONS: PhaseState = { task: true, auto: [0, 1, 2], manual: true };
  const HARMONICS: PhaseState = { task: true, auto: [0], manual: true };

  /** Phase 2 verified, then a worker writing over the plan from an older copy takes its boxes back. */
  function overwritten(phases: PhaseText[] = TIDES): Repo {
    const repo = planned(phases);
    agent(repo, 'Station list', render(phases, [STATIONS]));
    agent(repo, 'Harmonics', render(phases, [STATIONS, HARMONICS]));
    agent(repo, 'Station notes, from an older copy of the plan', render(phases, [STATIONS]));
    return repo;
  }

  /**
   * The chart page's first check-off on `phases`, after `states` and an open phase: the start is the one finding,
   * an error (returned for what its message says).
   */
  async function startJudged(repo: Repo, phases: PhaseText[], states: PhaseState[]): Promise<Finding> {
    const text = render(phases, [...states, {}, { task: true, auto: [0] }]);
    const start = agent(repo, 'Chart page', text);
    const found = await historyFindings(repo.dir, RULE, 'recommended');
    expect(summary(found)).toEqual([['error', 'startedEarly', start, lineOf(text, 'Chart snapshots match')]]);
    return found[0]!;
  }

  it('starting phase 3 after it is in order, in recommended and strict', async () => {
    const repo = overwritten();
    agent(repo, 'Chart page', render(TIDES, [STATIONS, {}, { task: true, auto: [0] }]));
    expect(await historyFindings(repo.dir, RULE, 'recommended')).toEqual([]);
    expect(await historyFindings(repo.dir, RULE, 'strict')).toEqual([]);
  });

  it('a plan deleted and written again at its path is another plan: its verification before is not this one', async () => {
    const repo = planned(TIDES);
    agent(repo, 'Station list', render(TIDES, [STATIONS]));
    agent(repo, 'Harmonics', render(TIDES, [STATIONS, HARMONICS]));
    repo.commit('Drop the tide plan', {}, { author: ANA, remove: [PLAN] });
    repo.commit('Plan the tide tables again', { [PLAN]: render(TIDES, [STATIONS]) }, { author: ANA });
    await startJudged(repo, TIDES, [STATIONS]);
  });

  it('starting phase 3 is the error when phase 2 was implemented but never verified before', async () => {
    const repo = planned(TIDES);
    agent(repo, 'Station list', render(TIDES, [STATIONS]));
    agent(repo, 'Harmonics', render(TIDES, [STATIONS, { task: true }]));
    agent(repo, 'Station notes, from an older copy of the plan', render(TIDES, [STATIONS]));
    const found = await startJudged(repo, TIDES, [STATIONS]);
    expect(found.message).toContain('before Phase 2 (Harmonics) was verified');
  });

  it('a check added to phase 2 since its verification was never checked: the start is judged', async () => {
    const repo = overwritten();
    const more = TIDES.map((p) => (p.label === '2' ? { ...p, automated: [...p.automated, 'Fit is stable'] } : p));
    agent(repo, 'Harmonics needs a stability check', render(more, [STATIONS]));
    const found = await startJudged(repo, more, [STATIONS]);
    expect(found.message).toContain('before Phase 2 (Harmonics) was verified');
  });

  it('another phase under the number of the one verified is not that phase: the start is judged', async () => {
    const repo = overwritten();
    // The plan rewritten: phase 2 is now other work, whose check reads as the old one's did.
    const datum = TIDES.map((p) => (p.label === '2' ? { ...p, title: 'Tide datum' } : p));
    repo.commit('Replan phase 2', { [PLAN]: render(datum, [STATIONS]) }, { author: ANA });
    const found = await startJudged(repo, datum, [STATIONS]);
    expect(found.message).toContain('before Phase 2 (Tide datum) was verified');
  });

  it('a phase verified under another number, renumbered since, is not known as the same: the start is judged', async () => {
    const repo = overwritten();
    // A phase inserted before Harmonics, which becomes phase 3; the rewrite verifies the new phase 2 at once.
    const inserted: PhaseText[] = [
      TIDES[0]!,
      { label: '2', title: 'Tide datum', automated: ['Datum tests pass: `npm test -- datum`'] },
      { ...TIDES[1]!, label: '3' },
      { ...TIDES[2]!, label: '4' },
    ];
    repo.commit('Replan: a tide datum first', { [PLAN]: render(inserted, [STATIONS, HARMONICS]) }, { author: ANA });
    const found = await startJudged(repo, inserted, [STATIONS, HARMONICS]);
    expect(found.message).toContain('before Phase 3 (Harmonics) was verified');
  });
});
