// What a confirmation proves (convention section 6, README "threat model"): the `Confirmed-items` digest that binds
// a confirmation to the items the human saw (an amend, a rebase or a squash that adds an item breaks it), trailers of
// squash merges, implicit confirmation (a human's own checkbox-only commit), agent identity lines anywhere in the
// message, and signatures checked against the allowed-signers file the parent commit holds, with real SSH keys.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestsCover, itemsDigest, type ItemRef } from '../../src/history/trust.js';
import { messageTrailers, parseTrailers, readTrace } from '../../src/history/log.js';
import {
  ANA,
  BOB,
  CLAUDE,
  CONFIG,
  LEDGER,
  MANUAL,
  MANUAL2,
  PLAN,
  Repo,
  cliHere,
  expectOne,
  messageFile,
  handoffPath,
  ident,
  judge,
  ledgerDoc,
  lineOf,
  planDoc,
  taskHandoff,
  tempDir,
  type CommitOpts,
  type Who,
} from './helpers.js';

const RULE = 'history/manual-confirmation';
const SIGNERS = 'validate-workflow.allowed-signers';

/**
 * Ana's plan and config (her commit of it is the adoption point), tasks 1-2 by Claude, phase 1's automated item
 * checked; phase 1 has two manual items. The config is committed even when a test sets nothing: before adoption (an
 * audit) a person's commit is only noted (round 3), and these tests are about what a confirmation proves.
 */
