// Round 3: judge each repository by the protocol it promised (convention section 4b), and read plans
// conservatively (section 4). Each misread pattern seen on repositories nobody described to us has a clean
// fixture (nothing to report) and a planted one (the violation the pattern must not hide), all in our own words.
import { describe, expect, it } from 'vitest';
import { lintFiles, of, ruleOf, runTransitionCase } from '../../helpers/rule-tester.js';
import { readPlanText } from '../../../src/read/plan.js';
import { CREATE_PLAN_COMMAND, makeRepo, runCliHere } from '../../helpers/repo.js';
import { isTemplateName } from '../../../src/read/paths.js';
import { forgetInstructions, instructionInputs, instructionSignals } from '../../../src/read/profile.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLAN, lineOf, md, reported, strict } from '../fixtures.js';

const STRUCTURE = [
  'plan/phase-automated-criteria',
  'plan/phase-manual-criteria',
  'plan/task-numbering',
  'plan/phase-order',
  'plan/manual-before-automated',
];
const problems = (files: Record<string, string>, config = {}) =>
  lintFiles(files, config).filter((f) => reported(f) && STRUCTURE.includes(f.ruleId));
const ids = (files: Record<string, string>, config = {}) =>
  problems(files, config).map((f) => `${f.ruleId}:${f.messageId}`);

/** Two phases in the canonical shape; the first verified by the agent, its manual item left to a human. */
const twoPhases = [
  '# Cache warmup Implementation Plan',
  '## Phase 1: Add the warmup job',
  '- [x] Task 1: Write the job',
  '#### Automated Verification:',
  '- [x] Job tests pass: `make test-warmup`',
  '#### Manual Verification:',
  '- [ ] The warmup log lists two hundred keys',
  '## Phase 2: Schedule it',
  '- [ ] Task 2: Add the cron entry',
  '#### Automated Verification:',
  '- [ ] Cron tests pass: `make test-cron`',
  '#### Manual Verification:',
  '- [ ] The job fires at three in the morning',
];

describe('pattern 1: `Phase N` headings outside the phase sequence', () => {
  const rollout = md(
    ...twoPhases,
    '## Rollout Plan',
    '### Phase 1: Deploy cache (30 min)',
    '- [ ] Ship to staging',
    '### Phase 2: Enable in production (1 hour)',
    '- [ ] Flip the flag',
  );
  const about = md(
    ...twoPhases.slice(0, 7),
    '### Phase 1 Latency Targets',
    '- p95 under 40 ms',
    '### Phase 1 File Summary',
    '- `jobs/warmup.ts`',
    ...twoPhases.slice(7),
    '## Future Enhancements',
    '### Phase 2: Warm the second region',
    '- [ ] Copy the job',
  );

  it('clean: rollout, future-work and "about" headings are not phases; nothing is reported', () => {
    for (const text of [rollout, about]) {
      const plan = readPlanText(PLAN, text);
      expect(plan.unstructured).toBeNull();
      expect(plan.phases.filter((p) => !p.outside).map((p) => p.label)).toEqual(['1', '2']);
      expect(ids({ [PLAN]: text })).toEqual([]);
    }
  });

  it('separate `### Phase N Success Criteria` sections are the criteria of phase N', () => {
    const text = md(
      '# Parser Implementation Plan',
      '## Phase 1: Tokens',
      '- [x] Task 1: Tokenize',
      '## Phase 2: Tree',
      '- [ ] Task 2: Build the tree',
      '### Phase 1 Success Criteria',
      '#### Automated Verification:',
      '- [x] `cargo test lexer`',
      '#### Manual Verification:',
      '- [ ] Errors point at the right column',
      '### Phase 2 Success Criteria',
      '#### Automated Verification:',
      '- [ ] `cargo test tree`',
      '#### Manual Verification:',
      '- [ ] The tree dump reads well',
    );
    const plan = readPlanText(PLAN, text);
    const [one, two] = plan.phases;
    expect(one!.automated.map((i) => i.text)).toEqual(['cargo test lexer']);
    expect(two!.manual.map((i) => i.text)).toEqual(['The tree dump reads well']);
    expect(ids({ [PLAN]: text })).toEqual([]);
  });

  it('planted: phase 2 of the sequence started before phase 1 was verified is still found', () => {
    const text = md(
      ...twoPhases.map((l) =>
        l === '- [x] Job tests pass: `make test-warmup`'
          ? '- [ ] Job tests pass: `make test-warmup`'
          : l === '- [ ] Task 2: Add the cron entry'
            ? '- [x] Task 2: Add the cron entry'
            : l,
      ),
      '## Rollout Plan',
      '### Phase 1: Deploy',
      '- [ ] Ship',
    );
    expect(ids({ [PLAN]: text })).toEqual(['plan/phase-order:checkedBeforeVerified']);
  });

  it('a phase label repeated in the sequence: read as unstructured, once, and the structure rules stay silent', () => {
    const text = md(
      '# P',
      '## Phase 1: Draft',
      '- [ ] Task 1: a',
      '## Phase 2: Review',
      '- [x] Task 2: b',
      '## Phase 1: Draft again',
      '- [ ] Task 3: c',
    );
    const found = lintFiles({ [PLAN]: text });
    expect(of(found, 'plan/schema')).toEqual([
      expect.objectContaining({ severity: 'info', messageId: 'unstructured', line: lineOf(text, 'Draft again') }),
    ]);
    expect(ids({ [PLAN]: text })).toEqual([]);
  });
});

