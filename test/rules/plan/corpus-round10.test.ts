// Corpus round 10 (issue 19): the structure rules' noise and misreads left on the real corpus, each with a clean
// fixture and the planted one that must still be found, in our own words.
import { describe, expect, it } from 'vitest';
import { lintFiles, of } from '../../helpers/rule-tester.js';
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

describe('phases worked in a checklist outside them that names each phase', () => {
  const plan = (phase3: string) =>
    md(
      '# Theme migration',
      '## Phase 1: Snapshot the current theme',
      'Copy the colour tokens into a note.',
      '## Phase 2: Run the converter',
      'Run the converter over the stylesheets.',
      '## Phase 3: Check the pages',
      ...phase3.split('\n'),
      '## Progress Checklist',
      '- [x] Phase 1: Snapshot taken',
      '- [x] **Phase 2**: Converter run',
      '- [ ] Phase 3: Pages checked',
    );

  it('is read as unstructured, so no criteria finding is made up for its phases', () => {
    const read = readPlanText(PLAN, plan('- [ ] The home page renders\n- [ ] The settings page renders'));
    expect(read.unstructured?.reason).toMatch(/checked off by name in "Progress Checklist"/);
    expect(criteriaFindings(plan('- [ ] The home page renders'))).toEqual([]);
  });

  it('a phase with criteria of its own keeps the plan structured: its missing criteria are still found', () => {
    const text = plan('#### Automated Verification:\n- [ ] `make pages` passes');
    expect(readPlanText(PLAN, text).unstructured).toBeNull();
    expect(criteriaFindings(text, strict())).toContain('plan/phase-automated-criteria');
  });

  it('a checklist that names no phase is no tally of the phases', () => {
    const text = plan('Open each page.')
      .replace('Phase 1: Snapshot taken', 'Snapshot taken')
      .replace('**Phase 2**: Converter run', 'Converter run');
    expect(readPlanText(PLAN, text).unstructured).toBeNull();
    expect(criteriaFindings(text)).toEqual(['plan/phase-automated-criteria']);
  });
});

describe('a plan that writes only manual criteria keeps the learned automated promise', () => {
  const plan = (kind: 'Automated' | 'Manual') =>
    md(
      '# Record the walkthrough',
      '## Phase 1: Record',
      '- [ ] Task 1: Record the screen',
      '### Success Criteria:',
      `#### ${kind} Verification:`,
      '- [ ] The recording shows the sign-up flow',
      '## Phase 2: Publish',
      '- [ ] Task 2: Upload the recording',
    );

  it('recommended, learned from the majority: a plan with only manual items is not asked for a command', () => {
    expect(criteriaFindings(plan('Manual'))).toEqual([]);
  });

  it('a plan with only automated items is still asked for what a human checks (the gate needs them)', () => {
    expect(criteriaFindings(plan('Automated'))).toEqual(['plan/phase-manual-criteria']);
  });

  it('a plan with no criteria at all still departs from the promise', () => {
    const bare = md('# Record the walkthrough', '## Phase 1: Record', '- [ ] Task 1: Record the screen');
    expect(criteriaFindings(bare)).toEqual(['plan/phase-automated-criteria']);
  });

  it("strict and a config's promise hold every phase to both kinds", () => {
    expect(criteriaFindings(plan('Manual'), strict())).toContain('plan/phase-automated-criteria');
    expect(criteriaFindings(plan('Automated'), strict())).toContain('plan/phase-manual-criteria');
    expect(criteriaFindings(plan('Manual'), {})).toContain('plan/phase-automated-criteria');
  });
});

describe('a progress summary that checks phases off by name', () => {
  const plan = (summary: string) =>
    md(
      '---',
      'status: complete',
      '---',
      '# Worker pool',
      '## Progress Summary',
      ...summary.split('\n'),
      '## Phase 1: Pool size setting',
      '- [x] Task 1: Read the pool size from the environment',
      '#### Automated Verification:',
      '- [x] `make test` passes',
      '## Phase 2: Run jobs in parallel',
      '- [x] Task 2: Start a job per free slot',
      '#### Automated Verification:',
      '- [x] `make test` passes',
      '- [ ] A new test runs two jobs at once',
    );

  it("is the plan's word that the phase is done: its stale box contradicts no claim", () => {
    const text = plan('- [x] Phase 1: Pool size setting\n- [x] Phase 2: Run jobs in parallel');
    expect(readPlanText(PLAN, text).phases[1]!.statusDone).toBe(true);
    expect(of(lintFiles({ [PLAN]: text }), 'plan/claimed-complete')).toEqual([]);
  });

  it('a summary that leaves the phase open, or names no phase, keeps the contradiction', () => {
    for (const summary of ['- [x] Phase 1: Pool size setting\n- [ ] Phase 2: Run jobs in parallel', 'All done.']) {
      const found = of(lintFiles({ [PLAN]: plan(summary) }), 'plan/claimed-complete');
      expect(found.map((f) => f.message)).toEqual([expect.stringContaining('"A new test runs two jobs at once"')]);
    }
  });
});
