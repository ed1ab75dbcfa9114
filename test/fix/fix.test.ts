// --fix and --fix-dry-run through the CLI on real repositories: each fix gives a file its rule then accepts, a clean
// repository is left byte for byte, manual boxes are never touched, a dry run writes nothing, and what cannot be fixed
// safely is said and left. The command line runs in this process (runCliHere: the CLI's run(), its stdout, stderr and
// exit code); --fix is a flag of the full run, whose process cli.test.ts tests.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, readTree, runCliHere } from '../helpers/repo.js';
import { cliHere } from '../history/helpers.js';
import {
  HANDOFFS,
  LEDGER,
  PLAN,
  handoffChain,
  handoffPath,
  ledger,
  md,
  plan,
  taskHandoff,
  type Files,
} from '../rules/fixtures.js';
import { RULES } from '../../src/engine/catalog.js';
import { FIXERS } from '../../src/fix/index.js';
import { PLACEHOLDER } from '../../src/fix/criteria.js';

/**
 * The config states the promise of criteria in every phase (convention section 4b): the scaffold adds what is
 * missing per phase, where a learned promise would ask only a plan without any.
 */
const EVERY_PHASE = {
  'validate-workflow.config.json': JSON.stringify({ protocol: { automatedCriteria: true, manualCriteria: true } }),
};

const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const findings = async (dir: string, ruleId: string, args: string[] = []) =>
  (await cliHere(dir, args)).results.filter((f) => f.ruleId === ruleId);

/** Every file of the working tree, byte for byte (git's own folder, with the tool's cache, left out). */
function worktree(dir: string): Record<string, Uint8Array> {
  return Object.fromEntries(Object.entries(readTree(dir)).filter(([p]) => !p.startsWith('.git/')));
}

/** The files without those paths (a test that replaces a canonical file under another name). */
function without(files: Files, ...paths: string[]): Files {
  return Object.fromEntries(Object.entries(files).filter(([p]) => !paths.includes(p)));
}

/** A four-task plan with tasks 1-3 checked (phase 1 verified) and their handoffs: consistent but for what a test bends. */
function progressed(extra: Files = {}): Files {
  return { [PLAN]: plan({ checked: [1, 2, 3], verified: [1] }), ...handoffChain(3), ...extra };
}

describe('--fix: ledger/sync', () => {
  it('marks done what the plan checks and adds the checked task the ledger does not list; the rule then accepts the ledger', async () => {
    const dir = makeRepo(
      progressed({
        [LEDGER]: ledger({ state: ['- [x] Task 1: Do step 1', '- [→] Task 2: Do step 2', '- [ ] Task 4: Do step 4'] }),
      }),
    );
    expect((await findings(dir, 'ledger/sync')).map((f) => f.messageId ?? f.message)).toHaveLength(2);

    const res = await runCliHere(dir, ['--fix']);
    expect(res.stdout).toContain(`${LEDGER}: line 15: Task 2 marked done ([x])`);
    expect(res.stdout).toContain(`${LEDGER}: added "- [x] Task 3: Do step 3" to ## State`);
    expect(read(dir, LEDGER)).toBe(
      ledger({
        state: [
          '- [x] Task 1: Do step 1',
          '- [x] Task 2: Do step 2',
          '- [x] Task 3: Do step 3',
          '- [ ] Task 4: Do step 4',
        ],
      }),
    );
    expect(await findings(dir, 'ledger/sync')).toEqual([]);
  });

  it('leaves a task the ledger calls done and the plan does not to a human, and says so', async () => {
    const text = ledger({
      state: [
        '- [x] Task 1: Do step 1',
        '- [x] Task 2: Do step 2',
        '- [x] Task 3: Do step 3',
        '- [x] Task 4: Do step 4',
      ],
    });
    const dir = makeRepo(progressed({ [LEDGER]: text }));
    const res = await runCliHere(dir, ['--fix']);
    expect(res.stdout).toMatch(
      /CONTINUITY_CLAUDE-auth-1\.md: not fixed \(ledger\/sync\): line 17: Ledger marks Task 4 done but the plan has it unchecked.*needs a human/,
    );
    expect(read(dir, LEDGER)).toBe(text);
    expect(res.code).toBe(1);
  });
});

