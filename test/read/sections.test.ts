// Section-level parse reuse (read/sections.ts): the tree assembled from cached sections must equal a whole-file parse,
// positions included, for random plan/handoff/ledger-shaped documents and random edits of them (the cache warm from
// the previous version, as in a history walk); and every case where a cut could change the parse falls back.
// The property runs with a fixed seed; explore with SECTIONS_SEED=<n> PROPERTY_RUNS=<n> (4,000 runs each of two other
// seeds passed while this was written, 3,000 of them on the final code).
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Root } from 'mdast';
import type { Node, Parent } from 'unist';
import { parseMarkdown, parseWhole } from '../../src/read/markdown.js';
import { PathShards } from '../../src/read/parallel.js';
import {
  parseSectioned,
  resetSectionCache,
  sectionCacheSize,
  sectionStats,
  splitSections,
} from '../../src/read/sections.js';
import { propertyRuns } from '../helpers/runs.js';

const SEED = 20261123;

/** Sectioned parse with no size floor; a null (fall back) means the whole parse is the answer. */
function sectioned(text: string, seedFromWhole = true): { root: Root; cut: boolean } {
  const root = parseSectioned(text, parseWhole, { minChars: 0, seedFromWhole });
  return root ? { root, cut: true } : { root: parseWhole(text), cut: false };
}

/**
 * The sectioned parse, through the cache as it is, equals the whole parse. `seedFromWhole: false` parses every new
 * section on its own; by default a mostly new document is parsed whole and its sections cached from that tree.
 */
function expectSame(text: string, seedFromWhole = true): boolean {
  const whole = parseWhole(text);
  const { root, cut } = sectioned(text, seedFromWhole);
  expectSameTree(root, whole);
  return cut;
}

/**
 * toStrictEqual, asked only when node's deep comparison finds the trees different: what node calls strictly equal
 * vitest does too, and on trees of this size node's comparison is many times quicker; vitest's then gives the diff.
 */
function expectSameTree(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toStrictEqual(expected);
}

/** First line of each section (one section, [1], when the document is not cut). */
const headingsOf = (text: string) => (splitSections(text, 0) ?? [{ line: 0 }]).map((s) => s.line + 1);

// These tests are about the sectioned parse itself: on even when the suite runs with VALIDATE_WORKFLOW_WHOLE_PARSE=1,
// and the variable is restored for the test files that run after this one in the same worker.
const wholeParseEnv = process.env.VALIDATE_WORKFLOW_WHOLE_PARSE;
beforeEach(() => {
  delete process.env.VALIDATE_WORKFLOW_WHOLE_PARSE;
  resetSectionCache();
});
afterEach(() => {
  if (wholeParseEnv === undefined) delete process.env.VALIDATE_WORKFLOW_WHOLE_PARSE;
  else process.env.VALIDATE_WORKFLOW_WHOLE_PARSE = wholeParseEnv;
  resetSectionCache();
});

// ---------------------------------------------------------------------------------------------------------------
// A grammar of realistic workflow-file pieces, as lists of lines.

const WORDS = [
  'cache',
  'tiles',
  'route',
  'index',
  'retry',
  'webhook',
  'ledger',
  '*token*',
  '**queue**',
  '`export`',
  'render',
  '_zoom_',
  'budget',
  'alert',
  'schema',
  'users',
  '~~old~~',
  'https://example.com',
];
const word = fc.constantFrom(...WORDS);
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const trailing = fc.constantFrom('', '', '', ' ', '  ', '\t');
const box = fc.constantFrom('[ ]', '[ ]', '[x]', '[X]');
type Lines = readonly string[];

const heading: fc.Arbitrary<Lines> = fc
  .tuple(
    fc.integer({ min: 1, max: 6 }),
    words,
    fc.constantFrom('', '', ' #', ' ##'),
    trailing,
    fc.constantFrom(' ', ' ', '\t'),
  )
  .map(([d, t, close, tail, sep]) => [`${'#'.repeat(d)}${sep}${t}${close}${tail}`]);
