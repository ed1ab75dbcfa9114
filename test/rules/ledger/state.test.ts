// ledger/state: <>(all_complete | abandoned). One item in progress at most (`[→]`, `[->]`, `[>]`), one state per
// task, and `status: complete` only when every item is done.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { LEDGER, ledger, lineOf, strict } from '../fixtures.js';

const ID = 'ledger/state';

describe(ID, () => {
  // Corpus round 8 (noise): a ledger that keeps one Done list per release, each under its own bold title line.
  it('a `- Done:` label under each bold title is one per block; repeated in one block it is still a warning', () => {
    const blocks = ['**Release 1 shipped**', '', '- Done:', '  - [x] Task 1: a', '', '📦 **Release 2 planned**', ''];
    const text = ledger({ state: [...blocks, '- Done:', '  - [x] Task 2: b', '- Next:', '  - [ ] Task 3: c'] });
    expect(findings({ [LEDGER]: text }, ID)).toEqual([]);
    const repeated = ledger({
      state: [...blocks.slice(0, 5), '- Done:', '  - [x] Task 2: b', '- Next:', '  - [ ] Task 3: c'],
    });
    expect(findings({ [LEDGER]: repeated }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(repeated, '- Done:', 2),
        severity: 'warning',
        messageId: 'labelRepeated',
      }),
    ]);
  });

  // Corpus round 9 (convention section 6): a label repeated three times is one cause, one finding listing its lines.
  it('a `- Done:` label repeated several times in one block is one warning listing every repeat', () => {
    const text = ledger({
      state: [
        '- Done:',
        '  - [x] Task 1: a',
        '- Done:',
        '  - [x] Task 2: b',
        '- Done:',
        '  - [x] Task 3: c',
        '- Next:',
        '  - [ ] Task 4: d',
      ],
    });
    const [first, second, third] = [1, 2, 3].map((n) => lineOf(text, '- Done:', n));
    expect(findings({ [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: second,
        severity: 'warning',
        messageId: 'labelRepeatedMany',
        message: `\`- Done:\` appears again in \`State\` at lines ${second}, ${third} (first at line ${first}); one \`Done:\` list per section is enough.`,
      }),
    ]);
  });

  // Corpus round 8 (misread): notes nested under a checked item of the `Now:` block are the item's notes, not
  // items in progress; a nested item with its own marker is still an item.
  it('plain bullets under an item with its own box are notes on it; a nested marker is still an item', () => {
    const now = [
      '- Now: [→] Phase 2: Polish',
      '  - [x] Hover states',
      '    - Spring transitions',
      '    - Reduced motion',
    ];
    expect(findings({ [LEDGER]: ledger({ state: [...now, '- Next:', '  - [ ] Phase 3: Ship'] }) }, ID)).toEqual([]);
    const two = ledger({ state: [...now, '    - [→] Focus rings', '- Next:', '  - [ ] Phase 3: Ship'] });
    expect(findings({ [LEDGER]: two }, ID)).toEqual([
      expect.objectContaining({ line: lineOf(two, 'Focus rings'), messageId: 'secondInProgress' }),
    ]);
  });

  it('passes one item in progress in an active ledger', () => {
    expect(
      findings({ [LEDGER]: ledger({ state: ['- [x] Task 1: a', '- [→] Task 2: b', '- [ ] Task 3: c'] }) }, ID),
    ).toEqual([]);
  });

  it('reports a second in-progress item, whichever marker it uses', () => {
    for (const marker of ['[→]', '[->]', '[>]']) {
      const text = ledger({ state: ['- [x] Task 1: a', '- [→] Task 2: b', `- ${marker} Task 3: c`] });
      expect(findings({ [LEDGER]: text }, ID), marker).toEqual([
        expect.objectContaining({
          file: LEDGER,
          line: lineOf(text, 'Task 3'),
          severity: 'error',
          messageId: 'secondInProgress',
          message: `Second item in progress ("Task 3: c"); "Task 2: b" (line ${lineOf(text, 'Task 2')}) is already in progress.`,
        }),
      ]);
    }
  });

  it('reports a task that is both done and pending', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [ ] Task 2: b', '- [x] Task 2: b'] });
    expect(findings({ [LEDGER]: text }, ID, strict())).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 2', 2),
        severity: 'error',
        messageId: 'conflictingStates',
        message: `Task 2 is done here but pending at line ${lineOf(text, 'Task 2')}.`,
      }),
    ]);
  });

  it('reports `status: complete` while items are open, at the status line', () => {
    const text = ledger({ status: 'complete', state: ['- [x] Task 1: a', '- [→] Task 2: b', '- [ ] Task 3: c'] });
    expect(findings({ [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'status: complete'),
        messageId: 'completeWithOpen',
        message: `Ledger status is complete but 2 items are not done (first: "Task 2: b", line ${lineOf(text, 'Task 2')}).`,
      }),
    ]);
  });

  it('passes `status: complete` when every item is done, and `abandoned` with open items', () => {
    expect(
      findings({ [LEDGER]: ledger({ status: 'complete', state: ['- [x] Task 1: a', '- [X] Task 2: b'] }) }, ID),
    ).toEqual([]);
    expect(
      findings({ [LEDGER]: ledger({ status: 'abandoned', state: ['- [x] Task 1: a', '- [ ] Task 2: b'] }) }, ID),
    ).toEqual([]);
  });

  it('does not claim open items when the state lists none', () => {
    expect(findings({ [LEDGER]: ledger({ status: 'complete', state: [] }) }, ID)).toEqual([]);
  });

  it('notes every item done while the status is still active as an info, in both presets', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b'] });
    for (const preset of ['recommended', 'strict'] as const) {
      expect(findings({ [LEDGER]: text }, ID, { preset })).toEqual([
        expect.objectContaining({
          line: lineOf(text, 'status: active'),
          severity: 'info',
          messageId: 'allDoneStillActive',
          message: 'Every item is done but the ledger status is still active.',
          fix: 'Set `status: complete`.',
        }),
      ]);
    }
  });

  it('reads the state labels of the continuity dialect', () => {
    const text = ledger({ state: ['- Done: Task 1: a', '- Now: Task 2: b', '- Current: Task 3: c'] });
    expect(findings({ [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 3'),
        messageId: 'secondInProgress',
        message: expect.stringContaining('Second item in progress'),
      }),
    ]);
  });
});

describeRuleContract(
  ID,
  { [LEDGER]: ledger({ state: ['- [→] Task 1: a', '- [->] Task 2: b'] }) },
  { recommended: 'error', strict: 'error' },
);