function ready(config: Record<string, unknown> = { preset: 'recommended' }, extra: Record<string, string> = {}): Repo {
  const repo = Repo.create();
  const plan = (s: Parameters<typeof planDoc>[0]) => planDoc({ secondManual: [1], ...s });
  repo.commit(
    'Plan the auth flow',
    { [PLAN]: plan({}), [LEDGER]: ledgerDoc(), [CONFIG]: JSON.stringify(config, null, 2), ...extra },
    { author: ANA },
  );
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: plan({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    { author: CLAUDE },
  );
  repo.commit(
    'Task 2: Do step 2',
    { [PLAN]: plan({ tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
    { author: CLAUDE },
  );
  return repo;
}

/** The plan with phase 1's manual items checked: the first, or both. */
const ONE = planDoc({ tasks: [1, 2], auto: [1], secondManual: [1] }).replace(
  `- [ ] ${MANUAL(1)}`,
  `- [x] ${MANUAL(1)}`,
);
const BOTH = planDoc({ tasks: [1, 2], auto: [1], manual: [1], secondManual: [1] });

const item = (text: string): ItemRef => ({ file: PLAN, phase: 1, text });
const digestOf = (...texts: string[]) => itemsDigest(texts.map(item));
const itemsTrailer = (...texts: string[]) => `Confirmed-items: ${digestOf(...texts)}`;

async function verdict(repo: Repo, preset?: 'recommended' | 'strict') {
  return (await judge(repo.dir, { preset })).findings.filter((f) => f.ruleId === RULE);
}

async function refused(repo: Repo, commit: string, reason: RegExp, preset?: 'recommended' | 'strict'): Promise<void> {
  const f = expectOne(await verdict(repo, preset), RULE, {
    repo,
    commit,
    file: PLAN,
    line: lineOf(repo.show(commit, PLAN), MANUAL(1)),
    severity: 'error',
  });
  expect(f.message).toMatch(reason);
}

/** Stage files and commit them with this exact message. */
function commitMessage(
  repo: Repo,
  files: Record<string, string>,
  msg: string,
  who: Who = ANA,
  committer: Who = who,
  gitConfig: string[] = [],
): string {
  repo.stage(files);
  repo.gitWith(
    repo.env(who, committer),
    [...gitConfig.flatMap((c) => ['-c', c]), 'commit', '-q', '--cleanup=verbatim', '-F', '-'],
    msg,
  );
  return repo.sha();
}

describe('item identities and the digest', () => {
  it('is the first 12 hex digits of a sha256, independent of order, and depends on plan, phase and text', () => {
    const d = itemsDigest([item('a'), item('b')]);
    expect(d).toMatch(/^[0-9a-f]{12}$/);
    expect(itemsDigest([item('b'), item('a')])).toBe(d);
    expect(itemsDigest([item('a')])).not.toBe(d);
    expect(itemsDigest([{ ...item('a'), phase: 2 }, item('b')])).not.toBe(d);
    expect(itemsDigest([{ ...item('a'), file: 'other.md' }, item('b')])).not.toBe(d);
  });

  it('digests cover a set exactly, or as a split into confirmations of parts of a phase (a squash)', () => {
    const a = item('a');
    const b = item('b');
    const c = item('c');
    expect(digestsCover([a, b], [itemsDigest([a, b])])).toBe(true);
    expect(digestsCover([a, b], [itemsDigest([a])])).toBe(false);
    expect(digestsCover([a, b, c], [itemsDigest([a]), itemsDigest([b, c])])).toBe(true);
    expect(digestsCover([a, b, c], [itemsDigest([a, b]), itemsDigest([b, c])])).toBe(false);
    const p2 = { ...a, phase: 2 };
    expect(digestsCover([a, p2], [itemsDigest([a]), itemsDigest([p2])])).toBe(true);
  });
});

describe('Confirmed-items', () => {
  it('a confirmation whose digest covers what it checks counts, in recommended and strict', async () => {
    const repo = ready();
    repo.commit(
      'Confirm phase 1',
      { [PLAN]: BOTH },
      { author: ANA, confirmedBy: [ANA], trailers: [itemsTrailer(MANUAL(1), MANUAL2(1))] },
    );
    expect(await verdict(repo)).toEqual([]);
    expect(await verdict(repo, 'strict')).toEqual([]);
  });

  it('an item amended into a confirmed commit breaks the digest, in recommended too', async () => {
    const repo = ready();
    // Ana confirmed the first item; the agent amends the second one into her commit, keeping message and author.
    repo.commit(
      'Confirm phase 1',
      { [PLAN]: ONE },
      { author: ANA, confirmedBy: [ANA], trailers: [itemsTrailer(MANUAL(1))] },
    );
    repo.write({ [PLAN]: BOTH });
    repo.git('add', '-A');
    repo.gitWith(repo.env(ANA), ['commit', '-q', '--amend', '--no-edit']);
    const c = repo.sha();
    await refused(
      repo,
      c,
      new RegExp(`Confirmed-items: ${digestOf(MANUAL(1))}\` does not match .*amend, rebase or squash`),
    );
    await refused(repo, c, /does not match/, 'strict');
  });

  it('a digest that does not cover the items refuses even an otherwise implicit confirmation', async () => {
    const repo = ready();
    const c = repo.commit('Confirm phase 1', { [PLAN]: BOTH }, { author: ANA, trailers: [itemsTrailer(MANUAL(1))] });
    await refused(repo, c, /does not match/);
  });
});

describe('squash merges', () => {
  const pr = (confirmations: string) => `Auth flow, phase 1 (#12)

* Task 1: Do step 1

Co-authored-by: Claude <noreply@anthropic.com>

* Task 2: Do step 2

${confirmations}
`;

  it("GitHub's squash message carries the squashed commits' Confirmed-by and Confirmed-items", async () => {
    const repo = ready();
    const msg = pr(`* Confirm phase 1

Confirmed-by: ${ident(ANA)}
Confirmed-items: ${digestOf(MANUAL(1))}

* Confirm the rest of phase 1

Confirmed-by: ${ident(ANA)}
Confirmed-items: ${digestOf(MANUAL2(1))}

* Tidy up`);
    const c = commitMessage(repo, { [PLAN]: BOTH }, msg, ANA, { name: 'GitHub', email: 'noreply@github.com' });
    // Recommended: the agent co-authored the squash, so the human's confirmation is relayed (an info).
    expect((await verdict(repo)).map((f) => [f.commit, f.severity])).toEqual([[c, 'info']]);
    // Strict: the agent's line in the body counts as co-authorship too.
    await refused(repo, c, /strict/, 'strict');
  });

  it('a squash that brings in an item nobody confirmed breaks the digests', async () => {
    const repo = ready();
    const c = commitMessage(
      repo,
      { [PLAN]: BOTH },
      pr(`* Confirm phase 1\n\nConfirmed-by: ${ident(ANA)}\nConfirmed-items: ${digestOf(MANUAL(1))}\n\n* More`),
      ANA,
    );
    await refused(repo, c, /does not match/);
  });

  it("git's own squash message (indented) counts too", async () => {
    const repo = ready();
    const msg = `Squashed commit of the following:

commit ${'a'.repeat(40)}
Author: Ana Human <ana@example.com>
Date:   Mon Nov 23 10:00:00 2026 +0000

    Confirm phase 1

    Confirmed-by: ${ident(ANA)}
    Confirmed-items: ${digestOf(MANUAL(1), MANUAL2(1))}
`;
    commitMessage(repo, { [PLAN]: BOTH, 'src/app.ts': 'export {};\n' }, msg, ANA);
    expect(await verdict(repo)).toEqual([]);
  });

  it('outside a squash, a Confirmed-by line in the body is not a trailer', async () => {
    const repo = ready();
    const msg = `Confirm phase 1\n\nConfirmed-by: ${ident(ANA)}\n\nAnd some code.\n`;
    const c = commitMessage(repo, { [PLAN]: BOTH, 'src/app.ts': 'export {};\n' }, msg, ANA);
    await refused(repo, c, /no `Confirmed-by:` trailer/);
  });

  it('messageTrailers reads only exact `Key: value` lines of a squash', () => {
    const msg = 'T (#1)\n\n* a\n\nConfirmed-by: Ana <a@x>\n Confirmed-by: Eve <e@x>\nConfirmed-by:Bob <b@x>\n';
    expect(messageTrailers([], msg)).toEqual([{ key: 'Confirmed-by', value: 'Ana <a@x>' }]);
  });
});

describe('implicit confirmation (recommended only)', () => {
  it("a human's own commit of manual checkboxes only counts, with an info", async () => {
    const repo = ready();
    const c = repo.commit('Checked phase 1 by hand', { [PLAN]: BOTH }, { author: ANA });
    const found = await verdict(repo);
    expect(found).toEqual([
      expect.objectContaining({
        commit: c,
        severity: 'info',
        message: expect.stringMatching(
          /2 manual items checked by Ana Human <ana@example.com> in a commit of their own .*implicit/,
        ),
      }),
    ]);
    await refused(repo, c, /`strict` always needs the trailer/, 'strict');
  });

  // Round 3 (issue 20, case 8): a human who ticks her manual item and fixes a line of prose in the same commit, with
  // no agent anywhere, confirmed it; this test refused that before. Code, task boxes and handoffs still refuse.
  it("a human's plan-only commit (manual boxes and prose) counts, with an info", async () => {
    const prose = ready();
    const p = prose.commit(
      'Check and reword',
      { [PLAN]: BOTH.replace('# Auth flow Implementation Plan', '# Auth flow plan') },
      { author: ANA },
    );
    expect(await verdict(prose)).toEqual([
      expect.objectContaining({
        commit: p,
        severity: 'info',
        message: expect.stringMatching(/changes only plans \(manual checkboxes and prose\).*implicit/),
      }),
    ]);
    await refused(prose, p, /`strict` always needs the trailer/, 'strict');
  });

  it('does not apply when the commit changes another file, or a task box', async () => {
    const other = ready();
    const c = other.commit('Implement and check', { [PLAN]: BOTH, 'src/app.ts': 'export {};\n' }, { author: ANA });
    await refused(other, c, /changes more than manual checkboxes/);
    const task = ready();
    const t = task.commit(
      'Check and tick',
      { [PLAN]: planDoc({ tasks: [1, 2, 3], auto: [1], manual: [1], secondManual: [1] }) },
      { author: ANA },
    );
    await refused(task, t, /changes more than manual checkboxes/);
  });

  it('does not apply when an agent took part, or the author is not a listed confirmer', async () => {
    const co = ready();
    const c = co.commit('Check', { [PLAN]: BOTH }, { author: ANA, coAuthors: [CLAUDE] });
    await refused(co, c, /an agent took part in the commit \(Claude <noreply@anthropic.com>\)/);
    const listed = ready({ confirmers: ['ana@example.com'] });
    const b = listed.commit('Check', { [PLAN]: BOTH }, { author: BOB });
    await refused(listed, b, /Bob Builder <bob@example.com> is not listed in `confirmers`/);
  });

  it("a Co-authored-by line followed by another paragraph still makes the commit an agent's", async () => {
    const repo = ready();
    const msg = `Check phase 1\n\nCo-authored-by: Claude <noreply@anthropic.com>\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n`;
    const c = commitMessage(repo, { [PLAN]: BOTH }, msg, ANA);
    // git itself does not see the line as a trailer...
    expect(repo.git('log', '-1', '--format=%(trailers:key=Co-authored-by)', c).trim()).toBe('');
    // ...the tool does.
    await refused(repo, c, /an agent took part/);
  });
});

describe('the trace reads any message', () => {
  it('separators in a subject cannot forge or drop a record', async () => {
    const repo = ready();
    const c = commitMessage(
      repo,
      { [PLAN]: BOTH },
      `Check\x1e${'f'.repeat(40)}\x1f\x1fevil\n\nCo-authored-by: ${ident(CLAUDE)}\n`,
      ANA,
    );
    expect(repo.git('log', '-1', '--format=%s', c)).toContain('\x1e');
    const trace = await readTrace(repo.dir, ['HEAD'], ['thoughts']);
    expect(trace.map((t) => t.commit.sha)).toEqual(repo.git('rev-list', '--reverse', 'HEAD').trim().split('\n'));
    const last = trace.at(-1)!;
    expect(last.commit.sha).toBe(c);
    expect(last.changes.map((ch) => ch.path)).toEqual([PLAN]);
    expect(last.commit.trailers).toEqual([{ key: 'Co-authored-by', value: ident(CLAUDE) }]);
  });

  it('messageTrailers keeps the block and adds identity lines from anywhere, once', () => {
    const block = parseTrailers('Signed-off-by: Ana <a@x>\nCo-authored-by: Claude <noreply@anthropic.com>');
    const msg =
      'S\n\nco-authored-by:  Codex <codex@openai.com> \n\nmore\n\nSigned-off-by: Ana <a@x>\nCo-authored-by: Claude <noreply@anthropic.com>\n';
    expect(messageTrailers(block, msg)).toEqual([
      ...block,
      { key: 'Co-authored-by', value: 'Codex <codex@openai.com>' },
    ]);
  });
});

describe('signed confirmations against the allowed-signers file in the repository', () => {
  function keygen(email: string): string {
    const key = join(tempDir(), 'key');
    const res = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', email, '-f', key], {
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`ssh-keygen failed: ${res.stderr}`);
    return key;
  }
  const pub = (key: string) => readFileSync(`${key}.pub`, 'utf8').trim();
  const signing = (key: string): string[] => ['gpg.format=ssh', `user.signingkey=${key}.pub`, 'commit.gpgsign=true'];
  const signed = (key: string, who: Who = ANA): CommitOpts => ({
    author: who,
    confirmedBy: [who],
    trailers: [itemsTrailer(MANUAL(1), MANUAL2(1))],
    gitConfig: signing(key),
  });

  /** Ana's key listed in the repository's file (no gpg.ssh.allowedSignersFile in git's config: the file decides). */
  function setUp(): { repo: Repo; ana: string } {
    const ana = keygen('ana@example.com');
    const repo = ready(
      { requireSignedConfirmations: true, allowedSigners: SIGNERS },
      { [SIGNERS]: `ana@example.com namespaces="git" ${pub(ana)}\n` },
    );
    expect(spawnSync('git', ['config', '--get', 'gpg.ssh.allowedSignersFile'], { cwd: repo.dir }).status).toBe(1);
    return { repo, ana };
  }

  it("a confirmation signed with a listed human's key counts", async () => {
    const { repo, ana } = setUp();
    repo.commit('Confirm phase 1', { [PLAN]: BOTH }, signed(ana));
    expect(await verdict(repo)).toEqual([]);
    expect(await verdict(repo, 'strict')).toEqual([]);
    expect((await cliHere(repo.dir)).results.filter((f) => f.ruleId === RULE)).toEqual([]);
  });

  it("an agent's signature with another key is refused, whoever the commit names", async () => {
    const { repo } = setUp();
    const agent = keygen('agent@example.com');
    const c = repo.commit('Confirm phase 1', { [PLAN]: BOTH }, signed(agent));
    // A real SSH signature, by a key the file does not list.
    expect(repo.git('cat-file', 'commit', c)).toContain('-----BEGIN SSH SIGNATURE-----');
    await refused(repo, c, new RegExp(`no good signature by a key listed in ${SIGNERS.replace(/\./g, '\\.')}`));
  });

  it('a key added to the file in the signed commit itself does not count (the parent holds the file)', async () => {
    const { repo, ana } = setUp();
    const agent = keygen('agent@example.com');
    const file = `ana@example.com namespaces="git" ${pub(ana)}\nana@example.com namespaces="git" ${pub(agent)}\n`;
    const c = repo.commit('Confirm phase 1', { [PLAN]: BOTH, [SIGNERS]: file }, signed(agent));
    expect(repo.git('cat-file', 'commit', c)).toContain('-----BEGIN SSH SIGNATURE-----');
    await refused(repo, c, /no good signature/);
  });

  it('an unsigned confirmation, and an implicit one, need the signature too', async () => {
    const { repo } = setUp();
    const c = repo.commit('Confirm phase 1', { [PLAN]: BOTH }, { author: ANA, confirmedBy: [ANA] });
    await refused(repo, c, /no good signature/);
    const implicit = setUp().repo;
    const i = implicit.commit('Checked by hand', { [PLAN]: BOTH }, { author: ANA });
    await refused(implicit, i, /no good signature/);
  });
});

describe('an allowed-signers file at a path of its own is a trust file', () => {
  const CUSTOM = 'keys/confirmers.allowed-signers';
  const listed =
    'ana@example.com namespaces="git" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAnaAnaAnaAnaAnaAnaAnaAnaAnaAnaAnaAnaAnaAnaAna\n';
  const added = `${listed}agent@example.com namespaces="git" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAgentAgentAgentAgentAgentAgentAgentAgentAg\n`;

  it("an agent adding its key to it is self-exemption at the full run and at the hooks; a human's change is not", async () => {
    const repo = ready({ requireSignedConfirmations: true, allowedSigners: `./${CUSTOM}` }, { [CUSTOM]: listed });
    repo.stage({ [CUSTOM]: added });
    // Pre-commit leaves who made the change to commit-msg, which has the message.
    const staged = (
      await cliHere(repo.dir, [
        'commit-msg',
        messageFile('Add my key', { trailers: [`Co-authored-by: ${ident(CLAUDE)}`] }),
      ])
    ).results.filter((f) => f.ruleId === 'history/self-exemption');
    expect(staged.map((f) => f.file)).toEqual([CUSTOM]);
    repo.git('reset', '-q', '--hard');
    const bad = repo.commit('Add my key', { [CUSTOM]: added }, { author: CLAUDE });
    const full = (await cliHere(repo.dir)).results.filter((f) => f.ruleId === 'history/self-exemption');
    expect(full.map((f) => [f.file, f.commit])).toEqual([[CUSTOM, bad]]);
    const human = ready({ requireSignedConfirmations: true, allowedSigners: CUSTOM }, { [CUSTOM]: listed });
    human.commit('Add Bob', { [CUSTOM]: added }, { author: ANA });
    expect((await cliHere(human.dir)).results.filter((f) => f.ruleId === 'history/self-exemption')).toEqual([]);
  });
});