const emptyHeading = fc.constantFrom<Lines>(['#'], ['##'], ['### #']);
const notHeading = fc.constantFrom<Lines>(
  ['#not a heading'],
  ['####### seven hashes'],
  ['\\# escaped'],
  [' # one space in'],
  ['   ### three spaces in'],
  ['    # indented code'],
);
const paragraph: fc.Arbitrary<Lines> = fc.array(
  fc.tuple(words, trailing).map(([w, t]) => w + t),
  { minLength: 1, maxLength: 3 },
);
const taskItem = fc
  .tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom('-', '*', '+', '1.'), box, words)
  .map(([depth, bullet, b, w]) => `${'  '.repeat(depth)}${bullet} ${b} ${w}`);
const tasks: fc.Arbitrary<Lines> = fc.array(taskItem, { minLength: 1, maxLength: 6 });
const fenceChar = fc.constantFrom('`', '~');
const codeLine = fc.constantFrom(
  '# inside code',
  '## also inside',
  'const x = 1;',
  '',
  '  # indented inside',
  '``',
  '~~',
  '<!--',
  '<div>',
  '> not a quote',
);
const fenced: fc.Arbitrary<Lines> = fc
  .tuple(
    fenceChar,
    fc.integer({ min: 3, max: 5 }),
    fc.constantFrom('', 'ts', 'markdown', 'bash title'),
    fc.array(codeLine, { maxLength: 4 }),
    fc.constantFrom('same', 'same', 'longer', 'indented', 'shorter', 'other', 'none', 'tabbed'),
  )
  .map(([ch, n, lang, body, close]) => {
    const open = ch.repeat(n);
    const other = ch === '`' ? '~' : '`';
    const closer = {
      same: open,
      longer: open + ch,
      indented: `  ${open}`,
      shorter: ch.repeat(n - 1),
      other: other.repeat(n),
      none: null,
      tabbed: `\t${open}`,
    }[close];
    return [`${open}${lang}`, ...body, ...(closer === null ? [] : [closer])];
  });
const fenceInItem: fc.Arbitrary<Lines> = fc
  .tuple(
    fc.constantFrom('- [ ] run it', '1. step', '> quoted', '- item'),
    fc.constantFrom('  ```', '   ```', '```', ' ~~~', '  ```bash'),
    fc.array(codeLine, { maxLength: 3 }),
    fc.boolean(),
  )
  .map(([lead, open, body, close]) => [lead, open, ...body.map((l) => `  ${l}`), ...(close ? [open] : [])]);
const htmlPiece = fc.constantFrom<Lines>(
  ['<!-- a note -->'],
  ['<!-- a note', '# inside the comment', '-->'],
  ['<!--', '```', '-->'],
  ['<!-->'],
  ['<!--->', '# after'],
  ['<div>', '# swallowed by the block', '</div>'],
  ['<details>', '<summary>More</summary>', '', '# after a blank line', '</details>'],
  ['<pre>', '# preformatted', '</pre>'],
  ['<pre>one line</pre>'],
  ['<span>', '# after an inline tag'],
  ['  <div>', '# after an indented block tag'],
  ['<?php', '# processing', '?>'],
  ['<!DOCTYPE html>'],
  ['<![CDATA[', '# data', ']]>'],
  ['<script>', '# code', '</script>'],
  ['<style>p{}</style>'],
  ['<textarea>', '# t'],
);
const table = fc
  .tuple(words, words)
  .map(([a, b]) => [`| ${a} | ${b} |`, '| --- | :-: |', `| ${b} | ${a} |`, `${a} | lazy row`]);
