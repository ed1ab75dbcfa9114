// The CLI as a user meets it: exit codes, output formats, options, configuration errors, discovery. The built CLI in
// a real process where the process is the point (the entry point's version, help and usage errors, the stylish report
// and its exit code, the reader's worker threads); the rest (a folder outside git included) through runCliHere, the same run()
// in this process, which gives the same streams and exit code without a node process per call.
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, runCli, runCliHere } from './helpers/repo.js';
import { CREATE_PLAN_COMMAND } from './rules/fixtures.js';

const PLAN_OK = `# Plan
## Phase 1: Schema
- [x] Task 1: Add users table
### Success Criteria:
#### Automated Verification:
- [x] Migration applies: \`npm run migrate\`
#### Manual Verification:
- [ ] Tables visible in the admin console
`;

/** A plan with one warning (no manual criteria) and nothing else. */
const PLAN_WARN = `# Plan
## Phase 1: Schema
- [ ] Task 1: Add users table
#### Automated Verification:
- [ ] Migration applies
`;

/** A plan with one error: a manual item checked before the automated one. */
const PLAN_ERROR = `# Plan
## Phase 1: Schema
- [ ] Task 1: Add users table
#### Automated Verification:
- [ ] Migration applies
#### Manual Verification:
- [x] Tables visible
`;

// The repository's create_plan asks for manual criteria: the warning is a departure from its own promise. Its config
// makes the state of PLAN_ERROR's boxes an error (recommended reports it as a note).
const plan = (text: string) => ({ ...CREATE_PLAN_COMMAND, ...ERRORS, 'thoughts/shared/plans/p.md': text });
const rules = (level: string) => JSON.stringify({ rules: { 'plan/manual-before-automated': level } });
const ERRORS = { 'validate-workflow.config.json': rules('error') };

