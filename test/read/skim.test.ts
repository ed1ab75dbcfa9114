// The skimmed handoff read (read/skim.ts): a handoff read through the skim is the handoff a whole-file parse reads, for
// a fixed sample of this repository's handoffs, every handoff of the fixtures, for generated handoffs that put what the
// skim must not miss where it could miss it (status markers spelled through entities, links and emphasis, disable
// comments, setext and indented headings, headings inside fenced code and HTML blocks, sections a frontmatter key does
// or does not give), and for the snapshot findings of a repository of the sample.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bothWays, generatedDocument, markdownFiles, thoughtsSample } from '../helpers/skim.js';
import { readHandoffText } from '../../src/read/handoff.js';
import { frontmatterNode, headingNode, parseSkimmed, skimmedText, skimOf } from '../../src/read/skim.js';
import { parseWhole } from '../../src/read/markdown.js';
import { lintRepository } from '../../src/engine/lint.js';
import { CONFIG_FILE, loadConfig } from '../../src/config/config.js';
import { RULE_IDS } from '../../src/engine/catalog.js';
import { propertyRuns } from '../helpers/runs.js';
import { makeRepo } from '../helpers/repo.js';

const REPO = join(import.meta.dirname, '..', '..');
const ROOT = 'thoughts/handoffs';
describe('a skimmed handoff is the handoff a whole parse reads', () => {
  it("for a fixed sample of this repository's handoffs and every Markdown fixture read as a handoff", () => {
    const files = [...thoughtsSample(REPO, ['handoffs']), ...markdownFiles(join(REPO, 'test/fixtures'))];
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const path = relative(REPO, file);
      const { skimmed, whole } = bothWays(() => readHandoffText(path, ROOT, text));
      expect(skimmed, path).toEqual(whole);
    }
  });

  const titles = [
    'Summary',
    'Status',
    'Status: Done',
    'Status (2026-02-01): Blocked',
    'Phase Status',
    'Files Modified',
    'Files Created',
    '1. Test Results Summary:',
    'Verification',
    'Next Steps',
    'Issues Encountered',
    'Decisions Made',
    'Open Questions',
    'Resolution',
    'Task Summary',
    'Completed: 2026-01-02',
    'Task 03: Chat types - COMPLETED',
    '*Files* Modified',
    'What Was Done',
  ];
  const bodies = [
    'Plain prose about the change.',
    '**Status:** Done',
    'Intro line\n**Status:** partial\n**Agent:** kraken',
    '**Sta**tus: blocked',
    '**&#83;tatus:** failed',
    '**[Sta](x)tus:** done',
    '**Sta`t`us:** done',
    '<!-- validate-workflow-disable handoff/schema -- generated -->',
    'Text with an inline <!-- validate-workflow-disable handoff/unlinked --> comment.',
    '- `src/a.ts:12-30` - changed\n- src/b.ts',
    '- [x] npm test\n- [ ] npm run e2e',
    '| file | what |\n| --- | --- |\n| `src/c.ts` | added |',
    '- Phase 1 (Tests written): VALIDATED (25 failing)\n- Phase 2 (Code): COMPLETE',
    'Status\n------',
    'Files Modified\n==============\n\n- src/d.ts',
    '  ## Status: complete',
    '   # Handoff: indented',
    '  ## Files Modified\n\n- src/e.ts',
    '```md\n## Status: failed\n```',
    '~~~\n## Files Modified\n~~~',
    '<div>\n## Status: blocked\n</div>',
    '> ## Status: done\n> quoted',
    '- item\n\n  ## Next Steps\n  nested',
    '- item\n  ```bash\n  ls',
    'None.',
    'Done',
    '---',
  ];
  const keys = [
    'status: complete',
    'task: 3',
    'files_modified: [src/x.ts]',
    'verification_results:\n  - check: npm test\n    result: pass',
    'context_for_next: keep going',
    'decisions: []',
    'blocker: null',
    'open_questions: []',
    'task_desc: Wire it',
  ];
  const handoff = generatedDocument({
    frontmatter: keys,
    titles,
    h1s: ['Task Handoff: Wire it', 'Task 03: Chat types - COMPLETED', 'Notes ✅'],
    bodies,
    depth: { min: 1, max: 6 },
    maxSections: 8,
  });

  it('for generated handoffs', () => {
    fc.assert(
      fc.property(handoff, (text) => {
        const { skimmed, whole } = bothWays(() => readHandoffText(`${ROOT}/s1/task-03-x.md`, ROOT, text));
        expect(skimmed).toEqual(whole);
      }),
      { seed: 20261127, numRuns: propertyRuns(250) },
    );
  });

  it("for the snapshot findings of this repository's sampled workflow files, under its config", () => {
    // A repository of the sample and the config, committed: the same files every run, where linting this repository
    // itself read more with every round of work.
    const files = [...thoughtsSample(REPO), join(REPO, CONFIG_FILE)];
    const dir = makeRepo(Object.fromEntries(files.map((f) => [relative(REPO, f), readFileSync(f)])), { commit: true });
    const config = loadConfig(dir, undefined, RULE_IDS);
    const { skimmed, whole } = bothWays(() => lintRepository(dir, config, true).findings);
    // Handoffs whose plans are left out of the sample, chains cut short: findings enough for the comparison to see.
    expect(whole.length).toBeGreaterThan(10);
    expect(skimmed.length).toBe(whole.length);
    expect(skimmed).toEqual(whole);
  });
});