const quote = fc.tuple(words, words).map(([a, b]) => [`> ${a}`, b, `> > ${a}`, '> # quoted heading']);
const setext = fc.tuple(words, fc.constantFrom('===', '---', '=', '- - -')).map(([w, u]) => [w, u]);
const thematic = fc.constantFrom<Lines>(['---'], ['***'], ['___'], ['- - -']);
const blank = fc.constantFrom<Lines>([''], [''], ['   '], ['\t']);
const tabbed = fc.constantFrom<Lines>(['\t# tab then hash'], ['\t```'], ['-\tfoo'], ['>\t# quoted']);
// Blocks left open at their end, so that what ends them (the next heading, or the end of the text) matters.
const openTail = fc.constantFrom<Lines>(
  ['- item', '  ```', '  code'],
  ['> ```', '> code'],
  ['- item', '', '  ```', '  code', ''],
  ['- item', '  <div>', '  x'],
  ['> <div>', '> x'],
  ['- item', '', ''],
  ['    code', '', ''],
  ['    code', '   '],
  ['- a', '  - b', '', '    - c', ''],
  ['- item', '  lazy?', 'lazy'],
  ['1. x', '', '   ```', '   # in the item code'],
  ['- [ ] task', '  ~~~', '  # inside', '  ~~~'],
  ['>'],
  ['-'],
  ['- '],
  ['1.'],
  ['* * *'],
  ['Text', '---'],
  ['| a |', '| - |'],
  ['- | a |', '  | - |'],
  ['> - [x] quoted task', '>   ```', '>   code'],
  ['- item  '],
  ['text\\'],
  ['<!-- open', 'comment'],
  ['- ```', '  code'],
  ['1. ~~~', '   # in the item code'],
  ['- > ```', '  > code'],
  ['- <div>', '  # in the item html'],
  ['> <pre>', '> # pre'],
  ['- item', '', '      indented code in item', ''],
  ['> para', 'lazy  '],
);
const oddities = fc.constantFrom<Lines>(
  ['``` `not a fence`', '# after'],
  ['~~~ `fine for tildes`', '# in tilde code', '~~~'],
  ['<a href="x">', '# after a complete tag'],
  ['<custom-tag>', 'x', '', '# after a blank'],
  ['<!--', '# x -->'],
  ['```   ', '# in', '```\t'],
  ['#\t', '#\t#'],
  ['<div>', '', '```', '# in code after the html block'],
  ['> > ```', '> > # in'],
);
const definition = fc.constantFrom<Lines>(
  ['[ref]: https://example.com'],
  ['[^1]: a footnote'],
  ['See [ref] and [^1].'],
);
const bom = fc.constantFrom('', '', '', '', '', '', '', '', '\uFEFF');

const piece: fc.Arbitrary<Lines> = fc.oneof(
  { weight: 6, arbitrary: heading },
  { weight: 1, arbitrary: emptyHeading },
  { weight: 1, arbitrary: notHeading },
  { weight: 5, arbitrary: paragraph },
  { weight: 5, arbitrary: tasks },
  { weight: 3, arbitrary: fenced },
  { weight: 2, arbitrary: fenceInItem },
  { weight: 2, arbitrary: htmlPiece },
  { weight: 2, arbitrary: table },
  { weight: 2, arbitrary: quote },
  { weight: 2, arbitrary: setext },
  { weight: 1, arbitrary: thematic },
  { weight: 5, arbitrary: blank },
  { weight: 1, arbitrary: tabbed },
  { weight: 10, arbitrary: openTail },
  { weight: 3, arbitrary: oddities },
);