describe('pattern 2: an end-of-plan checklist repeating the phases', () => {
  const checklist = (phase1: string) =>
    md(
      ...twoPhases,
      '## Implementation Checklist',
      `- [${phase1}] Phase 1: Add the warmup job`,
      '- [ ] Phase 2: Schedule it',
      '## Summary Checklist',
      '- [x] Task 1: Write the job',
    );
  it("clean: its boxes are not phase 2's, and its tasks do not repeat the plan's", () => {
    const plan = readPlanText(PLAN, checklist('x'));
    expect(plan.phases.filter((p) => !p.outside).at(-1)!.other).toEqual([]);
    expect(ids({ [PLAN]: checklist('x') }, { protocol: { taskNumbering: 'global' } })).toEqual([]);
  });
});

describe('pattern 3: a plan-wide `## Success Criteria` list above the phases', () => {
  const text = md(
    '# Export Implementation Plan',
    '## Success Criteria',
    '#### Automated Verification:',
    '- [ ] Every export validates: `make validate`',
    '#### Manual Verification:',
    '- [ ] Finance opens the file',
    '## Phase 1: Columns',
    '- [x] Task 1: Pick the columns',
    '## Phase 2: Writer',
    '- [x] Task 2: Write the CSV',
  );
  it("clean: the list is the plan's, not the last phase's; no phase lacks criteria and phase 2 is not held", () => {
    const plan = readPlanText(PLAN, text);
    expect(plan.phases.filter((p) => !p.outside).flatMap((p) => [...p.automated, ...p.manual])).toEqual([]);
    expect(ids({ [PLAN]: text })).toEqual([]);
  });
});

describe('pattern 4: a deferred phase', () => {
  const text = (tag: string) =>
    md(
      '# Loader Implementation Plan',
      '## Phase 5: Parish loader',
      '- [x] Task 1: a',
      '#### Automated Verification:',
      '- [x] `make test`',
      `## Phase 6: Census loader ${tag}`,
      '- [ ] Task 2: b',
      '#### Automated Verification:',
      '- [ ] `make census`',
      '## Phase 7: Reports',
      '- [x] Task 3: c',
      '#### Automated Verification:',
      '- [x] `make reports`',
    );
  it('clean: `[DEFERRED]` holds no later phase', () => {
    expect(ids({ [PLAN]: text('[DEFERRED]') }, { protocol: { manualCriteria: false } })).toEqual([]);
  });
  it('planted: the same phase without the mark holds phase 7', () => {
    expect(ids({ [PLAN]: text('') }, { protocol: { manualCriteria: false } })).toEqual([
      'plan/phase-order:checkedBeforeVerified',
    ]);
  });
});

