// readPlanText on each plan dialect: which headings open phases, which checkboxes are tasks, steps and criteria,
// what counts as checked, and where each came from. The dialect fixtures are read as they are; the short texts
// pin one reading rule each.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isVerificationTitle, readPlanText } from '../../src/read/plan.js';
import type { CheckItem, Plan } from '../../src/model/types.js';
import { validate } from '../../src/schemas/validate.js';

function fixture(path: string): string {
  return readFileSync(new URL(`../fixtures/dialects/${path}`, import.meta.url), 'utf8');
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

const brief = (items: CheckItem[]) => items.map((i) => ({ text: i.text, checked: i.checked, na: i.na }));

describe('HumanLayer create_plan', () => {
  const path = 'thoughts/shared/plans/2026-01-08-ENG-1478-oauth-token-refresh.md';
  const text = fixture(`humanlayer/${path}`);
  const plan = readPlanText(path, text);

  it('reads `## Phase N: Title` headings as phases, and nothing inside code blocks', () => {
    expect(plan.title).toBe('OAuth Token Refresh Implementation Plan');
    expect(plan.phases.map((p) => ({ number: p.number, title: p.title, line: p.line }))).toEqual([
      { number: 1, title: 'Persist refresh tokens', line: lineOf(text, '## Phase 1:') },
      { number: 2, title: 'Refresh before expiry', line: lineOf(text, '## Phase 2:') },
    ]);
    // The fenced example in Phase 1 holds a `## Phase 9`, a `- [x] Task 1` and a manual item: none of them count.
    expect(plan.phases.flatMap((p) => p.tasks)).toEqual([]);
    expect(plan.phases.flatMap((p) => p.other)).toEqual([]);
  });

  it('reads `#### Automated Verification:` and `#### Manual Verification:` under `### Success Criteria:` per phase', () => {
    const [one, two] = plan.phases;
    expect(brief(one!.automated)).toEqual([
      { text: 'Migration applies cleanly: make -C hld migrate', checked: true, na: false },
      { text: 'Unit tests pass: make -C hld test', checked: true, na: false },
      { text: 'Type checking passes: make -C hld check', checked: true, na: false },
    ]);
    expect(one!.manual.map((m) => m.checked)).toEqual([true, true]);
    expect(brief(two!.automated).map((a) => a.checked)).toEqual([true, false]);
    expect(two!.manual.map((m) => m.text)).toEqual([
      'A session left open overnight still answers in the morning',
      'Revoking the grant at the provider shows the re-login prompt',
    ]);
    expect(two!.automated[1]!.line).toBe(lineOf(text, '- [ ] Integration tests pass'));
  });

  it('keeps the frontmatter and validates against the plan schema', () => {
    expect(plan.problems).toEqual([]);
    expect(plan.frontmatter).toMatchObject({
      researcher: 'allison',
      topic: 'OAuth token refresh Implementation Plan',
      status: 'draft',
    });
    expect(validate('plan', plan.normalized)).toEqual([]);
  });
});

describe('Continuous-Claude plan-agent', () => {
  const path = 'thoughts/shared/plans/2026-02-03-api-rate-limiting.md';
  const text = fixture(`continuous-claude/${path}`);
  const plan = readPlanText(path, text);

  it('has one implicit phase when no heading names a phase', () => {
    expect(plan.phases).toHaveLength(1);
    expect(plan.phases[0]).toMatchObject({ number: null, title: '' });
  });

  it('reads `### Task N:` headings as tasks whose own checkboxes are steps; a task is complete when every step is', () => {
    const tasks = plan.phases[0]!.tasks;
    expect(
      tasks.map((t) => ({
        number: t.number,
        title: t.title,
        checked: t.checked,
        source: t.source,
        steps: t.steps.map((s) => s.checked),
      })),
    ).toEqual([
      { number: 1, title: 'Token bucket', checked: true, source: 'heading', steps: [true, true, true] },
      { number: 2, title: 'Redis store', checked: true, source: 'heading', steps: [true, true, true] },
      { number: 3, title: 'Express middleware', checked: false, source: 'heading', steps: [true, false, false] },
      { number: 4, title: 'Per-key configuration', checked: false, source: 'heading', steps: [false, false] },
    ]);
    expect(tasks[2]!.line).toBe(lineOf(text, '### Task 3:'));
  });

  it('gives the plan-level `## Success Criteria` to the (last) phase, with N/A items marked', () => {
    const phase = plan.phases[0]!;
    expect(phase.automated.map((a) => a.text)).toEqual([
      'All tests pass: npm test',
      'Types check: npx tsc --noEmit',
      'Lint passes: npm run lint',
    ]);
    expect(brief(phase.manual)).toEqual([
      { text: 'hey -n 200 https://staging.example.com/api/search gets 429 after the limit', checked: false, na: false },
      { text: 'N/A: no dashboard changes in this plan', checked: false, na: true },
    ]);
    expect(validate('plan', plan.normalized)).toEqual([]);
  });

  it('counts an N/A step as done, and a task heading without steps as not done', () => {
    const p = readPlanText(
      'p.md',
      [
        '### Task 1: Docs',
        '- [x] Write the page',
        '- [ ] N/A: no screenshots',
        '### Task 2: Release',
        'Tag it.',
        '',
      ].join('\n'),
    );
    expect(p.phases[0]!.tasks.map((t) => [t.number, t.checked])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  // Round 3 (convention section 4, corpus pattern 3): plan-level criteria are the plan's own, kept in a section
  // outside the phase sequence; they were pinned on the last phase before, which held phase order wrongly.
  it("keeps plan-level criteria after the phases as the plan's, not the last phase's", () => {
    const p = readPlanText(
      'p.md',
      [
        '## Phase 1: A',
        '- [ ] Task 1: a',
        '## Phase 2: B',
        '- [ ] Task 2: b',
        '## Success Criteria',
        '### Automated Verification',
        '- [ ] `npm test`',
        '### Manual Verification',
        '- [ ] Looks right',
        '',
      ].join('\n'),
    );
    expect(p.phases.map((ph) => [ph.number, ph.outside ?? false, ph.automated.length, ph.manual.length])).toEqual([
      [1, false, 0, 0],
      [2, false, 0, 0],
      [null, true, 1, 1],
    ]);
  });
});

describe('canonical micro-spec', () => {
  const path = 'thoughts/shared/plans/2026-11-20-auth.md';
  const text = fixture(`canonical/${path}`);
  const plan: Plan = readPlanText(path, text);

  it('reads `- [ ] Task N:` items under `## Phase N:`, numbered across the plan', () => {
    expect(plan.phases.map((p) => p.tasks.map((t) => [t.number, t.title, t.checked, t.source]))).toEqual([
      [
        [1, 'Add users table', true, 'item'],
        [2, 'Add sessions table', true, 'item'],
      ],
      [
        [3, 'Add login endpoint', true, 'item'],
        [4, 'Add logout endpoint', false, 'item'],
        [5, 'Expire idle sessions', false, 'item'],
      ],
    ]);
    expect(plan.phases[1]!.tasks[0]!.line).toBe(lineOf(text, '- [x] Task 3:'));
    expect(plan.frontmatter).toEqual({ mode: 'orchestration', context_critical: false });
    expect(plan.normalized).toMatchObject({ mode: 'orchestration', context_critical: false });
  });

  it('marks an `N/A` manual item as not applicable', () => {
    expect(brief(plan.phases[0]!.manual)).toEqual([
      { text: 'N/A: no user-visible change in this phase', checked: false, na: true },
    ]);
    expect(brief(plan.phases[1]!.manual).every((m) => !m.na)).toBe(true);
  });

  it('reads `[x]` and `[X]` as checked, `[ ]` as open', () => {
    const p = readPlanText(
      'p.md',
      ['## Phase 1: A', '- [x] Task 1: a', '- [X] Task 2: b', '- [ ] Task 3: c', ''].join('\n'),
    );
    expect(p.phases[0]!.tasks.map((t) => t.checked)).toEqual([true, true, false]);
  });
});

describe('headings the reader recognises', () => {
  it('opens phases at `##` and `###`, with `:`, `.`, `-` or nothing after the number', () => {
    const p = readPlanText(
      'p.md',
      [
        '# Plan',
        '## Phase 1: Colon',
        '## Phase 2. Dot',
        '### Phase 3 - Dash',
        '## Phase 4',
        '#### Phase 5: too deep',
        '## Phases overview',
        '',
      ].join('\n'),
    );
    expect(p.phases.map((ph) => [ph.number, ph.title])).toEqual([
      [1, 'Colon'],
      [2, 'Dot'],
      [3, 'Dash'],
      [4, ''],
    ]);
  });

  // Round 7 (a held-out repository): `### Phase 0 Progress Update` under `## PHASE 0`, `### Phase 3 Testing Strategy`
  // under Phase 3 and `### Phase 3 + 4 outcome` under Phase 4 are sections of the phase they sit in, not phases
  // that "appear again"; their boxes are that phase's.
  it('reads a deeper heading naming its own phase, or an earlier one, as a section of the phase it sits in', () => {
    const p = readPlanText(
      'p.md',
      [
        '# Plan',
        '## PHASE 0: Security fixes',
        '- [x] Task 1: Rotate the keys',
        '### Phase 0 Progress Update',
        '- [x] Keys rotated in staging',
        '## Phase 1: Sign-in',
        '- [ ] Task 2: Add the sign-in page',
        '### Phase 1 Testing Strategy',
        '- [ ] Sign-in tests cover the lockout',
        '## Phase 2: Sessions',
        '- [ ] Task 3: Add session expiry',
        '### Phase 1 + 2 outcome',
        'Both shipped in one release.',
        '### Phase 2.1: Refresh tokens',
        '- [ ] Task 4: Add token refresh',
        '',
      ].join('\n'),
    );
    expect(p.unstructured ?? null).toBe(null);
    expect(p.phases.map((ph) => [ph.label, ph.title])).toEqual([
      ['0', 'Security fixes'],
      ['1', 'Sign-in'],
      ['2', 'Sessions'],
      ['2.1', 'Refresh tokens'],
    ]);
    expect(p.phases[0]!.other.map((i) => i.text)).toEqual(['Keys rotated in staging']);
    expect(p.phases[1]!.other.map((i) => i.text)).toEqual(['Sign-in tests cover the lockout']);
  });

  it('reads criteria headings at levels 3 to 5 and not at level 2', () => {
    const levels = (depth: number) =>
      readPlanText(
        'p.md',
        [
          '## Phase 1: A',
          `${'#'.repeat(depth)} Automated Verification`,
          '- [ ] `npm test`',
          `${'#'.repeat(depth)} Manual Verification:`,
          '- [ ] Looks right',
          '',
        ].join('\n'),
      ).phases[0]!;
    for (const depth of [3, 4, 5])
      expect([levels(depth).automated.length, levels(depth).manual.length], `level ${depth}`).toEqual([1, 1]);
    expect([levels(2).automated.length, levels(2).manual.length]).toEqual([0, 0]);
  });

  it('ends a criteria section at the next heading of its level or above', () => {
    const p = readPlanText(
      'p.md',
      [
        '## Phase 1: A',
        '#### Automated Verification:',
        '- [x] `npm test`',
        '#### Manual Verification:',
        '- [ ] Looks right',
        '### Notes',
        '- [x] Told the team',
        '',
      ].join('\n'),
    );
    const phase = p.phases[0]!;
    expect([phase.automated.length, phase.manual.length]).toEqual([1, 1]);
    expect(phase.other.map((o) => o.text)).toEqual(['Told the team']);
  });

  it('reports bad frontmatter YAML as a problem at its line, and still reads the body', () => {
    const p = readPlanText(
      'p.md',
      ['---', 'topic: Auth: login', '---', '## Phase 1: A', '- [ ] Task 1: a', ''].join('\n'),
    );
    expect(p.problems.map((x) => x.line)).toEqual([2]);
    expect(p.phases[0]!.tasks).toHaveLength(1);
  });
});

// Round 14 (issue 19): a plan may keep its verification in a phase of its own; the reader marks that phase and leaves
// its boxes as they were read (the kind of its items is unsaid, so nothing is made automated or manual).
describe("a plan's own testing phase", () => {
  it('is a phase whose title names testing and nothing else', () => {
    const yes = [
      'Testing & Validation',
      'Testing and Validation',
      'Final Verification',
      'QA',
      'End-to-End Tests',
      'Testing, validation, and QA',
      'Verification ✅',
      'Manual testing [WIP]',
      'Testing (deferred) ✅',
    ];
    const no = [
      'Integration & Testing',
      'Testing infrastructure',
      'Write the tests and docs',
      'Validation of inputs',
      'Polish',
      // Review of round 14: an aside is stripped only when it marks a state; this one names other work.
      'Testing (plus the release script)',
      'Manual testing (staging)',
    ];
    expect(yes.filter((t) => !isVerificationTitle(t))).toEqual([]);
    expect(no.filter((t) => isVerificationTitle(t))).toEqual([]);
  });

  it('is marked when it holds a checkbox of no stated kind, which stays where it was read', () => {
    const text = [
      '# Importer',
      '## Phase 1: Scanner',
      '- [x] Task 1: Walk the folder',
      '## Phase 2: Testing & Validation',
      '### Functional checks',
      '- [ ] A corrupt file is skipped with a message',
      '- [ ] N/A: no network in this phase',
      '## Phase 3: QA',
      '#### Manual Verification:',
      '- [ ] The list scrolls smoothly',
      '## Phase 4: Verification',
      'Run it on a big folder.',
    ].join('\n');
    const plan = readPlanText('p.md', text);
    expect(plan.phases.map((p) => [p.title, p.verification ?? false])).toEqual([
      ['Scanner', false],
      ['Testing & Validation', true],
      ['QA', false],
      ['Verification', false],
    ]);
    const testing = plan.phases[1]!;
    expect([testing.automated.length, testing.manual.length, testing.unknown.length, testing.other.length]).toEqual([
      0, 0, 0, 2,
    ]);
  });

  // Review of round 14: a task or a task's step is work whatever the phase is called; only plain boxes of no stated
  // kind make a phase the plan's testing phase.
  it('is not marked for a feature phase named like testing that holds tasks or steps', () => {
    const text = [
      '# Signup form',
      '## Phase 1: Validation',
      '- [ ] Task 1: Add zod schemas for every field',
      '## Phase 2: Tests',
      '- [ ] Task 2: Write unit tests for the scanner',
      '## Phase 3: User Verification',
      '### Task 3: Send the verification email',
      '- [ ] Render the email',
      '- [ ] Send it on signup',
      '## Phase 4: Testing',
      '- [ ] Task 4: Add the fixtures',
      '- [ ] Sign up with a fresh address and open the email',
    ].join('\n');
    const plan = readPlanText('p.md', text);
    expect(plan.phases.map((p) => [p.title, p.verification ?? false])).toEqual([
      ['Validation', false],
      ['Tests', false],
      ['User Verification', false],
      ['Testing', true],
    ]);
  });
});

describe("a phase's lead marker", () => {
  // The bold words that open the first paragraph under a phase heading say what its title would.
  const text = [
    '# Storage plan',
    '',
    '## Phase 1: Parser',
    '',
    '- [x] Task 1: Write the parser',
    '',
    '#### Automated Verification:',
    '- [x] `npm test` passes',
    '',
    '## Phase 2: Cache layer',
    '',
    '> **Merged into Phase 3** — the cache is built with the index; nothing is left here.',
    '',
    '#### Automated Verification:',
    '- [ ] `npm run bench` shows a cache hit',
    '',
    '## Phase 3: Index',
    '',
    '**DEFERRED**: waiting for the storage decision.',
    '',
    '#### Automated Verification:',
    '- [ ] `npm test -- index` passes',
    '',
    '## Phase 4: Export',
    '',
    '> **STATUS: DONE** (shipped with the 2.1 release)',
    '',
    '#### Automated Verification:',
    '- [ ] `npm test -- export` passes',
    '',
    '## Phase 5: Import',
    '',
    '**Goal**: nothing deferred; import what the export wrote.',
    '',
    '#### Automated Verification:',
    '- [ ] `npm test -- import` passes',
    '',
    '## Phase 6: Cleanup',
    '',
    'We merged into Phase 5 what we could. **Deferred** parts follow.',
    '',
    '#### Automated Verification:',
    '- [ ] `npm test -- cleanup` passes',
    '',
  ].join('\n');
  const marks = (plan: Plan) =>
    plan.phases.map((p) => ({ title: p.title, deferred: !!p.deferred, done: !!p.declaredDone }));

  it('sets a phase aside or declares it done, from a quote or a paragraph, and reads only the bold words', () => {
    expect(marks(readPlanText('thoughts/shared/plans/storage.md', text))).toEqual([
      { title: 'Parser', deferred: false, done: false },
      { title: 'Cache layer', deferred: true, done: false },
      { title: 'Index', deferred: true, done: false },
      { title: 'Export', deferred: false, done: true },
      { title: 'Import', deferred: false, done: false },
      { title: 'Cleanup', deferred: false, done: false },
    ]);
  });

  it('is read the same whether the plan is skimmed or parsed whole', () => {
    const skimmed = marks(readPlanText('thoughts/shared/plans/storage.md', text));
    process.env.VALIDATE_WORKFLOW_NO_SKIM = '1';
    try {
      expect(marks(readPlanText('thoughts/shared/plans/storage.md', text))).toEqual(skimmed);
      expect(skimmed.filter((p) => p.deferred || p.done)).toHaveLength(3);
    } finally {
      delete process.env.VALIDATE_WORKFLOW_NO_SKIM;
    }
  });

  it('keeps a title that says done and names where the rest went as done', () => {
    const plan = readPlanText(
      'thoughts/shared/plans/registry.md',
      '# Registry\n\n## Phase 1: Loader [DONE — partially superseded by Phase 3]\n\n- [x] Task 1: Load it\n\n## Phase 2: Schema merged into Phase 3\n\n- [ ] Task 2: Merge the schemas\n\n## Phase 3: Types\n\n- [ ] Task 3: Derive the types\n',
    );
    expect(marks(plan)).toEqual([
      { title: 'Loader [DONE — partially superseded by Phase 3]', deferred: false, done: true },
      { title: 'Schema merged into Phase 3', deferred: true, done: false },
      { title: 'Types', deferred: false, done: false },
    ]);
  });
});
