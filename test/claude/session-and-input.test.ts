// SessionStart hands the agent the recovery view; and no payload, however malformed, makes the hook fail or refuse.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, writeFiles } from '../helpers/repo.js';
import { scratchDir } from '../helpers/scratch.js';
import {
  LEDGER,
  PLAN,
  SESSION_ID,
  handoffPath,
  hook,
  ledger,
  plan,
  sessionStart,
  taskHandoff,
  workflowRepo,
} from './helpers.js';

describe('SessionStart', () => {
  it('prints the recovery view of `status` as additionalContext: ledger state, last handoff, next task', async () => {
    const dir = workflowRepo();
    const run = await hook(sessionStart(dir, 'compact'));
    const out = run.json!.hookSpecificOutput as { hookEventName: string; additionalContext: string };
    expect(out.hookEventName).toBe('SessionStart');
    const view = out.additionalContext;
    expect(view).toContain('Session auth-1');
    expect(view).toContain(`Plan: ${PLAN}`);
    expect(view).toContain('State: 1 done, 1 in progress, 2 pending');
    expect(view).toContain(`Last handoff: ${handoffPath(1)} (task 1, complete)`);
    expect(view).toContain('Step 1 is done.');
    expect(view).toContain('Next task: Task 2: Do step 2');
    expect(view).toContain('Manual checks waiting for a human: none');
    // What the agent must not do, said once at the start rather than discovered through refusals.
    expect(view).toContain('manual verification items are checked only by a human');
  });

  it('lists the manual checks of a phase whose automated checks passed, with the command a human runs', async () => {
    const dir = workflowRepo();
    const text = plan({ checked: [1, 2] }).replace('- [ ] Phase 1 tests pass', '- [x] Phase 1 tests pass');
    writeFiles(dir, { [PLAN]: text, [handoffPath(2)]: taskHandoff(2, { task_total: 4 }) });
    const view = ((await hook(sessionStart(dir))).json!.hookSpecificOutput as { additionalContext: string })
      .additionalContext;
    expect(view).toContain('- [ ] Phase 1 works in the browser');
    expect(view).toContain(`npx validate-workflow confirm ${PLAN} --phase 1`);
  });

  it('picks the ledger named after the Claude session when there is one', async () => {
    const dir = workflowRepo({
      [`thoughts/ledgers/CONTINUITY_CLAUDE-${SESSION_ID}.md`]: ledger({
        session: SESSION_ID,
        state: ['- [ ] Task 1: Do step 1'],
      }),
    });
    // The auth-1 ledger is the newer file, but the session's own ledger wins.
    writeFiles(dir, { [LEDGER]: ledger({ state: ['- [x] Task 1: Do step 1'] }) });
    const view = ((await hook(sessionStart(dir))).json!.hookSpecificOutput as { additionalContext: string })
      .additionalContext;
    expect(view).toContain(`Session ${SESSION_ID}`);
  });

  it('says nothing in a repository without workflow files', async () => {
    const dir = makeRepo({ 'README.md': '# hi\n' }, { commit: true });
    expect(await hook(sessionStart(dir))).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('malformed or unexpected input', () => {
  const dir = workflowRepo();
  const cases: [string, string][] = [
    ['empty stdin', ''],
    ['not JSON', 'Edit thoughts/plan.md'],
    ['a JSON array', '[1, 2]'],
    ['JSON null', 'null'],
    ['no hook_event_name', JSON.stringify({ session_id: 's', cwd: dir })],
    ['an unknown event', JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'TeleportStart' })],
    [
      'PreToolUse without tool_input',
      JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Edit' }),
    ],
    [
      'Edit without old_string',
      JSON.stringify({
        session_id: 's',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: join(dir, PLAN), new_string: 'x' },
      }),
    ],
    [
      'MultiEdit whose edits is not a list',
      JSON.stringify({
        session_id: 's',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'MultiEdit',
        tool_input: { file_path: join(dir, PLAN), edits: 'all' },
      }),
    ],
    [
      'Write with a numeric file_path',
      JSON.stringify({
        session_id: 's',
        cwd: dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: 42, content: '' },
      }),
    ],
  ];
  for (const [name, input] of cases) {
    it(`allows, silently on stdout, with a note on stderr: ${name}`, async () => {
      const run = await hook(input, dir);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^validate-workflow claude-hook: ignored input: .+; allowing/);
    });
  }

  it('allows without a word outside a git repository and for a cwd that does not exist', async () => {
    const outside = scratchDir('vw-nogit-');
    for (const cwd of [outside, join(outside, 'gone')]) {
      const run = await hook(
        JSON.stringify({ session_id: 's', cwd, hook_event_name: 'Stop', stop_hook_active: false }),
        outside,
      );
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('fails open on a broken config: no decision, the reason on stderr', async () => {
    const broken = workflowRepo();
    writeFiles(broken, { 'validate-workflow.config.json': '{ not json' });
    const run = await hook(
      JSON.stringify({
        session_id: 's',
        cwd: broken,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: join(broken, PLAN), content: 'x' },
      }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('validate-workflow.config.json');
  });
});