describe('pattern 6 and kind prefixes: what an item says of itself', () => {
  it('`None for this phase` is not applicable, checked or not', () => {
    const plan = readPlanText(
      PLAN,
      md(
        '# P',
        '## Phase 1: A',
        '#### Manual Verification:',
        '- [x] None for this phase',
        '- [ ] Nothing to verify by hand',
        '- [ ] No manual steps needed',
      ),
    );
    expect(plan.phases[0]!.manual.map((i) => i.na)).toEqual([true, true, true]);
  });
  it('`Automated:` and `Manual:` prefixes give the kind under an undivided list; a human heading is manual', () => {
    const plan = readPlanText(
      PLAN,
      md(
        '# P',
        '## Phase 1: A',
        '### Success Criteria:',
        '- [ ] Automated: `npm test` passes',
        '- [ ] Manual: the page looks right',
        '- [ ] [manual] a colleague reads it',
        '#### Human Verification:',
        '- [ ] Someone clicks through',
      ),
    );
    const [one] = plan.phases;
    expect(one!.automated.map((i) => i.text)).toEqual(['Automated: npm test passes']);
    expect(one!.manual.map((i) => i.text)).toEqual([
      'Manual: the page looks right',
      '[manual] a colleague reads it',
      'Someone clicks through',
    ]);
    expect(one!.unknown).toEqual([]);
  });
});

describe('pattern 7: a ```markdown fence holding a ```python fence', () => {
  it('does not hide the rest of the phase', () => {
    const text = md(
      '# P',
      '## Phase 1: Docs',
      '```markdown',
      '# Example',
      '```python',
      'print("hi")',
      '```',
      '```',
      '#### Automated Verification:',
      '- [ ] `make docs`',
      '#### Manual Verification:',
      '- [ ] The page renders',
      '## Phase 2: Site',
      '#### Automated Verification:',
      '- [ ] `make site`',
      '#### Manual Verification:',
      '- [ ] Links work',
    );
    const plan = readPlanText(PLAN, text);
    expect(plan.phases.map((p) => [p.label, p.automated.length, p.manual.length])).toEqual([
      ['1', 1, 1],
      ['2', 1, 1],
    ]);
    expect(ids({ [PLAN]: text })).toEqual([]);
  });
});

describe('pattern 9: a grouping phase over sub-phases', () => {
  const text = md(
    '# Game loop Implementation Plan',
    '## Phase 1: Active play',
    ...['1.1: Dealing', '1.2: Bidding', '1.3: Scoring'].flatMap((t) => [
      `### Phase ${t}`,
      '#### Automated Verification:',
      '- [ ] `npm test`',
      '#### Manual Verification:',
      '- [ ] Play a hand',
    ]),
    '## Phase 2: Results',
    '#### Automated Verification:',
    '- [ ] `npm test`',
    '#### Manual Verification:',
    '- [ ] Read the scoreboard',
  );
  it('clean: the grouping phase is judged through its sub-phases, not as a phase with no criteria', () => {
    expect(ids({ [PLAN]: text })).toEqual([]);
    expect(ids({ [PLAN]: text }, strict())).toEqual([]);
  });
});

