// `validate-workflow status`: the seed's recovery view (read the ledger, list the handoffs, read the last one, resume
// the next task), plus what waits for a human: manual checks ready for confirmation and blocked handoffs without a
// resolution. Real files in a temporary repository, read by the real readers.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { status, statusData, statusView } from '../../src/cli/status.js';
import type { Io } from '../../src/cli/io.js';
import { UsageError } from '../../src/shared/errors.js';
import { makeRepo } from '../helpers/repo.js';
import { LEDGER, PLAN, SESSION, handoffPath, ledger, plan, taskHandoff, type Files } from '../rules/fixtures.js';

/** Phase 1 done by the agent and automated-verified, its manual item waiting; Task 3 in progress. */
function session(): Files {
  const text = plan({ checked: [1, 2] }).replace('- [ ] Phase 1 tests pass', '- [x] Phase 1 tests pass');
  return {
    [PLAN]: text,
    [LEDGER]: ledger({
      state: [
        '- [x] Task 1: Do step 1',
        '- [x] Task 2: Do step 2',
        '- [→] Task 3: Do step 3',
        '- [ ] Task 4: Do step 4',
      ],
    }),
    [handoffPath(1)]: taskHandoff(1),
    [handoffPath(2)]: taskHandoff(2, {
      status: 'blocked',
      blocker: 'The admin console needs a role the test user lacks.',
      context_for_next: 'Users table exists; the role is missing.',
    }),
  };
}

function capture(): { io: Io; out: () => string } {
  let out = '';
  return { io: { cwd: '', stdout: (t) => (out += t), stderr: () => {}, color: false, env: {} }, out: () => out };
}

