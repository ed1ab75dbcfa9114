// Who may vouch for a manual check-off (convention section 6): the `Confirmed-by` trailer, the `agents` patterns,
// the `confirmers` allowlist, author/committer identity, strict's stance on agent co-authors, trust settings read
// from the commit before the judged one, and `requireSignedConfirmations` with a real SSH signing key.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { runCliHere } from '../helpers/repo.js';
import { itemsDigest } from '../../src/history/trust.js';
import {
  ANA,
  BOB,
  CLAUDE,
  CONFIG,
  LEDGER,
  MANUAL,
  PLAN,
  Repo,
  cliHere,
  expectOne,
  handoffPath,
  judge,
  ledgerDoc,
  lineOf,
  messageFile,
  planDoc,
  taskHandoff,
  tempDir,
  type CommitOpts,
  type Who,
} from './helpers.js';

const RULE = 'history/manual-confirmation';
const ROBOT: Who = { name: 'CI Robot', email: 'robot@ci.example' };

/**
 * Ana's plan and config (the adoption point: her commit of it), tasks 1-2 by Claude, phase 1's automated item
 * checked: ready for a human. The config is committed even when a test sets nothing: before adoption (an audit) a
 * person's commit is only noted (round 3), and these tests are about confirmations in an adopted repository.
 */
function ready(config: Record<string, unknown> = { preset: 'recommended' }): Repo {
  // Built once per config for the file; each test gets a copy of its own.
  const key = JSON.stringify(config);
  let made = readyMade.get(key);
  if (made === undefined) {
    made = build(config);
    readyMade.set(key, made);
  }
  return made.copy();
}

const readyMade = new Map<string, Repo>();

function build(config: Record<string, unknown>): Repo {
  const repo = Repo.create();
  repo.commit(
    'Plan the auth flow',
    { [PLAN]: planDoc(), [LEDGER]: ledgerDoc(), [CONFIG]: JSON.stringify(config, null, 2) },
    { author: ANA },
  );
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    { author: CLAUDE },
  );
  repo.commit(
    'Task 2: Do step 2',
    { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
    { author: CLAUDE },
  );
  return repo;
}

const CONFIRMED = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });

/** The phase 1 check-off, made with these identities and trailers (and any other files). */
function checkoff(
  repo: Repo,
  opts: CommitOpts,
  files: Record<string, string> = {},
  subject = 'Confirm phase 1',
): string {
  return repo.commit(subject, { [PLAN]: CONFIRMED, ...files }, opts);
}

async function verdict(repo: Repo, preset?: 'recommended' | 'strict') {
  return (await judge(repo.dir, { preset })).findings.filter((f) => f.ruleId === RULE);
}

async function refused(
  repo: Repo,
  commit: string,
  reason: string | RegExp,
  preset?: 'recommended' | 'strict',
): Promise<void> {
  const f = expectOne(await verdict(repo, preset), RULE, {
    repo,
    commit,
    file: PLAN,
    line: lineOf(repo.show(commit, PLAN), MANUAL(1)),
    severity: 'error',
  });
  expect(f.message).toMatch(reason);
}

/** The `Confirmed-items` trailer `confirm` writes for these phase 1 manual items of PLAN. */
const itemsOf = (...texts: string[]) =>
  `Confirmed-items: ${itemsDigest(texts.map((text) => ({ file: PLAN, phase: 1, text })))}`;