describe('corpus round 3: titles, numbered phases, extra lists, and what instructions promise', () => {
  it('a title that says "Checklist" opens no section outside the phases: phase 2 started before phase 1 is found', () => {
    const text = md(
      '# Code Review Checklist: the billing service',
      '## Phase 1: Handlers',
      '#### Automated Verification:',
      '- [ ] Lint passes: `make lint`',
      '#### Manual Verification:',
      '- [ ] Read every handler',
      '## Phase 2: Models',
      '#### Automated Verification:',
      '- [x] Lint passes: `make lint-models`',
      '#### Manual Verification:',
      '- [ ] Read every model',
    );
    expect(readPlanText(PLAN, text).phases.map((p) => p.label)).toEqual(['1', '2']);
    expect(ids({ [PLAN]: text })).toEqual(['plan/phase-order:checkedBeforeVerified']);
  });

  it('numbered headings under `## Phases` are the phases (`### 4.1 Cache`), and other numbered headings are not', () => {
    const text = md(
      '# Plan 4: Faster builds',
      '## Current State Analysis',
      '### 4.1 Where the cache misses',
      '- the key includes the timestamp',
      '## Phases',
      '### 4.1 Persistent cache',
      '#### Automated Verification:',
      '- [ ] `cargo test -p cache`',
      '#### Manual Verification:',
      '- [ ] A warm build takes under two seconds',
      '### 4.2 Watch fewer files',
      '#### Automated Verification:',
      '- [x] `cargo test -p watcher`',
      '#### Manual Verification:',
      '- [ ] Editing a symlink target triggers no rebuild',
    );
    const plan = readPlanText(PLAN, text);
    expect(plan.phases.filter((p) => !p.outside).map((p) => [p.label, p.title])).toEqual([
      ['4.1', 'Persistent cache'],
      ['4.2', 'Watch fewer files'],
    ]);
    expect(ids({ [PLAN]: text })).toEqual(['plan/phase-order:checkedBeforeVerified']);
  });

  it('a phase with split criteria and one more list (`#### All tests must pass`) is no undivided list', () => {
    const text = md(
      '# Slider Implementation Plan',
      '## Phase 1: Fix the gap',
      '#### Automated Verification:',
      '- [ ] `pnpm build`',
      '#### Manual Verification:',
      '- [ ] The slider sits under the canvas',
      '## Phase 2: Regression pass',
      '### Manual Testing Steps',
      '- [ ] Portrait layout still works',
      '### Success Criteria',
      '#### All tests must pass',
      '- [ ] No console errors',
    );
    expect(
      of(lintFiles({ [PLAN]: text }, strict()), 'plan/phase-automated-criteria').map((f) => f.messageId),
    ).not.toContain('unsplit');
    const bare = md(
      '# P',
      '## Phase 1: a',
      '### Success Criteria',
      '- [ ] `make`',
      '## Phase 2: b',
      '### Success Criteria',
      '- [ ] `make test`',
    );
    const found = of(lintFiles({ [PLAN]: bare }, strict()), 'plan/phase-automated-criteria').filter(
      (f) => f.messageId === 'unsplit',
    );
    expect(found.map((f) => f.line)).toEqual([lineOf(bare, '### Success Criteria')]);
  });

  it("an agent definition's `CI Integration:` heading promises no criteria; a plan skeleton in CLAUDE.md does", () => {
    const agent = md(
      '# Systems engineer',
      '',
      'You review shell tooling.',
      '',
      '## CI Integration:',
      '',
      'Run the matrix on every push.',
    );
    const skeleton = md(
      '# How we plan',
      '',
      '```markdown',
      '## Phase 1: <name>',
      '#### Manual Verification:',
      '- [ ] <what a person checks>',
      '```',
    );
    forgetInstructions();
    const a = makeRepo({ '.claude/agents/systems-engineer.md': agent });
    expect(instructionSignals(a).automated).toBeNull();
    const skill = makeRepo({
      '.claude/skills/qa/SKILL.md': md(
        '# QA',
        '## Phase 1: Triage',
        '## CI/CD Troubleshooting Reference',
        '- rerun the job',
      ),
    });
    expect(instructionSignals(skill).automated).toBeNull();
    const b = makeRepo({ 'CLAUDE.md': skeleton });
    expect(instructionSignals(b).manual).toMatchObject({
      file: 'CLAUDE.md',
      line: lineOf(skeleton, '#### Manual Verification:'),
    });
  });
});

describe('one read of the instruction files per run', () => {
  // Reviewed in round 11: a cached verdict keyed by the files' digest must hold the signals parsed from the very bytes
  // digested, or a file saved between the two reads pairs one content's key with the other's findings.
  it('digests and parses the same bytes, though the file changes in between; a new run reads it again', () => {
    const promise = md(
      '# How we plan',
      '```markdown',
      '## Phase 1: <name>',
      '#### Manual Verification:',
      '- [ ] <a check>',
      '```',
    );
    forgetInstructions();
    const dir = makeRepo({ 'CLAUDE.md': promise });
    const before = instructionInputs(dir);
    writeFileSync(join(dir, 'CLAUDE.md'), '# Nothing promised\n');
    expect(instructionSignals(dir).manual).toMatchObject({ file: 'CLAUDE.md' });
    expect(instructionInputs(dir)).toEqual(before);
    forgetInstructions(dir);
    expect(instructionSignals(dir).manual).toBeNull();
    expect(instructionInputs(dir)).not.toEqual(before);
  });
});

