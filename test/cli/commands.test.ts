// One module per command, each with its own options: the words main.ts dispatches, each command's --help, and the
// usage errors a typo earns (exit 2, with the close flag or command it probably meant).
import { describe, expect, it } from 'vitest';
import { makeRepo, runCliHere } from '../helpers/repo.js';
import { closest, levenshtein, suggestFlag } from '../../src/cli/command.js';

const PLAN = `# Plan
## Phase 1: Schema
- [x] Task 1: Add users table
#### Automated Verification:
- [x] Migration applies
#### Manual Verification:
- [ ] Tables visible
`;

describe('suggestions', () => {
  it('measures edit distance', () => {
    expect(levenshtein('stauts', 'status')).toBe(2);
    expect(levenshtein('fromat', 'format')).toBe(2);
    expect(levenshtein('', 'new')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
  });

  it('suggests within a distance of 2, or a prefix, and nothing farther', () => {
    expect(closest('stauts', ['check', 'status', 'new'])).toBe('status');
    expect(closest('max', ['max-warnings', 'quiet'])).toBe('max-warnings');
    expect(closest('explian', ['explain', 'init'])).toBe('explain');
    expect(closest('bogus', ['format', 'preset', 'quiet'])).toBeNull();
    expect(suggestFlag('--qiuet', ['format', 'quiet'])).toBe('--quiet');
    expect(suggestFlag('-q', ['quiet'])).toBeNull();
  });
});

describe('the CLI picks a command and the command parses its own options', () => {
  const dir = makeRepo({ 'thoughts/shared/plans/p.md': PLAN });

  it('a mistyped flag is a usage error that names the close flag', async () => {
    const res = await runCliHere(dir, ['--fromat', 'json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'validate-workflow: unknown option --fromat; did you mean --format?\nRun validate-workflow --help for usage.\n',
    );
    const status = await runCliHere(dir, ['status', '--sesion', 's1']);
    expect(status.code).toBe(2);
    expect(status.stderr).toBe(
      'validate-workflow: unknown option --sesion; did you mean --session?\nRun validate-workflow status --help for usage.\n',
    );
    // A prefix of a flag counts as close.
    expect((await runCliHere(dir, ['--max', '3'])).stderr).toContain('did you mean --max-warnings?');
  });

  it('a flag of another command is a usage error that says whose it is', async () => {
    // The check command (the default) has no --session: it belongs to status and new.
    const res = await runCliHere(dir, ['--session', 's1']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'validate-workflow: --session is an option of "status" and "new", not of "check"\nRun validate-workflow --help for usage.\n',
    );
    const init = await runCliHere(dir, ['init', '--format', 'json']);
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(
      /^validate-workflow: --format is an option of "check", "status" and "verify", not of "init"\n/,
    );
    expect((await runCliHere(dir, ['status', '--force'])).stderr).toMatch(
      /^validate-workflow: --force is an option of "init", not of "status"\n/,
    );
    expect(await runCliHere(dir, ['new', 'plan', 'X', '--phase', '1'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--phase is an option of "confirm" and "verify", not of "new"'),
    });
  });

  it('explain without a rule id lists the rules; a near-miss id is told the rule it most likely meant', async () => {
    // Issue 24: it exited 2 ("explain needs a rule id"), and `plan/modee` got no suggestion.
    const list = await runCliHere(dir, ['explain']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^plan\/mode +warn\/error +Direct mode with 4\+ tasks needs `mode_set_by: user`\.$/m);
    const near = await runCliHere(dir, ['explain', 'plan/modee']);
    expect([near.code, near.stderr.split('\n')[0]]).toEqual([
      2,
      'validate-workflow: unknown rule id: plan/modee; did you mean "plan/mode"? (`validate-workflow explain` lists them all)',
    ]);
  });

  it('a mistyped command word is a usage error that names the command', async () => {
    const res = await runCliHere(dir, ['stauts']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'validate-workflow: unknown command "stauts"; did you mean "status"?\nRun validate-workflow --help for usage.\n',
    );
    expect((await runCliHere(dir, ['explian', 'plan/mode'])).stderr).toContain('did you mean "explain"?');
    // A word that is no command and close to none is a path of the check command, as before.
    expect(await runCliHere(dir, ['nothing-here'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no such file or directory: nothing-here'),
    });
  });

  it('a word close to a command that names an existing folder is a path', async () => {
    const other = makeRepo({ 'stats/thoughts/shared/plans/p.md': PLAN });
    expect((await runCliHere(other, ['stats'])).stderr).not.toContain('unknown command');
  });

  it('prints each command its own usage with --help, and the overview without a command', async () => {
    const overview = await runCliHere(dir, ['--help']);
    expect(overview.code).toBe(0);
    for (const name of ['check', 'init', 'confirm', 'status', 'explain', 'new', 'claude-hook'])
      expect(overview.stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    const cases: [string[], string, string[]][] = [
      [['init', '--help'], 'Usage: validate-workflow init', ['--force', '--claude']],
      [['status', '-h'], 'Usage: validate-workflow status', ['--session', '--format <stylish|json>']],
      [['confirm', '--help'], 'Usage: validate-workflow confirm <plan> --phase N', ['--phase']],
      [['new', '--help'], 'Usage: validate-workflow new plan', ['--session', '--plan', '--desc', '--out']],
      [['explain', '--help'], 'Usage: validate-workflow explain [rule-id]', []],
      [['claude-hook', '--help'], 'Usage: validate-workflow claude-hook', []],
      [['check', '--help'], 'Usage: validate-workflow [check]', ['--max-warnings', '--staged', '--range']],
      [['help', 'status'], 'Usage: validate-workflow status', []],
    ];
    for (const [args, head, flags] of cases) {
      const res = await runCliHere(dir, args);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout.startsWith(head), args.join(' ')).toBe(true);
      for (const flag of flags) expect(res.stdout, `${args.join(' ')} ${flag}`).toContain(flag);
    }
    // A command's help is its own: init's does not list check's options.
    expect((await runCliHere(dir, ['init', '--help'])).stdout).not.toContain('--max-warnings');
  });

  it('keeps --version global and the check command the default', async () => {
    const version = (await runCliHere(dir, ['--version'])).stdout;
    expect((await runCliHere(dir, ['status', '--version'])).stdout).toBe(version);
    expect((await runCliHere(dir, ['check', '--format', 'json'])).stdout).toBe(
      (await runCliHere(dir, ['--format', 'json'])).stdout,
    );
    expect(await runCliHere(dir, ['--format', 'json', 'commit-msg'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('commit-msg needs the message file'),
    });
  });
});
