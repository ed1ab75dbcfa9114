// Versions of a plan without a parse (read/derive.ts): a plan version that only checks boxes, or appends prose, is
// derived from the previous version's model. The derived model must equal a full read of the new text, for generated
// plans and edits that check random `[ ]` anywhere in the text (boxes of tasks, steps and criteria, but also `[ ]` in
// code fences, in an item's text, in paragraphs) and append random blocks after random endings (open fences, HTML,
// lists, quotes, a phase heading), and derivation must really happen for the common case.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readPlanText } from '../../src/read/plan.js';
import { deriveChecked, deriveVersion } from '../../src/read/derive.js';
import { VersionReader } from '../../src/read/workspace.js';
import type { Discovered } from '../../src/read/discover.js';
import type { Plan } from '../../src/model/types.js';
import { propertyRuns } from '../helpers/runs.js';
import { loadParsers } from '../../src/read/lazy.js';

beforeAll(() => loadParsers());

const SEED = 20261126;
const word = fc.constantFrom('cache', 'route', 'retry', 'token', 'queue', 'render', 'schema');
const text = fc
  .tuple(
    word,
    fc.constantFrom(
      '',
      ' `npm test` passes',
      ' (skipped: flaky on CI)',
      ' deferred to Phase 9',
      ' with a [ ] inside',
      ' looks right',
      ': N/A no UI',
    ),
  )
  .map(([w, tail]) => `${w}${tail}`);
const box = fc.constantFrom('[ ]', '[ ]', '[x]', '[X]');
const bullet = fc.constantFrom('- ', '* ', '+ ', '1. ', '2) ');
const indent = fc.constantFrom('', '', '  ', '> ');
const item = fc
  .record({ indent, bullet, box, text, task: fc.boolean(), strike: fc.boolean() })
  .map((i) => `${i.indent}${i.bullet}${i.box} ${i.task ? `Task 1: ` : ''}${i.strike ? `~~${i.text}~~` : i.text}`);
const block = fc.oneof(
  fc.integer({ min: 0, max: 4 }).map((n) => `## Phase ${n}: Work`),
  fc.integer({ min: 1, max: 6 }).map((n) => `### Task ${n}: Build it`),
  fc.constantFrom(
    '### Success Criteria:',
    '#### Automated Verification:',
    '#### Manual Verification:',
    '**Automated:**',
    '',
    'A paragraph that mentions [ ] a box in prose.',
  ),
  fc.array(item, { minLength: 1, maxLength: 4 }).map((items) => items.join('\n')),
  fc.array(item, { minLength: 1, maxLength: 2 }).map((items) => ['```markdown', ...items, '```'].join('\n')),
);
const plan = fc
  .array(block, { minLength: 1, maxLength: 14 })
  .map((blocks) => ['# Plan', '', ...blocks.flatMap((b) => [b, ''])].join('\n'));

/** The text with some of its `[ ]` checked: `picks` chooses which, `marks` how each is written. */
function checkSome(source: string, picks: boolean[], marks: string[]): string {
  let n = 0;
  return source.replace(/\[ \]/g, (m) => {
    const k = n++;
    return picks[k % picks.length] ? `[${marks[k % marks.length]}]` : m;
  });
}

/** How many versions were derived and how many declined; a derived model must equal a full read of the text. */
function tally() {
  const seen = {
    derived: 0,
    declined: 0,
    check(result: Plan | null, next: string): void {
      if (result === null) seen.declined++;
      else {
        seen.derived++;
        expect(result).toEqual(readPlanText('p.md', next));
      }
    },
    /** Both paths are exercised: the property is not passing by always declining. */
    bothTaken(derived: number, declined: number): void {
      expect(seen.derived).toBeGreaterThan(derived);
      expect(seen.declined).toBeGreaterThan(declined);
    },
  };
  return seen;
}