describe('Confirmed-by', () => {
  it("a human's own trailer on their own commit counts (strict wants the items digest too)", async () => {
    const repo = ready();
    const c = checkoff(repo, { author: ANA, confirmedBy: [ANA], digest: false });
    expect(await verdict(repo)).toEqual([]);
    await refused(repo, c, /needs the `Confirmed-items:` trailer/, 'strict');
    const full = ready();
    checkoff(full, { author: ANA, confirmedBy: [ANA], trailers: [itemsOf(MANUAL(1))] });
    expect(await verdict(full, 'strict')).toEqual([]);
  });

  it("no trailer: a human's checkbox-only commit is an implicit confirmation in recommended, never in strict", async () => {
    const repo = ready();
    const c = checkoff(repo, { author: ANA });
    expect(await verdict(repo)).toEqual([
      expect.objectContaining({ severity: 'info', commit: c, message: expect.stringContaining('implicit') }),
    ]);
    await refused(repo, c, /no `Confirmed-by:` trailer \(`strict` always needs the trailer\)/, 'strict');
  });

  it('no trailer and other changes: no confirmation, even from a human', async () => {
    const repo = ready();
    const c = checkoff(repo, { author: ANA }, { 'src/app.ts': 'export {};\n' });
    await refused(repo, c, /no `Confirmed-by:` trailer \(the commit changes more than manual checkboxes/);
  });

  it('a trailer that is not `Name <email>` does not count', async () => {
    const repo = ready();
    const c = checkoff(repo, { author: ANA, trailers: ['Confirmed-by: Ana'] });
    await refused(repo, c, /not of the form/);
  });

  it('the confirmer must be the author or the committer', async () => {
    const repo = ready();
    const c = checkoff(repo, { author: BOB, confirmedBy: [ANA] });
    await refused(repo, c, /neither the author nor the committer/);
  });

  it('the committer may confirm a commit someone else authored', async () => {
    const repo = ready();
    checkoff(repo, { author: BOB, committer: ANA, confirmedBy: [ANA] });
    expect(await verdict(repo)).toEqual([]);
  });

  it('an agent cannot confirm, even naming itself', async () => {
    const repo = ready();
    const c = checkoff(repo, { author: CLAUDE, confirmedBy: [CLAUDE] });
    await refused(repo, c, /matches the `agents` patterns/);
  });

  it('an agent identity is matched case-insensitively, and on names for patterns without @', async () => {
    const repo = ready();
    const c = checkoff(repo, {
      author: { name: 'claude', email: 'claude@example.com' },
      confirmedBy: [{ name: 'claude', email: 'claude@example.com' }],
    });
    await refused(repo, c, /agents/);
  });

  it('the `agents` config replaces the defaults', async () => {
    const repo = ready({ agents: ['robot@ci.example'] });
    const c = checkoff(repo, { author: ROBOT, confirmedBy: [ROBOT] });
    await refused(repo, c, /matches the `agents` patterns/);
  });

  it("in recommended a human's confirmation co-authored by an agent counts with an info; in strict it does not", async () => {
    const repo = ready();
    const c = checkoff(repo, { author: ANA, coAuthors: [CLAUDE], confirmedBy: [ANA] });
    const rec = await verdict(repo);
    expect(rec).toEqual([
      expect.objectContaining({
        severity: 'info',
        commit: c,
        message: expect.stringContaining('Ana Human <ana@example.com>'),
      }),
    ]);
    await refused(repo, c, /strict/, 'strict');
  });

  it("in strict an agent-authored commit does not carry a human committer's confirmation either", async () => {
    const repo = ready();
    const c = checkoff(repo, { author: CLAUDE, committer: ANA, confirmedBy: [ANA] });
    expect((await verdict(repo)).map((f) => f.severity)).toEqual(['info']);
    await refused(repo, c, /strict/, 'strict');
  });

  it('in strict a confirmation commit changes nothing but manual checkboxes', async () => {
    const repo = ready();
    // Ana confirms phase 1 and, in the same commit, checks task 3: fine in recommended, not in strict.
    const c = repo.commit(
      'Confirm phase 1 and tick task 3',
      { [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] }) },
      { author: ANA, confirmedBy: [ANA], trailers: [itemsOf(MANUAL(1))] },
    );
    expect(await verdict(repo)).toEqual([]);
    await refused(repo, c, /nothing but manual/, 'strict');
    // A pure confirmation passes strict.
    const pure = ready();
    checkoff(pure, { author: ANA, confirmedBy: [ANA], trailers: [itemsOf(MANUAL(1))] });
    expect(await verdict(pure, 'strict')).toEqual([]);
  });
});