describe('--fix: handoff/path', () => {
  it('renames a handoff to task-NN-<kebab>.md, fixes a `task` key the plan contradicts, and follows the rename in `previous:`', async () => {
    const bad = `${HANDOFFS}/task-3-Do_Step_3.md`;
    const dir = makeRepo({
      ...without(progressed(), handoffPath(3)),
      [bad]: taskHandoff(3, { task_desc: 'Do step 3' }),
      // Task 4's file name is right; its key says 5, and the plan's Task 4 is the one with its text.
      [handoffPath(4, 'do-step-4')]: taskHandoff(4, {
        task: 5,
        task_desc: 'Do step 4',
        previous: 'task-3-Do_Step_3.md',
      }),
    });
    expect(await findings(dir, 'handoff/path')).toHaveLength(3);

    const res = await runCliHere(dir, ['--fix']);
    expect(res.stdout).toContain(`${bad}: renamed to task-03-do-step-3.md (handoff/path)`);
    expect(res.stdout).toContain(`${handoffPath(4, 'do-step-4')}: task: 5 -> 4 (handoff/path)`);
    expect(res.stdout).toContain(
      `${handoffPath(4, 'do-step-4')}: previous: task-3-Do_Step_3.md -> task-03-do-step-3.md, following the rename`,
    );
    expect(existsSync(join(dir, bad))).toBe(false);
    expect(read(dir, handoffPath(3, 'do-step-3'))).toBe(taskHandoff(3, { task_desc: 'Do step 3' }));
    expect(read(dir, handoffPath(4, 'do-step-4'))).toBe(
      taskHandoff(4, { task: 4, task_desc: 'Do step 4', previous: 'task-03-do-step-3.md' }),
    );
    expect(await findings(dir, 'handoff/path')).toEqual([]);
    expect(await findings(dir, 'handoff/chain')).toEqual([]);
    // A plain rename of the working file: nothing is staged.
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('');
  });

  it('does not rename onto a file that exists, nor a handoff that is committed, and says why', async () => {
    const name = `${HANDOFFS}/task-2-step-2.md`;
    const dir = makeRepo({ ...progressed(), [name]: taskHandoff(2) });
    const committed = makeRepo({ ...without(progressed(), handoffPath(2)), [name]: taskHandoff(2) }, { commit: true });
    const before = [worktree(dir), worktree(committed)];

    const res = await runCliHere(dir, ['--fix']);
    expect(res.stdout).toContain(`${name}: not fixed (handoff/path): task-02-step-2.md already exists: not renamed`);
    const res2 = await runCliHere(committed, ['--fix']);
    expect(res2.stdout).toContain(
      `${name}: not fixed (handoff/path): committed in HEAD: renaming a committed handoff is history/handoff-deleted`,
    );
    expect([worktree(dir), worktree(committed)]).toEqual(before);
    expect(await findings(dir, 'handoff/path')).toHaveLength(1);
  });
});

describe('--fix: handoff/path on a YAML handoff (issue 24)', () => {
  it('renames it to task-NN-<kebab>.yaml, keeping the extension, and fixes its `task` key', async () => {
    const bad = `${HANDOFFS}/task-3-Do_Step_3.yaml`;
    const yaml = (task: number) =>
      md(
        'status: complete',
        `task: ${task}`,
        'task_desc: Do step 3',
        `plan: ${PLAN}`,
        'files_modified: [src/step-3.ts]',
        'verification_results: [{check: npm test, result: pass}]',
        'context_for_next: none',
        `previous: ${handoffPath(2).slice(HANDOFFS.length + 1)}`,
      );
    const dir = makeRepo({ ...without(progressed(), handoffPath(3)), [bad]: yaml(5) });
    const res = await runCliHere(dir, ['--fix']);
    const fixed = `${HANDOFFS}/task-03-do-step-3.yaml`;
    expect(res.stdout).toContain(`${bad}: task: 5 -> 3 (handoff/path)`);
    expect(res.stdout).toContain(`${bad}: renamed to task-03-do-step-3.yaml (handoff/path)`);
    expect(existsSync(join(dir, bad))).toBe(false);
    expect(read(dir, fixed)).toBe(yaml(3));
    expect(await findings(dir, 'handoff/path')).toEqual([]);
  });
});

