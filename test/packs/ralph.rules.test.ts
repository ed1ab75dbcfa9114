// The ralph pack's rules in memory (the rule tester: no repository, no process): every message each rule can say,
// with its exact words, on the seed's schema example mutated one way at a time. ralph.test.ts keeps the doors:
// the working tree through the CLI's lint, and real commits through the history door.
import { readFileSync } from 'node:fs';
import { ruleTester } from '../helpers/rule-tester.js';
import { ralph } from '../../src/packs/ralph/index.js';
import type { Rule } from '../../src/rules/types.js';

const DIR = '.workflow/.maestro/ralph-20260112-143015';
const STATUS = `${DIR}/status.json`;
const DECISIONS = `${DIR}/decisions.ndjson`;
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/packs/ralph/clean/${name}`, import.meta.url), 'utf8');
const CLEAN_STATUS = fixture(STATUS);
const CLEAN_DECISIONS = fixture(DECISIONS);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function status(mutate: (s: Json) => void = () => {}): string {
  const s = JSON.parse(CLEAN_STATUS) as Json;
  mutate(s);
  return `${JSON.stringify(s, null, 2)}\n`;
}

/** The working tree of one session, its status.json mutated. */
const session = (mutate: (s: Json) => void = () => {}, decisions = CLEAN_DECISIONS) => ({
  [STATUS]: status(mutate),
  [DECISIONS]: decisions,
});

/** The 1-based line of the first line of `text` containing `needle` (after `after`, when given). */
function lineOf(text: string, needle: string, after = ''): number {
  const lines = text.split('\n');
  const from = after ? lines.findIndex((l) => l.includes(after)) : 0;
  return lines.findIndex((l, i) => i >= from && l.includes(needle)) + 1;
}

function rule(id: string): Rule {
  const found = ralph.rules.find((r) => r.meta.id === id);
  if (!found) throw new Error(`no rule ${id} in the ralph pack`);
  return found;
}

const clean = { name: 'the seed schema example', files: session() };

ruleTester(rule('ralph/schema'), {
  valid: [clean],
  invalid: [
    {
      name: 'corrupt JSON: E010 at the line it breaks',
      files: { [STATUS]: '{\n  "status": "running",\n  "steps": [\n}\n' },
      errors: [{ messageId: 'unreadable', line: 4, message: /^E010: status.json is not valid JSON: / }],
    },
    {
      name: 'not an object',
      files: { [STATUS]: '[1, 2]\n' },
      errors: [{ messageId: 'notObject', line: 1, message: 'E010: status.json must be a JSON object.' }],
    },
    {
      name: 'each schema violation is one finding',
      files: session((s) => {
        s.quality_mode = 'thorough';
        s.steps[2].completion_status = 'FINISHED';
        s.steps[3].command_scope = 'user';
        s.scope_verdict = 'huge';
        s.planning_mode = 'mixed';
        s.steps[7].status = 'done';
        s.status = 'stopped';
      }),
      errors: Array<string>(7).fill('invalid'),
    },
    {
      name: 'an enumeration broken, at its key',
      files: session((s) => (s.quality_mode = 'thorough')),
      errors: [
        {
          messageId: 'invalid',
          line: lineOf(status(), '"quality_mode"'),
          message: /^E010: `quality_mode` must be one of .*\.$/,
        },
      ],
    },
  ],
});

ruleTester(rule('ralph/active-step'), {
  valid: [
    clean,
    {
      name: 'an index on a completed step is stale-active-step',
      files: session((s) => ((s.steps[5].status = 'pending'), (s.active_step_index = 3))),
    },
  ],
  invalid: [
    {
      name: 'a second step running',
      files: session((s) => (s.steps[7].status = 'running')),
      errors: [
        {
          messageId: 'runningNotActive',
          message: 'E008: step 7 (quality-test) is running but active_step_index is 5.',
        },
      ],
    },
    {
      name: 'a step running with no index',
      files: session((s) => (s.active_step_index = null)),
      errors: [
        {
          messageId: 'runningNotActive',
          message: 'E008: step 5 (quality-review) is running but active_step_index is null.',
        },
      ],
    },
    {
      name: 'an index past the end',
      files: session((s) => ((s.steps[5].status = 'pending'), (s.active_step_index = 40))),
      errors: [
        { messageId: 'noSuchStep', message: 'E008: active_step_index 40 points at no step (the session has 12).' },
      ],
    },
    {
      name: 'an index on a pending step',
      files: session((s) => ((s.steps[5].status = 'pending'), (s.active_step_index = 6))),
      errors: [
        {
          messageId: 'notRunning',
          message: 'E008: active_step_index 6 points at step 6 (decision:post-review), which is pending, not running.',
        },
      ],
    },
    {
      name: 'the index moved off the running step',
      files: session((s) => (s.active_step_index = 6)),
      errors: ['notRunning', 'runningNotActive'],
    },
    {
      name: 'the index past the end, a step running',
      files: session((s) => (s.active_step_index = 40)),
      errors: ['noSuchStep', 'runningNotActive'],
    },
  ],
});

ruleTester(rule('ralph/stale-active-step'), {
  valid: [clean],
  invalid: [
    {
      files: session((s) => ((s.steps[5].status = 'pending'), (s.active_step_index = 3))),
      errors: [
        {
          messageId: 'completed',
          severity: 'warning',
          message: 'W005: active_step_index 3 points at step 3 (maestro-verify), which is completed.',
        },
      ],
    },
  ],
});

ruleTester(rule('ralph/completion-confirmed'), {
  valid: [clean],
  invalid: [
    {
      name: 'confirmed but not completed',
      files: session((s) => (s.steps[7].completion_confirmed = true)),
      errors: [
        {
          messageId: 'notCompleted',
          message: 'step 7 (quality-test) has completion_confirmed true but its status is "pending", not "completed".',
        },
      ],
    },
    {
      name: 'confirmed with a status other than DONE',
      files: session((s) => (s.steps[2].completion_status = 'NEEDS_RETRY')),
      errors: [
        {
          messageId: 'badStatus',
          message:
            'step 2 (maestro-execute) is confirmed with completion_status "NEEDS_RETRY"; it must be DONE or DONE_WITH_CONCERNS.',
        },
      ],
    },
    {
      name: 'a decision step with a completion status',
      files: session((s) => (s.steps[4].completion_status = 'DONE')),
      errors: [
        {
          messageId: 'decisionStatus',
          message: 'step 4 (decision:post-verify) is a decision step but carries completion_status "DONE".',
        },
      ],
    },
  ],
});

/** Every step done and confirmed (the quality-test step skipped); the decomposition still open. */
const done = (s: Json) => {
  s.status = 'completed';
  s.active_step_index = null;
  for (const st of s.steps)
    Object.assign(st, {
      status: 'completed',
      completion_confirmed: true,
      completion_status: st.decision ? null : 'DONE',
      load: st.decision ? null : st.load,
    });
  Object.assign(s.steps[7], { status: 'skipped', completion_confirmed: false, completion_status: null });
};

ruleTester(rule('ralph/session-complete'), {
  valid: [
    clean,
    {
      name: 'every non-skipped step confirmed, every sub-goal done',
      files: session((s) => {
        done(s);
        s.task_decomposition_all_done = true;
        for (const g of s.task_decomposition)
          Object.assign(g, { status: 'done', completion_confirmed: true, completed_at: '2026-01-12T18:00:00Z' });
      }),
    },
  ],
  invalid: [
    { name: 'the decomposition still open', files: session(done), errors: ['decompositionOpen'] },
    {
      files: session((s) => (s.status = 'completed')),
      errors: [
        {
          messageId: 'unconfirmed',
          message:
            'The session is completed but 7 of its steps are not confirmed: step 5 (quality-review), step 6 (decision:post-review), step 7 (quality-test), ….',
        },
        {
          messageId: 'decompositionOpen',
          message: 'The session is completed but task_decomposition_all_done is not true.',
        },
      ],
    },
    {
      name: 'three open steps are all named',
      files: session((s) => {
        s.status = 'completed';
        s.task_decomposition_all_done = true;
        for (const st of s.steps.slice(5, 9)) st.completion_confirmed = true;
      }),
      errors: [
        {
          messageId: 'unconfirmed',
          message:
            'The session is completed but 3 of its steps are not confirmed: step 9 (decision:post-goal-audit), step 10 (maestro-milestone-complete), step 11 (decision:post-milestone).',
        },
      ],
    },
  ],
});

ruleTester(rule('ralph/last-step'), {
  valid: [clean, { name: 'without the trailing post-milestone decision', files: session((s) => s.steps.pop()) }],
  invalid: [
    {
      files: session((s) => s.steps.splice(10)),
      errors: [
        {
          messageId: 'notMilestone',
          message: 'The chain ends with step 9 (decision:post-goal-audit), not with milestone-complete.',
        },
      ],
    },
    {
      name: 'a step after post-milestone',
      files: session((s) => s.steps.push({ ...s.steps[9], index: 12 })),
      errors: ['notMilestone'],
    },
  ],
});

ruleTester(rule('ralph/post-goal-audit'), {
  valid: [
    clean,
    {
      name: 'no decomposition, no audit',
      files: session((s) => ((s.task_decomposition = null), s.steps.splice(9, 1))),
    },
  ],
  invalid: [
    {
      files: session((s) => s.steps.splice(9, 1)),
      errors: [
        { messageId: 'missing', message: 'The session has a task_decomposition but no decision:post-goal-audit step.' },
      ],
    },
  ],
});

ruleTester(rule('ralph/retries'), {
  valid: [clean],
  invalid: [
    {
      files: session((s) => (s.steps[6].retry_count = 3)),
      errors: [
        { messageId: 'tooMany', message: 'step 6 (decision:post-review) has retry_count 3, above max_retries 2.' },
      ],
    },
  ],
});

ruleTester(rule('ralph/step-index'), {
  valid: [clean],
  invalid: [
    {
      files: session((s) => (s.steps[8].index = 9)),
      errors: [{ messageId: 'wrong', message: 'step 8 (decision:post-test) has index 9, not 8.' }],
    },
  ],
});

ruleTester(rule('ralph/command-scope'), {
  valid: [clean],
  invalid: [
    {
      files: session((s) => (s.steps[7].command_scope = 'missing')),
      errors: [
        {
          messageId: 'missing',
          message: 'E006: step 7 (quality-test) has command_scope "missing": its skill was not found.',
        },
      ],
    },
  ],
});

ruleTester(rule('ralph/decision-inline'), {
  valid: [clean],
  invalid: [
    { name: 'loaded', files: session((s) => (s.steps[4].load = s.steps[3].load)), errors: ['loaded'] },
    {
      files: session((s) => (s.steps[4].command_scope = 'global')),
      errors: [
        {
          messageId: 'loaded',
          message:
            'step 4 (decision:post-verify) is a decision step but has command_scope "global": it was loaded like an execution step.',
        },
      ],
    },
  ],
});

ruleTester(rule('ralph/exit2-pause'), {
  valid: [clean, { name: 'paused', files: session((s) => ((s.consec_exit2_count = 2), (s.status = 'paused'))) }],
  invalid: [
    {
      files: session((s) => (s.consec_exit2_count = 2)),
      errors: [
        {
          messageId: 'stillRunning',
          message: 'E010: consec_exit2_count is 2 but the session is still running; it must pause.',
        },
      ],
    },
  ],
});

const goal = (d: string) =>
  JSON.stringify({
    id: `DEC-${d}`,
    type: 'goal-gate',
    source: 'ralph',
    node_id: 'post-goal-audit',
    unmet_count: 1,
    unmet_ids: ['G2'],
  });

ruleTester(rule('ralph/decisions-appended'), {
  valid: [
    clean,
    { name: 'a decision appended', before: session(), after: session(undefined, `${CLEAN_DECISIONS}${goal('2')}\n`) },
  ],
  invalid: [
    {
      name: 'lines without the seed fields',
      files: session(
        undefined,
        `${CLEAN_DECISIONS}{"id":"DEC-2","type":"scope-gate","source":"ralph","node_id":"post-analyze-scope"}\nnot json\n[1]\n`,
      ),
      errors: [
        { messageId: 'badLine', line: 2, message: 'Line 2 of decisions.ndjson lacks `verdict`, `analyze_macro_id`.' },
        { messageId: 'badLine', line: 3, message: 'Line 3 of decisions.ndjson is not valid JSON.' },
        { messageId: 'badLine', line: 4, message: 'Line 4 of decisions.ndjson is not a JSON object.' },
      ],
    },
    {
      name: 'a committed line edited, and an appended line without the fields',
      before: session(),
      after: session(
        undefined,
        `${CLEAN_DECISIONS.replace('"proceed"', '"fix"')}{"id":"DEC-3","type":"goal-gate","source":"other","node_id":"x","unmet_count":0,"unmet_ids":[]}\n`,
      ),
      errors: [
        {
          messageId: 'lineEdited',
          line: 1,
          message: 'The commit edits committed line 1 of decisions.ndjson: decisions are only appended.',
        },
        {
          messageId: 'badAppend',
          line: 2,
          message: 'The commit appends line 2 of decisions.ndjson that has source "other", not "ralph".',
        },
      ],
    },
    {
      name: 'a committed line removed',
      before: session(undefined, `${CLEAN_DECISIONS}${goal('2')}\n`),
      after: session(),
      errors: [
        {
          messageId: 'lineRemoved',
          line: 2,
          message: 'The commit removes committed line 2 of decisions.ndjson: decisions are only appended.',
        },
      ],
    },
    {
      name: 'the log deleted',
      before: session(),
      after: { [STATUS]: status() },
      errors: [
        {
          messageId: 'fileRemoved',
          line: null,
          message: 'The commit removes decisions.ndjson, which held 1 committed decision.',
        },
      ],
    },
  ],
});

ruleTester(rule('ralph/decomposition-accumulates'), {
  valid: [
    {
      name: 'progress moves forward and fields are added',
      before: session(),
      after: session((s) => {
        Object.assign(s.task_decomposition[1], {
          status: 'done',
          completion_confirmed: true,
          completed_at: '2026-01-12T18:00:00Z',
          evidence: 'review.json',
        });
      }),
    },
  ],
  invalid: [
    {
      name: 'a sub-goal removed, a field rewritten, another dropped, a status moved back',
      before: session(),
      after: session((s) => {
        s.task_decomposition[0].done_when = 'The CSV download works';
        s.task_decomposition[0].status = 'pending';
        delete s.task_decomposition[0].boundary;
        s.task_decomposition.pop();
      }),
      errors: [
        { messageId: 'fieldRemoved', message: 'The commit removes G1.boundary (was "reports page only").' },
        {
          messageId: 'fieldChanged',
          message:
            'The commit changes G1.done_when: "The CSV download holds every visible row with headers" → "The CSV download works".',
        },
        { messageId: 'backwards', message: 'The commit moves G1.status backwards: "done" → "pending".' },
        { messageId: 'goalRemoved', message: 'The commit removes sub-goal G2 from task_decomposition.' },
      ],
    },
  ],
});

const reopen = (i: number, extra: Json = {}) =>
  session((s) =>
    Object.assign(s.steps[i], {
      status: 'pending',
      completion_confirmed: false,
      completion_status: null,
      completed_at: null,
      ...extra,
    }),
  );

ruleTester(rule('ralph/step-release'), {
  valid: [
    { name: 'a decision step released with retry_count + 1', before: session(), after: reopen(4, { retry_count: 1 }) },
  ],
  invalid: [
    {
      name: 'an execution step reopened',
      before: session(),
      after: reopen(2),
      errors: [
        {
          messageId: 'notDecision',
          message:
            'The commit sets step 2 (maestro-execute) from completed back to pending; only a decision step is released back to pending.',
        },
      ],
    },
    {
      name: 'a decision step reopened without the release',
      before: session(),
      after: reopen(4),
      errors: [
        {
          messageId: 'notReleased',
          message:
            'The commit sets step 4 (decision:post-verify) from completed back to pending without the re-evaluation release (retry_count + 1).',
        },
      ],
    },
  ],
});