describe('the skimmed text', () => {
  const text = [
    '---',
    'status: done',
    '---',
    '# Handoff',
    '',
    'Intro prose.',
    '',
    '## Summary',
    '',
    'Long prose that nobody reads.',
    'More of it.',
    '',
    '## Verification',
    '',
    '- npm test',
    '',
  ].join('\r\n');

  it('keeps every line where it was: the sections not read keep their heading line and line endings', () => {
    const skim = skimOf(text, () => false, 0)!;
    expect(skim.sections.map((s) => s.kind)).toEqual(['frontmatter', 'heading', 'heading', 'heading']);
    const keep = skim.sections.map((s, i) => i === 0 || s.text.startsWith('## Verification'));
    const out = skimmedText(skim, keep);
    expect(out.split('\r\n')).toHaveLength(text.split('\r\n').length);
    expect(out).not.toContain('prose');
    expect(out).not.toContain('Summary');
    expect(out).toContain('## Verification\r\n');
    const tree = parseSkimmed(skim, keep, parseWhole)!;
    const whole = parseWhole(text);
    const at = (t: typeof tree) =>
      t.children.filter((n) => n.type !== 'paragraph').map((n) => [n.type, n.position!.start.line]);
    expect(at(tree)).toEqual(at(whole));
  });

  it('is not made when the document has definitions, a byte-order mark, or when VALIDATE_WORKFLOW_NO_SKIM=1', () => {
    expect(skimOf(`${text}\n[a]: https://example.com\n`, () => false, 0)).toBeNull();
    expect(skimOf(`\ufeff${text}`, () => false, 0)).toBeNull();
    expect(bothWays(() => skimOf(text, () => false, 0)).whole).toBeNull();
  });

  it("makes the frontmatter's node as the parser does, without parsing it", () => {
    const frontmatter = fc.record({
      open: fc.constantFrom('---', '---  ', '---\t'),
      close: fc.constantFrom('---', '--- ', '---\t '),
      lines: fc.array(fc.constantFrom('', ' ', 'a: 1', 'status: done', '  - x', '# c', '--', '----'), { maxLength: 5 }),
      eol: fc.constantFrom('\n', '\r\n', '\r'),
      after: fc.constantFrom('', '\n', '\n# Title\n', '\nText\n'),
    });
    fc.assert(
      fc.property(frontmatter, (f) => {
        const text = [f.open, ...f.lines, f.close].join(f.eol) + f.after.replace(/\n/g, f.eol);
        const skim = skimOf(`${text}${f.eol}## Next${f.eol}`, () => false, 0);
        expect(skim?.sections[0]?.kind).toBe('frontmatter');
        expect(frontmatterNode(skim!.sections[0]!.text)).toEqual(parseWhole(text).children[0]);
      }),
      { seed: 20261127, numRuns: propertyRuns(300) },
    );
  });

  it("makes a plain heading's node as the parser does, and leaves any other heading to the parser", () => {
    const heading = fc.record({
      depth: fc.integer({ min: 1, max: 6 }),
      gap: fc.constantFrom(' ', '  ', '\t', ''),
      words: fc.array(
        fc.constantFrom('Files', 'Modified', '#5', 'a#', '1.', 'Status:', '—', '*x*', '`c`', '[l]', 'é', '  '),
        {
          maxLength: 4,
        },
      ),
      close: fc.constantFrom('', ' #', ' ##', '#', ' ', '  ## '),
    });
    let made = 0;
    const runs = propertyRuns(400);
    fc.assert(
      fc.property(heading, (h) => {
        const line = `${'#'.repeat(h.depth)}${h.words.length || h.gap ? h.gap || ' ' : ''}${h.words.join(' ')}${h.close}`;
        // Only a line the cut takes for a heading starts a heading section.
        if (!/^#{1,6}(?:[ \t]|$)/.test(line)) return;
        const node = headingNode({ text: `${line}\n`, offset: 3, line: 2, kind: 'heading', unseen: false });
        if (!node) return;
        made++;
        expect(node).toEqual(parseWhole(`a\n\n${line}\n`).children[1]);
      }),
      { seed: 20261127, numRuns: runs },
    );
    expect(made).toBeGreaterThan(runs / 4);
  });

  it('reads a section whole when it may hold a heading the cut did not see', () => {
    const skim = skimOf('## A\n\nTitle\n-----\n\n## B\n\n   ## C\n\n## D\n\ntext\n', () => false, 0)!;
    expect(skim.fixed).toEqual([true, true, false]);
  });
});