describe('--print-config says which dialect each file was read as', () => {
  it('counts per dialect for the repository, and the one dialect of a file', async () => {
    const phases = md('# A', '## Phase 1: a', '#### Automated Verification:', '- [ ] `make`');
    const numbered = md('# B', '## Phases', '### 2.1 Cache', '#### Automated Verification:', '- [ ] `make`');
    const tasks = md('# C', '### Task 1: Write it', '- [ ] step one');
    const handoff = 'thoughts/shared/handoffs/s1/2026-11-20_10-00-00_parser.md';
    const dir = makeRepo({
      [PLAN]: phases,
      'thoughts/shared/plans/2026-11-21-b.md': numbered,
      'thoughts/shared/plans/2026-11-22-c.md': tasks,
      [handoff]: md('---', 'status: complete', '---', '# Parser', '', 'Done.'),
    });
    const repo = JSON.parse((await runCliHere(dir, ['--print-config'])).stdout) as {
      dialects: { plans: Record<string, number>; handoffs: Record<string, number> };
    };
    expect(repo.dialects).toEqual({
      plans: { 'phase-headings': 1, 'numbered-phases': 1, 'task-headings': 1 },
      handoffs: { humanlayer: 1 },
    });
    const one = JSON.parse(
      (await runCliHere(dir, ['--print-config', 'thoughts/shared/plans/2026-11-21-b.md'])).stdout,
    ) as {
      dialect: string | null;
    };
    expect(one.dialect).toBe('numbered-phases');
  });
});

describe('range headings and logs', () => {
  it('`Phase 3-28` stands for the phases up to 28; numbering goes on at 29', () => {
    const text = md(
      '# P',
      '## Phase 1: a',
      '- [ ] Task 1: a',
      '## Phase 2: b',
      '- [ ] Task 2: b',
      '## Phase 3-28: Port the handlers',
      '- [ ] Task 3: c',
      '## Phase 29: Remove the old router',
      '- [ ] Task 4: d',
    );
    expect(of(lintFiles({ [PLAN]: text }), 'plan/task-numbering')).toEqual([]);
  });
  it('a timings log with `## Phase 0` tables and no checkbox is not a plan', () => {
    const plan = readPlanText(
      PLAN,
      md(
        '# Build timings',
        '## Phase 0',
        '| step | seconds |',
        '| --- | --- |',
        '| lint | 12 |',
        '## Phase 1',
        '| step | seconds |',
        '| --- | --- |',
        '| test | 80 |',
      ),
    );
    expect(plan.notAPlan).toBe(true);
  });
});

