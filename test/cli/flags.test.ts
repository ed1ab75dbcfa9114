// The flags people expect of a linter (ESLint's, markdownlint-cli2's): --print-config, -o/--output-file,
// --color/--no-color with the FORCE_COLOR and NO_COLOR conventions, and "did you mean" for the new flags. Real
// repositories and the CLI in this process (runCliHere: the run() the built CLI calls); one colour test goes through
// the built CLI and a real pipe (stdout is never a terminal here, as in CI).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runCli, runCliHere } from '../helpers/repo.js';
import { wantsColor } from '../../src/cli/io.js';
import { RULES } from '../../src/engine/catalog.js';
import { CREATE_PLAN_COMMAND } from '../rules/fixtures.js';

const PLAN = 'thoughts/shared/plans/2026-11-20-auth.md';
/** Task 3 after Task 1: plan/task-numbering (an error); no verification items: two warnings. */
const BROKEN = '# Auth\n## Phase 1: Schema\n- [ ] Task 1: Add users table\n- [ ] Task 3: Add index\n';
/** Only the two warnings. */
const WARNED = '# Auth\n## Phase 1: Schema\n- [ ] Task 1: Add users table\n';

const ESC = '\u001b[';
/** The environment without either colour convention set (runCli sets NO_COLOR=1 unless told otherwise). */
const PLAIN = { NO_COLOR: undefined, FORCE_COLOR: undefined };