describe('status', () => {
  it('shows the ledger state, the last handoff, the next task, the waiting manual checks and the blocked handoff', () => {
    const dir = makeRepo(session());
    const view = statusView(dir, 'auth-1');
    expect(view).toContain(`Ledger: ${LEDGER} (status: active)`);
    expect(view).toContain(`Plan: ${PLAN}`);
    expect(view).toMatch(
      /State: 2 done, 1 in progress, 1 pending\n {2}\[x\] Task 1: Do step 1\n {2}\[x\] Task 2: Do step 2\n {2}\[→\] Task 3: Do step 3\n {2}\[ \] Task 4: Do step 4/,
    );
    expect(view).toContain('Handoffs in thoughts/handoffs/auth-1/: 2');
    expect(view).toContain(`Last handoff: ${handoffPath(2)} (task 2, blocked)`);
    expect(view).toContain('Context for next:\n    Users table exists; the role is missing.');
    expect(view).toContain('Next task: Task 3: Do step 3 (in progress in the ledger)');
    expect(view).toMatch(
      /Manual checks waiting for a human:\n {2}Phase 1 of [^\n]+:\n {4}- \[ \] Phase 1 works in the browser\n {4}A human confirms them with: npx validate-workflow confirm thoughts\/shared\/plans\/2026-11-20-auth\.md --phase 1/,
    );
    // Phase 2's automated item is open: its manual item is not waiting for a human yet.
    expect(view).not.toContain('Phase 2 works in the browser');
    expect(view).toContain(
      `Blocked, waiting for guidance:\n  ${handoffPath(2)} (task 2): The admin console needs a role the test user lacks.`,
    );
  });

  it('--format json gives the documented object', async () => {
    const dir = makeRepo(session());
    const { io, out } = capture();
    expect(await status({ session: 'auth-1', format: 'json' }, { ...io, cwd: dir })).toBe(0);
    expect(JSON.parse(out())).toEqual({
      version: 1,
      session: 'auth-1',
      selectedBy: 'option',
      ledger: {
        path: LEDGER,
        status: 'active',
        done: [
          expect.objectContaining({ task: 1, text: 'Task 1: Do step 1' }),
          expect.objectContaining({ task: 2, text: 'Task 2: Do step 2' }),
        ],
        inProgress: [expect.objectContaining({ task: 3, text: 'Task 3: Do step 3' })],
        pending: [expect.objectContaining({ task: 4, text: 'Task 4: Do step 4' })],
      },
      plan: PLAN,
      handoffDir: 'thoughts/handoffs/auth-1',
      handoffs: [
        { path: handoffPath(1), task: 1, status: 'complete' },
        { path: handoffPath(2), task: 2, status: 'blocked' },
      ],
      lastHandoff: {
        path: handoffPath(2),
        task: 2,
        status: 'blocked',
        contextForNext: 'Users table exists; the role is missing.',
      },
      nextTask: { task: 3, text: 'Task 3: Do step 3', source: 'ledger-in-progress' },
      manualChecks: [
        {
          plan: PLAN,
          phase: 1,
          items: [{ text: 'Phase 1 works in the browser', line: expect.any(Number) }],
          command: `npx validate-workflow confirm ${PLAN} --phase 1`,
        },
      ],
      blocked: [{ path: handoffPath(2), task: 2, blocker: 'The admin console needs a role the test user lacks.' }],
    });
  });

  it('without --session picks the most recently modified active ledger, never a finished one', () => {
    const other = 'thoughts/ledgers/CONTINUITY_CLAUDE-auth-2.md';
    const done = 'thoughts/ledgers/CONTINUITY_CLAUDE-auth-0.md';
    const dir = makeRepo({
      ...session(),
      [other]: ledger({ session: 'auth-2', state: ['- [ ] Task 1: Do step 1'] }),
      [done]: ledger({ session: 'auth-0', status: 'complete', state: ['- [x] Task 1: Do step 1'] }),
    });
    const at = (path: string, seconds: number) => utimesSync(join(dir, path), seconds, seconds);
    at(LEDGER, 1_000);
    at(other, 2_000);
    at(done, 3_000);
    expect(statusData(dir)).toMatchObject({
      session: 'auth-2',
      selectedBy: 'latest-active-ledger',
      nextTask: { task: 1, source: 'ledger-pending' },
    });
    at(LEDGER, 4_000);
    expect(statusView(dir)).toContain('Session auth-1 (the most recently modified active ledger)');
  });

  it('a blocked handoff with a resolution no longer waits; a ledger with everything done falls back to the plan', () => {
    const files = session();
    files[handoffPath(2)] = taskHandoff(2, {
      status: 'blocked',
      blocker: 'Needs a role.',
      resolution: 'User: grant the role in the seed script.',
    });
    files[LEDGER] = ledger({ state: ['- [x] Task 1: Do step 1', '- [x] Task 2: Do step 2'] });
    const data = statusData(makeRepo(files), 'auth-1');
    expect(data.blocked).toEqual([]);
    expect(data.nextTask).toEqual({ task: 3, text: 'Task 3: Do step 3', source: 'plan' });
    expect(statusView(makeRepo(files), 'auth-1')).toContain('Blocked, waiting for guidance: none');
  });

  it("keeps each file's summary by its size and modification time, and reads a file again when either changes", () => {
    const dir = makeRepo(session());
    const hourAgo = Date.now() / 1000 - 3600;
    const age = (path: string, at = hourAgo) => utimesSync(join(dir, path), at, at);
    for (const path of Object.keys(session())) age(path);
    expect(statusData(dir).session).toBe(SESSION);
    // From the index now: the files are older than it, and the view is the one shown last.
    expect(statusData(dir).session).toBe(SESSION);
    const last = handoffPath(2);
    expect(statusData(dir).lastHandoff?.contextForNext).toBe('Users table exists; the role is missing.');
    writeFileSync(join(dir, last), readFileSync(join(dir, last), 'utf8').replace('role is missing', 'role is absent'));
    age(last, hourAgo - 30);
    expect(statusData(dir).lastHandoff?.contextForNext).toBe('Users table exists; the role is absent.');
    // The same size, an older time than the index: only the changed modification time tells.
    writeFileSync(
      join(dir, LEDGER),
      readFileSync(join(dir, LEDGER), 'utf8').replace('status: active', 'status: closed'),
    );
    age(LEDGER, hourAgo - 60);
    expect(statusData(dir).session).toBeNull();
    // Another size, the modification time put back as it was.
    writeFileSync(
      join(dir, LEDGER),
      readFileSync(join(dir, LEDGER), 'utf8').replace('status: closed', 'status: active'),
    );
    age(LEDGER, hourAgo - 60);
    writeFileSync(join(dir, LEDGER), `${readFileSync(join(dir, LEDGER), 'utf8')}\nA line more.\n`);
    age(LEDGER, hourAgo - 60);
    expect(statusData(dir).session).toBe(SESSION);
  });

  it('says so when no session is active, and refuses an unknown session', () => {
    const dir = makeRepo({ [PLAN]: plan() });
    expect(statusView(dir)).toMatch(/^No active session/);
    expect(() => statusView(makeRepo(session()), 'nope')).toThrow(UsageError);
    expect(() => statusView(makeRepo(session()), 'nope')).toThrow(
      /no ledger or handoffs for session "nope" \(sessions: auth-1\)/,
    );
  });
});