describe('the promise: criteria are asked for only where the repository asks', () => {
  const noCriteria = (n: number) =>
    md(`# Plan ${n}`, '## Phase 1: a', '- [ ] Task 1: a', '## Phase 2: b', '- [ ] Task 2: b');
  const files = {
    [PLAN]: noCriteria(1),
    'thoughts/shared/plans/2026-11-21-b.md': noCriteria(2),
    'thoughts/shared/plans/2026-11-22-c.md': noCriteria(3),
  };

  // The in-memory tester states the canonical promise by default; these cases learn it (`protocol: undefined`).
  const learn = { protocol: undefined };

  it('clean: plans that never promised criteria get one info per run, not a warning per plan', () => {
    const found = lintFiles(files, learn);
    expect(problems(files, learn)).toEqual([]);
    const infos = found.filter((f) => f.ruleId.startsWith('plan/phase-') && f.severity === 'info');
    expect(infos.map((f) => f.messageId)).toEqual(['notPromised', 'notPromised']);
    expect(infos[0]!.message).toMatch(
      /^Phases without automated verification items in 3 plans: this repository does not hold its plans to them/,
    );
  });

  it('planted: the config states the promise, and every phase is held to it', () => {
    const found = problems(files, {
      protocol: { manualCriteria: true, automatedCriteria: false },
      source: 'validate-workflow.config.json',
    });
    expect(found.map((f) => f.messageId)).toEqual(['noManualMany', 'noManualMany', 'noManualMany']);
    expect(found[0]!.message).toBe(
      '2 phases have no manual verification item: Phase 1 (a), Phase 2 (b) (first at line 2).',
    );
  });

  it('strict holds every plan to the canonical shape', () => {
    expect(problems(files, { ...learn, ...strict() }).map((f) => f.messageId)).toEqual([
      'noCriteriaMany',
      'noCriteriaMany',
      'noCriteriaMany',
    ]);
  });

  it('two thirds of the plans with manual criteria: the third one is told, naming the majority', () => {
    const withManual = (n: number) =>
      md(
        `# Plan ${n}`,
        '## Phase 1: a',
        '#### Automated Verification:',
        '- [ ] `make`',
        '#### Manual Verification:',
        '- [ ] look',
      );
    const mixed = {
      [PLAN]: withManual(1),
      'thoughts/shared/plans/2026-11-21-b.md': withManual(2),
      'thoughts/shared/plans/2026-11-22-c.md': md(
        '# Plan 3',
        '## Phase 1: a',
        '#### Automated Verification:',
        '- [ ] `make`',
      ),
    };
    const found = problems(mixed, learn);
    expect(found.map((f) => [f.file, f.messageId])).toEqual([['thoughts/shared/plans/2026-11-22-c.md', 'noManual']]);
    expect(found[0]!.message).toContain("this repository's own files: 2 of its 3 plans have manual criteria");
  });

  // A plan whose every box is checked is a record of finished work: telling its maintainer to add criteria or to
  // renumber it now helps nobody. The same plan with one box open is work in flight, and is told. (Round 7: its
  // phases go back, 2 then 1, where they skipped a number before: a gap is a note in recommended now.)
  const record = (box: string) =>
    md(
      '# Export job',
      '## Phase 2: Write the exporter',
      '- [x] Task 1: Add the exporter',
      '#### Automated Verification:',
      '- [x] `make test-export`',
      '## Phase 1: Schedule it',
      `- ${box} Task 2: Add the cron entry`,
      '#### Automated Verification:',
      '- [x] `make test-cron`',
    );
  const promised = { protocol: { manualCriteria: true }, source: 'validate-workflow.config.json' };

  it('clean: a finished plan is a record; its criteria and numbering are left alone in recommended', () => {
    expect(ids({ [PLAN]: record('[x]') }, promised)).toEqual([]);
  });

  // Round 7: an item its author set aside with the reason on the line (`- Future enhancement`) is not pending, so a
  // plan whose other boxes are all checked is as finished as one with every box checked.
  it('clean: a plan whose only open item is set aside as future work is a record too', () => {
    const aside = record('[x]').replace(
      '- [x] `make test-cron`',
      '- [x] `make test-cron`\n- [ ] Runs on a schedule per tenant - Future enhancement',
    );
    expect(aside).toContain('Future enhancement');
    expect(ids({ [PLAN]: aside }, promised)).toEqual([]);
    expect(ids({ [PLAN]: aside.replace(' - Future enhancement', '') }, promised)).not.toEqual([]);
  });

  it('planted: the same plan with one box open is told, and strict tells the finished one too', () => {
    expect(ids({ [PLAN]: record('[ ]') }, promised).sort()).toEqual([
      'plan/phase-manual-criteria:noManualMany',
      'plan/task-numbering:phaseOutOfOrder',
    ]);
    expect(ids({ [PLAN]: record('[x]') }, { ...promised, ...strict() }).sort()).toEqual([
      'plan/phase-manual-criteria:noManualMany',
      'plan/task-numbering:phaseNotFromOne',
      'plan/task-numbering:phaseOutOfOrder',
    ]);
  });
});

