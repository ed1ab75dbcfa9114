// Issue 19: a history/manual-confirmation finding cites the repository's own instruction that manual items wait for
// the user, where its agent instructions say so (read/profile.ts), so the maintainer sees their own rule broken. Only
// the words change: severity and exit code are those of a repository that says nothing. Every instruction text here
// is our own.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, makeRepo, runCli } from '../helpers/repo.js';
import { forgetInstructions, instructionSignals } from '../../src/read/profile.js';
import { loadParsers } from '../../src/read/lazy.js';
import type { Finding } from '../../src/model/finding.js';
import { judgeAgentTree } from '../../src/engine/agent-door.js';
import {
  ANA,
  CLAUDE,
  CONFIG,
  MANUAL,
  PLAN,
  Repo,
  cli,
  cliHere,
  door,
  hookedRepo,
  ledgerDoc,
  LEDGER,
  messageFile,
  planDoc,
} from './helpers.js';

const RULE = 'history/manual-confirmation';
const COMMAND = '.claude/commands/implement_plan.md';

/** An implement command whose list item says manual items wait for the user (line 9 of the file). */
const WAITS = [
  '# Carry out an approved plan',
  '',
  'Work through one phase at a time and run its automated checks.',
  '',
  '## When a phase is done',
  '',
  '- Tick the automated verification items whose commands pass.',
  '- Tell the user the phase is ready.',
  '- The manual testing items are for a person: do not tick them',
  '  until the user has confirmed them in the conversation.',
  '',
].join('\n');
const WAITS_LINE = 9;
const WAITS_SAYS =
  'says "The manual testing items are for a person: do not tick them until the user has confirmed them in the conversation"';

/** An implement command that tells the agent to check every box itself, manual ones included. */
const TICKS_ALL = [
  '# Carry out an approved plan',
  '',
  'Once the tests pass, tick every box of the phase yourself, manual verification items included.',
  '',
  'Check off the manual items yourself; do not wait until the user confirms them.',
  '',
].join('\n');

/** The finding an agent's check-off of phase 1's manual item gets, without any instruction to cite. */
const PLAIN = `Manual item "${MANUAL(1)}" is checked without a human's confirmation: the commit has no \`Confirmed-by:\` trailer.`;

/** Ana adopts the convention and plans; Claude checks phase 1, its manual item included, with no confirmation. */
function history(instructions: Record<string, string>): Repo {
  const repo = Repo.create();
  repo.commit(
    'Plan the auth flow',
    { [CONFIG]: '{}\n', [PLAN]: planDoc(), [LEDGER]: ledgerDoc(), ...instructions },
    { author: ANA },
  );
  repo.commit('Phase 1 verified', { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) }, { author: CLAUDE });
  return repo;
}

const confirmations = (results: Finding[]) => results.filter((f) => f.ruleId === RULE);

describe('the instruction that manual items wait for the user', () => {
  const signal = async (text: string) => {
    await loadParsers();
    const dir = makeRepo({ [COMMAND]: text });
    forgetInstructions(dir);
    return instructionSignals(dir).confirmation;
  };

  it('is found in a list item, with the line its sentence starts on', async () => {
    expect(await signal(WAITS)).toEqual({ from: 'instructions', file: COMMAND, line: WAITS_LINE, says: WAITS_SAYS });
    const two = [
      '# Implement',
      '',
      'Run the checks first.',
      'Never mark the human verification steps as done until',
      'the human confirms them.',
    ];
    expect(await signal(two.join('\n'))).toMatchObject({ line: 4 });
    expect(
      await signal('Check off **manual** verification items only after the user has verified them.'),
    ).toMatchObject({
      line: 1,
      says: 'says "Check off manual verification items only after the user has verified them"',
    });
  });

  it('is not read into a file that tells the agent to check the boxes itself, or says only half of it', async () => {
    for (const text of [
      TICKS_ALL,
      'Do not pause for manual verification between phases.',
      'Pause for human verification after each phase, then go on.',
      'Do not mark a task done until the user confirms it.',
      'Manual verification items: the user confirms them in review.',
    ])
      expect(await signal(text), text).toBeNull();
  });
});