describe('--fix: handoff/chain', () => {
  it('adds the missing `previous:` after `plan:`, keeping the frontmatter as written; strict then accepts the chain', async () => {
    const second = md(
      '---',
      '# written by the agent',
      'status: complete',
      'task: 2',
      'task_total: 8',
      'task_desc: Step 2',
      `plan: ${PLAN}   # the auth plan`,
      'files_modified: [src/step-2.ts]',
      'verification_results:',
      '  - check: npm test',
      '    result: pass',
      'context_for_next: Step 2 is done.',
      'blocker: null',
      'decisions: []',
      'open_questions: []',
      '---',
      '# Task Handoff: Step 2',
    );
    const dir = makeRepo({
      [PLAN]: plan({ checked: [1, 2] }),
      [handoffPath(1)]: taskHandoff(1),
      [handoffPath(2)]: second,
    });
    expect(await findings(dir, 'handoff/chain', ['--preset', 'strict'])).toHaveLength(1);
    expect(await findings(dir, 'handoff/chain')).toEqual([]);

    const res = await runCliHere(dir, ['--fix', '--preset', 'strict']);
    expect(res.stdout).toContain(`${handoffPath(2)}: added previous: task-01-step-1.md (handoff/chain)`);
    expect(read(dir, handoffPath(2))).toBe(
      second.replace(`   # the auth plan\n`, `   # the auth plan\nprevious: task-01-step-1.md\n`),
    );
    expect(await findings(dir, 'handoff/chain', ['--preset', 'strict'])).toEqual([]);
  });
});

describe('--fix: fixes of one file together', () => {
  it('renames a handoff and adds its `previous:` in one run, with the report in JSON on stdout and the changes on stderr', async () => {
    const old = `${HANDOFFS}/task-2-step-2.md`;
    const dir = makeRepo({
      [PLAN]: plan({ checked: [1, 2, 3], verified: [1] }),
      [handoffPath(1)]: taskHandoff(1),
      [old]: taskHandoff(2, { previous: undefined }),
      [handoffPath(3)]: taskHandoff(3, { previous: 'task-2-step-2.md' }),
    });
    const res = await cliHere(dir, ['--fix', '--preset', 'strict']);
    expect(res.stderr).toContain(`${old}: renamed to task-02-step-2.md (handoff/path)\n`);
    expect(res.stderr).toContain(`${old}: added previous: task-01-step-1.md (handoff/chain)\n`);
    expect(res.stderr).toContain(
      `${handoffPath(3)}: previous: task-2-step-2.md -> task-02-step-2.md, following the rename (handoff/path)\n`,
    );
    expect(res.results.filter((f) => f.ruleId === 'handoff/path' || f.ruleId === 'handoff/chain')).toEqual([]);
    expect(read(dir, handoffPath(2))).toBe(taskHandoff(2));
    expect(read(dir, handoffPath(3))).toBe(taskHandoff(3));
  });
});

/** Phase 1 with one manual item checked and one not; phase 2 without any criteria. */
const UNFINISHED = md(
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
  '- [x] Tables visible in the admin console',
  '- [ ] Rows survive a restart',
  '',
  '## Phase 2: Endpoints',
  '',
  '- [ ] Task 2: Add login endpoint',
  '',
  '## Testing Strategy',
  '',
  'Run everything twice.',
);