const frontmatter: fc.Arbitrary<Lines> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(words, fc.constantFrom('---', '---', '--- '))
      .map(([w, close]) => ['---', `title: ${w.replace(/[*_`~:]/g, '')}`, '# a YAML comment', 'status: draft', close]),
  },
  { weight: 1, arbitrary: fc.constant(['---', '---']) },
  { weight: 1, arbitrary: fc.constant(['---', 'title: never closed', '# heading or comment?']) },
  { weight: 1, arbitrary: fc.constant(['---', 'a: 1', '---', '---', 'b', '---']) },
  { weight: 1, arbitrary: fc.constant(['---', 'a: 1', '---', '\uFEFFtext after a byte-order mark']) },
  { weight: 3, arbitrary: fc.constant([]) },
);

const eolArb = fc.constantFrom('\n', '\n', '\n', '\n', '\r\n', '\r\n', '\r', 'mixed');

interface Doc {
  lines: string[];
  eol: string;
  bom: string;
}

// Either pieces in any order, or the shape of a plan: a preamble, then headings each followed by a few pieces (so a
// piece is often directly followed by the next heading).
const body: fc.Arbitrary<Lines> = fc.oneof(
  { weight: 1, arbitrary: fc.array(piece, { minLength: 1, maxLength: 30 }).map((pieces) => pieces.flat()) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.array(piece, { maxLength: 3 }),
        fc.array(fc.tuple(heading, fc.array(piece, { maxLength: 4 })), { minLength: 1, maxLength: 8 }),
      )
      .map(([pre, secs]) => [...pre.flat(), ...secs.flatMap(([h, ps]) => [...h, ...ps.flat()])]),
  },
);
// One document in ten holds a definition somewhere (which must make it fall back).
const docArb: fc.Arbitrary<Doc> = fc
  .tuple(frontmatter, body, eolArb, bom, fc.boolean(), fc.tuple(fc.integer({ min: 0, max: 9 }), definition, fc.nat()))
  .map(([fm, lines, eol, b, endsWithEol, [die, def, at]]) => {
    const all = [...lines];
    if (die === 0) all.splice(at % (all.length + 1), 0, ...def);
    return { lines: [...fm, ...all, ...(endsWithEol ? [''] : [])], eol, bom: b };
  });

function render(doc: Doc): string {
  if (doc.eol !== 'mixed') return doc.bom + doc.lines.join(doc.eol);
  const ends = ['\n', '\r\n', '\r'];
  return doc.bom + doc.lines.map((l, i) => (i === doc.lines.length - 1 ? l : l + ends[(l.length + i) % 3])).join('');
}

type Edit = { kind: 'flip' | 'insert' | 'delete' | 'replace' | 'append'; at: number; lines: Lines };
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), lines: fc.constant([]) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), lines: piece }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), lines: fc.constant([]) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), lines: piece.map((l) => l.slice(0, 1)) }),
  fc.record({
    kind: fc.constant('append' as const),
    at: fc.nat(),
    lines: fc.tuple(heading, fc.array(piece, { maxLength: 4 })).map(([h, rest]) => ['', ...h, ...rest.flat()]),
  }),
);

function applyEdit(doc: Doc, edit: Edit): Doc {
  const lines = [...doc.lines];
  const at = lines.length === 0 ? 0 : edit.at % lines.length;
  switch (edit.kind) {
    case 'flip': {
      const boxes = lines.map((l, i) => (/\[[ xX]\]/.test(l) ? i : -1)).filter((i) => i >= 0);
      if (boxes.length) {
        const i = boxes[edit.at % boxes.length]!;
        lines[i] = lines[i]!.replace(/\[([ xX])\]/, (_m, c: string) => (c === ' ' ? '[x]' : '[ ]'));
      }
      break;
    }
    case 'insert':
      lines.splice(at, 0, ...edit.lines);
      break;
    case 'delete':
      lines.splice(at, 1);
      break;
    case 'replace':
      lines.splice(at, 1, ...edit.lines);
      break;
    case 'append':
      lines.push(...edit.lines);
      break;
  }
  return { ...doc, lines };
}

describe('sectioned parse equals the whole-file parse', () => {
  it('for random documents and random edits, the cache warm from the previous version', () => {
    let cutDocs = 0;
    let total = 0;
    let hits = 0;
    fc.assert(
      fc.property(
        docArb,
        fc.array(editArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (doc, edits, seedFromWhole) => {
          // Each run starts cold; its versions then parse through the cache the previous versions filled.
          resetSectionCache();
          let current = doc;
          total++;
          if (expectSame(render(current), seedFromWhole)) cutDocs++;
          for (const edit of edits) {
            current = applyEdit(current, edit);
            total++;
            if (expectSame(render(current), seedFromWhole)) cutDocs++;
          }
          hits += sectionStats.hits;
        },
      ),
      { seed: Number(process.env.SECTIONS_SEED ?? SEED), numRuns: propertyRuns(300) },
    );
    // The property is not vacuous: most documents are really cut (definitions and unclosed frontmatter fall back),
    // and later versions reuse sections of earlier ones.
    expect(cutDocs / total).toBeGreaterThan(0.5);
    expect(hits).toBeGreaterThan(total);
  }, 900_000);

  it('through parseMarkdown, for large documents built from the same grammar', () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 3, maxLength: 6 }), editArb, (docs, edit) => {
        const big: Doc = { lines: docs.flatMap((d) => d.lines), eol: docs[0]!.eol, bom: docs[0]!.bom };
        for (const version of [big, applyEdit(big, edit)]) {
          const text = render(version);
          expectSameTree(parseMarkdown(text), parseWhole(text));
        }
      }),
      { seed: SEED, numRuns: propertyRuns(60) },
    );
  });
});

describe('where the cut is made', () => {
  it('cuts before each top-level ATX heading, with frontmatter as its own section', () => {
    const text = '---\ntitle: x\n# comment\n---\nintro\n# A\ntext\n## B\n- [ ] t\n### C\n';
    const parts = splitSections(text, 0)!;
    expect(parts.map((p) => [p.kind, p.line, p.offset])).toEqual([
      ['frontmatter', 0, 0],
      ['preamble', 4, text.indexOf('intro')],
      ['heading', 5, text.indexOf('# A')],
      ['heading', 7, text.indexOf('## B')],
      ['heading', 9, text.indexOf('### C')],
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expectSame(text);
  });

  it('never inside fenced code, however the fence is spelled and closed', () => {
    expect(headingsOf('# A\n```\n# in code\n```\n# B\n')).toEqual([1, 5]);
    expect(headingsOf('# A\n````\n# in\n```\n# still in\n````\n# B\n')).toEqual([1, 7]);
    expect(headingsOf('# A\n~~~\n# in\n```\n# still in\n   ~~~\n# B\n')).toEqual([1, 7]);
    // A tab before the closer makes it indented code inside the fence, not a closer.
    expect(headingsOf('# A\n```\n# in\n\t```\n# still in\n')).toEqual([1]);
    // Unclosed: runs to the end of the document.
    expect(headingsOf('# A\n```\n# in\n# in\n')).toEqual([1]);
    for (const t of [
      '# A\n```\n# in code\n```\n# B\n',
      '# A\n````\n# in\n```\n# still in\n````\n# B\n',
      '# A\n```\n# in\n\t```\n# still in\n',
    ])
      expectSame(t);
  });

  it('never inside an HTML block that could swallow the heading line', () => {
    expect(headingsOf('# A\n<div>\n# swallowed\n</div>\n# B\n')).toEqual([1]);
    expect(headingsOf('# A\n<div>\n\n# after blank\n')).toEqual([1, 4]);
    expect(headingsOf('# A\n<!--\n# in comment\n-->\n# B\n')).toEqual([1, 5]);
    expect(headingsOf('# A\n<!-- one line -->\n# B\n')).toEqual([1, 3]);
    expect(headingsOf('# A\n<pre>\n# in pre\n</pre>\n# B\n')).toEqual([1, 5]);
    expect(headingsOf('# A\n<span>\n# B\n')).toEqual([1]); // type 7 or paragraph: unknown until a blank line
    for (const t of [
      '# A\n<div>\n# swallowed\n</div>\n# B\n',
      '# A\n<!--\n# in comment\n-->\n# B\n',
      '# A\n<span>\n# B\n',
      '# A\n<!-->\n# B\n',
    ])
      expectSame(t);
  });

  it('keeps both readings of a fence that may sit in a list item', () => {
    // `  ```` may open a fence inside the item (closed by the column-0 heading) or at top level (which swallows it).
    const text = '# A\n- item\n  ```\n# B\n```\n# C\n```\n# D\n';
    expectSame(text);
    const whole = parseWhole(text);
    expect(whole.children.map((c) => c.type)).toEqual(['heading', 'list', 'heading', 'code', 'heading']);
  });

  it('a column-0 ATX heading ends every open container and paragraph (the claim the cut rests on)', () => {
    for (const before of [
      'paragraph text',
      '- [ ] item',
      '- item\n  continued',
      '> quote',
      '> quote\nlazy',
      '    indented code',
      '| a |\n| - |\n| 1 |',
      'Setext\n===',
      '1. one',
      '- ```\n  code',
      '> ```\n> code',
      '***',
      '<!-- c -->',
      'line with trailing \\',
      'hard break  ',
    ]) {
      const text = `${before}\n# Heading\nafter\n`;
      const whole = parseWhole(text);
      const h = whole.children.find(
        (c) =>
          c.type === 'heading' &&
          c.position?.start.column === 1 &&
          c.children[0]?.type === 'text' &&
          c.children[0].value === 'Heading',
      );
      expect(h?.position?.start.line, before).toBe(before.split('\n').length + 1);
      expectSame(text);
    }
  });

  it('handles CRLF, lone CR and a byte-order mark, positions and offsets included', () => {
    for (const text of [
      '# A\r\ntext\r\n## B\r\n- [x] t\r\n',
      '# A\rtext\r## B\r- [ ] t\r',
      '\uFEFF---\ntitle: x\n---\n# A\ntext\n## B\n',
      '# A\r\ntext\n## B\rx\r\n',
    ]) {
      expect(splitSections(text.replace(/^\uFEFF/, ''), 0)).not.toBeNull();
      expectSame(text);
    }
  });
});