describe('validate-workflow CLI', () => {
  it('prints its version and help with exit 0', () => {
    const dir = makeRepo({});
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(runCli(dir, ['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const help = runCli(dir, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: validate-workflow');
    expect(help.stdout).toContain('--max-warnings');
  });

  it('says so and exits 0 when there is no workflow file at all', async () => {
    const res = await runCliHere(makeRepo({ 'README.md': '# hi\n' }), []);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/no workflow files found \(looked for thoughts\/shared\/plans/);
  });

  it('exits 0 with a one-line summary on a clean repository', async () => {
    const res = await runCliHere(makeRepo(plan(PLAN_OK)), []);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('✔ no problems (1 workflow file checked)\n');
  });

  it('groups stylish output by file with line:col, severity, message and rule id, and exits 1 on errors', () => {
    const res = runCli(makeRepo(plan(PLAN_ERROR)), []);
    expect(res.code).toBe(1);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe('thoughts/shared/plans/p.md');
    expect(lines[1]).toMatch(
      /^ {2}7:1 {2}error {4}Manual item "Tables visible" is checked while 1 automated item of .* is not .* {2}plan\/manual-before-automated$/,
    );
    expect(res.stdout).toContain('✖ 1 problem (1 error, 0 warnings) in 1 workflow file checked');
  });

  it('writes the JSON object of the convention', async () => {
    const res = await runCliHere(makeRepo(plan(PLAN_ERROR)), ['--format', 'json']);
    expect(res.code).toBe(1);
    const out = JSON.parse(res.stdout);
    expect(Object.keys(out)).toEqual(['version', 'results', 'summary']);
    expect(out.version).toBe(1);
    expect(out.summary).toEqual({ errors: 1, warnings: 0, infos: 0, files: 1, commits: 0 });
    expect(out.results).toEqual([
      expect.objectContaining({
        ruleId: 'plan/manual-before-automated',
        severity: 'error',
        file: 'thoughts/shared/plans/p.md',
        line: 7,
        column: 1,
        fix: expect.any(String),
      }),
    ]);
  });

  it('passes warnings unless --max-warnings is exceeded; --quiet drops them', async () => {
    const dir = makeRepo(plan(PLAN_WARN));
    const res = await runCliHere(dir, []);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      "warning  Phase 1 (Schema) has no manual verification item (this repository's .claude/commands/create_plan.md (line 9) asks for `Manual Verification:`).",
    );
    expect((await runCliHere(dir, ['--max-warnings', '1'])).code).toBe(0);
    const over = await runCliHere(dir, ['--max-warnings', '0']);
    expect(over.code).toBe(1);
    expect(over.stdout).toContain('1 warning exceeds --max-warnings 0');
    const quiet = await runCliHere(dir, ['--quiet', '--format', 'json']);
    expect(JSON.parse(quiet.stdout).results).toEqual([]);
  });

  it('--preset strict turns recommended warnings into errors', async () => {
    const res = await runCliHere(makeRepo(plan(PLAN_WARN)), ['--preset', 'strict', '--format', 'json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).results[0]).toMatchObject({
      ruleId: 'plan/phase-manual-criteria',
      severity: 'error',
    });
  });

  it('treats bad options and bad configuration as usage errors (exit 2) without a stack trace', async () => {
    const dir = makeRepo(plan(PLAN_OK));
    // The first through the built CLI (its exit code and stderr as a shell sees them), the others in this process:
    // what makes each a usage error is run.ts's, which the entry point calls.
    for (const [i, args] of [
      ['--bogus'],
      ['--format', 'xml'],
      ['--preset', 'lax'],
      ['--max-warnings', 'many'],
      ['no/such/path'],
    ].entries()) {
      const res = i === 0 ? runCli(dir, args) : await runCliHere(dir, args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/^validate-workflow: /);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('names every bad config key at once, in readable paths, with what it most likely meant, and exits 2', async () => {
    // Issue 24: the pointer escapes (`/rules/plan~1mode`) are gone, the unknown rule id no longer waits for a second
    // run, and a near miss gets a "did you mean".
    const dir = makeRepo({
      ...plan(PLAN_OK),
      'validate-workflow.config.json': JSON.stringify({
        preset: 'recomended',
        rules: { 'plan/mode': 'loud', 'plan/nope': 'off' },
        'handoff/chain': 'warn',
        colour: true,
        pahts: {},
      }),
    });
    const res = await runCliHere(dir, []);
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')).toEqual([
      'validate-workflow: invalid configuration in validate-workflow.config.json:',
      '  - unknown key `"handoff/chain"`; did you mean `rules["handoff/chain"]`?',
      '  - unknown key `colour`',
      '  - unknown key `pahts`; did you mean `paths`?',
      '  - `preset` must be one of "recommended", "strict", not the string "recomended"; did you mean "recommended"?',
      '  - `rules["plan/mode"]` must be one of "off", "warn", "error", not the string "loud"',
      '  - `rules["plan/nope"]`: unknown rule id; did you mean "plan/mode"?',
      '',
    ]);
    const notJson = makeRepo({ ...plan(PLAN_OK), 'validate-workflow.config.json': '{ preset: ' });
    expect(await runCliHere(notJson, [])).toMatchObject({ code: 2, stderr: expect.stringContaining('not valid JSON') });
  });

  it('applies rule overrides from validate-workflow.config.json, --config, or package.json', async () => {
    // Without a config the state of PLAN_ERROR's boxes is a note (exit 0); each source can make it an error.
    const base = { ...CREATE_PLAN_COMMAND, 'thoughts/shared/plans/p.md': PLAN_ERROR };
    expect((await runCliHere(makeRepo(base), [])).code).toBe(0);
    expect((await runCliHere(makeRepo({ ...base, 'validate-workflow.config.json': rules('error') }), [])).code).toBe(1);
    expect(
      (await runCliHere(makeRepo({ ...base, 'cfg/vw.json': rules('error') }), ['--config', 'cfg/vw.json'])).code,
    ).toBe(1);
    const pkg = JSON.stringify({ name: 'x', validateWorkflow: JSON.parse(rules('error')) });
    expect((await runCliHere(makeRepo({ ...base, 'package.json': pkg }), [])).code).toBe(1);
    const res = await runCliHere(makeRepo({ ...base, 'validate-workflow.config.json': rules('warn') }), [
      '--format',
      'json',
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).results[0].severity).toBe('warning');
    const off = await runCliHere(makeRepo({ ...base, 'validate-workflow.config.json': rules('off') }), [
      '--format',
      'json',
    ]);
    expect(JSON.parse(off.stdout).results).toEqual([]);
  });

  it('narrows the report to the given paths but still reads the whole workspace', async () => {
    const dir = makeRepo({
      ...ERRORS,
      'thoughts/shared/plans/a.md': PLAN_ERROR,
      'thoughts/shared/plans/b.md': PLAN_OK,
    });
    expect((await runCliHere(dir, ['thoughts/shared/plans/b.md'])).code).toBe(0);
    const res = await runCliHere(dir, ['thoughts/shared/plans/a.md', '--format', 'json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).summary.files).toBe(1);
    // Relative to the working directory, like any command-line tool.
    expect((await runCliHere(join(dir, 'thoughts'), ['shared/plans/b.md'])).code).toBe(0);
  });

  it('skips files git ignores', async () => {
    const dir = makeRepo({
      ...plan(PLAN_OK),
      'thoughts/shared/plans/scratch.md': PLAN_ERROR,
      '.gitignore': 'scratch.md\n',
    });
    expect(await runCliHere(dir, ['--format', 'json'])).toMatchObject({ code: 0 });
  });

  it('reads thoughts/ through a symbolic link into a separate repository', async () => {
    const thoughts = makeRepo({
      'shared/plans/p.md': PLAN_ERROR,
      '.gitignore': 'shared/plans/ignored.md\n',
      'shared/plans/ignored.md': PLAN_ERROR,
    });
    const dir = makeRepo({ 'README.md': '# app\n', ...ERRORS });
    symlinkSync(thoughts, join(dir, 'thoughts'));
    const res = await runCliHere(dir, ['--format', 'json']);
    expect(res.code).toBe(1);
    const files = JSON.parse(res.stdout).results.map((r: { file: string }) => r.file);
    expect(files).toEqual(['thoughts/shared/plans/p.md']);
  });

  it('works outside a git repository', async () => {
    const dir = makeRepo({ ...plan(PLAN_ERROR), '.gitignore': 'thoughts/\n' });
    expect((await runCliHere(dir, [])).stdout).toContain('no workflow files found');
    rmSync(join(dir, '.git'), { recursive: true });
    // Without git there is no .gitignore to honour: the plan is read.
    const res = await runCliHere(dir, ['--format', 'json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).results[0].ruleId).toBe('plan/manual-before-automated');
    // ...and it says history was skipped (issue 24: it said nothing).
    expect(res.stderr).toBe(
      `validate-workflow: ${dir} is not in a git repository: history rules skipped, the files are judged as they are.\n`,
    );
  });

  it('reads a large workspace on several threads with the same findings as one thread', () => {
    const files: Record<string, string> = {};
    const n = 150;
    const tasks = Array.from({ length: n }, (_, i) => `- [x] Task ${i + 1}: Step ${i + 1}`).join('\n');
    files['thoughts/shared/plans/big.md'] =
      `---\nmode: orchestration\n---\n# Big\n## Phase 1: All\n${tasks}\n#### Automated Verification:\n- [x] npm test\n#### Manual Verification:\n- [ ] Looks right\n`;
    for (let i = 1; i <= n; i++) {
      // Task 77's handoff is missing its verification: the one error, wherever its file is read.
      const verification = i === 77 ? '[]' : '[{check: npm test, result: pass}]';
      files[`thoughts/handoffs/s/task-${String(i).padStart(2, '0')}-step-${i}.md`] =
        `---\nstatus: complete\ntask: ${i}\ntask_desc: Step ${i}\nplan: thoughts/shared/plans/big.md\nfiles_modified: [a.ts]\nverification_results: ${verification}\ncontext_for_next: none\n---\n# Step ${i}\n`;
    }
    const dir = makeRepo(files);
    const parallel = runCli(dir, ['--format', 'json'], { VALIDATE_WORKFLOW_JOBS: '2' });
    const single = runCli(dir, ['--format', 'json'], { VALIDATE_WORKFLOW_JOBS: '1' });
    expect(parallel.code).toBe(1);
    expect(parallel.stdout).toBe(single.stdout);
    const out = JSON.parse(parallel.stdout);
    expect(out.summary).toMatchObject({ errors: 1, files: n + 1 });
    expect(out.results[0]).toMatchObject({ ruleId: 'handoff/validated', line: 82 });
  });

  it('judges rule-pack files in a repository without commits (pack history starts empty)', async () => {
    const res = await runCliHere(makeRepo({ '.soong-agent/plans/Bad Name.md': '# plan\n' }), ['--format', 'json']);
    expect(res.stderr).not.toContain('internal error');
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).results.map((r: { ruleId: string }) => r.ruleId)).toContain('soong-plans/file-name');
  });

  it('judges pack history in a --range (what pre-push runs): an edited decisions.ndjson line names its commit', async () => {
    const path = '.workflow/.maestro/ralph-20260112-csv/decisions.ndjson';
    const line = (verdict: string) =>
      JSON.stringify({
        id: 'DEC-1',
        timestamp: '2026-01-12T16:06:50Z',
        source: 'ralph',
        node_id: 'post-verify',
        type: 'quality-gate',
        verdict,
        confidence_score: 88,
        close_call: false,
        summary: 'Checks pass.',
      });
    const dir = makeRepo({ [path]: `${line('proceed')}\n` }, { commit: true });
    writeFileSync(join(dir, path), `${line('fix')}\n`);
    git(dir, 'commit', '-qam', 'Rewrite a decision');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const res = await runCliHere(dir, ['--range', 'HEAD~1..HEAD', '--format', 'json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).results).toEqual([
      expect.objectContaining({ ruleId: 'ralph/decisions-appended', file: path, commit: head }),
    ]);
  });
});
