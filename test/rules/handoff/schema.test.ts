// handoff/schema: the micro spec's output schema (required [status, task_desc, files_modified[],
// verification_results, context_for_next], blocker when blocked) for task handoffs in every dialect; session
// handoffs of the other dialects are held to the lighter part only.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract } from '../../helpers/rule-tester.js';
import { HANDOFFS, PLAN, handoffPath, lineOf, md, plan, strict, taskHandoff } from '../fixtures.js';

const ID = 'handoff/schema';
const H1 = handoffPath(1);

describe(ID, () => {
  it('passes a canonical task handoff', () => {
    expect(findings({ [PLAN]: plan(), [H1]: taskHandoff(1) }, ID)).toEqual([]);
    expect(findings({ [PLAN]: plan(), [H1]: taskHandoff(1) }, ID, strict())).toEqual([]);
  });

  it('names each missing required field', () => {
    const text = taskHandoff(1, {
      task_desc: undefined,
      files_modified: undefined,
      verification_results: undefined,
      context_for_next: undefined,
      status: undefined,
    });
    const messages = findings({ [H1]: text.replace('# Task Handoff: Step 1\n', '') }, ID).map((f) => f.message);
    expect(messages.sort()).toEqual(
      [
        'task handoff is missing `context_for_next`: add a frontmatter key (`context_for_next:`, `next_task_context:`, `next:`) or a section (`## Next Task Context`, `## Next Task`, `## Next Steps`, `## Notes for Next Task`, `## Dependencies for Next Tasks`)',
        'task handoff is missing `files_modified`: add a frontmatter key (`files_modified:`) or a section (`## Files Modified`, `## Files Created`, `## Files Changed`, `## Files Touched`)',
        'task handoff is missing `status`: add a frontmatter key (`status:`, `outcome:`), a `**Status:** complete` line or a `## Status: complete` heading',
        'task handoff is missing `task_desc`: add a frontmatter key (`task_desc:`, `task_description:`, `title:`, `goal:`) or a section (`## Task Summary`, or the `# Title` heading)',
        'task handoff is missing `verification_results`: add a frontmatter key (`verification_results:`, `verification:`) or a section (`## Verification`, `## TDD Verification`, `## Test Results`, `## Testing`, `## Validation`, `## TDD Summary`, `## Test Coverage`)',
      ].sort(),
    );
  });

  it('reports a missing field at the nearest heading, not at 1:1', () => {
    const text = md(
      '---',
      'status: complete',
      'task: 1',
      '---',
      '',
      '# Task Handoff: Add users table',
      '',
      '## Files Created',
      '- `db/001_users.sql`',
      '',
      '## Test Results',
      '- [x] `npm test`',
    );
    expect(findings({ [H1]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, '# Task Handoff'),
        messageId: 'missingField',
        message: expect.stringMatching(/^task handoff is missing `context_for_next`: .*`## Next Steps`/),
      }),
    ]);
    const bare = md('---', 'status: complete', 'task: 1', 'task_desc: a', '---', '');
    expect(findings({ [H1]: bare }, ID).map((f) => f.line)).toEqual([1, 1, 1]);
  });

  it('takes a missing task_desc from the H1 heading, as the dialects do', () => {
    expect(findings({ [H1]: taskHandoff(1, { task_desc: undefined }) }, ID)).toEqual([]);
  });

  it('reports a status word outside the four statuses at the status line', () => {
    const text = taskHandoff(1, { status: 'TODO' });
    expect(findings({ [H1]: text }, ID)).toEqual([
      expect.objectContaining({
        file: H1,
        line: lineOf(text, 'status:'),
        severity: 'error',
        messageId: 'invalid',
        message: expect.stringContaining('`status` must be one of "complete", "partial", "blocked", "failed"'),
      }),
    ]);
  });

  it('normalizes status words of the dialects (done, success, needs review, partial_plus)', () => {
    for (const status of ['done', 'Success', 'validated', 'partial_plus', 'needs review', 'FAILED']) {
      expect(findings({ [H1]: taskHandoff(1, { status, blocker: 'x' }) }, ID), status).toEqual([]);
    }
  });

  it('requires a blocker when the status is blocked, and takes `blocker: null` as none', () => {
    const missing = taskHandoff(1, { status: 'blocked', blocker: undefined });
    expect(findings({ [H1]: missing }, ID)).toEqual([
      expect.objectContaining({
        messageId: 'missingBlocker',
        message:
          'status is blocked but no `blocker` says what blocks the task: add a `blocker:` key or an `## Issues Encountered` section',
      }),
    ]);
    const nulled = taskHandoff(1, { status: 'blocked' });
    expect(findings({ [H1]: nulled }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(nulled, 'blocker: null'),
        messageId: 'missingBlocker',
        message: expect.stringContaining('status is blocked but no `blocker` says what blocks the task'),
      }),
    ]);
    expect(
      findings({ [H1]: taskHandoff(1, { status: 'blocked', blocker: 'The users table already exists in prod.' }) }, ID),
    ).toEqual([]);
  });

  it('reports fields of the wrong type at their lines', () => {
    const text = taskHandoff(3, { task: '3', files_modified: 'src/a.ts', context_for_next: 42 });
    const got = findings({ [handoffPath(3)]: text }, ID);
    expect(got).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'task: "3"'),
        messageId: 'invalid',
        message: expect.stringContaining('`task` must be integer'),
      }),
      expect.objectContaining({
        line: lineOf(text, 'files_modified:'),
        messageId: 'invalid',
        message: expect.stringContaining('`files_modified` must be array'),
      }),
      expect.objectContaining({
        line: lineOf(text, 'context_for_next:'),
        messageId: 'invalid',
        message: expect.stringContaining('`context_for_next` must be string'),
      }),
    ]);
  });

  it('reports frontmatter that is not valid YAML at the line of the error', () => {
    const text = md('---', 'status: complete', 'task: 1', 'files_modified: [src/a.ts', '---', '# Task Handoff: a');
    const got = findings({ [H1]: text }, ID);
    expect(got.length).toBeGreaterThan(0);
    expect(got[0]).toMatchObject({
      file: H1,
      severity: 'error',
      messageId: 'unreadable',
      message: expect.stringContaining('Invalid YAML'),
    });
    expect(got[0]!.line).toBeGreaterThanOrEqual(lineOf(text, 'files_modified'));
  });

  it('reports a binary handoff', () => {
    expect(findings({ [H1]: Buffer.from([0x2d, 0x00]) }, ID)).toEqual([
      expect.objectContaining({
        file: H1,
        line: 1,
        messageId: 'unreadable',
        message: expect.stringContaining('binary'),
      }),
    ]);
  });

  it('reads the implement_task dialect: sections, a body status marker and the number from the file name', () => {
    const text = md(
      '# Task Handoff: Add login endpoint',
      '',
      '**Status:** Done',
      '',
      '## Files Modified',
      '- `src/auth/login.ts`',
      '',
      '## TDD Verification',
      '- [x] `npm test` passes',
      '',
      '## Next Task Context',
      'The session cookie name is in src/auth/config.ts.',
    );
    expect(findings({ [`${HANDOFFS}/task-03-add-login.md`]: text }, ID)).toEqual([]);
    const noContext = text.slice(0, text.indexOf('## Next Task Context'));
    expect(findings({ [`${HANDOFFS}/task-03-add-login.md`]: noContext }, ID)).toEqual([
      expect.objectContaining({
        line: 1,
        messageId: 'missingField',
        message: expect.stringContaining('task handoff is missing `context_for_next`: add a frontmatter key'),
      }),
    ]);
  });

  it('holds a handoff with a task key to the task schema whatever its name', () => {
    const text = md('---', 'task: 2', 'status: complete', '---', '# Handoff: b');
    const got = findings({ [`${HANDOFFS}/notes.md`]: text }, ID).map((f) => f.message);
    expect(got.some((m) => m.startsWith('task handoff is missing `files_modified`'))).toBe(true);
  });

  it('holds session handoffs of the other dialects to the lighter schema', () => {
    const files = {
      [`${HANDOFFS}/2026-11-20_10-15-00_auth-session.md`]: md(
        '---',
        'date: 2026-11-20',
        'topic: auth',
        '---',
        '# Handoff: auth session',
        'Where we are.',
      ),
      [`${HANDOFFS}/validation-auth.md`]: md('# Validation report', 'All good.'),
      [`${HANDOFFS}/auto-handoff-2026-11-20.md`]: md('# Auto handoff', 'Compacted.'),
      [`${HANDOFFS}/session.yaml`]: md(
        '---',
        'session: auth-1',
        'outcome: PARTIAL_PLUS',
        '---',
        'goal: Ship auth',
        'next:',
        '  - write tests',
      ),
    };
    expect(findings(files, ID)).toEqual([]);
  });

  it('reports a YAML session handoff that is not valid YAML, at the error', () => {
    const text = md('goal: Ship auth', 'next: [a, b', 'done: true');
    const got = findings({ [`${HANDOFFS}/session.yaml`]: text }, ID);
    expect(got.length).toBeGreaterThan(0);
    expect(got[0]).toMatchObject({
      file: `${HANDOFFS}/session.yaml`,
      messageId: 'unreadable',
      message: expect.stringContaining('Invalid YAML'),
    });
  });
});

describeRuleContract(
  ID,
  {
    [PLAN]: plan(),
    [H1]: taskHandoff(1, { status: 'TODO' }),
    [handoffPath(2)]: taskHandoff(2, { files_modified: undefined }),
  },
  { recommended: 'error', strict: 'error' },
);

describe('handoff/schema messages', () => {
  it('reports a bad verification entry once, saying what shape it must have', () => {
    const text = taskHandoff(1, { verification_results: [1] });
    const found = findings({ [handoffPath(1)]: text }, 'handoff/schema');
    expect(found).toEqual([
      expect.objectContaining({
        messageId: 'invalid',
        message: '`verification_results[0]` must be a string, or a mapping with `check` and `result`, not number 1',
      }),
    ]);
  });
});