describe('falls back to a whole parse', () => {
  it('when link reference or footnote definitions could resolve across sections', () => {
    expect(splitSections('# A\n[x]: https://example.com\n# B\nsee [x]\n', 0)).toBeNull();
    expect(splitSections('# A\ntext[^1]\n# B\n[^1]: note\n', 0)).toBeNull();
    expectSame('# A\n[x]: https://example.com\n# B\nsee [x]\n');
  });

  it('when the frontmatter fence is never closed, or a section after it starts like frontmatter', () => {
    expect(splitSections('---\ntitle: x\n# A\ntext\n# B\n', 0)).toBeNull();
    expect(splitSections('---\na: 1\n---\n---\nb\n---\n# A\n', 0)).toBeNull();
    expectSame('---\na: 1\n---\n---\nb\n---\n# A\n');
  });

  it('for small documents and documents with one section', () => {
    expect(splitSections('# A\ntext\n## B\n', 1024)).toBeNull();
    expect(splitSections('just a paragraph\n'.repeat(100), 0)).toBeNull();
  });

  it('when VALIDATE_WORKFLOW_WHOLE_PARSE=1', () => {
    const text = `# A\n${'text\n'.repeat(300)}## B\n- [ ] t\n`;
    process.env.VALIDATE_WORKFLOW_WHOLE_PARSE = '1';
    expect(parseMarkdown(text)).toStrictEqual(parseWhole(text));
    expect(sectionStats.documents + sectionStats.misses).toBe(0);
    delete process.env.VALIDATE_WORKFLOW_WHOLE_PARSE;
    expect(parseMarkdown(text)).toStrictEqual(parseWhole(text));
    expect(sectionStats.documents).toBe(1);
    process.env.VALIDATE_WORKFLOW_WHOLE_PARSE = '0';
    parseMarkdown(text);
    expect(sectionStats.documents).toBe(2); // only '1' turns the reuse off
  });

  it('a section nested thousands deep gives what the whole parse gives, its tree or its error', () => {
    const text = `# A\n${'text\n'.repeat(300)}## B\n${'>'.repeat(10_000)} deep\n`;
    let whole: unknown;
    try {
      whole = parseWhole(text);
    } catch (err) {
      whole = err;
    }
    if (whole instanceof Error) expect(() => parseMarkdown(text)).toThrow(whole.constructor as new () => Error);
    // expect's deep equality recurses and would overflow on such a tree: compared node by node, iteratively.
    else expect(differenceOf(parseMarkdown(text), whole as Root)).toBe(null);
  });
});

