// readLedgerText on continuity ledgers: GFM checkboxes, the in-progress markers GFM does not know, the
// Done/Now/Next/Remaining labels, and that only `## State` holds state.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLedgerText } from '../../src/read/ledger.js';
import { validate } from '../../src/schemas/validate.js';

function fixture(path: string): string {
  return readFileSync(new URL(`../fixtures/dialects/${path}`, import.meta.url), 'utf8');
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

const state = (text: string) =>
  readLedgerText('thoughts/ledgers/CONTINUITY_CLAUDE-s.md', `## Goal\ng\n\n## State\n${text}`).items.map((i) => [
    i.text,
    i.state,
    i.task,
  ]);

describe('checkbox markers', () => {
  it.each([
    ['- [x] Task 1: a', 'done'],
    ['- [X] Task 1: a', 'done'],
    ['- [ ] Task 1: a', 'pending'],
    ['- [→] Task 1: a', 'in-progress'],
    ['- [->] Task 1: a', 'in-progress'],
    ['- [>] Task 1: a', 'in-progress'],
  ])('%s is %s', (line, expected) => {
    expect(state(`${line}\n`)).toEqual([['Task 1: a', expected, 1]]);
  });

  it('keeps items that name no task, with no task number', () => {
    expect(state('- [x] Inventory outdated pages\n- [ ] Task 12: Ship\n')).toEqual([
      ['Inventory outdated pages', 'done', null],
      ['Task 12: Ship', 'pending', 12],
    ]);
  });
});

describe('Done / Now / Next / Remaining labels', () => {
  const path = 'thoughts/ledgers/CONTINUITY_CLAUDE-siwx-auth.md';
  const text = fixture(`ledgers/${path}`);
  const ledger = readLedgerText(path, text);

  it('give their state to the items nested under them and to their own text', () => {
    expect(ledger.items.map((i) => [i.text, i.state, i.task])).toEqual([
      ['Codebase analysis', 'done', null],
      ['Task 1: Single source of truth for SIWX types', 'done', 1],
      ['Task 2: Client signs the canonical message', 'in-progress', 2],
      ['Task 3: Atomic nonce API', 'pending', 3],
      ['Commit and open the PR', 'pending', null],
    ]);
    expect(ledger.items.map((i) => i.line)).toEqual([
      lineOf(text, '[x] Codebase analysis'),
      lineOf(text, '[x] Task 1'),
      lineOf(text, 'Now: [→] Task 2'),
      lineOf(text, 'Next: Task 3'),
      lineOf(text, '[ ] Commit'),
    ]);
  });

  it('give their state to plain items nested under them', () => {
    expect(state('- Done:\n  - Task 1: a\n- Now:\n  - Task 2: b\n- Next:\n  - Task 3: c\n  - Task 4: d\n')).toEqual([
      ['Task 1: a', 'done', 1],
      ['Task 2: b', 'in-progress', 2],
      ['Task 3: c', 'pending', 3],
      ['Task 4: d', 'pending', 4],
    ]);
  });

  it('yield to an explicit checkbox', () => {
    expect(state('- Remaining:\n  - [x] Phase 1 reviews\n  - [ ] Wave 1 approved\n')).toEqual([
      ['Phase 1 reviews', 'done', null],
      ['Wave 1 approved', 'pending', null],
    ]);
  });

  it('read the frontmatter and the sections into the normalized ledger', () => {
    expect(ledger).toMatchObject({
      session: 'siwx-auth',
      planRef: 'thoughts/shared/plans/2026-04-01-siwx-auth.md',
      status: 'active',
      problems: [],
    });
    expect(ledger.normalized.goal).toMatch(/^Make SIWX sign-in verify reliably/);
    expect(validate('ledger', ledger.normalized)).toEqual([]);
  });
});

describe('sections', () => {
  it('read state only from `## State`', () => {
    const l = readLedgerText(
      'thoughts/ledgers/CONTINUITY_CLAUDE-s.md',
      [
        '## Goal',
        'g',
        '## Key Decisions',
        '- [x] Task 9: decided elsewhere',
        '## State',
        '- [ ] Task 1: a',
        '## Working Set',
        '- [>] Task 8: not state',
        '',
      ].join('\n'),
    );
    expect(l.items.map((i) => i.task)).toEqual([1]);
  });

  it('leave goal and state out of the model when the sections are missing, so the schema says so', () => {
    const path = 'thoughts/ledgers/CONTINUITY_CLAUDE-flaky-tests.md';
    const l = readLedgerText(path, fixture(`ledgers-planted/${path}`));
    expect('goal' in l.normalized).toBe(false);
    expect(validate('ledger', l.normalized).map((e) => e.pointer)).toEqual(['/goal']);
  });

  it('take the session from the file name when there is no frontmatter', () => {
    const docs = readLedgerText(
      'thoughts/ledgers/CONTINUITY_CLAUDE-docs-refresh.md',
      fixture('ledgers/thoughts/ledgers/CONTINUITY_CLAUDE-docs-refresh.md'),
    );
    expect([docs.session, docs.planRef, docs.status]).toEqual(['docs-refresh', null, null]);
    expect(docs.items.map((i) => i.state)).toEqual(['done', 'done', 'in-progress', 'pending']);
    expect(readLedgerText('thoughts/ledgers/CONTINUITY_docs-search.md', '## Goal\ng\n## State\n').session).toBe(
      'docs-search',
    );
  });
});
