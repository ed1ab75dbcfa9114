// `validate-workflow status`: the seed's recovery view (read the ledger, list the handoffs, read the last one, resume
// the next task), plus what waits for a human: manual checks ready for confirmation and blocked handoffs without a
// resolution. Real files in a temporary repository, read by the real readers; one view goes through the built CLI,
// the others through the same run() in this process (runCliHere) or the command's own functions.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderStatus, status, statusData, statusView, waitingLine, type StatusData } from '../../src/cli/status.js';
import type { Io } from '../../src/cli/io.js';
import { UsageError } from '../../src/shared/errors.js';
import { git, makeRepo, runCli, runCliHere } from '../helpers/repo.js';
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
  it('shows the ledger state, the last handoff, the next task, the waiting manual checks and the blocked handoff', async () => {
    const dir = makeRepo(session());
    const view = await statusView(dir, 'auth-1');
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
      /Manual checks waiting for a human:\n {2}Phase 1 of thoughts\/shared\/plans\/2026-11-20-auth\.md: 1 manual item waits for a human: run `npx validate-workflow confirm thoughts\/shared\/plans\/2026-11-20-auth\.md --phase 1`\n {4}- \[ \] Phase 1 works in the browser\n\n/,
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
          laterPhase: null,
        },
      ],
      blocked: [{ path: handoffPath(2), task: 2, blocker: 'The admin console needs a role the test user lacks.' }],
    });
  });

  it('without --session picks the most recently modified active ledger, never a finished one', async () => {
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
    expect(await statusData(dir)).toMatchObject({
      session: 'auth-2',
      selectedBy: 'latest-active-ledger',
      nextTask: { task: 1, source: 'ledger-pending' },
    });
    at(LEDGER, 4_000);
    expect(await statusView(dir)).toContain('Session auth-1 (the most recently modified active ledger)');
  });

  it('a blocked handoff with a resolution no longer waits; a ledger with everything done falls back to the plan', async () => {
    const files = session();
    files[handoffPath(2)] = taskHandoff(2, {
      status: 'blocked',
      blocker: 'Needs a role.',
      resolution: 'User: grant the role in the seed script.',
    });
    files[LEDGER] = ledger({ state: ['- [x] Task 1: Do step 1', '- [x] Task 2: Do step 2'] });
    const data = await statusData(makeRepo(files), 'auth-1');
    expect(data.blocked).toEqual([]);
    expect(data.nextTask).toEqual({ task: 3, text: 'Task 3: Do step 3', source: 'plan' });
    expect(await statusView(makeRepo(files), 'auth-1')).toContain('Blocked, waiting for guidance: none');
  });

  it("keeps each file's summary by its size and modification time, and reads a file again when either changes", async () => {
    const dir = makeRepo(session());
    const hourAgo = Date.now() / 1000 - 3600;
    const age = (path: string, at = hourAgo) => utimesSync(join(dir, path), at, at);
    for (const path of Object.keys(session())) age(path);
    expect((await statusData(dir)).session).toBe(SESSION);
    // From the index now: the files are older than it, and the view is the one shown last.
    expect((await statusData(dir)).session).toBe(SESSION);
    const last = handoffPath(2);
    expect((await statusData(dir)).lastHandoff?.contextForNext).toBe('Users table exists; the role is missing.');
    writeFileSync(join(dir, last), readFileSync(join(dir, last), 'utf8').replace('role is missing', 'role is absent'));
    age(last, hourAgo - 30);
    expect((await statusData(dir)).lastHandoff?.contextForNext).toBe('Users table exists; the role is absent.');
    // The same size, an older time than the index: only the changed modification time tells.
    writeFileSync(
      join(dir, LEDGER),
      readFileSync(join(dir, LEDGER), 'utf8').replace('status: active', 'status: closed'),
    );
    age(LEDGER, hourAgo - 60);
    expect((await statusData(dir)).session).toBeNull();
    // Another size, the modification time put back as it was.
    writeFileSync(
      join(dir, LEDGER),
      readFileSync(join(dir, LEDGER), 'utf8').replace('status: closed', 'status: active'),
    );
    age(LEDGER, hourAgo - 60);
    writeFileSync(join(dir, LEDGER), `${readFileSync(join(dir, LEDGER), 'utf8')}\nA line more.\n`);
    age(LEDGER, hourAgo - 60);
    expect((await statusData(dir)).session).toBe(SESSION);
  });

  it("checks a config's rule ids as every command does (the rule catalogue is loaded only for a config that has some)", async () => {
    const config = (rules: string) => ({ ...session(), 'validate-workflow.config.json': `{ "rules": ${rules} }\n` });
    expect((await statusData(makeRepo(config('{ "plan/mode": "off" }')))).session).toBe(SESSION);
    await expect(statusData(makeRepo(config('{ "plan/mod": "off" }')))).rejects.toThrow(
      /`rules\["plan\/mod"\]`: unknown rule id; did you mean "plan\/mode"\?/,
    );
  });

  it('says so when no session is active, and refuses an unknown session', async () => {
    const dir = makeRepo({ [PLAN]: plan() });
    expect(await statusView(dir)).toMatch(/^No active session/);
    await expect(statusView(makeRepo(session()), 'nope')).rejects.toThrow(UsageError);
    await expect(statusView(makeRepo(session()), 'nope')).rejects.toThrow(
      /no ledger or handoffs for session "nope" \(sessions: auth-1\)/,
    );
  });

  describe('says when a manual check is waiting', () => {
    /** Phase 1 confirmed; phase 2's tasks and automated check done, its three manual items open; phase 3 begun. */
    function threePhases(opts: { phase2Automated: boolean; phase2Manual: boolean }): string {
      const box = (on: boolean) => (on ? '[x]' : '[ ]');
      return [
        '# Auth flow Implementation Plan',
        '',
        '## Phase 1: Schema',
        '',
        '- [x] Task 1: Add users table',
        '',
        '### Success Criteria:',
        '',
        '#### Automated Verification:',
        '',
        '- [x] Migration applies: `npm run migrate`',
        '',
        '#### Manual Verification:',
        '',
        '- [x] Users table visible in the admin console',
        '',
        '## Phase 2: Endpoints',
        '',
        '- [x] Task 2: Add login endpoint',
        '',
        '### Success Criteria:',
        '',
        '#### Automated Verification:',
        '',
        `- ${box(opts.phase2Automated)} Endpoint tests pass: \`npm test\``,
        '',
        '#### Manual Verification:',
        '',
        `- ${box(opts.phase2Manual)} Logging in from the browser works`,
        `- ${box(opts.phase2Manual)} A wrong password shows the error`,
        `- ${box(opts.phase2Manual)} Logging out clears the cookie`,
        '',
        '## Phase 3: Sessions',
        '',
        `- ${box(opts.phase2Automated)} Task 3: Add session expiry`,
        '',
        '### Success Criteria:',
        '',
        '#### Automated Verification:',
        '',
        '- [ ] Expiry tests pass: `npm test`',
        '',
        '#### Manual Verification:',
        '',
        '- [ ] A session expires after an hour',
        '',
      ].join('\n');
    }

    it('names the phase, counts its manual items, gives the command and says a later phase went on without it', async () => {
      const dir = makeRepo({ [PLAN]: threePhases({ phase2Automated: true, phase2Manual: false }) }, { commit: true });
      const res = runCli(dir, ['status']);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(
        `Manual checks waiting for a human:\n  Phase 2 of ${PLAN}: 3 manual items wait for a human: run \`npx validate-workflow confirm ${PLAN} --phase 2\`\n    - [ ] Logging in from the browser works\n`,
      );
      expect(res.stdout).toContain(
        '    Phase 3 has started without this confirmation: `recommended` lets manual checks lag behind later phases, `strict` refuses it (history/phase-order).',
      );
      // Phase 1 is confirmed: nothing of it waits.
      expect(res.stdout).not.toContain('Phase 1 of');
      const json = JSON.parse((await runCliHere(dir, ['status', '--format', 'json'])).stdout) as StatusData;
      expect(json.manualChecks).toEqual([
        expect.objectContaining({ plan: PLAN, phase: 2, laterPhase: 3, items: expect.any(Array) }),
      ]);
      expect(json.manualChecks[0]!.items).toHaveLength(3);
    });

    it('is silent before the automated checks pass, and once the human confirmed', async () => {
      const dir = makeRepo({ [PLAN]: threePhases({ phase2Automated: false, phase2Manual: false }) }, { commit: true });
      const view = async () => (await runCliHere(dir, ['status'])).stdout;
      expect(await view()).toContain('Manual checks waiting for a human: none');
      writeFileSync(join(dir, PLAN), threePhases({ phase2Automated: true, phase2Manual: false }));
      git(dir, 'commit', '-qam', 'Phase 2 automated verification passes');
      expect(await view()).toContain(`Phase 2 of ${PLAN}: 3 manual items wait for a human`);
      writeFileSync(join(dir, PLAN), threePhases({ phase2Automated: true, phase2Manual: true }));
      git(dir, 'commit', '-qam', 'Phase 2 confirmed\n\nConfirmed-by: Test Human <human@example.com>');
      expect(await view()).toContain('Manual checks waiting for a human: none');
    });

    it('one item is said in the singular, and no later phase is named when none started', async () => {
      const one = {
        plan: PLAN,
        phase: 1,
        items: [{ text: 'x', line: 3 }],
        command: `npx validate-workflow confirm ${PLAN} --phase 1`,
        laterPhase: null,
      };
      expect(waitingLine(one)).toBe(
        `Phase 1 of ${PLAN}: 1 manual item waits for a human: run \`npx validate-workflow confirm ${PLAN} --phase 1\``,
      );
      expect(renderStatus({ ...(await statusData(makeRepo({}))), manualChecks: [one] })).not.toContain('has started');
    });
  });
});
