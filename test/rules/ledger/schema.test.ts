// ledger/schema: continuity ledgers need `## Goal` and `## State` (Open Questions and Working Set optional) and a
// status of active | complete | abandoned.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { LEDGER, PLAN, ledger, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'ledger/schema';

describe(ID, () => {
  it('passes a canonical ledger, and one without the optional sections', () => {
    expect(findings({ [PLAN]: plan(), [LEDGER]: ledger({ state: ['- [ ] Task 1: a'] }) }, ID)).toEqual([]);
    const minimal = md(
      '---',
      'session: auth-1',
      'status: abandoned',
      '---',
      '# Session',
      '## Goal',
      'Ship auth.',
      '## State:',
      '- [x] Task 1: a',
    );
    expect(findings({ [LEDGER]: minimal }, ID, strict())).toEqual([]);
  });

  it('reports a missing `## Goal` or `## State` section', () => {
    const noGoal = md('---', 'session: auth-1', '---', '# Session', '## State', '- [ ] Task 1: a');
    expect(findings({ [LEDGER]: noGoal }, ID)).toEqual([
      expect.objectContaining({
        file: LEDGER,
        severity: 'error',
        messageId: 'missingSection',
        message: 'ledger has no `## Goal` section',
      }),
    ]);
    const noState = md(
      '---',
      'session: auth-1',
      '---',
      '# Session',
      '## Goal',
      'Ship auth.',
      '### State',
      '- [ ] Task 1: a',
    );
    expect(findings({ [LEDGER]: noState }, ID, strict())).toEqual([
      expect.objectContaining({
        severity: 'error',
        messageId: 'missingSection',
        message: 'ledger has no `## State` section',
      }),
    ]);
  });

  it('reports a status outside active, complete, abandoned at the status line', () => {
    const text = ledger({ status: 'paused', state: ['- [ ] Task 1: a'] });
    expect(findings({ [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'status: paused'),
        messageId: 'invalid',
        message: expect.stringContaining('`status` must be one of "active", "complete", "abandoned"'),
      }),
    ]);
  });

  it('reports frontmatter keys of the wrong type', () => {
    const text = md('---', 'session: 42', 'plan: [a, b]', '---', '## Goal', 'g', '## State', '- [ ] Task 1: a');
    expect(findings({ [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: 2,
        messageId: 'invalid',
        message: expect.stringContaining('`session` must be string'),
      }),
      expect.objectContaining({
        line: 3,
        messageId: 'invalid',
        message: expect.stringContaining('`plan` must be string'),
      }),
    ]);
  });

  it('reports frontmatter that is not valid YAML, and an empty or binary ledger', () => {
    const bad = md('---', 'session: "auth-1', '---', '## Goal', 'g', '## State');
    expect(findings({ [LEDGER]: bad }, ID)[0]).toMatchObject({
      file: LEDGER,
      messageId: 'unreadable',
      message: expect.stringContaining('Invalid YAML'),
    });
    expect(findings({ [LEDGER]: '' }, ID)).toEqual([
      expect.objectContaining({ line: 1, messageId: 'unreadable', message: 'File is empty.' }),
    ]);
    expect(findings({ [LEDGER]: Buffer.from([0x23, 0x0a, 0x00]) }, ID)).toEqual([
      expect.objectContaining({ line: 2, messageId: 'unreadable', message: expect.stringContaining('binary') }),
    ]);
  });
});

describeRuleContract(
  ID,
  { [LEDGER]: md('---', 'session: auth-1', 'status: paused', '---', '## State', '- [ ] Task 1: a') },
  { recommended: 'error', strict: 'error' },
);