describe('a plan version that only checks boxes', () => {
  it('derives exactly the model a full read gives, or declines', () => {
    const seen = tally();
    const runs = propertyRuns(400);
    fc.assert(
      fc.property(
        plan,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom('x', 'X'), { minLength: 1, maxLength: 3 }),
        (source, picks, marks) => {
          const next = checkSome(source, picks, marks);
          seen.check(deriveChecked(readPlanText('p.md', source), source, next), next);
        },
      ),
      { seed: SEED, numRuns: runs },
    );
    seen.bothTaken(runs / 4, runs / 20);
  });

  const before = [
    '# Plan',
    '## Phase 1: Schema',
    '- [ ] Task 1: Add the table',
    '### Success Criteria:',
    '#### Automated Verification:',
    '- [ ] `npm test` passes (skipped: flaky)',
    '#### Manual Verification:',
    '- [ ] The page shows [ ] nothing odd',
    '```markdown',
    '- [ ] an example box',
    '```',
  ].join('\n');

  it('checks the task, the criterion and drops a declared deviation once checked', () => {
    const after = before.replace('- [ ] Task 1', '- [x] Task 1').replace('- [ ] `npm test`', '- [X] `npm test`');
    const result = deriveChecked(readPlanText('p.md', before), before, after);
    expect(result).not.toBeNull();
    expect(result).toEqual(readPlanText('p.md', after));
    expect(result!.phases[0]!.tasks[0]!.checked).toBe(true);
    expect(result!.phases[0]!.automated[0]).not.toHaveProperty('deviation');
  });

  it.each([
    ['a box in a code fence', (t: string) => t.replace('- [ ] an example', '- [x] an example')],
    ['a `[ ]` in an item text', (t: string) => t.replace('shows [ ] nothing', 'shows [x] nothing')],
    ['an unchecked box', (t: string) => t.replace('- [ ] Task 1', '- [x] Task 1')],
    ['a line added', (t: string) => `${t}\n- [ ] one more`],
    ['a word changed beside the box', (t: string) => t.replace('- [ ] Task 1: Add', '- [x] Task 1: Ade')],
  ])('parses again for %s', (_name, edit) => {
    const source = _name === 'an unchecked box' ? edit(before) : before;
    const next = _name === 'an unchecked box' ? before : edit(before);
    expect(deriveChecked(readPlanText('p.md', source), source, next)).toBeNull();
  });

  it('the version reader derives a path’s box-only versions and parses the rest', () => {
    const reader = new VersionReader();
    const item = { path: 'thoughts/shared/plans/p.md', kind: 'plan' } as Discovered;
    const v2 = before.replace('- [ ] Task 1', '- [x] Task 1');
    const v3 = `${v2}\n\n## Phase 2: More\n- [ ] Task 2: Next`;
    const v4 = v3.replace('- [ ] Task 2', '- [x] Task 2');
    for (const v of [before, v2, v3, v4])
      expect(reader.read(item, Buffer.from(v), 1e6)).toEqual(readPlanText(item.path, v));
    expect({ derived: reader.derived, parsed: reader.parsed }).toEqual({ derived: 2, parsed: 2 });
  });
});

/** How the previous version ends: anything that may still be open after its last line. */
const ending = fc.constantFrom(
  '',
  '```\nsome code',
  '~~~~\ncode\n~~~',
  '<!--\nan open comment',
  '<pre>\nkept as is',
  '<div>\nblock html',
  '- [ ] Task 8: the last item\n  continued',
  '1. [x] Task 9: numbered',
  '> **Automated:**\n> - [ ] quoted box',
  '    indented code',
  '## Phase 7: Last',
  '### Success Criteria:\n#### Manual Verification:',
  '**Manual:**',
  '| a | b |\n|---|---|\n| c | d |',
  '[ref]: /somewhere',
  'A last paragraph',
);
/** Lines an agent may append: prose, and everything the reader must not miss. */
const proseLine = fc.constantFrom(
  'A note added by the agent.',
  'Implementation complete.',
  'Status: done, see the PR.',
  'Deferred to the next plan.',
  'The `cache` is warm and *fast* now.',
  'See **bold** words in the middle.',
  '',
);
const otherLine = fc.constantFrom(
  '**Status**: Complete',
  '**DEFERRED**: waiting for the API',
  '**Manual:** the page loads',
  '__Automated:__ `npm test` passes',
  '- [ ] Task 5: a late task',
  '- [x] a checked box',
  '- a plain bullet',
  '1. a numbered line',
  '## Phase 9: New work',
  '#### Manual Verification:',
  '```',
  '---',
  '===',
  '    indented four',
  '  two spaces in',
  '<!-- validate-workflow-disable plan/phase-order -->',
  'An entity &amp; here',
  '> quoted prose',
  '| x | y |',
  '|---|---|',
  'A [link] in prose',
);
const appendedLine = fc.oneof({ arbitrary: proseLine, weight: 4 }, { arbitrary: otherLine, weight: 1 });
const appended = fc
  .tuple(fc.constantFrom('', '\n', '\n\n'), fc.array(appendedLine, { minLength: 1, maxLength: 4 }))
  .map(([lead, lines]) => `${lead}${lines.join('\n')}\n`);

