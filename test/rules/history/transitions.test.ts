// The history rules judged one commit at a time, in memory: the files before and after the commit, its author,
// committer and trailers, through the same runner as every door (no repository). test/history/ keeps the walk over
// real git histories (ancestry, merges, renames found by git, shallow clones, the hooks).
import { describe, expect, it } from 'vitest';
import { ruleOf, ruleTester, run } from '../../helpers/rule-tester.js';
import { itemsDigest } from '../../../src/history/trust.js';
import { LEDGER, PLAN, handoffPath, ledger, lineOf, md, plan, taskHandoff } from '../fixtures.js';

const CLAUDE = 'Claude <noreply@anthropic.com>';
const ANA = 'Ana Human <ana@example.com>';
const CONFIG = 'validate-workflow.config.json';

/** The session ledger of a four-task plan: `done` tasks `[x]`, `doing` `[→]`. */
function ledgerOf(done: number[] = [], doing: number | null = null): string {
  const state: string[] = [];
  for (let t = 1; t <= 4; t++)
    state.push(`- [${done.includes(t) ? 'x' : doing === t ? '→' : ' '}] Task ${t}: Do step ${t}`);
  return ledger({ state });
}

/** Phase 1's manual item checked on top of a plan (its automated item as given). */
function manualChecked(text: string): string {
  return text.replace('- [ ] Phase 1 works in the browser', '- [x] Phase 1 works in the browser');
}
function autoChecked(text: string): string {
  return text.replace('- [ ] Phase 1 tests pass', '- [x] Phase 1 tests pass');
}

const fresh = plan({ tasksPerPhase: [2, 2] });

/** An orchestration plan of four sub-numbered tasks (`Task 1.1` to `Task 1.4`), all checked or all open, and a Task 2. */
function subTasks(done: boolean): string {
  const box = done ? '[x]' : '[ ]';
  return md(
    '---',
    'mode: orchestration',
    '---',
    '# Auth flow Implementation Plan',
    '## Phase 1: Part 1',
    ...[1, 2, 3, 4].map((n) => `- ${box} Task 1.${n}: Do step 1.${n}`),
    '- [ ] Task 2: Do step 2',
  );
}

describe('handoffs', () => {
  const before = { [PLAN]: plan({ checked: [1] }), [handoffPath(1)]: taskHandoff(1) };
  const appended = taskHandoff(1, {}, '\n## Notes\n\nLater: the cookie is HttpOnly.\n');
  const rewritten = taskHandoff(1, { status: 'partial', context_for_next: 'Redo it.' });

  ruleTester(ruleOf('history/handoff-deleted'), {
    valid: [
      {
        name: 'appending to a committed handoff',
        before,
        after: { ...before, [handoffPath(1)]: appended },
        commit: { author: CLAUDE },
      },
    ],
    invalid: [
      // A person moving a handoff whole keeps its record: housekeeping, one info.
      {
        name: "a person's rename that keeps the content: one info",
        before,
        after: { [PLAN]: before[PLAN], [handoffPath(1, 'renamed')]: taskHandoff(1) },
        renames: [[handoffPath(1), handoffPath(1, 'renamed')]],
        errors: [{ messageId: 'housekeeping', file: handoffPath(1, 'renamed'), severity: 'info' }],
      },
      {
        name: 'a deleted handoff, at its path',
        before,
        after: { [PLAN]: before[PLAN] },
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'deleted',
            file: handoffPath(1),
            severity: 'error',
            message: `Handoff ${handoffPath(1)} was deleted.`,
          },
        ],
      },
      {
        name: 'a renamed handoff, at its new path',
        before,
        after: { [PLAN]: before[PLAN], [handoffPath(1, 'renamed')]: taskHandoff(1) },
        renames: [[handoffPath(1), handoffPath(1, 'renamed')]],
        commit: { author: CLAUDE },
        errors: [{ messageId: 'renamed', file: handoffPath(1, 'renamed'), data: { from: handoffPath(1) } }],
      },
    ],
  });

  ruleTester(ruleOf('history/handoff-rewritten'), {
    valid: [
      { name: 'appending to the body', before, after: { ...before, [handoffPath(1)]: appended } },
      {
        name: 'reordering the frontmatter without changing a value',
        before,
        after: {
          ...before,
          [handoffPath(1)]: taskHandoff(1)
            .replace(/^status: complete\n/m, '')
            .replace('task: 1\n', 'task: 1\nstatus: complete\n'),
        },
      },
    ],
    invalid: [
      {
        name: 'frontmatter values changed, naming the keys',
        before,
        after: { ...before, [handoffPath(1)]: rewritten },
        errors: [
          {
            messageId: 'rewritten',
            file: handoffPath(1),
            severity: 'warning',
            message: `Frontmatter of committed handoff ${handoffPath(1)} was rewritten (\`status\`, \`context_for_next\`).`,
          },
        ],
      },
      {
        name: 'an error in strict',
        before,
        after: { ...before, [handoffPath(1)]: rewritten },
        config: { preset: 'strict' },
        errors: [{ messageId: 'rewritten', severity: 'error' }],
      },
    ],
  });
});

