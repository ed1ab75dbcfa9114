// Identity of plan items between two versions (src/history/events.ts, convention section 6): items are known by
// kind and text (task scope for steps) across phases, then by position among what is left, so renumbering or
// inserting a phase moves items without deleting them, and an edited item is a check event only when its box state
// differs from the item it replaced. In memory: the events the judge hands the history rules.
import { describe, expect, it } from 'vitest';
import { judgeTransitionCase } from '../../../src/engine/rule-tester.js';
import { fileEvents } from '../../../src/history/events.js';
import type { Event } from '../../../src/model/history.js';
import type { CheckItem, Phase, Plan } from '../../../src/model/types.js';
import { ruleOf } from '../../helpers/rule-tester.js';
import { PLAN, md } from '../fixtures.js';

const RULE = ruleOf('history/self-exemption');

function eventsOf(before: string | null, after: string): Event[] {
  return [
    ...judgeTransitionCase(RULE, { before: before === null ? {} : { [PLAN]: before }, after: { [PLAN]: after } })
      .events,
  ];
}

const kinds = (events: Event[]) => events.map((e) => e.type);

/** A phase of the search-index plan: its tasks, the same automated check as every phase, and its manual items. */
function phase(
  n: number,
  title: string,
  tasks: [number, string, boolean][],
  manual: [string, boolean][],
  autoDone = false,
): string[] {
  const box = (on: boolean) => (on ? '[x]' : '[ ]');
  return [
    `## Phase ${n}: ${title}`,
    ...tasks.map(([t, text, done]) => `- ${box(done)} Task ${t}: ${text}`),
    '### Success Criteria:',
    '#### Automated Verification:',
    `- ${box(autoDone)} Tests pass: \`npm test\``,
    '#### Manual Verification:',
    ...manual.map(([text, done]) => `- ${box(done)} ${text}`),
  ];
}

const INDEX = phase(
  1,
  'Index',
  [[1, 'Build the inverted index', true]],
  [['Search returns the seeded documents', true]],
  true,
);
const RANKING = (n: number, first: number) =>
  phase(
    n,
    'Ranking',
    [[first, 'Score by BM25', false]],
    [
      ['Top result for "refund" is the refund policy', false],
      ['Ranking feels right on ten sample queries', false],
    ],
  );
const TYPOS = phase(
  2,
  'Typo tolerance',
  [[2, 'Add edit-distance matching', false]],
  [['N/A: covered by the automated fuzz corpus', false]],
);