describe('a plan version that appends to the previous one', () => {
  it('derives exactly the model a full read gives, or declines', () => {
    const seen = tally();
    const runs = propertyRuns(400);
    fc.assert(
      fc.property(
        plan,
        ending,
        fc.constantFrom('\n', '\n\n', ''),
        appended,
        fc.option(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 })),
        (source, end, newline, added, picks) => {
          const before = `${source}${end}${newline}`;
          // Boxes checked as well, some of the time.
          const next = `${picks ? checkSome(before, picks, ['x']) : before}${added}`;
          seen.check(deriveVersion(readPlanText('p.md', before), before, next), next);
        },
      ),
      { seed: SEED, numRuns: runs },
    );
    seen.bothTaken(runs / 10, runs / 4);
  });

  const before = [
    '# Plan',
    '',
    '## Phase 1: Schema',
    '- [ ] Task 1: Add the table',
    '',
    '### Success Criteria:',
    '#### Manual Verification:',
    '- [ ] The page loads',
    '',
  ].join('\n');

  it('takes a note appended after a blank line as the model it was', () => {
    const after = `${before}\nA note added by the bench (1).\n`;
    const result = deriveVersion(readPlanText('p.md', before), before, after);
    expect(result).toEqual(readPlanText('p.md', after));
    // The last version kept no blank line: the note's own leading one closes the list.
    const tight = before.trimEnd() + '\n';
    expect(deriveVersion(readPlanText('p.md', tight), tight, `${tight}\nA note.\n`)).not.toBeNull();
  });

  it.each([
    ['no blank line before it (a lazy continuation of the item)', 'A note.\n', before.trimEnd() + '\n'],
    ['an indented line (more of the last item)', '\n  more of the item\n', before],
    ['a box', '\n- [x] Task 2: Later\n', before],
    ['a heading', '\n## Phase 2: Later\n', before],
    ['a status line', '\n**Status**: Complete\n', before],
    ['a bold label', '\n**Automated:** `npm test`\n', before],
    ['a disable comment', '\n<!-- validate-workflow-disable -->\n', before],
    ['prose inside an open code fence', '\nA note.\n', `${before}\n\`\`\`\ncode\n`],
    ['prose inside an open HTML comment', '\nA note.\n', `${before}<!--\nstill open\n`],
    ['a plain bullet under the manual criteria', '\n- the page loads fast\n', before],
  ])('parses again for %s', (_name, added, source) => {
    const next = `${source}${added}`;
    expect(deriveVersion(readPlanText('p.md', source), source, next)).toBeNull();
  });

  it('the version reader derives a path’s appended notes and parses the rest', () => {
    const reader = new VersionReader();
    const item = { path: 'thoughts/shared/plans/p.md', kind: 'plan' } as Discovered;
    const v2 = `${before}\nA note on task 1.\n`;
    const v3 = `${v2.replace('- [ ] Task 1', '- [x] Task 1')}\nAnother note, and the task is done.\n`;
    const v4 = `${v3}\n## Phase 2: More\n- [ ] Task 2: Next\n`;
    for (const v of [before, v2, v3, v4])
      expect(reader.read(item, Buffer.from(v), 1e6)).toEqual(readPlanText(item.path, v));
    expect({ derived: reader.derived, parsed: reader.parsed }).toEqual({ derived: 2, parsed: 2 });
  });
});