describe('confirmers', () => {
  it('when set, only the listed identities may confirm', async () => {
    const repo = ready({ confirmers: ['ana@example.com'] });
    const c = checkoff(repo, { author: BOB, confirmedBy: [BOB] });
    await refused(repo, c, /not listed in `confirmers`/);

    const ok = ready({ confirmers: ['ana@example.com'] });
    checkoff(ok, { author: ANA, confirmedBy: [ANA] });
    expect(await verdict(ok)).toEqual([]);
  });

  it('when unset, any human who is author or committer may confirm', async () => {
    const repo = ready();
    checkoff(repo, { author: BOB, confirmedBy: [BOB] });
    expect(await verdict(repo)).toEqual([]);
  });

  it('takes wildcards and names', async () => {
    const wild = ready({ confirmers: ['*@example.com'] });
    checkoff(wild, { author: BOB, confirmedBy: [BOB] });
    expect(await verdict(wild)).toEqual([]);
    const named = ready({ confirmers: ['Bob Builder'] });
    checkoff(named, { author: BOB, confirmedBy: [BOB] });
    expect(await verdict(named)).toEqual([]);
  });

  it('an allowlisted identity that is also an agent still cannot confirm', async () => {
    const repo = ready({ confirmers: ['noreply@anthropic.com', 'ana@example.com'] });
    const c = checkoff(repo, { author: CLAUDE, confirmedBy: [CLAUDE] });
    await refused(repo, c, /agents/);
  });
});

describe('trust settings come from the commit before the judged one', () => {
  it('a commit that adds its author to `confirmers` cannot vouch for itself (the next one can)', async () => {
    const repo = ready({ confirmers: ['ana@example.com'] });
    const c = checkoff(
      repo,
      { author: BOB, confirmedBy: [BOB] },
      { [CONFIG]: JSON.stringify({ confirmers: ['ana@example.com', 'bob@example.com'] }) },
    );
    await refused(repo, c, /not listed in `confirmers`/);
    // Phase 2 later: Bob is on the list now.
    repo.commit(
      'Task 3',
      {
        [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] }),
        [handoffPath(3)]: taskHandoff(3),
        [LEDGER]: ledgerDoc([1, 2, 3]),
      },
      { author: CLAUDE },
    );
    repo.commit(
      'Task 4',
      {
        [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1] }),
        [handoffPath(4)]: taskHandoff(4),
        [LEDGER]: ledgerDoc([1, 2, 3, 4]),
      },
      { author: CLAUDE },
    );
    repo.commit(
      'Confirm phase 2',
      { [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1, 2] }) },
      { author: BOB, confirmedBy: [BOB] },
    );
    expect((await verdict(repo)).map((f) => f.commit)).toEqual([c]);
  });

  it('a commit that removes its author from `agents` is still an agent commit (and exempts itself)', async () => {
    const repo = ready({ agents: ['robot@ci.example'] });
    const c = checkoff(
      repo,
      { author: ROBOT, confirmedBy: [ROBOT] },
      { [CONFIG]: JSON.stringify({ agents: ['nobody@example.com'] }) },
    );
    await refused(repo, c, /matches the `agents` patterns/);
    const { findings } = await judge(repo.dir);
    expectOne(findings, 'history/self-exemption', { repo, commit: c, file: CONFIG, line: 1 });
  });

  it('a human who adds an agent pattern matching themselves is judged by the old list in that commit', async () => {
    const repo = ready();
    checkoff(repo, { author: BOB, confirmedBy: [BOB] }, { [CONFIG]: JSON.stringify({ agents: ['bob@example.com'] }) });
    expect(await verdict(repo)).toEqual([]);
  });

  it('a config that turns the rule off binds only the commits after it', async () => {
    const repo = ready();
    const c = checkoff(repo, { author: CLAUDE }, { [CONFIG]: JSON.stringify({ rules: { [RULE]: 'off' } }) });
    await refused(repo, c, /Confirmed-by/);
  });

  it('a config that sets strict binds only the commits after it', async () => {
    const repo = ready();
    const c = checkoff(
      repo,
      { author: ANA, coAuthors: [CLAUDE], confirmedBy: [ANA] },
      { [CONFIG]: JSON.stringify({ preset: 'strict' }) },
    );
    expect((await verdict(repo)).map((f) => f.severity)).toEqual(['info']);
    repo.commit(
      'Task 3',
      {
        [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1] }),
        [handoffPath(3)]: taskHandoff(3),
        [LEDGER]: ledgerDoc([1, 2, 3]),
      },
      { author: CLAUDE },
    );
    repo.commit(
      'Task 4',
      {
        [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1] }),
        [handoffPath(4)]: taskHandoff(4),
        [LEDGER]: ledgerDoc([1, 2, 3, 4]),
      },
      { author: CLAUDE },
    );
    const c2 = repo.commit(
      'Confirm phase 2',
      { [PLAN]: planDoc({ tasks: [1, 2, 3, 4], auto: [1, 2], manual: [1, 2] }) },
      { author: ANA, coAuthors: [CLAUDE], confirmedBy: [ANA] },
    );
    const all = await verdict(repo);
    expect(all.map((f) => [f.commit, f.severity])).toEqual([
      [c, 'info'],
      [c2, 'error'],
    ]);
  });
});