describe("the promise learned from the repository's own instructions, through the CLI", () => {
  const command = CREATE_PLAN_COMMAND;
  const bare = (n: number) =>
    md(
      `# Plan ${n}`,
      '## Phase 1: a',
      '#### Automated Verification:',
      '- [ ] `make`',
      '## Phase 2: b',
      '#### Automated Verification:',
      '- [ ] `make test`',
    );

  it('planted: a plan without any manual item is told, naming the command and its line', async () => {
    const dir = makeRepo({
      '.claude/commands/create_plan.md': command,
      [PLAN]: bare(1),
      'thoughts/shared/plans/2026-11-21-b.md': bare(2),
      'thoughts/shared/plans/2026-11-22-c.md': bare(3),
    });
    const res = await runCliHere(dir, ['--no-history', '--format', 'json']);
    const found = (
      JSON.parse(res.stdout) as { results: { ruleId: string; message: string; severity: string }[] }
    ).results.filter((f) => f.ruleId === 'plan/phase-manual-criteria' && f.severity === 'warning');
    expect(found).toHaveLength(3);
    expect(found[0]!.message).toContain(
      `(this repository's .claude/commands/create_plan.md (line ${lineOf(command, '#### Manual Verification:')}) asks for \`Manual Verification:\`)`,
    );
    const printed = JSON.parse((await runCliHere(dir, ['--print-config'])).stdout) as {
      profile: Record<string, { value: unknown; source: { from: string; file?: string } }>;
    };
    expect(printed.profile.manualCriteria).toMatchObject({
      value: true,
      source: { from: 'instructions', file: '.claude/commands/create_plan.md' },
    });
    expect(printed.profile.handoffChain).toMatchObject({ value: false, source: { from: 'default' } });
  });

  it('clean: the same plans without the command are told nothing (one info)', async () => {
    const dir = makeRepo({
      [PLAN]: bare(1),
      'thoughts/shared/plans/2026-11-21-b.md': bare(2),
      'thoughts/shared/plans/2026-11-22-c.md': bare(3),
    });
    const res = await runCliHere(dir, ['--no-history', '--format', 'json']);
    const results = (JSON.parse(res.stdout) as { results: { ruleId: string; severity: string }[] }).results.filter(
      (f) => f.ruleId === 'plan/phase-manual-criteria',
    );
    expect(results.map((f) => f.severity)).toEqual(['info']);
    expect(res.code).toBe(0);
  });

  // Six plans or more, and two thirds of them without manual items: the command is an old template the repository
  // stopped following, and warning on every plan tells its maintainer nothing new.
  const withManual = md(
    '# Plan with a human check',
    '## Phase 1: a',
    '#### Automated Verification:',
    '- [ ] `make`',
    '#### Manual Verification:',
    '- [ ] The page loads',
  );
  const many = (n: number, followers: number) =>
    Object.fromEntries([
      ['.claude/commands/create_plan.md', command],
      ...Array.from({ length: n }, (_, i) => [
        `thoughts/shared/plans/2026-11-${String(10 + i).padStart(2, '0')}-p${i}.md`,
        i < followers ? withManual : bare(i),
      ]),
    ]) as Record<string, string>;

  it('clean: six plans, five without manual items: the practice wins over the command, with one info', async () => {
    const dir = makeRepo(many(6, 1));
    const res = await runCliHere(dir, ['--no-history', '--format', 'json']);
    const results = (
      JSON.parse(res.stdout) as { results: { ruleId: string; severity: string; message: string }[] }
    ).results.filter((f) => f.ruleId === 'plan/phase-manual-criteria');
    expect(results.map((f) => f.severity)).toEqual(['info']);
    expect(results[0]!.message).toContain(
      `1 of its 6 plans have manual criteria, though .claude/commands/create_plan.md (line ${lineOf(command, '#### Manual Verification:')}) asks for \`Manual Verification:\``,
    );
    const printed = JSON.parse((await runCliHere(dir, ['--print-config'])).stdout) as {
      profile: Record<string, { value: unknown; source: { from: string } }>;
    };
    expect(printed.profile.manualCriteria).toMatchObject({ value: false, source: { from: 'majority' } });
  });

  it('planted: six plans, three of them with manual items: the command holds, and the other three are told', async () => {
    const dir = makeRepo(many(6, 3));
    const res = await runCliHere(dir, ['--no-history', '--format', 'json']);
    const warned = (JSON.parse(res.stdout) as { results: { ruleId: string; severity: string }[] }).results.filter(
      (f) => f.ruleId === 'plan/phase-manual-criteria' && f.severity === 'warning',
    );
    expect(warned).toHaveLength(3);
  });
});