describe('--print-config [file]', () => {
  const config = { preset: 'strict', rules: { 'plan/mode': 'off', 'handoff/path': 'error' } };
  const dir = makeRepo({ 'validate-workflow.config.json': JSON.stringify(config), [PLAN]: BROKEN }, { commit: true });
  const printed = async (cwd: string, args: string[]) => {
    const res = await runCliHere(cwd, ['--print-config', ...args]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return JSON.parse(res.stdout) as Record<string, unknown> & { rules: Record<string, string> };
  };

  it("prints the file's kind and the config with every rule's severity resolved, and judges nothing", async () => {
    const out = await printed(dir, [PLAN]);
    expect(out.file).toBe(PLAN);
    expect(out.kind).toBe('plan');
    expect(out.source).toBe('validate-workflow.config.json');
    expect(out.preset).toBe('strict');
    // Every rule of the catalogue, the config's settings over the preset's.
    expect(Object.keys(out.rules).sort()).toEqual(RULES.map((r) => r.meta.id).sort());
    expect(out.rules['plan/mode']).toBe('off');
    expect(out.rules['handoff/path']).toBe('error');
    for (const r of RULES.filter((r) => !(r.meta.id in config.rules)))
      expect(out.rules[r.meta.id], r.meta.id).toBe(r.meta.severities.strict);
    expect(out.paths).toMatchObject({ plans: expect.arrayContaining(['thoughts/shared/plans/**/*.md']) });
  });

  it('resolves the path from the working folder, accepts a file not written yet, and --preset overrides the config', async () => {
    const sub = join(dir, 'thoughts', 'handoffs');
    mkdirSync(sub, { recursive: true });
    const out = await printed(sub, ['sess/task-01-new.md', '--preset', 'recommended']);
    expect(out.file).toBe('thoughts/handoffs/sess/task-01-new.md');
    expect(out.kind).toBe('handoff');
    expect(out.preset).toBe('recommended');
    const loose = RULES.find(
      (r) => r.meta.severities.recommended !== r.meta.severities.strict && !(r.meta.id in config.rules),
    )!;
    expect(out.rules[loose.meta.id]).toBe(loose.meta.severities.recommended);
  });

  it('without a file, prints the repository config; a file outside any workflow glob has no kind', async () => {
    expect(await printed(dir, [])).toMatchObject({ file: null, kind: null, preset: 'strict' });
    expect(await printed(dir, ['README.md'])).toMatchObject({ file: 'README.md', kind: null });
  });

  it('a repository without a config prints the defaults (source null)', async () => {
    const bare = makeRepo({ [PLAN]: BROKEN });
    expect(await printed(bare, [PLAN])).toMatchObject({ source: null, preset: 'recommended', kind: 'plan' });
  });

  it('a file outside the repository or a broken config is a usage error with a message, not a trace', async () => {
    const outside = await runCliHere(dir, ['--print-config', '/']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/^validate-workflow: \/ is outside the repository at .+\n/);
    const broken = makeRepo({ 'validate-workflow.config.json': '{ "preset": "lenient" }' });
    const bad = await runCliHere(broken, ['--print-config']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^validate-workflow: invalid configuration in validate-workflow.config.json:\n {2}- `preset` must be /,
    );
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('-o, --output-file <path>', () => {
  const dir = makeRepo({ [PLAN]: BROKEN }, { commit: true });

  it('writes the report to the file, creating its folders, and leaves stdout empty; the exit code is the same', async () => {
    const plain = await runCliHere(dir, ['--format', 'json']);
    for (const flag of ['-o', '--output-file']) {
      const file = `reports/${flag.length}/vw.json`;
      const res = await runCliHere(dir, ['--format', 'json', flag, file]);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      // It says where it wrote (issue 24: it printed nothing).
      expect(res.stderr).toBe(`validate-workflow: wrote the json report to ${join(dir, file)}\n`);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(plain.stdout);
    }
  });

  it('a file gets no colours, even when stdout would, unless asked for', async () => {
    const res = await runCliHere(dir, ['-o', 'out.txt'], PLAIN);
    expect(res.stdout).toBe('');
    const text = readFileSync(join(dir, 'out.txt'), 'utf8');
    expect(text).toContain('plan/task-numbering');
    expect(text).not.toContain(ESC);
    await runCliHere(dir, ['-o', 'forced.txt', '--color'], PLAIN);
    expect(readFileSync(join(dir, 'forced.txt'), 'utf8')).toContain(`${ESC}31merror`);
    await runCliHere(dir, ['-o', 'env.txt'], { ...PLAIN, FORCE_COLOR: '1' });
    expect(readFileSync(join(dir, 'env.txt'), 'utf8')).toContain(ESC);
  });

  it('notes stay on the terminal: too many warnings, nothing to judge', async () => {
    // The repository's create_plan asks for both kinds of criteria: the plan without any gets one warning (one
    // cause, one finding: round 3 reports "no criteria at all" once, not per kind).
    const warned = makeRepo({ ...CREATE_PLAN_COMMAND, [PLAN]: WARNED });
    const res = await runCliHere(warned, ['--max-warnings', '0', '-o', 'out.txt']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('validate-workflow: 1 warning exceeds --max-warnings 0.\n');
    expect(readFileSync(join(warned, 'out.txt'), 'utf8')).toMatch(/1 problem \(0 errors, 1 warning\)/);

    const empty = makeRepo({ 'README.md': '# nothing here\n' });
    const none = await runCliHere(empty, ['-o', 'out.txt']);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^validate-workflow: no workflow files found/);
    expect(readFileSync(join(empty, 'out.txt'), 'utf8')).toBe(none.stdout);
    const json = await runCliHere(empty, ['--format', 'json', '-o', 'out.json']);
    expect(json.stdout).toBe('');
    expect(json.stderr).toMatch(/^validate-workflow: no workflow files found/);
    expect(JSON.parse(readFileSync(join(empty, 'out.json'), 'utf8'))).toMatchObject({ version: 1, results: [] });
  });

  it('a path that cannot be written is a usage error that says why', async () => {
    const res = await runCliHere(dir, ['-o', 'thoughts']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^validate-workflow: cannot write --output-file thoughts: EISDIR/);
    expect(res.stdout).toBe('');
    expect(existsSync(join(dir, 'thoughts', 'shared'))).toBe(true);
  });
});

describe('--color, --no-color, FORCE_COLOR, NO_COLOR', () => {
  const dir = makeRepo({ [PLAN]: BROKEN }, { commit: true });
  /** Through the built CLI's real pipe; coloredHere through the same run() in this process. */
  const colored = (args: string[], env: NodeJS.ProcessEnv) =>
    runCli(dir, args, { ...PLAIN, ...env }).stdout.includes(ESC);
  const coloredHere = async (args: string[], env: NodeJS.ProcessEnv) =>
    (await runCliHere(dir, args, { ...PLAIN, ...env })).stdout.includes(ESC);

  it('a pipe gets no colours by default; the flag and FORCE_COLOR turn them on, FORCE_COLOR=0 and NO_COLOR off', async () => {
    // What the process reads, its pipe and its environment, through the built CLI; the rest is the same decision
    // (main.ts gives wantsColor the pipe's answer), taken in this process with a pipe's.
    expect(colored([], {})).toBe(false);
    expect(colored([], { FORCE_COLOR: '1' })).toBe(true);
    expect(await coloredHere(['--color'], {})).toBe(true);
    expect(await coloredHere([], { FORCE_COLOR: '' })).toBe(true);
    expect(await coloredHere([], { FORCE_COLOR: '0' })).toBe(false);
    expect(await coloredHere([], { FORCE_COLOR: 'false' })).toBe(false);
    expect(await coloredHere([], { NO_COLOR: '1' })).toBe(false);
  });

  it('the flag beats the environment', async () => {
    expect(await coloredHere(['--color'], { NO_COLOR: '1' })).toBe(true);
    expect(await coloredHere(['--color'], { FORCE_COLOR: '0' })).toBe(true);
    expect(await coloredHere(['--no-color'], { FORCE_COLOR: '1' })).toBe(false);
    // The flag only paints: the text is the same.
    const strip = (t: string) => t.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    expect(strip((await runCliHere(dir, ['--color'])).stdout)).toBe((await runCliHere(dir, [])).stdout);
  });

  it('both flags at once is a usage error', async () => {
    const res = await runCliHere(dir, ['--color', '--no-color']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'validate-workflow: --color and --no-color cannot be combined\nRun validate-workflow --help for usage.\n',
    );
  });

  it('on a terminal: colours unless NO_COLOR (set and not empty) or FORCE_COLOR=0; FORCE_COLOR beats NO_COLOR', () => {
    expect(wantsColor({ env: {}, tty: true })).toBe(true);
    expect(wantsColor({ env: { NO_COLOR: '1' }, tty: true })).toBe(false);
    expect(wantsColor({ env: { NO_COLOR: '' }, tty: true })).toBe(true);
    expect(wantsColor({ env: { FORCE_COLOR: '0' }, tty: true })).toBe(false);
    expect(wantsColor({ env: { FORCE_COLOR: '1', NO_COLOR: '1' }, tty: false })).toBe(true);
    expect(wantsColor({ flag: false, env: { FORCE_COLOR: '1' }, tty: true })).toBe(false);
  });
});

describe('did you mean, for the new flags', () => {
  const dir = makeRepo({ [PLAN]: BROKEN }, { commit: true });
  const usage = async (args: string[]) => {
    const res = await runCliHere(dir, args);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    return res.stderr.split('\n')[0];
  };

  it('names the close flag of the check command', async () => {
    expect(await usage(['--print-confg'])).toBe(
      'validate-workflow: unknown option --print-confg; did you mean --print-config?',
    );
    expect(await usage(['--output', 'x.txt'])).toBe(
      'validate-workflow: unknown option --output; did you mean --output-file?',
    );
    expect(await usage(['--colour'])).toBe('validate-workflow: unknown option --colour; did you mean --color?');
    expect(await usage(['--no-colr'])).toBe('validate-workflow: unknown option --no-colr; did you mean --no-color?');
  });

  it('says when a flag belongs to check, not to the command typed, and suggests the command for a mistyped word', async () => {
    expect(await usage(['status', '--print-config'])).toBe(
      'validate-workflow: --print-config is an option of "check", not of "status"',
    );
    expect(await usage(['explain', '-o', 'x'])).toMatch(/^validate-workflow: unknown option -o/);
    expect(await usage(['chekc', '--color'])).toBe('validate-workflow: unknown command "chekc"; did you mean "check"?');
  });

  it('--help lists the new flags', async () => {
    const help = (await runCliHere(dir, ['--help'])).stdout;
    for (const flag of ['--print-config [file]', '-o, --output-file <path>', '--color, --no-color'])
      expect(help).toContain(flag);
  });
});
