// `validate-workflow confirm`: driven through a real pseudo-terminal (tmux: new-session, send-keys, capture-pane)
// in a real git repository, with the built CLI, so the prompt, the terminal check and the commit are what a human
// meets. The refusals must leave the repository exactly as it was; the confirmation commit must hold only the
// confirmed checkbox and a trailer the history rules accept.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, git, makeRepo, runCliHere, writeFiles } from '../helpers/repo.js';
import { checkItems } from '../../src/cli/confirm.js';
import { itemsDigest } from '../../src/history/trust.js';
import { readPlanText } from '../../src/read/plan.js';
import type { Finding } from '../../src/model/finding.js';

const PLAN = 'thoughts/shared/plans/2026-11-20-auth.md';

function plan(opts: { auto1?: boolean } = {}): string {
  return `# Auth flow Implementation Plan

## Phase 1: Schema

- [x] Task 1: Add users table

### Success Criteria:

#### Automated Verification:

- [${opts.auto1 === false ? ' ' : 'x'}] Migration applies: \`npm run migrate\`

#### Manual Verification:

- [ ] Users table visible in the admin console
- [ ] Sessions expire after an hour

## Phase 2: Endpoints

- [ ] Task 2: Add login endpoint

### Success Criteria:

#### Automated Verification:

- [ ] Login tests pass: \`npm test -- login\`

#### Manual Verification:

- [ ] Logging in from the browser sets the session cookie
`;
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vw-confirm-test-'));
  scratch.push(dir);
  return dir;
}

/** How a terminal starts confirm: the built CLI's `confirm` subcommand, in its own process on the terminal tmux gives it. */
const entry = (plan: string, phase: number): string[] => [CLI, 'confirm', plan, '--phase', String(phase)];

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface PtyRun {
  code: number;
  screen: string;
}

/**
 * Run confirm in a detached tmux session (its own server socket, so nothing else is touched), answer each prompt
 * as it appears by typing on the terminal, and return the exit code and everything the terminal showed.
 */