describe('--fix-type scaffold: criteria headings', () => {
  it("adds both headings with placeholders only when asked, in the plan's style; the rules then accept the phase and the manual boxes stay as they were", async () => {
    const dir = makeRepo({ ...EVERY_PHASE, [PLAN]: UNFINISHED });
    const manualLines = UNFINISHED.split('\n').filter((l) => l.includes('admin console') || l.includes('restart'));

    await runCliHere(dir, ['--fix']);
    expect(read(dir, PLAN)).toBe(UNFINISHED);

    const res = await runCliHere(dir, ['--fix', '--fix-type', 'scaffold']);
    expect(res.stdout).toContain(
      `${PLAN}: added Automated Verification to Phase 2 (Endpoints) with a placeholder item to fill in (plan/phase-automated-criteria)`,
    );
    const after = read(dir, PLAN);
    expect(after).toBe(
      UNFINISHED.replace(
        '## Testing Strategy',
        [
          '#### Automated Verification:',
          '',
          `- [ ] ${PLACEHOLDER.automated}`,
          '',
          '#### Manual Verification:',
          '',
          `- [ ] ${PLACEHOLDER.manual}`,
          '',
          '## Testing Strategy',
        ].join('\n'),
      ),
    );
    expect(after.split('\n').filter((l) => l.includes('admin console') || l.includes('restart'))).toEqual(manualLines);
    expect(await findings(dir, 'plan/phase-automated-criteria')).toEqual([]);
    expect(await findings(dir, 'plan/phase-manual-criteria')).toEqual([]);
  });

  it("puts a missing automated heading before the phase's manual one", async () => {
    const text = UNFINISHED.replace(
      '#### Automated Verification:\n\n- [x] Migration applies: `npm run migrate`\n\n',
      '',
    );
    const dir = makeRepo({ ...EVERY_PHASE, [PLAN]: text });
    await runCliHere(dir, ['--fix', '--fix-type', 'scaffold']);
    const after = read(dir, PLAN);
    expect(after.indexOf('#### Automated Verification:')).toBeLessThan(after.indexOf('#### Manual Verification:'));
    expect(after.slice(0, after.indexOf('## Phase 2'))).toBe(
      text
        .slice(0, text.indexOf('## Phase 2'))
        .replace(
          '#### Manual Verification:',
          `#### Automated Verification:\n\n- [ ] ${PLACEHOLDER.automated}\n\n#### Manual Verification:`,
        ),
    );
  });
});

describe('--fix-type scaffold in the plan-agent dialect', () => {
  it('puts plan-level criteria beside the `### Task N:` headings, not under the last one', async () => {
    const text = md('# Plan', '', '### Task 1: Do A', '', '- [x] step a', '', '### Task 2: Do B', '', '- [ ] step b');
    const dir = makeRepo({ ...EVERY_PHASE, [PLAN]: text });
    await runCliHere(dir, ['--fix', '--fix-type', 'scaffold']);
    expect(read(dir, PLAN)).toBe(
      `${text}\n### Automated Verification:\n\n- [ ] ${PLACEHOLDER.automated}\n\n### Manual Verification:\n\n- [ ] ${PLACEHOLDER.manual}\n`,
    );
    expect(await findings(dir, 'plan/phase-automated-criteria')).toEqual([]);
    expect(await findings(dir, 'plan/phase-manual-criteria')).toEqual([]);
  });
});