describe('the cache', () => {
  it('never hands out a cached tree: changing one result leaves the next parse intact', () => {
    const text = `---\ntitle: x\n---\n# A\n${'- [ ] task\n'.repeat(120)}## B\ntext\n`;
    // The first parse is whole (all new) and seeds the cache; the next ones are assembled from it.
    for (let round = 0; round < 3; round++) {
      const tree = parseMarkdown(text);
      expect(tree).toStrictEqual(parseWhole(text));
      (tree.children[1] as { depth: number }).depth = 6;
      tree.children[1]!.position!.start.line = 99;
      (tree.children[2] as { children: unknown[] }).children.length = 0;
      tree.children.pop();
    }
    expect(sectionStats.hits).toBeGreaterThanOrEqual(6);
  });

  it('parses only the changed section of the next version, and stays within its budget', () => {
    const section = (i: number, done: boolean) =>
      `## Phase ${i}\n${`- [${done ? 'x' : ' '}] task of phase ${i}\n`.repeat(20)}`;
    const version = (flip: number) =>
      `# Plan\n\n${Array.from({ length: 8 }, (_, i) => section(i, i === flip)).join('\n')}`;
    parseMarkdown(version(-1)); // all new: parsed whole, its sections cached from that tree
    expect(sectionStats.seeded).toBe(1);
    const calls = sectionStats.parses;
    expect(parseMarkdown(version(3))).toStrictEqual(parseWhole(version(3)));
    expect(sectionStats.parses - calls).toBe(1);
    // A small budget: least recently used sections go, what stays fits, and the result is the same.
    resetSectionCache(12_000);
    for (const flip of [-1, 3, 5, 3, 7]) expect(parseMarkdown(version(flip))).toStrictEqual(parseWhole(version(flip)));
    expect(sectionCacheSize().bytes).toBeLessThanOrEqual(12_000);
    expect(sectionCacheSize().entries).toBeGreaterThan(0);
  });
});

