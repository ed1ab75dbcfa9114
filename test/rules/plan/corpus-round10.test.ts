// Corpus round 10 (issue 19): a bold criteria label alone on its line is read with the handoff reader's restOfLine
// (read/markdown.ts), in our own words. The round's other readings were taken back after a review (closing note).
import { describe, expect, it } from 'vitest';
import { lintFiles } from '../../helpers/rule-tester.js';
import { readPlanText } from '../../../src/read/plan.js';
import { PLAN, md, strict } from '../fixtures.js';

/** Three more plans of the repository that split their criteria: the majority says it promises them. */
const SPLIT_PLANS = Object.fromEntries(
  [1, 2, 3].map((n) => [
    `thoughts/shared/plans/2026-09-0${n}-before-${n}.md`,
    md(
      `# Before ${n}`,
      '## Phase 1: Work',
      '### Success Criteria:',
      '#### Automated Verification:',
      '- [ ] `make check` passes',
      '#### Manual Verification:',
      '- [ ] The report opens in the browser',
    ),
  ]),
);

/** Learned from the majority, not the rule tester's canonical protocol (which is a config's promise). */
const learned = { protocol: undefined };

const criteriaFindings = (text: string, config: Parameters<typeof lintFiles>[1] = learned) =>
  lintFiles({ ...SPLIT_PLANS, [PLAN]: text }, config)
    .filter((f) => f.file === PLAN && /^plan\/phase-(?:automated|manual)-criteria$/.test(f.ruleId))
    .map((f) => f.ruleId);

describe('a bold criteria label alone on its line, with prose on the next line', () => {
  const plan = (after: string) =>
    md(
      '# Export button',
      '## Phase 1: Add the button',
      '- [ ] Task 1: Render the button in the toolbar',
      '### Success Criteria',
      `**Automated:**${after}`,
      '**Manual:** Clicking the button downloads a file.',
    );

  it('the label with its text on the same line says the phase has automated criteria', () => {
    const [phase] = readPlanText(PLAN, plan(' `make test` is green.')).phases;
    expect(phase!.listed).toEqual(['automated', 'manual']);
  });

  it('the label alone, its prose on the next line, says nothing of automated criteria', () => {
    const [phase] = readPlanText(PLAN, plan('\nThe export code is covered somewhere later.')).phases;
    expect(phase!.listed).toEqual(['manual']);
    // strict holds every phase to automated items: the prose is none.
    expect(criteriaFindings(plan('\nThe export code is covered somewhere later.'), strict())).toContain(
      'plan/phase-automated-criteria',
    );
  });
});