describe('task order and batching', () => {
  const start = { [PLAN]: fresh, [LEDGER]: ledgerOf() };
  const twoFirst = plan({ checked: [2] });
  const startsThree = ledgerOf([1], 3);
  const bothDone = plan({ checked: [1, 2] });

  ruleTester(ruleOf('history/task-order'), {
    valid: [
      {
        name: 'task 1, in order',
        before: start,
        after: { [PLAN]: plan({ checked: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerOf([1]) },
      },
      {
        name: 'one commit completing tasks 1 and 2 is batching, not disorder',
        before: start,
        after: {
          [PLAN]: bothDone,
          [handoffPath(1)]: taskHandoff(1),
          [handoffPath(2)]: taskHandoff(2),
          [LEDGER]: ledgerOf([1, 2]),
        },
      },
      // Convention section 6: a task's handoff is committed no later than the commit that checks the task.
      {
        name: 'the handoff committed before the check-off',
        before: { ...start, [handoffPath(1)]: taskHandoff(1) },
        after: { [PLAN]: plan({ checked: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerOf([1]) },
      },
      {
        name: 'a direct-mode plan asks for no handoff',
        before: { [PLAN]: plan({ tasksPerPhase: [3] }) },
        after: { [PLAN]: plan({ tasksPerPhase: [3], checked: [1] }) },
      },
      {
        name: 'a config that turns handoff/missing off asks for no handoff',
        before: start,
        after: { [PLAN]: plan({ checked: [1] }), [LEDGER]: ledgerOf([1]) },
        config: { rules: { 'handoff/missing': 'off' } },
      },
      {
        name: 'in an audit, a plan that enters git already progressed',
        before: {},
        after: { [PLAN]: plan({ checked: [1] }) },
        audit: true,
      },
      // Convention section 4: a repository that keeps no task handoff and no session ledger links none to the plan,
      // and handoff/missing asks it for none; the timing of a handoff nothing links to is not judged.
      {
        name: 'a repository that keeps no task handoffs and no ledger: no handoff timing to judge',
        before: { [PLAN]: fresh },
        after: { [PLAN]: plan({ checked: [1] }) },
        commit: { author: CLAUDE },
        config: { protocol: undefined },
      },
    ],
    invalid: [
      {
        name: 'a repository that keeps task handoffs: a later task checked without its own is late',
        before: { [PLAN]: plan({ checked: [1] }), [handoffPath(1)]: taskHandoff(1) },
        after: { [PLAN]: bothDone, [handoffPath(1)]: taskHandoff(1) },
        commit: { author: CLAUDE },
        config: { protocol: undefined },
        errors: [{ messageId: 'handoffLate', line: lineOf(bothDone, 'Task 2:'), data: { task: '2' } }],
      },
      {
        name: 'no task handoffs in the repository, but the plan declares mode: orchestration',
        before: { [PLAN]: plan({ tasksPerPhase: [2, 2], frontmatter: ['mode: orchestration'] }) },
        after: { [PLAN]: plan({ tasksPerPhase: [2, 2], frontmatter: ['mode: orchestration'], checked: [1] }) },
        commit: { author: CLAUDE },
        config: { protocol: undefined },
        errors: ['handoffLate'],
      },
      {
        name: 'strict: no task handoffs in the repository, and the check-off is still judged',
        before: { [PLAN]: fresh },
        after: { [PLAN]: plan({ checked: [1] }) },
        commit: { author: CLAUDE },
        config: { protocol: undefined },
        preset: 'strict',
        errors: [{ messageId: 'handoffLate', severity: 'error' }],
      },
      // Round 9: open sub-tasks are named by their labels (`Task 1.3, Task 1.4`), not twice as `Task 1`.
      {
        name: 'a task completed while sub-tasks of an earlier task are open',
        before: { [PLAN]: subTasks(false), [LEDGER]: ledgerOf() },
        after: {
          [PLAN]: subTasks(false)
            .replace('- [ ] Task 1.1:', '- [x] Task 1.1:')
            .replace('- [ ] Task 1.2:', '- [x] Task 1.2:')
            .replace('- [ ] Task 2:', '- [x] Task 2:'),
          [LEDGER]: ledgerOf(),
        },
        errors: [
          {
            messageId: 'completesWhileOpen',
            message: `Task 2 completes while Task 1.3, Task 1.4 of ${PLAN} are still open.`,
          },
          // The plan declares orchestration and no handoff came with the check-offs.
          'handoffLateMany',
        ],
      },
      {
        name: 'task 2 completed while task 1 is open, at the check-off',
        before: start,
        after: { [PLAN]: twoFirst, [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerOf() },
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'completesWhileOpen',
            file: PLAN,
            line: lineOf(twoFirst, 'Task 2:'),
            message: `Task 2 completes while Task 1 of ${PLAN} is still open.`,
          },
        ],
      },
      {
        name: 'a ledger that marks task 3 in progress while tasks 1 and 2 are open, at the ledger line',
        before: start,
        after: { [PLAN]: fresh, [LEDGER]: ledgerOf([], 3) },
        errors: [
          {
            messageId: 'startsWhileOpen',
            file: LEDGER,
            line: lineOf(ledgerOf([], 3), 'Task 3:'),
            data: { task: 3, open: 'Task 1, Task 2', isAre: 'are' },
          },
        ],
      },
      {
        name: 'a handoff for task 3 while task 2 is open, at the handoff',
        before: { [PLAN]: plan({ checked: [1] }), [LEDGER]: ledgerOf([1]), [handoffPath(1)]: taskHandoff(1) },
        after: {
          [PLAN]: plan({ checked: [1] }),
          [LEDGER]: ledgerOf([1]),
          [handoffPath(1)]: taskHandoff(1),
          [handoffPath(3)]: taskHandoff(3),
        },
        errors: [
          { messageId: 'startsWhileOpen', file: handoffPath(3), data: { task: 3, open: 'Task 2', isAre: 'is' } },
        ],
      },
      {
        name: 'two tasks out of order in one file: one finding naming both',
        before: start,
        after: {
          [PLAN]: plan({ checked: [3, 4] }),
          [handoffPath(3)]: taskHandoff(3),
          [handoffPath(4)]: taskHandoff(4),
          [LEDGER]: ledgerOf(),
        },
        errors: [
          {
            messageId: 'manyWhileOpen',
            file: PLAN,
            line: lineOf(plan({ checked: [3, 4] }), 'Task 3:'),
            message: `Task 3, Task 4 start or complete while Task 1, Task 2 of ${PLAN} are still open (first at line ${lineOf(plan({ checked: [3, 4] }), 'Task 3:')}).`,
          },
        ],
      },
      {
        name: 'the fix of a commit already made says what to do now',
        before: start,
        after: { [PLAN]: twoFirst, [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerOf() },
        errors: [
          {
            messageId: 'completesWhileOpen',
            fix: /^The order of a commit already made cannot change: finish Task 1 now .*--baseline-write/,
          },
        ],
      },
      {
        name: 'a check-off whose handoff is not in the commit (added later, or never), at the task',
        before: start,
        after: { [PLAN]: plan({ checked: [1] }), [LEDGER]: ledgerOf([1]) },
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'handoffLate',
            file: PLAN,
            line: lineOf(plan({ checked: [1] }), 'Task 1:'),
            severity: 'error',
            message:
              'Task 1 is checked complete in this commit, but its handoff is not committed with it or before it.',
            fix: /^The order of a commit already made cannot change: commit the handoff now if it is still missing.*--baseline-write/,
          },
        ],
      },
      {
        name: 'a handoff of another plan does not count',
        before: start,
        after: {
          [PLAN]: plan({ checked: [1] }),
          [handoffPath(1)]: taskHandoff(1, { plan: 'thoughts/shared/plans/other.md' }),
          [LEDGER]: ledger({ state: ['- [x] Task 1: Do step 1'], plan: null }),
        },
        errors: ['handoffLate'],
      },
      {
        name: 'two tasks checked without handoffs in one commit: one finding naming both',
        before: start,
        after: { [PLAN]: bothDone, [LEDGER]: ledgerOf([1, 2]) },
        errors: [
          { messageId: 'handoffLateMany', line: lineOf(bothDone, 'Task 1:'), data: { tasks: 'Task 1, Task 2' } },
        ],
      },
      {
        name: 'at commit-msg the handoff can still come first',
        before: start,
        after: { [PLAN]: plan({ checked: [1] }), [LEDGER]: ledgerOf([1]) },
        stage: 'commit-msg',
        errors: [{ messageId: 'handoffLate', fix: /^Commit the task handoff with the check-off/ }],
      },
      {
        name: 'the ledger mark of a task started while an earlier one is open',
        before: { [PLAN]: fresh, [LEDGER]: ledgerOf([], 1) },
        after: { [PLAN]: fresh, [LEDGER]: startsThree },
        errors: [{ messageId: 'startsWhileOpen', file: LEDGER, line: lineOf(startsThree, 'Task 3:') }],
      },
    ],
  });

  ruleTester(ruleOf('history/batched-tasks'), {
    valid: [
      { name: 'one task per commit', before: start, after: { [PLAN]: plan({ checked: [1] }) } },
      {
        name: 'a direct-mode plan (three tasks) may complete several tasks in one commit',
        before: { [PLAN]: plan({ tasksPerPhase: [3] }) },
        after: { [PLAN]: plan({ tasksPerPhase: [3], checked: [1, 2, 3] }) },
      },
      {
        name: 'in an audit, a plan that enters git with its tasks checked',
        before: {},
        after: { [PLAN]: bothDone },
        audit: true,
      },
    ],
    invalid: [
      {
        name: 'after adoption, a plan added with two tasks checked',
        before: {},
        after: { [PLAN]: bothDone, [LEDGER]: ledgerOf() },
        errors: ['batched'],
      },
      {
        name: 'strict: an error',
        before: { [PLAN]: fresh },
        after: { [PLAN]: bothDone },
        preset: 'strict',
        errors: [{ messageId: 'batched', severity: 'error' }],
      },
      // Round 9: `Task 1.1` to `Task 1.4` are four tasks (convention section 4), named as written.
      {
        name: 'four sub-numbered tasks completed in one commit',
        before: { [PLAN]: subTasks(false), [LEDGER]: ledgerOf() },
        after: { [PLAN]: subTasks(true), [LEDGER]: ledgerOf() },
        errors: [
          { messageId: 'batched', message: 'One commit completes 4 tasks (Task 1.1, Task 1.2, Task 1.3, Task 1.4).' },
        ],
      },
      {
        name: 'one commit completing two tasks of an orchestration plan, at the second',
        before: start,
        after: { [PLAN]: bothDone, [LEDGER]: ledgerOf() },
        errors: [
          {
            messageId: 'batched',
            file: PLAN,
            line: lineOf(bothDone, 'Task 2:'),
            severity: 'warning',
            message: 'One commit completes 2 tasks (Task 1, Task 2).',
            fix: /^From now on commit each task on its own.*--baseline-write/,
          },
        ],
      },
      {
        name: 'declared orchestration with three tasks',
        before: { [PLAN]: plan({ tasksPerPhase: [3], frontmatter: ['mode: orchestration'] }) },
        after: { [PLAN]: plan({ tasksPerPhase: [3], frontmatter: ['mode: orchestration'], checked: [1, 2, 3] }) },
        config: { preset: 'strict' },
        errors: [{ messageId: 'batched', severity: 'error', data: { count: 3, tasks: 'Task 1, Task 2, Task 3' } }],
      },
    ],
  });
});

describe('phase order', () => {
  const tasksDone = plan({ checked: [1, 2] });
  const autoOnly = autoChecked(tasksDone);
  const startsPhase2 = plan({ checked: [1, 2, 3] });

  ruleTester(ruleOf('history/phase-order'), {
    valid: [
      {
        name: 'phase 2 after phase 1 was verified in an earlier commit',
        before: { [PLAN]: plan({ checked: [1, 2], verified: [1] }) },
        after: { [PLAN]: plan({ checked: [1, 2, 3], verified: [1] }) },
      },
      {
        name: 'an N/A manual item counts as verified',
        before: { [PLAN]: autoChecked(tasksDone).replace('- [ ] Phase 1 works in the browser', '- [ ] N/A: no UI') },
        after: {
          [PLAN]: autoChecked(plan({ checked: [1, 2, 3] })).replace(
            '- [ ] Phase 1 works in the browser',
            '- [ ] N/A: no UI',
          ),
        },
        preset: 'strict',
      },
      // recommended: verified = the automated items (manual boxes are a human's and often lag behind the human's word).
      {
        name: "recommended: phase 2 starts once phase 1's automated items are checked, its manual box still open",
        before: { [PLAN]: autoOnly },
        after: { [PLAN]: autoChecked(startsPhase2) },
      },
      // Round 3: the same commit completes phase 1's verification and starts phase 2: history shows no order.
      {
        name: 'finishing phase 1 and starting phase 2 in one commit',
        before: { [PLAN]: manualChecked(tasksDone) },
        after: { [PLAN]: manualChecked(autoChecked(startsPhase2)) },
      },
      // A plan that enters git already progressed is the snapshot rules' to judge (plan/phase-order), in every mode.
      { name: 'a plan that arrives with phase 2 already checked', before: {}, after: { [PLAN]: startsPhase2 } },
      {
        name: 'a plan that arrives with phase 2 already checked, in strict after adoption',
        before: {},
        after: { [PLAN]: startsPhase2 },
        preset: 'strict',
        audit: false,
      },
      {
        name: "a task checked while an earlier task is open is history/task-order's finding, not this rule's",
        before: { [PLAN]: plan({ checked: [1] }) },
        after: { [PLAN]: plan({ checked: [1, 3] }) },
      },
    ],
    invalid: [
      {
        name: 'strict: the first check-off of phase 2 while phase 1 awaits its manual item',
        before: { [PLAN]: autoOnly },
        after: { [PLAN]: autoChecked(startsPhase2) },
        preset: 'strict',
        errors: [
          {
            messageId: 'startedEarly',
            file: PLAN,
            line: lineOf(startsPhase2, 'Task 3:'),
            message:
              'First check-off in Phase 2 (Part 2) comes before Phase 1 (Part 1) was verified (that needs its automated and manual items checked or N/A).',
          },
        ],
      },
      // Round 9 review: one commit that makes phase 1's first check-offs and starts phase 2, phase 1's automated
      // item still open, is the agent working two phases at once; a later commit verifying phase 1 must not hide it.
      {
        name: "one commit makes phase 1's first check-offs and starts phase 2, phase 1's check still open",
        before: { [PLAN]: fresh },
        after: { [PLAN]: startsPhase2 },
        commit: { author: CLAUDE },
        errors: [{ messageId: 'startedEarly', line: lineOf(startsPhase2, 'Task 3:') }],
      },
      {
        // Round 3 (convention section 6): a commit that completes phase 1's verification and starts phase 2 shows no
        // order; one that starts phase 2 while phase 1 stays unverified after it does.
        name: 'starting phase 2 in a commit after which phase 1 is still unverified is too early',
        before: { [PLAN]: manualChecked(tasksDone) },
        after: { [PLAN]: manualChecked(startsPhase2) },
        errors: [
          {
            messageId: 'startedEarly',
            line: lineOf(startsPhase2, 'Task 3:'),
            data: { verified: 'its automated items checked or N/A' },
          },
        ],
      },
      {
        name: 'the fix of a commit already made says what to do now, never to redo the commit',
        before: { [PLAN]: tasksDone },
        after: { [PLAN]: startsPhase2 },
        errors: [
          {
            messageId: 'startedEarly',
            fix: /^The order of a commit already made cannot change: verify Phase 1 \(Part 1\) now .*`npx validate-workflow confirm thoughts\/shared\/plans\/2026-11-20-auth\.md --phase 1`.*`npx validate-workflow --baseline-write`.*"history": \{ "since": "<commit>" \}.*`--since <commit>`/,
          },
        ],
      },
      {
        name: 'at commit-msg the check-off can still wait',
        before: { [PLAN]: tasksDone },
        after: { [PLAN]: startsPhase2 },
        stage: 'commit-msg',
        errors: [
          {
            messageId: 'startedEarly',
            fix: /^Leave Phase 2 \(Part 2\) unchecked until Phase 1 \(Part 1\) is verified/,
          },
        ],
      },
      {
        name: 'two phases started early in one commit: one finding naming both',
        before: { [PLAN]: plan({ tasksPerPhase: [1, 1, 1], checked: [1] }) },
        after: {
          [PLAN]: plan({ tasksPerPhase: [1, 1, 1], checked: [1] })
            .replace('- [ ] Phase 2 tests pass', '- [x] Phase 2 tests pass')
            .replace('- [ ] Phase 3 tests pass', '- [x] Phase 3 tests pass'),
        },
        errors: [
          {
            messageId: 'startedEarlyMany',
            data: { phases: 'Phase 2 (Part 2), Phase 3 (Part 3)', open: 'Phase 1 (Part 1)' },
          },
        ],
      },
    ],
  });
});

/** A one-phase billing plan whose manual items are all `box` (five, plus `extra` more). */
function fiveManual(box: ' ' | 'x', extra = 0): string {
  const manual = [
    'Invoices render in the customer portal',
    'Totals match the finance export',
    'Refund e-mails arrive',
    'The PDF opens on a phone',
    'Support can find an invoice by number',
  ];
  for (let i = 1; i <= extra; i++) manual.push(`Invoice ${i} of the sample set looks right`);
  return md(
    '# Invoice PDFs Implementation Plan',
    '## Phase 1: Rendering',
    '- [x] Task 1: Render invoices as PDF',
    '### Success Criteria:',
    '#### Automated Verification:',
    '- [x] Snapshot tests pass: `npm test -- invoices`',
    '#### Manual Verification:',
    ...manual.map((m) => `- [${box}] ${m}`),
  );
}

describe('manual confirmation', () => {
  const before = { [PLAN]: autoChecked(plan({ checked: [1, 2] })) };
  const after = { [PLAN]: manualChecked(before[PLAN]) };
  const line = lineOf(after[PLAN], 'Phase 1 works in the browser');

  ruleTester(ruleOf('history/manual-confirmation'), {
    valid: [
      {
        name: 'confirmed by the human who authored the commit',
        before,
        after,
        commit: { author: ANA, trailers: [`Confirmed-by: ${ANA}`] },
      },
      { name: 'pre-commit leaves it to commit-msg', before, after, commit: { author: CLAUDE }, stage: 'staged' },
      {
        name: 'unchecking a manual item needs no confirmation',
        before: after,
        after: before,
        commit: { author: CLAUDE },
      },
      {
        name: 'checking an automated item needs no confirmation',
        before: { [PLAN]: plan({ checked: [1, 2] }) },
        after: before,
        commit: { author: CLAUDE },
      },
      {
        name: 'a signed confirmation when signatures are required',
        before,
        after,
        config: { requireSignedConfirmations: true },
        signed: true,
        commit: { author: ANA, trailers: [`Confirmed-by: ${ANA}`] },
      },
    ],
    invalid: [
      {
        name: 'no trailer',
        before,
        after,
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'unconfirmed',
            file: PLAN,
            line,
            message:
              'Manual item "Phase 1 works in the browser" is checked without a human\'s confirmation: the commit has no `Confirmed-by:` trailer.',
          },
        ],
      },
      {
        name: 'an agent cannot confirm',
        before,
        after,
        commit: { author: CLAUDE, trailers: [`Confirmed-by: ${CLAUDE}`] },
        errors: [{ messageId: 'unconfirmed', message: /matches the `agents` patterns/ }],
      },
      {
        name: 'the confirmer must be the author or committer',
        before,
        after,
        commit: { author: CLAUDE, trailers: [`Confirmed-by: ${ANA}`] },
        errors: [{ messageId: 'unconfirmed', message: /neither the author nor the committer/ }],
      },
      {
        name: 'confirmers, when set, list who may confirm',
        before,
        after,
        config: { confirmers: ['bob@example.com'] },
        commit: { author: ANA, trailers: [`Confirmed-by: ${ANA}`] },
        errors: [{ messageId: 'unconfirmed', message: /not listed in `confirmers`/ }],
      },
      {
        name: 'an unsigned commit when signatures are required',
        before,
        after,
        config: { requireSignedConfirmations: true },
        commit: { author: ANA, trailers: [`Confirmed-by: ${ANA}`] },
        errors: [{ messageId: 'unconfirmed', message: /no good signature/ }],
      },
      {
        name: 'relayed by an agent co-author: counts in recommended, with an info',
        before,
        after,
        commit: { author: ANA, trailers: [`Confirmed-by: ${ANA}`, `Co-authored-by: ${CLAUDE}`] },
        errors: [{ messageId: 'relayed', severity: 'info', data: { name: 'Ana Human', email: 'ana@example.com' } }],
      },
      {
        name: 'in strict an agent co-author voids the confirmation',
        before,
        after,
        preset: 'strict',
        commit: { author: ANA, trailers: [`Confirmed-by: ${ANA}`, `Co-authored-by: ${CLAUDE}`] },
        errors: [
          {
            messageId: 'unconfirmed',
            severity: 'error',
            message: /in `strict` a confirmation commit may not be authored, committed or co-authored by an agent/,
          },
        ],
      },
      {
        name: 'one commit checking five manual items: one finding naming them, at the first',
        before: { [PLAN]: fiveManual(' ') },
        after: { [PLAN]: fiveManual('x') },
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'unconfirmedMany',
            file: PLAN,
            line: lineOf(fiveManual('x'), 'Invoices render'),
            message: `5 manual items are checked without a human's confirmation (the commit has no \`Confirmed-by:\` trailer): "Invoices render in the customer portal", "Totals match the finance export", "Refund e-mails arrive", "The PDF opens on a phone", "Support can find an invoice by number" (first at line ${lineOf(fiveManual('x'), 'Invoices render')}).`,
          },
        ],
      },
      {
        name: 'more than five are listed as five and a count',
        before: { [PLAN]: fiveManual(' ', 2) },
        after: { [PLAN]: fiveManual('x', 2) },
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'unconfirmedMany',
            data: {
              count: 7,
              items:
                '"Invoices render in the customer portal", "Totals match the finance export", "Refund e-mails arrive", "The PDF opens on a phone", "Support can find an invoice by number" and 2 more',
            },
          },
        ],
      },
      {
        name: 'the fix of a commit already made: confirm now, baseline or adoption point',
        before,
        after,
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'unconfirmed',
            fix: /^Have a human verify Phase 1 of thoughts\/shared\/plans\/2026-11-20-auth\.md now .*`npx validate-workflow confirm thoughts\/shared\/plans\/2026-11-20-auth\.md --phase 1`.*`npx validate-workflow --baseline-write`.*"history": \{ "since": "<commit>" \}/,
          },
        ],
      },
      {
        name: 'at commit-msg the fix is to leave the items unchecked',
        before,
        after,
        stage: 'commit-msg',
        commit: { author: CLAUDE },
        errors: [
          {
            messageId: 'unconfirmed',
            fix: /^Manual items are checked by a human, never by an agent: leave them unchecked/,
          },
        ],
      },
      {
        name: 'after adoption, a plan added with manual items already checked is an unconfirmed check-off',
        before: {},
        after: { [PLAN]: manualChecked(before[PLAN]) },
        commit: { author: CLAUDE },
        errors: [{ messageId: 'unconfirmed', severity: 'error' }],
      },
      // Round 3 (convention section 6): entering already checked is judged by evidence. With an agent's identity
      // it is an unconfirmed check-off even in an audit (the audit used to hide it); in a person's commit it is noted.
      {
        name: "in an audit, a plan that enters git already checked in a person's commit is an info: history cannot show who checked it",
        before: {},
        after: { [PLAN]: plan({ checked: [1, 2, 3, 4], verified: [1, 2] }) },
        commit: { author: ANA },
        audit: true,
        errors: [
          {
            messageId: 'enteredMany',
            severity: 'info',
            line: lineOf(plan({ verified: [1, 2] }), 'Phase 1 works in the browser'),
            message: `2 manual items enter git already checked: "Phase 1 works in the browser", "Phase 2 works in the browser" (first at line ${lineOf(plan({ verified: [1, 2] }), 'Phase 1 works in the browser')}); history cannot show who checked them.`,
          },
        ],
      },
      {
        name: "in an audit, a plan that enters git already checked in an agent's commit is an unconfirmed check-off",
        before: {},
        after: { [PLAN]: plan({ checked: [1, 2, 3, 4], verified: [1, 2] }) },
        commit: { author: CLAUDE },
        audit: true,
        errors: [
          {
            messageId: 'unconfirmedMany',
            severity: 'error',
            line: lineOf(plan({ verified: [1, 2] }), 'Phase 1 works in the browser'),
          },
        ],
      },
      {
        // With a task box too: a person's commit of manual boxes and prose alone is an implicit confirmation (round 3).
        name: "in an audit, a person's commit that checks a task, an item in place and adds one already checked: both noted",
        before: { [PLAN]: autoChecked(plan({ checked: [1, 2] })) },
        after: {
          [PLAN]: manualChecked(autoChecked(plan({ checked: [1, 2, 3] }))).replace(
            '- [x] Phase 1 works in the browser',
            '- [x] Phase 1 works in the browser\n- [x] Phase 1 sessions survive a reload',
          ),
        },
        commit: { author: ANA },
        audit: true,
        errors: [
          { messageId: 'noAgent', severity: 'info', data: { item: 'Phase 1 works in the browser' } },
          { messageId: 'entered', severity: 'info', data: { item: 'Phase 1 sessions survive a reload' } },
        ],
      },
      {
        name: 'relayed by an agent co-author, several items: one info',
        before: { [PLAN]: fiveManual(' ') },
        after: { [PLAN]: fiveManual('x') },
        commit: { author: ANA, trailers: [`Confirmed-by: ${ANA}`, `Co-authored-by: ${CLAUDE}`] },
        errors: [{ messageId: 'relayedMany', severity: 'info', data: { count: 5 } }],
      },
      {
        name: 'in strict a confirmation commit changes nothing but manual checkboxes',
        before,
        after: { [PLAN]: after[PLAN].replace('- [ ] Task 3:', '- [x] Task 3:') },
        preset: 'strict',
        // The digest of what the human confirmed (strict requires it since issue 12), so the other change is what fails.
        commit: {
          author: ANA,
          trailers: [
            `Confirmed-by: ${ANA}`,
            `Confirmed-items: ${itemsDigest([{ file: PLAN, phase: 1, text: 'Phase 1 works in the browser' }])}`,
          ],
        },
        errors: [
          {
            messageId: 'strictOtherChange',
            message:
              /in `strict` a confirmation commit changes nothing but manual checkboxes, and this one also checks Task 3/,
          },
        ],
      },
    ],
  });

  it('takes trust from the commit before: a config added in the same commit does not count', () => {
    const rule = ruleOf('history/manual-confirmation');
    const off = JSON.stringify({ rules: { 'history/manual-confirmation': 'off' } });
    expect(run(rule, { before, after: { ...after, [CONFIG]: off }, commit: { author: CLAUDE } })).toHaveLength(1);
    expect(
      run(rule, {
        before: { ...before, [CONFIG]: off },
        after: { ...after, [CONFIG]: off },
        commit: { author: CLAUDE },
      }),
    ).toEqual([]);
  });
});