async function inTerminal(
  cwd: string,
  phase: number,
  answers: string[],
  onPrompt?: (i: number) => void,
): Promise<PtyRun> {
  const dir = tempDir();
  // The server's socket lives in the test's own folder (removed afterwards), not in the user's tmux directory.
  const socket = join(dir, 'tmux.sock');
  const exitFile = join(dir, 'exit');
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    `cd ${q(cwd)}\nNO_COLOR=1 ${q(process.execPath)} ${entry(PLAN, phase).map(q).join(' ')}\necho $? > ${q(exitFile)}.tmp && mv ${q(exitFile)}.tmp ${q(exitFile)}\nsleep 600\n`,
  );
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', 'vw').stdout ?? '';
  const waitFor = async (done: () => boolean, what: string) => {
    for (let i = 0; i < 200; i++) {
      if (done()) return;
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${what}; the terminal shows:\n${screen()}`);
  };
  const started = tmux('new-session', '-d', '-s', 'vw', '-x', '220', '-y', '80', `sh ${q(script)}`);
  if (started.status !== 0) throw new Error(`tmux failed: ${started.stderr}`);
  try {
    for (const [i, answer] of answers.entries()) {
      // Wait for this item's prompt (or an early exit), then type the answer as a human would.
      await waitFor(
        () => existsSync(exitFile) || (screen().match(/verified\? \[y\]es/g) ?? []).length > i,
        `prompt ${i + 1}`,
      );
      if (existsSync(exitFile)) break;
      onPrompt?.(i);
      tmux('send-keys', '-t', 'vw', '-l', answer);
      tmux('send-keys', '-t', 'vw', 'Enter');
    }
    await waitFor(() => existsSync(exitFile), 'confirm to exit');
    return { code: Number(readFileSync(exitFile, 'utf8').trim()), screen: screen() };
  } finally {
    tmux('kill-server');
  }
}

/** A repository whose plan has Phase 1's task and automated item checked, committed by the human. */
function repo(opts: { auto1?: boolean } = {}): string {
  return makeRepo({ [PLAN]: plan(opts) }, { commit: true });
}

const head = (dir: string) => git(dir, 'rev-parse', 'HEAD').trim();
/** The check of the history confirm leaves, in this process: confirm itself is what runs in its own process here. */
const findings = async (dir: string, args: string[] = []): Promise<Finding[]> => {
  const res = await runCliHere(dir, ['--format', 'json', ...args]);
  return (JSON.parse(res.stdout) as { results: Finding[] }).results;
};

describe('confirm refuses', () => {
  it('when standard input is a pipe, before asking anything', () => {
    const dir = repo();
    const before = head(dir);
    const res = spawnSync(process.execPath, entry(PLAN, 1), {
      cwd: dir,
      input: 'y\ny\n',
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/standard input is not a terminal/);
    expect(res.stdout).not.toMatch(/verified\?/);
    expect(head(dir)).toBe(before);
    expect(readFileSync(join(dir, PLAN), 'utf8')).toBe(plan());
  });

  it("when git's identity matches the agents patterns", async () => {
    const dir = repo();
    git(dir, 'config', 'user.name', 'Claude');
    git(dir, 'config', 'user.email', 'noreply@anthropic.com');
    const before = head(dir);
    const run = await inTerminal(dir, 1, ['y', 'y']);
    expect(run.code).toBe(2);
    expect(run.screen).toMatch(/Claude <noreply@anthropic\.com> matches the `agents` patterns/);
    expect(run.screen).not.toMatch(/verified\?/);
    expect(head(dir)).toBe(before);
    expect(readFileSync(join(dir, PLAN), 'utf8')).toBe(plan());
  });

  it('when the index holds other staged changes, and leaves them staged', async () => {
    const dir = repo();
    writeFiles(dir, { 'README.md': '# app\n' });
    git(dir, 'add', 'README.md');
    const before = head(dir);
    const run = await inTerminal(dir, 1, ['y', 'y']);
    expect(run.code).toBe(2);
    expect(run.screen).toMatch(/the index holds other staged changes \(README\.md\)/);
    expect(head(dir)).toBe(before);
    expect(git(dir, 'diff', '--cached', '--name-only').trim()).toBe('README.md');
    expect(readFileSync(join(dir, PLAN), 'utf8')).toBe(plan());
  });

  it('when an automated item of the phase is still open', async () => {
    const dir = repo({ auto1: false });
    const before = head(dir);
    const run = await inTerminal(dir, 1, ['y', 'y']);
    expect(run.code).toBe(2);
    expect(run.screen).toMatch(/Phase 1 is not ready for manual verification/);
    expect(run.screen).toContain('- [ ] Migration applies: npm run migrate');
    expect(run.screen).not.toMatch(/verified\?/);
    expect(head(dir)).toBe(before);
  });

  it('when the phase does not exist', async () => {
    const run = await inTerminal(repo(), 7, []);
    expect(run.code).toBe(2);
    expect(run.screen).toMatch(/has no Phase 7 \(its phases: 1, 2\)/);
  });
});

describe('confirm on a terminal', () => {
  it('confirms 1 of 2 items: a commit with only that checkbox and the trailer, accepted by the history rules', async () => {
    const dir = repo();
    const before = head(dir);
    const run = await inTerminal(dir, 1, ['y', 'n']);
    expect(run.code, run.screen).toBe(0);
    // The seed's "Manual Verification Pause" template, filled from the plan.
    expect(run.screen).toContain('Phase 1 Complete - Ready for Manual Verification');
    expect(run.screen).toMatch(/Automated passed:\n- Migration applies: npm run migrate/);
    expect(run.screen).toMatch(
      /Please verify:\n- \[ \] Users table visible in the admin console\n- \[ \] Sessions expire after an hour/,
    );
    expect(run.screen).toContain('Let me know when done');
    expect(run.screen).toMatch(/Not verified[^\n]*\n {2}- Sessions expire after an hour/);

    expect(git(dir, 'rev-parse', 'HEAD~1').trim()).toBe(before);
    expect(git(dir, 'show', '--stat', '--format=', 'HEAD').trim()).toMatch(
      new RegExp(
        `^${PLAN.replace(/\./g, '\\.')} \\| 2 \\+-\\n 1 file changed, 1 insertion\\(\\+\\), 1 deletion\\(-\\)$`,
      ),
    );
    const diff = git(dir, 'show', '--format=', '-U0', 'HEAD')
      .split('\n')
      .filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l));
    expect(diff).toEqual([
      '-- [ ] Users table visible in the admin console',
      '+- [x] Users table visible in the admin console',
    ]);
    expect(git(dir, 'log', '-1', '--format=%s').trim()).toBe('Confirm Phase 1 manual verification');
    expect(git(dir, 'log', '-1', '--format=%(trailers:key=Confirmed-by,valueonly)').trim()).toBe(
      'Test Human <human@example.com>',
    );
    // The digest of exactly the confirmed item (plan path, phase, text), as history computes it.
    const digest = itemsDigest([{ file: PLAN, phase: 1, text: 'Users table visible in the admin console' }]);
    expect(git(dir, 'log', '-1', '--format=%(trailers:key=Confirmed-items,valueonly)').trim()).toBe(digest);
    expect(run.screen).toContain(`Confirmed-items: ${digest}`);
    expect(git(dir, 'status', '--porcelain').trim()).toBe('');

    // The full history run accepts the confirmation, in strict too (which needs the digest)...
    expect((await findings(dir)).filter((f) => f.ruleId === 'history/manual-confirmation')).toEqual([]);
    expect(
      (await findings(dir, ['--preset', 'strict'])).filter((f) => f.ruleId === 'history/manual-confirmation'),
    ).toEqual([]);
    // ...and in the same repository still catches a check-off without one, so the silence above means something.
    writeFileSync(
      join(dir, PLAN),
      readFileSync(join(dir, PLAN), 'utf8').replace('- [ ] Sessions expire', '- [x] Sessions expire'),
    );
    git(
      dir,
      '-c',
      'user.name=Claude',
      '-c',
      'user.email=noreply@anthropic.com',
      'commit',
      '-qam',
      'Check the second item',
    );
    const after = (await findings(dir)).filter((f) => f.ruleId === 'history/manual-confirmation');
    expect(after.map((f) => [f.severity, f.message])).toEqual([
      ['error', expect.stringContaining('"Sessions expire after an hour"')],
    ]);
  });

  it('with requireSignedConfirmations, signs the commit (as git config, which the commit-msg hook sees) with a key of the allowed-signers file', async () => {
    const keyDir = tempDir();
    const key = join(keyDir, 'key');
    expect(
      spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'human@example.com', '-f', key]).status,
    ).toBe(0);
    const signers = `human@example.com namespaces="git" ${readFileSync(`${key}.pub`, 'utf8').trim()}\n`;
    const config = JSON.stringify({
      requireSignedConfirmations: true,
      allowedSigners: 'validate-workflow.allowed-signers',
    });
    const dir = makeRepo(
      { [PLAN]: plan(), 'validate-workflow.config.json': config, 'validate-workflow.allowed-signers': signers },
      { commit: true },
    );
    git(dir, 'config', 'gpg.format', 'ssh');
    git(dir, 'config', 'user.signingkey', `${key}.pub`);
    // A hook that records what the commit-msg door would read of git's config.
    const seen = join(keyDir, 'gpgsign');
    writeFileSync(join(dir, '.git/hooks/commit-msg'), `#!/bin/sh\ngit config --bool commit.gpgsign > ${q(seen)}\n`, {
      mode: 0o755,
    });
    const run = await inTerminal(dir, 1, ['y', 'y']);
    expect(run.code, run.screen).toBe(0);
    expect(readFileSync(seen, 'utf8').trim()).toBe('true');
    expect(git(dir, 'cat-file', 'commit', 'HEAD')).toContain('-----BEGIN SSH SIGNATURE-----');
    expect(
      (await findings(dir, ['--preset', 'strict'])).filter((f) => f.ruleId === 'history/manual-confirmation'),
    ).toEqual([]);
  });

  it('does not overwrite an edit made to the plan while the human was answering', async () => {
    const dir = repo();
    const before = head(dir);
    const edited = `${plan()}\nA note the agent added meanwhile.\n`;
    const run = await inTerminal(dir, 1, ['y', 'y'], (i) => i === 1 && writeFileSync(join(dir, PLAN), edited));
    expect(run.code).toBe(2);
    expect(run.screen).toMatch(/changed while you were answering: nothing was changed/);
    expect(readFileSync(join(dir, PLAN), 'utf8')).toBe(edited);
    expect(head(dir)).toBe(before);
    expect(git(dir, 'diff', '--cached', '--name-only').trim()).toBe('');
  });

  it('makes no commit when nothing is confirmed', async () => {
    const dir = repo();
    const before = head(dir);
    const run = await inTerminal(dir, 1, ['s', 'n']);
    expect(run.code).toBe(0);
    expect(run.screen).toContain('Nothing confirmed: no commit made.');
    expect(head(dir)).toBe(before);
    expect(git(dir, 'status', '--porcelain').trim()).toBe('');
  });
});

describe('checkItems', () => {
  it('flips exactly the box after each bullet, whatever the bullet, indentation or line ending', () => {
    const text =
      '# P\r\n## Phase 1: A\r\n#### Manual Verification:\r\n* [ ] star  \r\n\t+ [ ] tab é\r\n> 1. [ ] quoted ordered\r\n- [ ] untouched [ ] text\r\n';
    const items = readPlanText('p.md', text).phases[0]!.manual;
    expect(items.map((i) => i.text)).toEqual(['star', 'tab é', 'quoted ordered', 'untouched [ ] text']);
    const out = checkItems(text, items.slice(0, 3));
    expect(out).toBe(
      '# P\r\n## Phase 1: A\r\n#### Manual Verification:\r\n* [x] star  \r\n\t+ [x] tab é\r\n> 1. [x] quoted ordered\r\n- [ ] untouched [ ] text\r\n',
    );
  });

  it('refuses a position without an unchecked box rather than editing something else', () => {
    expect(() => checkItems('- [x] done\n', [{ line: 1, column: 1 }])).toThrow(/no unchecked box at line 1/);
  });
});
