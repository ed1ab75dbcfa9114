// readHandoffText on each handoff dialect: where each field comes from (frontmatter keys, then body sections, then
// body markers), how status words normalize, where the task number comes from, and which handoffs are task handoffs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeStatus, readHandoffText } from '../../src/read/handoff.js';
import { validate } from '../../src/schemas/validate.js';
import { HANDOFF_DIALECTS } from '../../src/model/types.js';

function fixture(path: string): string {
  return readFileSync(new URL(`../fixtures/dialects/${path}`, import.meta.url), 'utf8');
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

const ROOT = 'thoughts/handoffs';

describe('status words', () => {
  it.each([
    ['success', 'complete'],
    ['complete', 'complete'],
    ['completed', 'complete'],
    ['done', 'complete'],
    ['validated', 'complete'],
    ['SUCCEEDED', 'complete'],
    ['Done', 'complete'],
    ['COMPLETE', 'complete'],
    ['partial', 'partial'],
    ['partial_plus', 'partial'],
    ['partial_minus', 'partial'],
    ['PARTIAL_PLUS', 'partial'],
    ['partial-minus', 'partial'],
    ['blocked', 'blocked'],
    ['needs review', 'blocked'],
    ['Needs Review', 'blocked'],
    ['failed', 'failed'],
    ['FAILED', 'failed'],
  ])('%s -> %s', (word, status) => {
    expect(normalizeStatus(word)).toBe(status);
  });

  it.each([['in progress'], ['wip'], [''], [3], [null]])('%j is no status', (word) => {
    expect(normalizeStatus(word)).toBeNull();
  });

  it('keeps a word it cannot normalize, so the schema names it', () => {
    const h = readHandoffText(`${ROOT}/s/task-01-a.md`, ROOT, '---\nstatus: in review\ntask: 1\n---\n# A\n');
    expect(h.status).toBeNull();
    expect(h.normalized.status).toBe('in review');
    expect(validate('handoff', h.normalized).map((e) => e.pointer)).toContain('/status');
  });
});

describe('task number', () => {
  it('comes from the `task` key', () => {
    const h = readHandoffText(`${ROOT}/s/notes.md`, ROOT, '---\ntask: 4\n---\n# A\n');
    expect([h.isTask, h.task, h.fileTask, h.normalized.task]).toEqual([true, 4, null, 4]);
  });

  it('comes from the `task_number` key', () => {
    const h = readHandoffText(`${ROOT}/s/notes.md`, ROOT, '---\ntask_number: 7\n---\n# A\n');
    expect([h.isTask, h.task, h.normalized.task]).toEqual([true, 7, 7]);
    expect(h.positions['/task']).toEqual({ line: 2, column: 1 });
  });

  it('comes from `task-NN` in the file name when no key gives it', () => {
    const h = readHandoffText(
      `${ROOT}/s/task-03-add-login.md`,
      ROOT,
      '# Task Handoff: Add login\n\n**Status:** Done\n',
    );
    expect([h.isTask, h.task, h.fileTask, h.normalized.task]).toEqual([true, null, 3, 3]);
  });

  it('keeps both numbers when key and file name disagree, so handoff/path can say so', () => {
    const h = readHandoffText(`${ROOT}/s/task-03-add-login.md`, ROOT, '---\ntask_number: 2\n---\n# A\n');
    expect([h.task, h.fileTask, h.normalized.task]).toEqual([2, 3, 2]);
  });

  it('is not read from a `task:` nested in a list (v3 `done_this_session`)', () => {
    const h = readHandoffText(
      `${ROOT}/s/2026-01-08_16-30_x.yaml`,
      ROOT,
      'goal: g\ndone_this_session:\n  - task: one\n',
    );
    expect([h.isTask, h.task]).toEqual([false, null]);
  });
});

describe('Continuous-Claude implement_task: fields in sections', () => {
  const path = `${ROOT}/api-rate-limiting/task-02-redis-store.md`;
  const text = fixture(`continuous-claude/${path}`);
  const h = readHandoffText(path, ROOT, text);

  it('reads the frontmatter keys and the body sections into one task handoff', () => {
    expect(h).toMatchObject({
      dialect: 'task',
      isTask: true,
      session: 'api-rate-limiting',
      status: 'complete',
      task: 2,
      fileTask: 2,
    });
    expect(h.planRef).toBe('thoughts/shared/plans/2026-02-03-api-rate-limiting.md');
    expect(h.normalized).toMatchObject({
      kind: 'task',
      status: 'complete',
      task: 2,
      task_total: 4,
      task_desc: 'Share bucket state across API replicas through Redis.',
      // `path:1-64` names lines of a file; the file is the path.
      files_modified: ['src/limiter/redis-store.ts', 'test/limiter/redis-store.test.ts'],
      decisions: ['Use Redis TIME inside the script so replicas with skewed clocks agree.'],
      context_for_next: 'Mount the middleware after auth in src/server.ts:41; the key id is on req.apiKey.id.',
    });
    expect(validate('handoff', h.normalized)).toEqual([]);
  });

  it('turns the `## TDD Verification` checklist into verification results', () => {
    expect(h.verification).toEqual([
      { check: 'Tests written BEFORE implementation', result: 'pass' },
      { check: 'Each test failed first (RED), then passed (GREEN)', result: 'pass' },
      { check: 'Tests run: npm test -- redis-store → 4 passing', result: 'pass' },
    ]);
    const partial = readHandoffText(
      `${ROOT}/api-rate-limiting/task-03-express-middleware.md`,
      ROOT,
      fixture(`continuous-claude/${ROOT}/api-rate-limiting/task-03-express-middleware.md`),
    );
    expect(partial.verification.map((v) => (v as { result: string }).result)).toEqual(['pass', 'not run']);
    expect(partial.status).toBe('partial');
  });

  it('points each field at its section heading', () => {
    expect(h.positions['/files_modified']).toEqual({ line: lineOf(text, '## Files Modified'), column: 1 });
    expect(h.positions['/context_for_next']).toEqual({ line: lineOf(text, '## Next Task Context'), column: 1 });
    expect(h.positions['/status']).toEqual({ line: lineOf(text, 'status: success'), column: 1 });
  });

  it('reads "None." under `## Issues Encountered` as no blocker, and anything else as the blocker', () => {
    const one = readHandoffText(
      `${ROOT}/api-rate-limiting/task-01-token-bucket.md`,
      ROOT,
      fixture(`continuous-claude/${ROOT}/api-rate-limiting/task-01-token-bucket.md`),
    );
    expect(one.normalized.blocker).toBeNull();
    const blocked = readHandoffText(
      `${ROOT}/search-index/task-01-tokenizer.md`,
      ROOT,
      fixture(`continuous-claude-planted/${ROOT}/search-index/task-01-tokenizer.md`),
    );
    expect(blocked.status).toBe('blocked');
    expect(blocked.normalized.blocker).toBe(
      'The plan says Node 18, but Intl.Segmenter needs Node 20 on our CI image. Which one do we target?',
    );
  });

  it('lets a frontmatter key win over its section', () => {
    const t = readHandoffText(
      `${ROOT}/s/task-01-a.md`,
      ROOT,
      '---\ntask_desc: From the key\nstatus: blocked\n---\n# Task Handoff: From the title\n\n**Status:** Done\n\n## Task Summary\nFrom the section\n',
    );
    expect([t.taskDesc, t.status]).toEqual(['From the key', 'blocked']);
  });

  it('falls back to the H1 for task_desc, without its "Task Handoff:" label', () => {
    const t = readHandoffText(`${ROOT}/s/task-01-a.md`, ROOT, '# Task Handoff: Add login endpoint\n');
    expect(t.taskDesc).toBe('Add login endpoint');
  });
});

describe('body markers', () => {
  const dir = `${ROOT}/docs-search`;

  it('reads `**Status:** Done`', () => {
    const path = `${dir}/task-01-index-pages.md`;
    const text = fixture(`handoff-markers/${path}`);
    const h = readHandoffText(path, ROOT, text);
    expect(h.status).toBe('complete');
    expect(h.positions['/status']).toEqual({ line: lineOf(text, '**Status:** Done'), column: 1 });
    expect(h.normalized).toMatchObject({
      task: 1,
      task_desc: 'Index the docs pages at build time',
      files_modified: ['scripts/build-index.mjs', 'package.json'],
      verification_results: [
        { check: 'npm run build writes public/search-index.json', result: 'pass' },
        { check: 'npm test -- build-index passes', result: 'pass' },
      ],
    });
    expect(validate('handoff', h.normalized)).toEqual([]);
  });

  it('reads `## Status: COMPLETE`', () => {
    const path = `${dir}/task-02-search-box.md`;
    const text = fixture(`handoff-markers/${path}`);
    const h = readHandoffText(path, ROOT, text);
    expect(h.status).toBe('complete');
    expect(h.positions['/status']).toEqual({ line: lineOf(text, '## Status: COMPLETE'), column: 1 });
  });

  it('reads `**Status**: validated` and a `## Status` heading with the word below it', () => {
    expect(
      readHandoffText(
        `${dir}/task-03-rank-title-matches.md`,
        ROOT,
        fixture(`handoff-markers/${dir}/task-03-rank-title-matches.md`),
      ).status,
    ).toBe('complete');
    expect(
      readHandoffText(`${dir}/task-04-x.md`, ROOT, '# Task Handoff: X\n\n## Status\n\nNeeds review\n').status,
    ).toBe('blocked');
  });
});

describe('canonical frontmatter', () => {
  it('reads every micro-spec field from the frontmatter', () => {
    const path = `${ROOT}/auth-flow/task-03-add-login-endpoint.md`;
    const h = readHandoffText(path, ROOT, fixture(`canonical/${path}`));
    expect(h).toMatchObject({
      dialect: 'task',
      isTask: true,
      status: 'complete',
      task: 3,
      previous: 'task-02-add-sessions-table.md',
      taskDesc: 'Add login endpoint',
    });
    expect(h.verification).toEqual([{ check: 'npm test -- login', result: 'pass' }]);
    expect(validate('handoff', h.normalized)).toEqual([]);
    expect(h.retryOf).toBeNull();
  });

  it('reads `retry_of:`, the earlier handoff a retry names (issue 12), and the schema holds it to a path', () => {
    const path = `${ROOT}/auth-2/task-03-add-login-endpoint.md`;
    const text = fixture(`canonical/${ROOT}/auth-flow/task-03-add-login-endpoint.md`).replace(
      'task: 3\n',
      'task: 3\nretry_of: thoughts/handoffs/auth-flow/task-03-add-login-endpoint.md\n',
    );
    const h = readHandoffText(path, ROOT, text);
    expect(h.retryOf).toBe('thoughts/handoffs/auth-flow/task-03-add-login-endpoint.md');
    expect(h.normalized.retry_of).toBe(h.retryOf);
    expect(validate('handoff', h.normalized)).toEqual([]);
    expect(
      validate('handoff', readHandoffText(path, ROOT, text.replace(/retry_of: .*/, 'retry_of: [1, 2]')).normalized),
    ).not.toEqual([]);
  });
});

describe('HumanLayer session handoffs', () => {
  it('are session handoffs of their own dialect, held to the lighter schema', () => {
    const path = 'thoughts/shared/handoffs/ENG-1478/2026-01-09_14-30-05_ENG-1478_oauth-token-refresh.md';
    const h = readHandoffText(path, 'thoughts/shared/handoffs', fixture(`humanlayer/${path}`));
    expect(h).toMatchObject({
      dialect: 'humanlayer',
      isTask: false,
      session: 'ENG-1478',
      status: 'complete',
      task: null,
      fileTask: null,
    });
    expect(h.normalized).toEqual({
      kind: 'session',
      dialect: 'humanlayer',
      status: 'complete',
      task_desc: 'ENG-1478 refresh OAuth tokens before they expire',
    });
    expect(validate('handoff', h.normalized)).toEqual([]);
  });

  it('tell the other handoff kinds apart by file name', () => {
    const kind = (name: string) => readHandoffText(`${ROOT}/s/${name}`, ROOT, '# H\n');
    expect(
      ['validation-auth.md', 'plan-auth.md', 'auto-handoff-2026-01-01.md', 'notes.md', 'x.yml'].map(
        (n) => kind(n).dialect,
      ),
    ).toEqual(['validation', 'plan', 'auto', 'other', 'yaml-session']);
    expect(kind('validation-auth.md').isTask).toBe(false);
  });
});

describe('Continuous-Claude v3 YAML handoffs', () => {
  const dir = 'thoughts/shared/handoffs/open-source-release';
  const root = 'thoughts/shared/handoffs';

  it('merge the frontmatter document and the body document', () => {
    const path = `${dir}/2026-01-08_16-30_memory-system-fix.yaml`;
    const text = fixture(`continuous-claude-v3/${path}`);
    const h = readHandoffText(path, root, text);
    expect(h).toMatchObject({
      dialect: 'yaml-session',
      isTask: false,
      session: 'open-source-release',
      status: 'complete',
      problems: [],
    });
    expect(h.normalized).toMatchObject({
      kind: 'session',
      task_desc: 'Fix memory recall returning stale learnings after a clear',
      files_modified: ['opc/memory/store.py', 'opc/memory/recall.py', 'tests/memory/test_recall_after_clear.py'],
      // `next:` is a list of steps; the schema holds context_for_next as one text.
      context_for_next:
        'Run scripts/bench_recall.py on the full corpus\nUpdate docs/memory.md with the invalidation rule',
      blocker: [],
      open_questions: ['Should the cache be per project or global?'],
    });
    expect(h.positions['/status']).toEqual({ line: lineOf(text, 'status: complete'), column: 1 });
    expect(h.positions['/context_for_next']).toEqual({ line: lineOf(text, 'next:'), column: 1 });
    expect(validate('handoff', h.normalized)).toEqual([]);
  });

  it('take the status from `outcome` when the frontmatter has no `status`', () => {
    const path = `${dir}/2026-01-09_10-05_recall-benchmark.yaml`;
    expect(readHandoffText(path, root, fixture(`continuous-claude-v3/${path}`)).status).toBe('partial');
    const failed = readHandoffText(`${dir}/x.yaml`, root, '---\nsession: s\noutcome: FAILED\n---\ngoal: g\n');
    expect(failed.status).toBe('failed');
  });

  it('report bad YAML at its line in the file', () => {
    const path = `${dir}/2026-01-10_09-00_hook-timeouts.yaml`;
    const text = fixture(`continuous-claude-v3-planted/${path}`);
    const h = readHandoffText(path, root, text);
    expect(h.problems.map((p) => p.line)).toEqual([lineOf(text, '   modified:')]);
  });

  it('have no session when they sit directly in the handoffs root', () => {
    expect(readHandoffText(`${root}/x.yaml`, root, 'goal: g\n').session).toBeNull();
  });
});

// Corpus round 4: a kraken-style handoff keeps its state in a checkpoint block, not a status key or marker.
describe('a checkpoint block of phase states', () => {
  const handoff = (states: string[], extra: string[] = []) =>
    [
      '---',
      'session_id: 5f0c',
      '---',
      '',
      '# Task 8: Create the inbox folder',
      '',
      ...extra,
      '## Files Created',
      '- `src/inbox.ts`',
      '',
      '## Checkpoints',
      '**Task:** Create the inbox folder',
      '',
      '### Phase Status',
      ...states.map((s, i) => `- Phase ${i + 1} (step ${i + 1}): ${s}`),
      '',
      '### Resume Context',
      '- Next action: Move to Task 9',
      '',
    ].join('\n');
  const path = `${ROOT}/inbox/task-08-inbox.md`;

  it('every phase validated: complete, at the heading', () => {
    const text = handoff(['VALIDATED (25 tests failing as expected)', 'VALIDATED (75 passing)']);
    const h = readHandoffText(path, ROOT, text);
    expect(h.normalized.status).toBe('complete');
    expect(h.positions['/status']).toEqual({ line: lineOf(text, '### Phase Status'), column: 1 });
  });

  it('a phase that failed: failed', () => {
    expect(readHandoffText(path, ROOT, handoff(['VALIDATED', 'FAILED (2 tests red)'])).normalized.status).toBe(
      'failed',
    );
  });

  it('a word it does not know gives no status, and a status marker wins over the block', () => {
    expect(readHandoffText(path, ROOT, handoff(['VALIDATED', 'IN PROGRESS'])).normalized.status).toBeUndefined();
    expect(readHandoffText(path, ROOT, handoff(['VALIDATED'], ['**Status:** BLOCKED', ''])).normalized.status).toBe(
      'blocked',
    );
  });
});

describe('the handoff dialects', () => {
  it('are one list: the schema names exactly the dialects the reader knows', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/handoff.schema.json', import.meta.url), 'utf8')) as {
      properties: { dialect: { enum: string[] } };
    };
    expect(
      schema.properties.dialect.enum,
      'schemas/handoff.schema.json: set its dialect enum to HANDOFF_DIALECTS',
    ).toEqual([...HANDOFF_DIALECTS]);
  });
});

describe('a status the title or a dated heading gives (corpus round 9)', () => {
  const path = 'thoughts/handoffs/chat/task-03-chat-types.md';
  const status = (text: string) => readHandoffText(path, ROOT, text).status;

  it('is read when nothing else says', () => {
    expect(status('# Task 03: Create the chat types - COMPLETED\n\n## Summary\n\nTypes added.\n')).toBe('complete');
    expect(status('# Task 03 Handoff: Chat hook\n\n## Completed: 2026-01-02\n\n## Summary\n\nHook added.\n')).toBe(
      'complete',
    );
    expect(status('# Task 03: Chat types (partial)\n\n## Summary\n\nHalf done.\n')).toBe('partial');
    expect(status('# Task 03: Chat types\n\n## Status (2026-02-01): Done\n\nTypes added.\n')).toBe('complete');
  });

  it('a title that only names the work, or a status line in the body, is not overruled', () => {
    expect(status('# Task 03: Complete the chat types\n\n## Summary\n\nTypes added.\n')).toBeNull();
    expect(status('# Task 03: Chat types - COMPLETED\n\n**Status:** blocked\n')).toBe('blocked');
  });
});