describe('patterns 5, 8 and 10: templates, living handoffs, one finding per unreadable file', () => {
  const handoff = (status: string) =>
    md('---', `status: ${status}`, 'session: s1', '---', '# Where we are', '', 'Working on the parser.');
  const current = 'thoughts/shared/handoffs/s1/current.md';
  const dated = 'thoughts/shared/handoffs/s1/2026-11-20_10-00-00_parser.md';
  const template = 'thoughts/shared/handoffs/_TEMPLATE.md';

  it('clean: a template moved out of the handoffs folder is no deleted handoff, and a living `current.md` is rewritten by design', () => {
    const deleted = ruleOf('history/handoff-deleted');
    expect(
      runTransitionCase(deleted, {
        before: { [template]: handoff('complete') },
        after: { 'docs/_TEMPLATE.md': handoff('complete') },
      }),
    ).toEqual([]);
    const rewritten = ruleOf('history/handoff-rewritten');
    expect(
      runTransitionCase(rewritten, {
        before: { [current]: handoff('in_progress') },
        after: { [current]: handoff('complete') },
        commit: { author: 'Claude <noreply@anthropic.com>' },
      }),
    ).toEqual([]);
  });

  it('planted: a dated handoff whose status changes is still rewritten', () => {
    const rewritten = ruleOf('history/handoff-rewritten');
    expect(
      runTransitionCase(rewritten, {
        before: { [dated]: handoff('partial') },
        after: { [dated]: handoff('complete') },
        commit: { author: 'Claude <noreply@anthropic.com>' },
      }).map((f) => f.messageId),
    ).toEqual(['rewritten']);
  });

  it('one invalid YAML handoff is one finding, at the first line reading failed, with the count of the rest', () => {
    const bad = 'thoughts/shared/handoffs/s1/2026-11-20_session.yaml';
    const text = [
      '---',
      'session: s1',
      'status: complete',
      '---',
      'goal: Build the parser',
      'done:',
      '  - task: Wrote lexer: handles strings',
      '  - task: "Parser',
      'blockers: [none',
      '',
    ].join('\n');
    const found = lintFiles({ [bad]: text }).filter((f) => f.ruleId === 'handoff/schema');
    expect(found).toHaveLength(1);
    expect(found[0]!.line).toBe(7);
    expect(found[0]!.message).toMatch(/and \d+ more read problems? further down/);
  });
});

describe('what a template is', () => {
  it('is named as one, not a task about templates', () => {
    const names = [
      '_TEMPLATE.md',
      'handoff-template.md',
      'plan_template.yaml',
      'template-plan.md',
      'task-06-templates-and-the-new-command.md',
      '2026-01-01_template-engine.md',
    ];
    expect(names.map((n) => isTemplateName(`thoughts/shared/handoffs/${n}`))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('templates as instructions', () => {
  it('reads a file named as a template, not a task handoff about templates', () => {
    const template = md('# Handoff template', '', '```yaml', 'task: 1', 'previous: task-00-<desc>.md', '```');
    const about = md('# Task 6', '', '```yaml', 'previous: task-05-x.md', '```');
    forgetInstructions();
    const named = makeRepo({ 'thoughts/shared/handoffs/_TEMPLATE.md': template });
    expect(instructionSignals(named).files).toEqual(['thoughts/shared/handoffs/_TEMPLATE.md']);
    expect(instructionSignals(named).chain).toMatchObject({
      from: 'instructions',
      file: 'thoughts/shared/handoffs/_TEMPLATE.md',
    });
    const task = makeRepo({ 'thoughts/handoffs/s1/task-06-templates-and-the-new-command.md': about });
    expect(instructionSignals(task).files).toEqual([]);
  });
});