/** plan() with a phase inserted before phase 2: the old phase 2 is now phase 3, its items unchanged. */
const insertedPhase = plan().replace(
  '## Phase 2: Part 2',
  [
    '## Phase 2: Rate limits',
    '',
    '- [ ] Task 3: Limit login attempts',
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    '- [ ] Rate limit tests pass: `npm test -- limits`',
    '',
    '#### Manual Verification:',
    '',
    '- [ ] N/A: no user-visible change',
    '',
    '## Phase 3: Part 2',
  ].join('\n'),
);

describe('self-exemption', () => {
  const before = { [PLAN]: plan(), [LEDGER]: ledgerOf() };
  const disabled = `${plan()}\n<!-- validate-workflow-disable plan/phase-order -- legacy plan -->\n`;
  const agent = { author: CLAUDE };

  ruleTester(ruleOf('history/self-exemption'), {
    valid: [
      { name: 'a human adds the disable', before, after: { ...before, [PLAN]: disabled }, commit: { author: ANA } },
      {
        name: 'an agent, confirmed by the human who committed it',
        before,
        after: { ...before, [PLAN]: disabled },
        commit: { author: CLAUDE, committer: ANA, trailers: [`Confirmed-by: ${ANA}`] },
      },
      {
        name: 'pre-commit leaves it to commit-msg',
        before,
        after: { ...before, [PLAN]: disabled },
        commit: agent,
        stage: 'staged',
      },
      { name: 'an agent checks a task', before, after: { ...before, [PLAN]: plan({ checked: [1] }) }, commit: agent },
      // Housekeeping (convention section 6): a plan deleted or archived whole is not a plan loosened.
      { name: 'an agent deletes a whole plan', before, after: { [LEDGER]: before[LEDGER] }, commit: agent },
      {
        name: 'an agent archives a plan out of the plans folder',
        before,
        after: { [LEDGER]: before[LEDGER], 'docs/archive/2026-11-20-auth.md': before[PLAN] },
        renames: [[PLAN, 'docs/archive/2026-11-20-auth.md']],
        commit: agent,
      },
      {
        name: 'an agent adds a plan with N/A items',
        before: {},
        after: { [PLAN]: plan().replace('- [ ] Phase 2 works in the browser', '- [ ] N/A: backend only') },
        commit: agent,
      },
      {
        name: 'an agent inserts a phase before phase 2, with an N/A manual item (templates/plan.md allows it)',
        before,
        after: { ...before, [PLAN]: insertedPhase },
        commit: agent,
      },
      // Round 7 (a held-out repository): `- [~]` is no box GFM knows; the item is kept, marked set aside with its
      // reason, and reworded. Read as a declared deviation, it is neither deleted nor loosened.
      {
        name: 'an agent marks an automated item `[~]` set aside with its reason, reworded',
        before,
        after: {
          ...before,
          [PLAN]: plan().replace(
            '- [ ] Phase 1 tests pass: `npm test`',
            '- [~] Phase 1 tests skipped here: the suite needs the staging database',
          ),
        },
        commit: agent,
      },
    ],
    invalid: [
      {
        name: 'an agent adds a disable comment',
        before,
        after: { ...before, [PLAN]: disabled },
        commit: agent,
        errors: [
          {
            messageId: 'addsDisable',
            file: PLAN,
            message: `An agent's commit (${CLAUDE}) adds a disable comment for plan/phase-order without a human's confirmation.`,
          },
        ],
      },
      {
        name: 'an agent changes the config',
        before: { ...before, [CONFIG]: '{}' },
        after: { ...before, [CONFIG]: '{"preset":"recommended"}' },
        commit: agent,
        errors: [{ messageId: 'changesConfig', file: CONFIG }],
      },
      {
        name: 'an agent adds `mode_set_by: user`',
        before: { ...before, [PLAN]: plan({ frontmatter: ['mode: direct'] }) },
        after: { ...before, [PLAN]: plan({ frontmatter: ['mode: direct', 'mode_set_by: user'] }) },
        commit: agent,
        errors: ['setsModeByUser'],
      },
      // Issue 12: the mode decides which rules bind the agent, so flipping it is loosening too.
      {
        name: 'an agent flips the plan from orchestration to direct',
        before: { ...before, [PLAN]: plan({ frontmatter: ['mode: orchestration'] }) },
        after: { ...before, [PLAN]: plan({ frontmatter: ['mode: direct'] }) },
        commit: agent,
        errors: [{ messageId: 'changesMode', message: /changes the plan's mode from orchestration to direct/ }],
      },
      {
        name: 'an agent sets direct mode and claims the user chose it: one finding naming both',
        before,
        after: { ...before, [PLAN]: plan({ frontmatter: ['mode: direct', 'mode_set_by: user'] }) },
        commit: agent,
        errors: [
          {
            messageId: 'loosens',
            message:
              /changes the plan's mode from \(none\) to direct; adds `mode_set_by: user`|adds `mode_set_by: user`; changes the plan's mode/,
          },
        ],
      },
      {
        name: 'an agent turns a manual item into N/A',
        before,
        after: {
          ...before,
          [PLAN]: plan().replace('- [ ] Phase 1 works in the browser', '- [ ] N/A: Phase 1 works in the browser'),
        },
        commit: agent,
        errors: [{ messageId: 'makesNa', data: { kind: 'manual' } }],
      },
      {
        name: 'an agent deletes a verification item',
        before,
        after: { ...before, [PLAN]: plan().replace('- [ ] Phase 2 works in the browser\n', '') },
        commit: agent,
        errors: [{ messageId: 'deletesItem', data: { kind: 'manual', item: 'Phase 2 works in the browser' } }],
      },
      {
        name: 'an agent drops five open manual items of a plan that stays: one finding naming the five',
        before: { [PLAN]: fiveManual(' ') },
        after: {
          [PLAN]: fiveManual(' ').replace(/- \[ \] (?!Task).*\n/g, (line) =>
            line.includes('Snapshot tests') ? line : '',
          ),
        },
        commit: agent,
        errors: [
          {
            messageId: 'deletesItems',
            file: PLAN,
            data: {
              count: 5,
              kind: 'manual',
              items:
                '"Invoices render in the customer portal", "Totals match the finance export", "Refund e-mails arrive", "The PDF opens on a phone", "Support can find an invoice by number"',
            },
            fix: /^Have a human review the change now: revert it in a new commit if it should not stand; if it stands, record the finding in the baseline/,
          },
        ],
      },
      {
        name: 'an agent adds an N/A item to a phase that already existed',
        before,
        after: {
          ...before,
          [PLAN]: plan().replace(
            '- [ ] Phase 1 works in the browser',
            '- [ ] Phase 1 works in the browser\n- [ ] N/A: load testing',
          ),
        },
        commit: agent,
        errors: [{ messageId: 'addsNa', data: { kind: 'manual', item: 'N/A: load testing' } }],
      },
      {
        name: 'several kinds of loosening in one file: one finding naming each',
        before,
        after: {
          ...before,
          [PLAN]: `${plan().replace('- [ ] Phase 1 works in the browser', '- [ ] N/A: Phase 1 works in the browser').replace('- [ ] Phase 2 works in the browser\n', '')}\n<!-- validate-workflow-disable plan/phase-order -- legacy plan -->\n`,
        },
        commit: agent,
        errors: [
          {
            messageId: 'loosens',
            file: PLAN,
            message:
              /loosens thoughts\/shared\/plans\/2026-11-20-auth\.md without a human's confirmation: it adds a disable comment for plan\/phase-order; turns an item into N\/A \("N\/A: Phase 1 works in the browser"\); deletes a verification item \("Phase 2 works in the browser"\)/,
          },
        ],
      },
    ],
  });
});

describe('a plan renamed with its prose rewritten', () => {
  // git pairs renames by line similarity; a plan whose prose was rewritten falls under it and reaches the fold as a
  // deletion and an addition, though its tasks and boxes are the same.
  const verified = plan({ checked: [1, 2], verified: [1] });
  const rewritten = (text: string) =>
    text.replace(
      '# Auth flow Implementation Plan',
      md(
        '# Sign-in Implementation Plan',
        '',
        '## Overview',
        '',
        'Rewritten by the team lead after the review: the scope, the risks and the rollout are described again in full, with the decisions of the design meeting.',
      ).trimEnd(),
    );
  const moved = 'thoughts/shared/plans/2026-11-20-sign-in.md';

  ruleTester(ruleOf('history/manual-confirmation'), {
    valid: [
      {
        name: 'boxes checked before the rename are not checked again',
        before: { [PLAN]: verified },
        after: { [moved]: rewritten(verified) },
        commit: { author: CLAUDE },
      },
    ],
    invalid: [
      {
        name: 'a box checked while renaming is still a check',
        before: { [PLAN]: plan({ checked: [1, 2] }) },
        after: { [moved]: rewritten(verified) },
        commit: { author: CLAUDE },
        errors: [{ messageId: 'unconfirmed', file: moved }],
      },
      {
        name: 'an unrelated plan added checked while another is deleted is no rename',
        before: { [PLAN]: verified },
        after: {
          [moved]: md(
            '# Billing Implementation Plan',
            '',
            '## Phase 1: Invoices',
            '',
            '- [x] Task 1: Render invoices',
            '',
            '### Success Criteria:',
            '',
            '#### Automated Verification:',
            '',
            '- [x] Invoices tests pass',
            '',
            '#### Manual Verification:',
            '',
            '- [x] Invoices render in the portal',
            '',
          ),
        },
        commit: { author: CLAUDE },
        errors: [{ messageId: 'unconfirmed', file: moved }],
      },
    ],
  });
});