describe('--fix on what needs no fix, and --fix-dry-run', () => {
  it('changes no byte of a clean repository', async () => {
    const dir = makeRepo(
      {
        ...progressed(),
        [LEDGER]: ledger({
          state: [
            '- [x] Task 1: Do step 1',
            '- [x] Task 2: Do step 2',
            '- [x] Task 3: Do step 3',
            '- [ ] Task 4: Do step 4',
          ],
        }),
      },
      { commit: true },
    );
    const before = worktree(dir);
    const res = await runCliHere(dir, ['--fix', '--fix-type', 'problem,scaffold']);
    expect(res.stdout).toContain('validate-workflow: made 0 fixes in 0 files.');
    expect(worktree(dir)).toEqual(before);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('prints a unified diff that git applies to give what --fix writes, and writes nothing', async () => {
    const clean: Files = {
      ...without(progressed(), handoffPath(3)),
      [`${HANDOFFS}/task-3-Step_3.md`]: taskHandoff(3),
      [LEDGER]: ledger({ state: ['- [x] Task 1: Do step 1', '- [→] Task 2: Do step 2', '- [x] Task 3: Do step 3'] }),
    };
    const dir = makeRepo(clean);
    const fixed = makeRepo(clean);
    const before = worktree(dir);

    const res = await runCliHere(dir, ['--fix-dry-run']);
    expect(worktree(dir)).toEqual(before);
    const lines = res.stdout.split('\n');
    const start = lines.findIndex((l) => l.startsWith('diff --git '));
    let end = start;
    while (end < lines.length && /^(diff --git |rename (from|to) |--- |\+\+\+ |@@ |[ +-])/.test(lines[end]!)) end++;
    const diff = `${lines.slice(start, end).join('\n')}\n`;
    expect(diff).toContain(`--- a/${LEDGER}\n+++ b/${LEDGER}\n`);
    expect(diff).toContain('\n-- [→] Task 2: Do step 2\n+- [x] Task 2: Do step 2\n');
    expect(diff).toContain(`rename from ${HANDOFFS}/task-3-Step_3.md\nrename to ${handoffPath(3)}\n`);
    expect(res.stdout).toContain('(dry run: nothing written)');

    await runCliHere(fixed, ['--fix']);
    writeFileSync(join(dir, 'fix.diff'), diff);
    git(dir, 'apply', 'fix.diff');
    const applied = worktree(dir);
    delete applied['fix.diff'];
    expect(applied).toEqual(worktree(fixed));
  });
});

describe('--fix options', () => {
  it.each([
    [['--fix', '--staged'], '--fix edits the working tree: it cannot be combined with --staged, --range or commit-msg'],
    [['--fix-dry-run', '--range', 'HEAD~1..HEAD'], '--fix-dry-run edits the working tree'],
    [['--fix', 'commit-msg', 'MSG'], '--fix edits the working tree'],
    [['--fix-type', 'scaffold'], '--fix-type needs --fix or --fix-dry-run'],
    [['--fix', '--fix-type', 'problem,layout'], '--fix-type must be one of problem, scaffold (got "layout")'],
    [['--fix', '--fix-dry-run'], '--fix and --fix-dry-run cannot be combined'],
  ])('%j is a usage error', async (args, message) => {
    const dir = makeRepo(progressed(), { commit: true });
    const res = await runCliHere(dir, args);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('fixes only findings in the paths given, as the report shows only those', async () => {
    const bad = `${HANDOFFS}/task-3-Step_3.md`;
    const dir = makeRepo({
      ...without(progressed(), handoffPath(3)),
      [bad]: taskHandoff(3),
      [LEDGER]: ledger({ state: ['- [x] Task 1: Do step 1', '- [→] Task 2: Do step 2', '- [x] Task 3: Do step 3'] }),
    });
    const res = await runCliHere(dir, ['--fix', 'thoughts/ledgers']);
    expect(res.stdout).toContain('validate-workflow: made 1 fix in 1 file.');
    expect(read(dir, LEDGER)).toContain('- [x] Task 2: Do step 2');
    expect(existsSync(join(dir, bad))).toBe(true);
  });

  it('has one fixer for every rule whose metadata says it is fixable, of the kind it says', async () => {
    const fixable = RULES.filter((r) => r.meta.fixable).map((r) => [r.meta.id, r.meta.fixable]);
    expect(FIXERS.map((f) => [f.ruleId, f.type]).sort()).toEqual(fixable.sort());
  });
});