// Each sentence alone in an instruction file: those that hold manual items back for a person, and those that only
// look alike (another object, a clause of its own, a word between the negation and the verb, another verb).
const HOLDS = [
  'Do not check off items in the manual testing steps until confirmed by the user.',
  'Do not check off manual verification items until I confirm them.',
  'Don\u2019t check off the manual verification items until the user confirms them.',
  'Never tick manual testing items until a person confirms them.',
  'Do not mark the manual verification steps done until the developer confirms they pass.',
  'Never check off human verification items until the owner has confirmed them.',
  'Only check off manual verification items once the user confirms them.',
  'Leave the manual verification checkboxes unchecked until the user confirms them.',
  'Do not check off manual testing items (e.g. the login flow) until the user confirms them.',
  'Manual verification items must not be checked until the user confirms them.',
  'Manual testing steps should only be ticked once the maintainer has verified them.',
  'Never ever mark manual QA items as done until they are confirmed by the user.',
];
const LOOKS_ALIKE = [
  'Never mark a phase complete until the user confirms; you may tick manual verification items you verified yourself with the browser tool.',
  'Never mark a phase as done until the user confirms, and do the manual verification steps yourself.',
  "Do not hesitate to check manual testing items yourself; don't wait until the user confirms them.",
  'Do not forget to tick the manual verification items you ran yourself, and never stop until the user has approved the PR.',
  'Mark manual verification items done only when the tests pass, not when the user confirms.',
  'Run manual tests and check the results only after the user approves the plan.',
  'Manual testing notes go in markdown files, committed only after the user approves them.',
  'Do not checkout the release branch until the maintainer approves the manual QA checklist.',
  'Manual tests run in CI and task items are only marked done after the user approves them.',
  'Do not check off the automated items until the manual verification is confirmed by the user.',
];

