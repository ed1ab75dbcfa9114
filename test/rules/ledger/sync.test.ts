// ledger/sync: O(update_ledger) <- task_complete; the seed's tracking lines `- [x] Task N: description` in the plan
// and `[x] Task N` in the ledger say the same.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { LEDGER, PLAN, ledger, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'ledger/sync';

const threeDone = plan({ tasksPerPhase: [2, 2], checked: [1, 2, 3], verified: [1] });

describe(ID, () => {
  // Review of round 8: a bullet that names a task under a boxed item of `Done:` is still a done item of the ledger.
  it('reports a task named under a boxed item of `Done:` that the plan has unchecked', () => {
    const text = ledger({ state: ['- Done:', '  - [x] Phase 1: a', '    - Task 1: a', '    - Task 4: d'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID).map((f) => f.messageId)).toContain('doneButUnchecked');
  });

  it('passes a ledger that agrees with the plan, with `[→]` and `[->]` on unchecked tasks', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [x] Task 3: c', '- [→] Task 4: d'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID)).toEqual([]);
    const ascii = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [x] Task 3: c', '- [->] Task 4: d'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: ascii }, ID, strict())).toEqual([]);
  });

  it('does not compare a ledger with a plan that could not be read', () => {
    const text = ledger({ state: ['- [ ] Task 1: a'] });
    expect(findings({ [PLAN]: '', [LEDGER]: text }, ID)).toEqual([]);
    // A plan needs a checkbox or a criteria heading to be one (round 3: a `## Phase N` log is not a plan).
    expect(findings({ [PLAN]: '# Plan\n## Phase 1: A\n- [ ] write it\n', [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({ messageId: 'unknownTask', message: expect.stringContaining('Ledger lists Task 1') }),
    ]);
  });

  it('reports a task checked in the plan but pending in the ledger, at the ledger item', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [ ] Task 3: c', '- [ ] Task 4: d'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        file: LEDGER,
        line: lineOf(text, 'Task 3'),
        severity: 'error',
        messageId: 'checkedButNotDone',
        message: `Plan checks Task 3 complete (${PLAN}:${lineOf(threeDone, 'Task 3:')}) but the ledger marks it pending.`,
      }),
    ]);
  });

  it('reports a task checked in the plan but in progress in the ledger', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [→] Task 3: c'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 3'),
        messageId: 'checkedButNotDone',
        message: expect.stringContaining('the ledger marks it in-progress'),
      }),
    ]);
  });

  it('reports a task done in the ledger but unchecked in the plan', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [x] Task 3: c', '- [x] Task 4: d'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID, strict())).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 4'),
        severity: 'error',
        messageId: 'doneButUnchecked',
        message: `Ledger marks Task 4 done but the plan has it unchecked (${PLAN}:${lineOf(threeDone, 'Task 4:')}).`,
      }),
    ]);
  });

  it('reports a task the plan does not have', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [x] Task 3: c', '- [ ] Task 9: z'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 9'),
        messageId: 'unknownTask',
        message: `Ledger lists Task 9, which ${PLAN} does not have.`,
      }),
    ]);
  });

  it('reports a checked plan task the ledger does not list, at `## State`', () => {
    const text = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b', '- [ ] Task 4: d'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, '## State'),
        messageId: 'checkedButUnlisted',
        message: expect.stringContaining('Plan checks Task 3 complete'),
      }),
    ]);
  });

  it('compares heading tasks by their steps (plan-agent dialect)', () => {
    const planText = md('# P', '### Task 1: a', '- [x] s1', '- [x] s2', '### Task 2: b', '- [x] s1', '- [ ] s2');
    const agree = ledger({ state: ['- [x] Task 1: a', '- [→] Task 2: b'] });
    expect(findings({ [PLAN]: planText, [LEDGER]: agree }, ID)).toEqual([]);
    const disagree = ledger({ state: ['- [x] Task 1: a', '- [x] Task 2: b'] });
    expect(findings({ [PLAN]: planText, [LEDGER]: disagree }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(disagree, 'Task 2'),
        messageId: 'doneButUnchecked',
        message: expect.stringContaining('Ledger marks Task 2 done'),
      }),
    ]);
  });

  it('reads Done / Now / Next labels of the continuity dialect', () => {
    const text = ledger({ state: ['- Done:', '  - Task 1: a', '  - Task 2: b', '- Now: Task 3: c'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'Task 3'),
        messageId: 'checkedButNotDone',
        message: expect.stringContaining('marks it in-progress'),
      }),
    ]);
  });

  it('skips a ledger whose plan it cannot find, and one that lists no tasks', () => {
    const unlinked = ledger({ plan: 'thoughts/shared/plans/gone.md', state: ['- [ ] Task 1: a'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: unlinked }, ID)).toEqual([]);
    const noTasks = ledger({ state: ['- [x] Research the auth options', '- [ ] Write the plan'] });
    expect(findings({ [PLAN]: threeDone, [LEDGER]: noTasks }, ID)).toEqual([]);
  });
});