describe('sharding file versions over threads (PathShards)', () => {
  it('keeps every version of a path on one thread, in order, from batch to batch, with balanced shares', () => {
    const shards = new PathShards();
    const batch = (tag: string) =>
      Array.from({ length: 120 }, (_, i) => ({ path: `thoughts/p${(i * 7) % 12}.md`, v: `${tag}${i}` }));
    const homes = new Map<string, number>();
    for (const tag of ['a', 'b', 'c']) {
      const items = batch(tag);
      const shares = shards.split(items, (t) => t.path, 2);
      expect(shares.flat().length).toBe(items.length);
      shares.forEach((share, w) => {
        // Order within a share is the batch's order.
        expect(share.map((t) => items.indexOf(t))).toEqual(
          [...share.map((t) => items.indexOf(t))].sort((x, y) => x - y),
        );
        for (const t of share) {
          if (!homes.has(t.path)) homes.set(t.path, w);
          expect(homes.get(t.path), t.path).toBe(w);
        }
      });
      expect(Math.abs(shares[0]!.length - shares[1]!.length)).toBeLessThanOrEqual(20);
    }
  });
});

/** The first difference between two trees (type, value, position, child count), found without recursion. */
function differenceOf(a: Root, b: Root): string | null {
  const stack: [Node, Node, string][] = [[a, b, 'root']];
  while (stack.length > 0) {
    const [x, y, at] = stack.pop()!;
    const shape = (n: Node) =>
      JSON.stringify([n.type, (n as { value?: unknown }).value, n.position, (n as Parent).children?.length]);
    if (shape(x) !== shape(y)) return `${at}: ${shape(x)} vs ${shape(y)}`;
    (x as Parent).children?.forEach((c, i) => stack.push([c, (y as Parent).children[i]!, `${at}/${i}`]));
  }
  return null;
}