describe('which sentences hold manual items for a person', () => {
  const signal = async (text: string) => {
    await loadParsers();
    const dir = makeRepo({ [COMMAND]: `# Implement\n\n${text}\n` });
    forgetInstructions(dir);
    return instructionSignals(dir).confirmation;
  };

  it.each(HOLDS)('holds: %s', async (text) => {
    expect(await signal(text)).toMatchObject({ file: COMMAND, line: 3 });
  });

  it.each(LOOKS_ALIKE)('does not: %s', async (text) => {
    expect(await signal(text)).toBeNull();
  });

  it("quotes an abbreviation's sentence whole, on one line, cut at a word and without inner double quotes", async () => {
    expect(await signal(HOLDS[8]!)).toMatchObject({
      says: 'says "Do not check off manual testing items (e.g. the login flow) until the user confirms them"',
    });
    const long = `Do not check off the "manual verification" items until the user confirms them, ${'and then go on with the next phase of the plan as written '.repeat(3)}`;
    const says = (await signal(long))!.says;
    expect(says).toMatch(
      /^says "Do not check off the 'manual verification' items until the user confirms them, and .*\w…"$/,
    );
    expect(says.length).toBeLessThanOrEqual('says ""'.length + 161);
    expect(long.replace(/"/g, "'")).toContain(says.slice('says "'.length, -2));
  });
});

describe("history/manual-confirmation in the repository's own words", () => {
  let waits: Repo;
  let silent: Repo;
  let ticks: Repo;
  beforeAll(() => {
    waits = history({ [COMMAND]: WAITS });
    silent = history({});
    ticks = history({ [COMMAND]: TICKS_ALL });
  });

  it('cites the instruction, file and line, with the same error and exit code', () => {
    const cited = cli(waits.copy().dir);
    const plain = cli(silent.copy().dir);
    expect(confirmations(plain.results)).toMatchObject([{ severity: 'error', message: PLAIN }]);
    expect(confirmations(cited.results)).toMatchObject([
      {
        severity: 'error',
        message: `${PLAIN.slice(0, -1)}; this repository's ${COMMAND} (line ${WAITS_LINE}) ${WAITS_SAYS}.`,
      },
    ]);
    expect(cited.code).toBe(1);
    expect(plain.code).toBe(1);
    expect(cited.summary).toEqual(plain.summary);
  });

  // The remembered words sit in the cache folder beside the files cache-hostile.test.ts replaces by named pipes: one
  // there must not hold a run for ever (a pipe blocks whoever opens it until a writer comes).
  it.runIf(spawnSync('mkfifo', ['--version']).status === 0)(
    'cites the same words when a named pipe stands where the remembered words go',
    () => {
      const repo = waits.copy();
      const cited = cli(repo.dir);
      const words = join(repo.dir, '.git/validate-workflow/instruction-words.json');
      rmSync(words, { force: true });
      expect(spawnSync('mkfifo', [words]).status).toBe(0);
      const res = spawnSync(process.execPath, [CLI, '--format', 'json'], {
        cwd: repo.dir,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(res.error, 'validate-workflow did not end').toBeUndefined();
      expect(confirmations(JSON.parse(res.stdout).results)).toEqual(confirmations(cited.results));
    },
    60_000,
  );

  it('as a user reads it in the terminal', () => {
    const res = runCli(waits.copy().dir, []);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(
      `the commit has no \`Confirmed-by:\` trailer; this repository's ${COMMAND} (line ${WAITS_LINE}) ${WAITS_SAYS}.`,
    );
  });

  it('cites nothing where the instructions tell the agent to check the boxes itself', async () => {
    const res = await cliHere(ticks.copy().dir);
    expect(confirmations(res.results)).toMatchObject([{ severity: 'error', message: PLAIN }]);
    expect(res.code).toBe(1);
  });

  it('a warm run says what the instructions say now: moved, then gone', async () => {
    const repo = waits.copy();
    expect(confirmations((await cliHere(repo.dir)).results)[0]!.message).toContain(`(line ${WAITS_LINE})`);
    repo.write({ [COMMAND]: `# Preface\n\n${WAITS}` });
    expect(confirmations((await cliHere(repo.dir)).results)[0]!.message).toContain(`(line ${WAITS_LINE + 2})`);
    repo.write({ [COMMAND]: TICKS_ALL });
    expect(confirmations((await cliHere(repo.dir)).results)[0]!.message).toBe(PLAIN);
  });

  // The words are added to the findings at each door, not kept with them in the cache: moving or editing the
  // sentence re-judges no commit, and a run whose findings quote nothing reads no instruction file for them.
  it('a warm run after the sentence moved keeps the history cache and cites the new line', () => {
    const repo = waits.copy();
    const timed = { VALIDATE_WORKFLOW_TIMING: '1' };
    const folded = (stderr: string) => /^timing history: /m.test(stderr);
    const cold = cli(repo.dir, [], timed);
    expect(folded(cold.stderr)).toBe(true);
    expect(cold.stderr).toMatch(/^timing instructions cited: /m);
    // The words are remembered by the instructions' bytes: an unchanged CLAUDE.md is parsed by no later run.
    expect(cli(repo.dir, [], timed).stderr).toMatch(/^timing instructions cited \(words remembered\): /m);
    repo.write({ [COMMAND]: `# Preface\n\n${WAITS}` });
    const warm = cli(repo.dir, [], timed);
    expect(folded(warm.stderr), warm.stderr).toBe(false);
    expect(confirmations(warm.results)[0]!.message).toContain(`(line ${WAITS_LINE + 2})`);
    expect(warm.stderr).toMatch(/^timing instructions cited: /m);
    repo.write({ [COMMAND]: TICKS_ALL });
    const gone = cli(repo.dir, [], timed);
    expect(folded(gone.stderr)).toBe(false);
    expect(confirmations(gone.results)[0]!.message).toBe(PLAIN);
    // Nothing to cite: a repository whose history has no unconfirmed check-off never asks what its files say.
    const quiet = Repo.create();
    quiet.commit('Plan the auth flow', {
      [CONFIG]: '{}\n',
      [PLAN]: planDoc(),
      [LEDGER]: ledgerDoc(),
      [COMMAND]: WAITS,
    });
    expect(cli(quiet.dir, [], timed).stderr).not.toMatch(/^timing instructions cited: /m);
  });

  it('the citation is no field of the JSON contract, through the CLI or the API', async () => {
    const contract = ['ruleId', 'severity', 'file', 'line', 'column', 'message', 'fix', 'commit', 'subject'];
    const repo = waits.copy();
    for (const res of [cli(repo.dir), await door(repo.dir)]) {
      const cited = confirmations(res.results);
      expect(cited[0]!.message).toContain(WAITS_SAYS);
      for (const f of res.results) for (const k of Object.keys(f)) expect(contract, k).toContain(k);
    }
    expect(runCli(repo.dir, ['--format', 'sarif']).stdout).not.toMatch(/"(cite|causes|undo)"/);
  });

  it('the range door and the Claude Code hook say the same words', async () => {
    const repo = waits.copy();
    const words = `; this repository's ${COMMAND} (line ${WAITS_LINE}) ${WAITS_SAYS}.`;
    const range = await door(repo.dir, ['--range', 'HEAD~1..HEAD']);
    expect(confirmations(range.results)[0]!.message).toContain(words);
    await loadParsers();
    const hook = await judgeAgentTree(repo.dir, repo.git('rev-parse', 'HEAD~1').trim());
    expect(confirmations(hook)[0]!.message).toContain(words);
    expect(confirmations(hook)[0]).not.toHaveProperty('cite');
  });

  it('the commit-msg hook refuses the check-off in the same words', async () => {
    const repo = waits.copy();
    repo.git('reset', '-q', '--soft', 'HEAD~1');
    const res = await door(repo.dir, ['commit-msg', messageFile('Phase 1 verified')], repo.env(CLAUDE));
    expect(res.code).toBe(1);
    expect(confirmations(res.results)[0]!.message).toContain(
      `; this repository's ${COMMAND} (line ${WAITS_LINE}) ${WAITS_SAYS}.`,
    );
  });

  it("commit-msg taking pre-commit's verdict says the same words", () => {
    const repo = hookedRepo();
    const plan = { [CONFIG]: '{ "preset": "recommended" }\n', [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }) };
    repo.commit('Plan the auth flow', { ...plan, [COMMAND]: WAITS }, { args: ['--no-verify'] });
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) });
    const staged = runCli(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(staged.code, staged.stdout).toBe(0);
    const timed = { ...repo.env(CLAUDE), VALIDATE_WORKFLOW_TIMING: '1' };
    const msg = runCli(repo.dir, ['commit-msg', messageFile('Phase 1 verified')], timed);
    expect(msg.stderr).toContain("pre-commit's verdict taken");
    expect(msg.code).toBe(1);
    expect(msg.stdout).toContain(`; this repository's ${COMMAND} (line ${WAITS_LINE}) ${WAITS_SAYS}.`);
  });

  it('--print-config shows the part and where it came from', () => {
    const shown = (repo: Repo) =>
      (JSON.parse(runCli(repo.copy().dir, ['--print-config']).stdout) as { profile: Record<string, unknown> }).profile
        .manualConfirmation;
    expect(shown(waits)).toEqual({
      value: true,
      source: { from: 'instructions', file: COMMAND, line: WAITS_LINE, says: WAITS_SAYS },
    });
    expect(shown(ticks)).toMatchObject({ value: false, source: { from: 'default' } });
  });
});