describeRuleContract(
  ID,
  {
    [PLAN]: threeDone,
    [LEDGER]: ledger({ state: ['- [x] Task 1: a', '- [ ] Task 2: b', '- [x] Task 3: c', '- [x] Task 4: d'] }),
  },
  { recommended: 'error', strict: 'error' },
);

// Corpus round 3 (a miss): a ledger whose State calls phases done while the plans it names in prose have not a box
// of those phases checked. The plans are named only in the ledger's text (no `plan:` key), as real ledgers do.
describe(`${ID}: phases the ledger calls done`, () => {
  const AGENTS = 'thoughts/shared/plans/2026-11-02-agent-roster.md';
  const TOOLS = 'thoughts/shared/plans/2026-11-03-tool-registry.md';
  const untouched = (title: string) =>
    md(
      `# ${title}`,
      '## Phase 1: Scaffold',
      '- [ ] Create the package',
      '#### Automated Verification:',
      '- [ ] `make test`',
      '## Phase 2: Wire it',
      '- [ ] Register the agents',
      '#### Automated Verification:',
      '- [ ] `make e2e`',
    );
  const started = (title: string) => untouched(title).replace('- [ ] Create the package', '- [x] Create the package');
  const notes = (claim: string) =>
    md(
      '---',
      'session: roster',
      'status: active',
      '---',
      '# Session: roster',
      '',
      '## Goal',
      '',
      `Build the roster from ${AGENTS.split('/').pop()} and ${TOOLS.split('/').pop()}.`,
      '',
      '## State',
      '',
      claim,
      '- [ ] Phase 3: Polish',
      '',
      '## Open Questions',
      '',
    );

  it('planted: `[x] Phase 1-2` while both named plans have nothing of phases 1 and 2 checked, at the ledger item', () => {
    const text = notes('- [x] Phase 1-2: All 4 agents implemented');
    const files = { [AGENTS]: untouched('Agent roster'), [TOOLS]: untouched('Tool registry'), [LEDGER]: text };
    expect(findings(files, ID)).toEqual([
      expect.objectContaining({
        file: LEDGER,
        line: lineOf(text, 'Phase 1-2'),
        severity: 'error',
        messageId: 'phaseClaimed',
        message: `Ledger marks Phase 1-2 done, but ${AGENTS} and ${TOOLS} have none of its 8 checkboxes checked (first at ${AGENTS}:${lineOf(untouched('x'), '- [ ] Create the package')}).`,
      }),
    ]);
  });

  it('clean: one named plan shows the work begun, or the ledger names no plan, or the claim is a task', () => {
    const text = notes('- [x] Phase 1: Scaffold done');
    expect(
      findings({ [AGENTS]: started('Agent roster'), [TOOLS]: untouched('Tool registry'), [LEDGER]: text }, ID),
    ).toEqual([]);
    const unnamed = text.replace(/Build the roster from .*\./, 'Build the roster.');
    expect(findings({ [AGENTS]: untouched('Agent roster'), [LEDGER]: unnamed }, ID)).toEqual([]);
    expect(
      findings(
        {
          [AGENTS]: untouched('Agent roster'),
          [TOOLS]: untouched('Tool registry'),
          [LEDGER]: notes('- [ ] Phase 1-2: In progress'),
        },
        ID,
      ),
    ).toEqual([]);
  });

  // Corpus round 8 (a misread): a setup ledger numbers its own milestones (`Phase 1: Model router`) and names, as
  // its next work, a plan whose Phase 1 is something else; the claim is not about that plan's phase.
  it('clean: a titled claim whose title shares no word with the plan phase of that number', () => {
    const text = notes('- [x] Phase 1: Logging pipeline');
    expect(
      findings({ [AGENTS]: untouched('Agent roster'), [TOOLS]: untouched('Tool registry'), [LEDGER]: text }, ID),
    ).toEqual([]);
  });

  // Review of round 8: status words say how a phase went, not which phase it is; a longer form of a word is the word.
  it('planted: a claim titled only with status words, or with a longer form of the phase title, is still held', () => {
    for (const claim of ['Phase 1: Complete', 'Phase 1: All tasks finished', 'Phase 1: Scaffolding']) {
      const text = notes(`- [x] ${claim}`);
      const files = { [AGENTS]: untouched('Agent roster'), [TOOLS]: untouched('Tool registry'), [LEDGER]: text };
      expect(findings(files, ID), claim).toEqual([expect.objectContaining({ messageId: 'phaseClaimed' })]);
    }
  });

  it('planted: a titled claim whose title names the plan phase (plural or not) is still held', () => {
    const text = notes('- [x] Phase 1: Scaffolds');
    expect(
      findings({ [AGENTS]: untouched('Agent roster'), [TOOLS]: untouched('Tool registry'), [LEDGER]: text }, ID),
    ).toEqual([expect.objectContaining({ line: lineOf(text, 'Phase 1: Scaffolds'), messageId: 'phaseClaimed' })]);
  });
});
