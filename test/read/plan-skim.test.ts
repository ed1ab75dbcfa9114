// The skimmed plan read (read/plan.ts readPlanText over read/skim.ts): a plan read through the skim is the plan a
// whole-file parse reads, for the Markdown files of this repository (a fixed sample of thoughts/) and of the fixtures
// read as a plan, and for generated plans that put what the skim must not miss where it could miss it (boxes, set-aside
// marks, criteria labels spelled through emphasis, breaks, entities and underscores, the plan's `**Status**`, disable
// comments, block quotes, setext and indented headings, headings in fences, HTML and list items, a heading after a
// fence the cut cannot tell open or closed, plain lists and code under a criteria heading, Markdown examples whose
// fences nest). The generated plans must skip sections, or the test proves nothing.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bothWays, generatedDocument, markdownFiles, thoughtsSample } from '../helpers/skim.js';
import { planMayMatter, readPlanText } from '../../src/read/plan.js';
import { CRITERIA_LABEL_STARTS, criteriaKindOf } from '../../src/read/criteria.js';
import { skimOf } from '../../src/read/skim.js';
import { propertyRuns } from '../helpers/runs.js';

const REPO = join(import.meta.dirname, '..', '..');
/** Sections of a text the plan skim leaves out (neither its own text nor an open criteria scope reads them). */
function skipped(text: string): number {
  const skim = skimOf(text, planMayMatter, 0, false);
  return skim ? skim.fixed.filter((f, i) => !f && skim.sections[i]!.kind !== 'frontmatter').length : 0;
}

describe('a skimmed plan is the plan a whole parse reads', () => {
  it('for the Markdown files of this repository and of the fixtures, read as a plan', () => {
    const files = [
      ...thoughtsSample(REPO),
      ...['test/fixtures', 'docs', 'templates'].flatMap((d) => markdownFiles(join(REPO, d))),
    ];
    expect(files.length).toBeGreaterThan(150);
    let skips = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const path = relative(REPO, file);
      const { skimmed, whole } = bothWays(() => readPlanText(path, text));
      expect(skimmed, path).toEqual(whole);
      skips += skipped(text);
    }
    expect(skips).toBeGreaterThan(100);
  });

  const titles = [
    'Overview',
    'Phase 1: Setup',
    'Phase 2: Build',
    'Phase 2A: Metrics',
    'Phase 3: Ship [DONE]',
    'Phase 4 - Deferred',
    'Task 1: Wire it',
    'Task 2: Test it',
    'Success Criteria:',
    'Automated Verification:',
    'Manual Verification:',
    'Phase 1 Success Criteria',
    'Verification',
    'Changes Required:',
    '1. Expose routing',
    'Rollout',
    'Future work',
    'Status: Complete',
    'Implementation Status: Done',
    'Testing Strategy',
    'References',
  ];
  const bodies = [
    'Plain prose about the change.',
    '- a bullet\n- another bullet',
    '1. first\n2. second\n   - nested',
    '* star bullet\n\n  continued',
    '```bash\n# a comment\nmake test\n```',
    '    indented code',
    '| a | b |\n| --- | --- |\n| `x` | y |',
    '- [ ] Task 1: do it',
    '- [x] `make test` passes',
    '- [ ] The page loads',
    '- [~] build skipped: typecheck suffices',
    '- [-] dropped',
    '- plain\n  - [x] nested box',
    '**File**: `src/a.ts`\n**Changes**: prose about it.',
    '**Automated:** `make test` passes',
    '**Manual verification:**',
    '**Auto*mated*:** `npm test`',
    '**Auto\\\nmated:** `npm test`',
    '**`CI`**: green',
    '__Manual__: click it',
    '**&#65;utomated:** spelled through an entity',
    'Intro line\n**Automated:** `make lint` passes',
    '**Status**: Complete',
    '**Implementation Status**: Done',
    '**Note**: nothing to see',
    '<!-- validate-workflow-disable plan/phase-automated-criteria -- generated -->',
    'Text with an inline <!-- validate-workflow-disable plan/claimed-complete --> comment.',
    '> ## Phase 9: quoted\n> - [ ] quoted box',
    '> **Automated:** quoted label',
    '> plain quote',
    '  ## Phase 5: indented',
    'Setext Phase 6\n-------',
    'Setext Phase 7\n=======',
    '---',
    '```\n## Phase 8: in code\n```',
    '~~~md\n## Phase 8: example\n~~~',
    '```markdown\n## Phase 10: example\n```bash\nls\n```\n```',
    '<div>\n## Phase 11: in html\n</div>',
    '- item\n\n  ## Phase 12: in an item',
    '- item\n  ```bash\n  ls',
    '  <div>\n  text',
    'A [link](https://example.com) and text',
  ];
  const plan = generatedDocument({
    frontmatter: ['status: complete', 'mode: strict', 'type: plan', 'topic: x'],
    titles,
    h1s: ['Cache Implementation Plan', 'Code Review Checklist'],
    bodies,
    depth: { min: 2, max: 5 },
    maxSections: 12,
  });

  it('for generated plans', () => {
    let skips = 0;
    const runs = propertyRuns(400);
    fc.assert(
      fc.property(plan, (text) => {
        const { skimmed, whole } = bothWays(() => readPlanText('thoughts/shared/plans/2026-01-01-x.md', text));
        expect(skimmed).toEqual(whole);
        skips += skipped(text);
      }),
      { seed: 20261127, numRuns: runs },
    );
    expect(skips).toBeGreaterThan(runs * 0.75);
  });
});

describe("the skim's test for bold labels", () => {
  const letters = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');
  const starts = (label: string) => CRITERIA_LABEL_STARTS.some((w) => letters(label).startsWith(w));

  it('knows how every criteria label the reader gives a kind starts', () => {
    const words = [
      'automated',
      'Automatic',
      'manual',
      'Human',
      'user',
      'visual',
      'hands-on',
      'success',
      'acceptance',
      'completion',
      'verification',
      'exit',
      'criteria',
      'definition',
      'of',
      'done',
      'when',
      'final',
      'phase',
      'quality',
      'gate',
      'CI',
      'ci-only',
      'only',
      'tests',
      'test',
      'checks',
      'check',
      'commands',
      'command',
      'to',
      'run',
      'steps',
      'testing',
      'qa',
      'review',
      '(manual)',
      '(automated)',
      '(phase 2)',
      ':',
    ];
    let kinds = 0;
    const runs = propertyRuns(3000);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }), fc.boolean(), (ws, colon) => {
        const label = `${ws.join(' ')}${colon ? ':' : ''}`;
        if (criteriaKindOf(label) === null) return;
        kinds++;
        expect(starts(label), label).toBe(true);
      }),
      { seed: 20261127, numRuns: runs },
    );
    expect(kinds).toBeGreaterThan(runs / 15);
  });

  it("knows how every heading and bold label of this repository's Markdown that names criteria starts", () => {
    const files = [
      ...thoughtsSample(REPO),
      ...['test/fixtures', 'docs', 'templates'].flatMap((d) => markdownFiles(join(REPO, d))),
    ];
    let kinds = 0;
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^(?:#{1,6}[ \t]+(.*)|\*\*([^*\n]+)\*\*)/gm)) {
        const label = (m[1] ?? m[2]!).trim();
        if (criteriaKindOf(label) === null) continue;
        kinds++;
        expect(starts(label), `${relative(REPO, file)}: ${label}`).toBe(true);
      }
    }
    expect(kinds).toBeGreaterThan(50);
  });
});