describe('requireSignedConfirmations with a real SSH signing key', () => {
  /** A fresh ed25519 key; git verifies against an allowed-signers file set in the repository's config. */
  function keyed(repo: Repo, trusted = true): string {
    const dir = tempDir();
    const key = join(dir, 'key');
    runKeygen(key);
    const signers = join(dir, 'allowed_signers');
    writeFileSync(signers, trusted ? `ana@example.com ${readPub(key)}` : '');
    repo.git('config', 'gpg.ssh.allowedSignersFile', signers);
    return key;
  }

  const signed = (key: string): CommitOpts => ({
    author: ANA,
    confirmedBy: [ANA],
    args: ['-S'],
    gitConfig: ['gpg.format=ssh', `user.signingkey=${key}.pub`],
  });

  it('a signed confirmation passes', async () => {
    const repo = ready({ requireSignedConfirmations: true });
    const key = keyed(repo);
    const c = checkoff(repo, signed(key));
    expect(repo.gitWith({}, ['log', '-1', '--format=%G?', c]).trim()).toBe('G');
    expect(await verdict(repo)).toEqual([]);
    expect((await cliHere(repo.dir)).code).toBe(0);
  });

  it('an unsigned confirmation fails', async () => {
    const repo = ready({ requireSignedConfirmations: true });
    keyed(repo);
    const c = checkoff(repo, { author: ANA, confirmedBy: [ANA] });
    await refused(repo, c, /no good signature/);
    const res = await cliHere(repo.dir);
    expect(res.code).toBe(1);
    expect(res.results.find((f) => f.ruleId === RULE)?.commit).toBe(c);
  });

  it('a confirmation signed by a key git does not trust fails', async () => {
    const repo = ready({ requireSignedConfirmations: true });
    const key = keyed(repo, false);
    const c = checkoff(repo, signed(key));
    expect(repo.gitWith({}, ['log', '-1', '--format=%G?', c]).trim()).not.toBe('G');
    await refused(repo, c, /no good signature/);
  });

  it('unsigned confirmations pass while the setting is off, and the commit that turns it on is not bound by it', async () => {
    const repo = ready();
    checkoff(
      repo,
      { author: ANA, confirmedBy: [ANA] },
      { [CONFIG]: JSON.stringify({ requireSignedConfirmations: true }) },
    );
    expect(await verdict(repo)).toEqual([]);
  });

  it('commit-msg accepts the confirmation only when git is set to sign the commit', async () => {
    const repo = ready({ requireSignedConfirmations: true });
    const key = keyed(repo);
    repo.stage({ [PLAN]: CONFIRMED });
    const msg = messageFile('Confirm phase 1', { confirmedBy: [ANA] });
    const env = repo.env(ANA);
    const unsigned = await runHook(repo, msg, env);
    expect(unsigned.results.filter((f) => f.ruleId === RULE)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('signature') }),
    ]);
    repo.git('config', 'commit.gpgsign', 'true');
    repo.git('config', 'gpg.format', 'ssh');
    repo.git('config', 'user.signingkey', `${key}.pub`);
    expect((await runHook(repo, msg, env)).results.filter((f) => f.ruleId === RULE)).toEqual([]);
  });
});

function runKeygen(key: string): void {
  const res = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ana@example.com', '-f', key], {
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`ssh-keygen failed: ${res.stderr}`);
}

function readPub(key: string): string {
  return readFileSync(`${key}.pub`, 'utf8');
}

/**
 * The commit-msg door with the pending commit's identities in the environment (as git gives them to the hook), the
 * CLI in this process: the door's process is tested where it is the point (parity.test.ts, the hook tests).
 */
async function runHook(
  repo: Repo,
  msg: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; results: Finding[] }> {
  const res = await runCliHere(repo.dir, ['--format', 'json', 'commit-msg', msg], env);
  return { code: res.code, results: (JSON.parse(res.stdout) as { results: Finding[] }).results };
}