describe('items keep their identity', () => {
  it('when a phase is inserted before phase 2: nothing removed, nothing made N/A, no check event', () => {
    const before = md('# Search Implementation Plan', ...INDEX, ...RANKING(2, 2));
    const after = md('# Search Implementation Plan', ...INDEX, ...TYPOS, ...RANKING(3, 3));
    // The new phase's N/A item is how a phase says it has nothing for a human to check: not an added N/A.
    expect(kinds(eventsOf(before, after))).toEqual([]);
  });

  it('when phases are renumbered and the same automated text repeats in every phase', () => {
    const before = md(
      '# Search Implementation Plan',
      ...INDEX,
      ...phase(2, 'Ranking', [[2, 'Score by BM25', true]], [['Ranking feels right', false]], true),
    );
    // Phase 2 done (its automated item checked), then a phase inserted before it: the checked "Tests pass" of the
    // old phase 2 is the one in phase 3 now, not the new phase 2's.
    const after = md(
      '# Search Implementation Plan',
      ...INDEX,
      ...TYPOS,
      ...phase(3, 'Ranking', [[3, 'Score by BM25', true]], [['Ranking feels right', false]], true),
    );
    expect(kinds(eventsOf(before, after))).toEqual([]);
  });

  it('when an item moves to another phase', () => {
    const before = md(
      '# P',
      ...phase(
        1,
        'A',
        [[1, 'a', false]],
        [
          ['Logs are clean', false],
          ['Looks right', false],
        ],
      ),
      ...phase(2, 'B', [[2, 'b', false]], [['Feels fast', false]]),
    );
    const after = md(
      '# P',
      ...phase(1, 'A', [[1, 'a', false]], [['Looks right', false]]),
      ...phase(
        2,
        'B',
        [[2, 'b', false]],
        [
          ['Feels fast', false],
          ['Logs are clean', false],
        ],
      ),
    );
    expect(kinds(eventsOf(before, after))).toEqual([]);
  });

  it('an item added in a phase that already existed with N/A text is still an added N/A item', () => {
    const before = md('# P', ...RANKING(1, 1));
    const after = md('# P', ...RANKING(1, 1), '- [ ] N/A: relevance review');
    expect(eventsOf(before, after)).toEqual([
      expect.objectContaining({ type: 'item-added-na', text: 'N/A: relevance review', phase: 1 }),
    ]);
  });

  // Round 3 (issue 20, case 2): rewording a checked manual item is a new check of the new words; this test said
  // "an edit, not a check" before. An unchecked item reworded, or a checked automated one, is still only an edit.
  it('a reworded checked manual item is a new check; other rewordings are edits; reordering unchanged items is nothing', () => {
    const before = md(
      '# P',
      ...phase(
        1,
        'A',
        [[1, 'a', true]],
        [
          ['Looks right', true],
          ['Feels fast', false],
        ],
        true,
      ),
    );
    expect(eventsOf(before, before.replace('Looks right', 'Looks right in Firefox and Chrome'))).toEqual([
      expect.objectContaining({
        type: 'item-checked',
        kind: 'manual',
        text: 'Looks right in Firefox and Chrome',
        checked: true,
      }),
    ]);
    expect(kinds(eventsOf(before, before.replace('Feels fast', 'Feels fast on 3G')))).toEqual([]);
    expect(
      kinds(
        eventsOf(before, before.replace('- [x] Looks right\n- [ ] Feels fast', '- [ ] Feels fast\n- [x] Looks right')),
      ),
    ).toEqual([]);
  });

  it('a reworded item that swapped places with a checked one is a check (and the other an uncheck)', () => {
    const before = md(
      '# P',
      ...phase(
        1,
        'A',
        [[1, 'a', true]],
        [
          ['Looks right', true],
          ['Feels fast', false],
        ],
        true,
      ),
    );
    const after = before.replace(
      '- [x] Looks right\n- [ ] Feels fast',
      '- [ ] Looks right on a phone\n- [x] Feels fast on 3G',
    );
    expect(eventsOf(before, after)).toEqual([
      expect.objectContaining({ type: 'item-checked', text: 'Looks right on a phone', checked: false }),
      expect.objectContaining({ type: 'item-checked', text: 'Feels fast on 3G', checked: true, kind: 'manual' }),
    ]);
  });

  it('tasks renumbered by an inserted phase keep their state: no task event', () => {
    const before = md(
      '# P',
      ...INDEX,
      ...phase(2, 'Ranking', [[2, 'Score by BM25', true]], [['Feels right', false]], true),
    );
    const after = md(
      '# P',
      ...INDEX,
      ...TYPOS,
      ...phase(3, 'Ranking', [[3, 'Score by BM25', true]], [['Feels right', false]], true),
    );
    expect(eventsOf(before, after).filter((e) => e.type === 'task-completed')).toEqual([]);
  });

  it('a plan deleted whole has no item events (housekeeping)', () => {
    const before = md('# P', ...RANKING(1, 1));
    expect([...judgeTransitionCase(RULE, { before: { [PLAN]: before }, after: {} }).events]).toEqual([]);
  });
});

// --- Scale: pairing is linear (maps keyed by text), so a huge plan diffs at once ----------------------------------

function item(text: string, checked: boolean, line: number): CheckItem {
  return { text, checked, na: false, line, column: 1 };
}

/** A plan model of `phases` phases of `perPhase` manual items each (no reader: only the diff is under test). */
function bigPlan(phases: number, perPhase: number, opts: { insertAt?: number; checkEvery?: number } = {}): Plan {
  let line = 1;
  const list: Phase[] = [];
  for (let p = 0; p < phases + (opts.insertAt === undefined ? 0 : 1); p++) {
    const inserted = opts.insertAt === p;
    const orig = opts.insertAt !== undefined && p > opts.insertAt ? p - 1 : p;
    const manual: CheckItem[] = [];
    for (let k = 0; k < (inserted ? 3 : perPhase); k++) {
      // Texts repeat across phases (the worst case for identity), and are distinct within a phase.
      const text = inserted ? `Inserted check ${k}` : `Check ${k} of the nightly export`;
      manual.push(item(text, !inserted && !!opts.checkEvery && (orig * perPhase + k) % opts.checkEvery === 0, ++line));
    }
    list.push({
      number: p + 1,
      label: String(p + 1),
      title: inserted ? 'Inserted' : `Part ${orig + 1}`,
      line: ++line,
      column: 1,
      tasks: [],
      automated: [],
      manual,
      unknown: [],
      other: [],
    } as Phase);
  }
  return {
    kind: 'plan',
    path: PLAN,
    readable: true,
    problems: [],
    disables: [],
    positions: {},
    frontmatter: null,
    title: 'Big',
    phases: list,
    notAPlan: false,
    undividedCriteria: null,
    normalized: {},
  } as unknown as Plan;
}

describe('a 70,000-item plan', () => {
  // One phase of 70,000 items: pairing stays right at this size. How fast it is the bench measures, not a test (a
  // 3 s limit here failed on a loaded machine).
  it('diffs at once: a phase inserted before it and every 1000th item checked', () => {
    const before = bigPlan(1, 70_000);
    const after = bigPlan(1, 70_000, { insertAt: 0, checkEvery: 1000 });
    const events = fileEvents(PLAN, before, after, null);
    expect(events.filter((e) => e.type === 'item-removed')).toEqual([]);
    expect(events.filter((e) => e.type === 'item-checked')).toHaveLength(70);
  });
});
