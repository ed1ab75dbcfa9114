#!/usr/bin/env node
// Canaries: one planted violation per history rule and per bypass the security review found, each in a real
// repository built in a temporary folder and judged by the BUILT CLI (dist/), the way CI and the hooks run it. Every
// canary must be refused (exit 1, its rule id in the output). `.ci/run` runs this after the test suite; a canary that
// passes means a gate opened.
//
// Usage: node test/canaries/run.mjs            (prints one line per canary, exits 1 when any got through)
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));
// Every canary's repositories in one folder, removed at the end (each used to leave its own behind).
const ROOT = mkdtempSync(join(tmpdir(), 'vw-canaries-'));
const PLAN = 'thoughts/shared/plans/2026-11-20-billing-export.md';
const LEDGER = 'thoughts/ledgers/CONTINUITY_CLAUDE-billing-1.md';
const HANDOFFS = 'thoughts/handoffs/billing-1';
const CONFIG = 'validate-workflow.config.json';
const ANA = { name: 'Ana Human', email: 'ana@example.com' };
const CLAUDE = { name: 'Claude', email: 'noreply@anthropic.com' };
const TASKS = ['Add the invoices query', 'Stream rows as CSV', 'Add the export button', 'Document the export'];

function plan({
  tasks = [],
  auto = [],
  manual = [],
  mode = 'orchestration',
  tail = '',
  manualHeading = '#### Manual Verification:',
  manualText = 'A finance user downloads a month of invoices',
} = {}) {
  const box = (on) => (on ? '[x]' : '[ ]');
  const lines = ['---', `mode: ${mode}`, '---', '# Billing export Implementation Plan', ''];
  for (const phase of [1, 2]) {
    lines.push(`## Phase ${phase}: ${phase === 1 ? 'Data' : 'Interface'}`, '');
    for (const n of phase === 1 ? [1, 2] : [3, 4]) lines.push(`- ${box(tasks.includes(n))} Task ${n}: ${TASKS[n - 1]}`);
    lines.push(
      '',
      '### Success Criteria:',
      '',
      '#### Automated Verification:',
      '',
      `- ${box(auto.includes(phase))} Export tests pass: \`npm test -- export\``,
      '',
    );
    lines.push(
      manualHeading,
      '',
      `- ${box(manual.includes(phase))} ${phase === 1 ? manualText : 'A finance user downloads a month of invoices'}`,
      '',
    );
  }
  if (tail) lines.push(tail, '');
  return lines.join('\n');
}

function ledger(done = [], doing = null) {
  const state = [1, 2, 3, 4].map(
    (n) => `- [${done.includes(n) ? 'x' : doing === n ? '→' : ' '}] Task ${n}: ${TASKS[n - 1]}`,
  );
  return [
    '---',
    'session: billing-1',
    `plan: ${PLAN}`,
    'status: active',
    '---',
    '# Session: billing-1',
    '',
    '## Goal',
    '',
    'Ship the billing export.',
    '',
    '## State',
    '',
    ...state,
    '',
  ].join('\n');
}

function handoff(n, { status = 'complete', desc = TASKS[n - 1] } = {}) {
  const prev = n > 1 ? `previous: task-0${n - 1}-step.md\n` : '';
  return `---\nstatus: ${status}\ntask: ${n}\ntask_total: 4\ntask_desc: ${desc}\nplan: ${PLAN}\n${prev}files_modified: [src/export/step-${n}.ts]\nverification_results:\n  - check: npm test -- export\n    result: pass\ncontext_for_next: Step ${n} is in place.\nblocker: ${status === 'blocked' ? 'Which currency column?' : 'null'}\ndecisions: []\nopen_questions: []\n---\n# Task Handoff: ${desc}\n`;
}
const handoffPath = (n) => `${HANDOFFS}/task-0${n}-step.md`;

class Repo {
  constructor() {
    this.dir = mkdtempSync(join(ROOT, 'canary-'));
    this.clock = 1_800_000_000;
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'commit.gpgsign', 'false');
  }
  git(...args) {
    return this.gitEnv({}, ...args);
  }
  gitEnv(env, ...args) {
    const res = spawnSync('git', args, { cwd: this.dir, encoding: 'utf8', env: { ...process.env, ...env } });
    if (res.status !== 0) throw new Error(`git ${args.join(' ')}: ${res.stderr}`);
    return res.stdout.trim();
  }
  env(who = ANA) {
    const date = `${++this.clock} +0000`;
    return {
      GIT_AUTHOR_NAME: who.name,
      GIT_AUTHOR_EMAIL: who.email,
      GIT_COMMITTER_NAME: who.name,
      GIT_COMMITTER_EMAIL: who.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    };
  }
  write(files) {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), text);
    }
  }
  commit(subject, files = {}, who = ANA, { remove = [], trailers = [] } = {}) {
    this.write(files);
    for (const p of remove) this.git('rm', '-q', p);
    this.git('add', '-A');
    const message = trailers.length ? `${subject}\n\n${trailers.join('\n')}\n` : `${subject}\n`;
    this.gitEnv(this.env(who), 'commit', '-q', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }
  cli(args, env = {}) {
    return spawnSync(process.execPath, [CLI, ...args], {
      cwd: this.dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
  }
}

/** A project that adopted the convention, planned, and did task 1 by the book. */
function project({ config = { preset: 'recommended' } } = {}) {
  const repo = new Repo();
  repo.commit('Adopt validate-workflow', {
    [CONFIG]: `${JSON.stringify(config, null, 2)}\n`,
    '.gitignore': 'node_modules/\n',
  });
  repo.commit('Plan the billing export', { [PLAN]: plan(), [LEDGER]: ledger() });
  repo.commit('Task 1: add the invoices query', taskDone([1]), ANA, {
    trailers: [`Co-authored-by: ${CLAUDE.name} <${CLAUDE.email}>`],
  });
  return repo;
}
const agent = { trailers: [`Co-authored-by: ${CLAUDE.name} <${CLAUDE.email}>`] };

/**
 * What a task's commit writes: the plan with `tasks` checked (and `more` of plan()'s options), the handoff of the last
 * of them, and the ledger.
 */
function taskDone(tasks, more = {}) {
  const n = tasks[tasks.length - 1];
  return { [PLAN]: plan({ tasks, ...more }), [handoffPath(n)]: handoff(n), [LEDGER]: ledger(tasks) };
}

const CANARIES = [
  [
    'history/manual-confirmation',
    'an agent checks a manual item',
    () => {
      const r = project();
      r.commit('Phase 1 done', taskDone([1, 2], { auto: [1], manual: [1] }), CLAUDE);
      return r.cli([]);
    },
  ],
  [
    'history/self-exemption',
    'an agent adds a disable comment',
    () => {
      const r = project();
      r.commit(
        'Quiet the linter',
        { [PLAN]: plan({ tasks: [1], tail: '<!-- validate-workflow-disable plan/phase-order -- later -->' }) },
        CLAUDE,
      );
      return r.cli([]);
    },
  ],
  [
    'history/handoff-deleted',
    'a committed handoff is deleted',
    () => {
      const r = project();
      r.commit('Tidy up', {}, CLAUDE, { remove: [handoffPath(1)] });
      return r.cli([]);
    },
  ],
  [
    'history/handoff-rewritten',
    'a committed handoff status is rewritten (strict)',
    () => {
      const r = project({ config: { preset: 'strict' } });
      r.commit('Handoff 1 was partial', { [handoffPath(1)]: handoff(1, { status: 'partial' }) }, CLAUDE);
      return r.cli([]);
    },
  ],
  [
    'history/task-order',
    'task 3 is done before task 2',
    () => {
      const r = project();
      r.commit('Task 3', taskDone([1, 3]), ANA, agent);
      return r.cli([]);
    },
  ],
  [
    'history/batched-tasks',
    'two tasks in one commit (strict)',
    () => {
      const r = project({ config: { preset: 'strict' } });
      r.commit(
        'Tasks 2 and 3',
        {
          [PLAN]: plan({ tasks: [1, 2, 3], auto: [1] }),
          [handoffPath(2)]: handoff(2),
          [handoffPath(3)]: handoff(3),
          [LEDGER]: ledger([1, 2, 3]),
        },
        ANA,
        agent,
      );
      return r.cli([]);
    },
  ],
  [
    'history/self-exemption',
    'an agent starts phase 2 early and adds a second Phase 1 heading, which makes the plan unstructured',
    () => {
      const r = project();
      r.commit('Task 2', taskDone([1, 2]), ANA, agent);
      // The order rules skip a plan read as unstructured: the heading, added with phase 2's first check-off, would
      // silence history/phase-order.
      r.commit('Task 3', taskDone([1, 2, 3], { tail: '## Phase 1: Notes\n\nNone yet.' }), ANA, agent);
      return r.cli([]);
    },
  ],
  [
    'history/phase-order',
    'phase 2 starts before phase 1 is verified',
    () => {
      const r = project();
      r.commit('Task 2', taskDone([1, 2]), ANA, agent);
      r.commit('Task 3', taskDone([1, 2, 3]), ANA, agent);
      // Phase 1 verified afterwards: the plan shows no order problem now (plan/phase-order is silent), history does.
      r.commit('Phase 1 automated', { [PLAN]: plan({ tasks: [1, 2, 3], auto: [1] }) }, ANA, agent);
      return r.cli([]);
    },
  ],
  [
    'history/incomplete',
    'a shallow clone',
    () => {
      const r = project();
      const clone = mkdtempSync(join(ROOT, 'shallow-'));
      spawnSync('git', ['clone', '-q', '--depth', '1', `file://${r.dir}`, clone]);
      return spawnSync(process.execPath, [CLI], {
        cwd: clone,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    },
  ],
  [
    'history/handoff-deleted',
    'bypass 3: an evil merge deletes a handoff a side branch never had',
    () => {
      const r = project();
      const fork = r.git('rev-parse', 'HEAD~2');
      r.git('checkout', '-q', '-b', 'side', fork);
      r.commit('Side work', { 'notes.txt': 'side\n' }, CLAUDE);
      r.git('checkout', '-q', 'main');
      r.gitEnv(r.env(CLAUDE), 'merge', '-q', '--no-commit', 'side');
      r.git('rm', '-q', handoffPath(1));
      r.gitEnv(r.env(CLAUDE), 'commit', '-q', '--no-verify', '-m', 'Merge side');
      return r.cli([]);
    },
  ],
  [
    'history/self-exemption',
    'bypass 6: an agent flips the plan to direct mode',
    () => {
      const r = project();
      r.commit('Simpler', { [PLAN]: plan({ tasks: [1], mode: 'direct' }) }, CLAUDE);
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'bypass 11: git replace hides the violating commit',
    () => {
      const r = project();
      const clean = r.git('rev-parse', 'HEAD');
      const bad = r.commit('Phase 1 done', taskDone([1, 2], { auto: [1], manual: [1] }), CLAUDE);
      const tree = r.git('rev-parse', `${bad}^{tree}`);
      const fake = r.gitEnv(
        r.env(ANA),
        'commit-tree',
        tree,
        '-p',
        clean,
        '-m',
        'Phase 1 done\n\nConfirmed-by: Ana Human <ana@example.com>',
      );
      r.git('replace', bad, fake);
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'bypass 11: a baseline entry only in the working tree, at pre-commit',
    () => {
      const r = project();
      r.write({
        [PLAN]: plan({ tasks: [1], manual: [1] }),
        'validate-workflow.baseline.json': JSON.stringify({
          [PLAN]: { 'history/manual-confirmation': { count: 5 }, 'plan/manual-before-automated': { count: 5 } },
        }),
      });
      r.git('add', PLAN);
      return r.cli(['commit-msg', writeMessage(r, 'Check it')], r.env(CLAUDE));
    },
  ],
  [
    'history/manual-confirmation',
    'bypass 11: a config narrowed in the working tree, at commit-msg',
    () => {
      const r = project();
      r.write({
        [CONFIG]: JSON.stringify({ paths: { plans: ['elsewhere/**/*.md'] } }),
        [PLAN]: plan({ tasks: [1], auto: [1], manual: [1] }),
      });
      r.git('add', PLAN);
      return r.cli(['commit-msg', writeMessage(r, 'Check it')], r.env(CLAUDE));
    },
  ],
  [
    'history/manual-confirmation',
    'bypass 11: VALIDATE_WORKFLOW_BIN=true through the shipped commit-msg hook',
    () => {
      const r = project();
      const hook = join(r.dir, '.git', 'hooks', 'commit-msg');
      writeFileSync(
        hook,
        `#!/bin/sh\nexec sh "${fileURLToPath(new URL('../../hooks/commit-msg', import.meta.url))}" "$@"\n`,
      );
      chmodSync(hook, 0o755);
      r.write({ [PLAN]: plan({ tasks: [1], auto: [1], manual: [1] }) });
      r.git('add', PLAN);
      return spawnSync('git', ['commit', '-q', '-m', 'Check it'], {
        cwd: r.dir,
        encoding: 'utf8',
        env: { ...process.env, ...r.env(CLAUDE), VALIDATE_WORKFLOW_BIN: 'true' },
      });
    },
  ],
  [
    'history/manual-confirmation',
    'bypass 11: VALIDATE_WORKFLOW_CONFIG naming a narrowed config, through the shipped commit-msg hook',
    () => {
      const r = project();
      const hook = join(r.dir, '.git', 'hooks', 'commit-msg');
      writeFileSync(
        hook,
        `#!/bin/sh\nexec sh "${fileURLToPath(new URL('../../hooks/commit-msg', import.meta.url))}" "$@"\n`,
      );
      chmodSync(hook, 0o755);
      const loose = join(r.dir, '.git', 'loose.json');
      writeFileSync(loose, JSON.stringify({ paths: { plans: ['elsewhere/**/*.md'] } }));
      r.write({ [PLAN]: plan({ tasks: [1], auto: [1], manual: [1] }) });
      r.git('add', PLAN);
      return spawnSync('git', ['commit', '-q', '-m', 'Check it'], {
        cwd: r.dir,
        encoding: 'utf8',
        env: { ...process.env, ...r.env(CLAUDE), VALIDATE_WORKFLOW_CONFIG: loose },
      });
    },
  ],
  [
    'history/manual-confirmation',
    "bypass 11: a new branch's push with the remote-tracking ref moved past the violation, through the shipped pre-push hook",
    () => {
      const r = project();
      const remote = mkdtempSync(join(ROOT, 'remote-'));
      spawnSync('git', ['init', '-q', '--bare', remote]);
      r.git('remote', 'add', 'origin', remote);
      r.git('push', '-q', 'origin', 'HEAD:refs/heads/main');
      r.commit('Phase 1 done', taskDone([1, 2], { auto: [1], manual: [1] }), CLAUDE);
      r.commit('Notes', { 'NOTES.md': 'Nothing to see.\n' }, CLAUDE);
      r.git('update-ref', 'refs/remotes/origin/main', 'HEAD~1');
      const hook = join(r.dir, '.git', 'hooks', 'pre-push');
      writeFileSync(
        hook,
        `#!/bin/sh\nexec sh "${fileURLToPath(new URL('../../hooks/pre-push', import.meta.url))}" "$@"\n`,
      );
      chmodSync(hook, 0o755);
      return spawnSync('git', ['push', 'origin', 'HEAD:refs/heads/feature'], {
        cwd: r.dir,
        encoding: 'utf8',
        env: { ...process.env, ...r.env(CLAUDE) },
      });
    },
  ],
  [
    'history/self-exemption',
    'an agent adds its key to an allowed-signers file kept at a path of its own',
    () => {
      const r = project({
        config: { preset: 'recommended', requireSignedConfirmations: true, allowedSigners: 'keys/signers' },
      });
      r.commit('Signers', {
        'keys/signers': 'ana@example.com namespaces="git" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAna\n',
      });
      r.commit(
        'Add my key',
        {
          'keys/signers':
            'ana@example.com namespaces="git" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAna\nagent@example.com namespaces="git" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAgent\n',
        },
        CLAUDE,
      );
      return r.cli([]);
    },
  ],
  [
    'handoff/blocked-proceed',
    "an agent's own Guidance-by does not unblock",
    () => {
      const r = project();
      r.commit(
        'Task 2 blocked',
        { [handoffPath(2)]: handoff(2, { status: 'blocked' }), [LEDGER]: ledger([1], 2) },
        ANA,
        agent,
      );
      r.commit('Decided', {}, CLAUDE, { trailers: [`Guidance-by: ${CLAUDE.name} <${CLAUDE.email}>`] });
      r.commit('Task 3', { [handoffPath(3)]: handoff(3) }, ANA, agent);
      return r.cli([]);
    },
  ],
  [
    'history/self-exemption',
    'bypass 10: an agent appends the resolution of its own blocked handoff',
    () => {
      const r = project();
      r.commit(
        'Task 2 blocked',
        { [handoffPath(2)]: handoff(2, { status: 'blocked' }), [LEDGER]: ledger([1], 2) },
        ANA,
        agent,
      );
      r.commit(
        'The user said to go on',
        { [handoffPath(2)]: `${handoff(2, { status: 'blocked' })}\n## Resolution\n\nGo on with task 3.\n` },
        ANA,
        agent,
      );
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'bypass 7: a plan one folder up, out of the globs, that the ledger names',
    () => {
      const r = project();
      const outOfSight = 'plans/billing-export.md';
      r.commit(
        'Move the plan',
        { [outOfSight]: plan({ tasks: [1] }), [LEDGER]: ledger([1]).replace(`plan: ${PLAN}`, `plan: ${outOfSight}`) },
        ANA,
        { remove: [PLAN] },
      );
      r.commit(
        'Phase 1 done',
        { [outOfSight]: plan({ tasks: [1, 2], auto: [1], manual: [1] }), [handoffPath(2)]: handoff(2) },
        CLAUDE,
      );
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'bypass 7: a plan committed as a symbolic link, checked in its target',
    () => {
      const r = project();
      const target = 'docs/billing-export-plan.md';
      r.write({ [target]: plan({ tasks: [1] }) });
      r.git('rm', '-q', PLAN);
      mkdirSync(dirname(join(r.dir, PLAN)), { recursive: true });
      symlinkSync(relative(dirname(join(r.dir, PLAN)), join(r.dir, target)), join(r.dir, PLAN));
      r.commit('Keep the plan with the docs', {}, ANA);
      r.commit(
        'Phase 1 done',
        { [target]: plan({ tasks: [1, 2], auto: [1], manual: [1] }), [handoffPath(2)]: handoff(2) },
        CLAUDE,
      );
      return r.cli([]);
    },
  ],
  [
    'handoff/one-per-task',
    'bypass 8: a failed task redone in a copied session folder',
    () => {
      const r = project();
      r.commit(
        'Task 2 failed',
        { [handoffPath(2)]: handoff(2, { status: 'failed' }), [LEDGER]: ledger([1], 2) },
        ANA,
        agent,
      );
      const copy = (n) => handoffPath(n).replace('billing-1', 'billing-2');
      r.commit(
        'Task 2',
        { [PLAN]: plan({ tasks: [1, 2] }), [copy(1)]: handoff(1), [copy(2)]: handoff(2), [LEDGER]: ledger([1, 2]) },
        ANA,
        agent,
      );
      return r.cli([]);
    },
  ],
  [
    'history/task-order',
    'bypass 9: a task checked before its handoff is committed',
    () => {
      const r = project();
      r.commit('Task 2', { [PLAN]: plan({ tasks: [1, 2] }), [LEDGER]: ledger([1, 2]) }, ANA, agent);
      r.commit('Handoff of task 2', { [handoffPath(2)]: handoff(2) }, ANA, agent);
      return r.cli([]);
    },
  ],
  // Round 3 (issue 20): the gate, door by door.
  [
    'history/manual-confirmation',
    'case 1: an orphan branch with the manual item checked, merged with -X theirs',
    () => {
      const r = project();
      r.git('checkout', '-q', '--orphan', 'elsewhere');
      r.git('rm', '-rq', '--cached', '.');
      r.commit('Start over', { [PLAN]: plan({ tasks: [1, 2], auto: [1], manual: [1] }) }, ANA, agent);
      r.git('checkout', '-q', '-f', 'main');
      r.gitEnv(
        r.env(ANA),
        'merge',
        '-q',
        '--no-edit',
        '--allow-unrelated-histories',
        '-X',
        'theirs',
        '-m',
        `Merge elsewhere\n\nCo-authored-by: ${CLAUDE.name} <${CLAUDE.email}>`,
        'elsewhere',
      );
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'case 2: an agent rewords the manual item a human confirmed',
    () => {
      const r = project();
      r.commit('Task 2', taskDone([1, 2], { auto: [1] }), ANA, agent);
      r.commit('Confirm phase 1', { [PLAN]: plan({ tasks: [1, 2], auto: [1], manual: [1] }) }, ANA, {
        trailers: [`Confirmed-by: ${ANA.name} <${ANA.email}>`],
      });
      r.commit(
        'Clarify',
        {
          [PLAN]: plan({
            tasks: [1, 2],
            auto: [1],
            manual: [1],
            manualText: 'The CSV totals match the ledger to the cent',
          }),
        },
        CLAUDE,
      );
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'case 3: manual items under `#### Human Verification:` checked by an agent',
    () => {
      const r = project();
      r.commit('Plan', { [PLAN]: plan({ tasks: [1], manualHeading: '#### Human Verification:' }) });
      r.commit(
        'Phase 1 done',
        taskDone([1, 2], { auto: [1], manual: [1], manualHeading: '#### Human Verification:' }),
        CLAUDE,
      );
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'case 3: manual items under `#### Manual steps:` checked by an agent',
    () => {
      const r = project();
      r.commit('Plan', { [PLAN]: plan({ tasks: [1], manualHeading: '#### Manual steps:' }) });
      r.commit(
        'Phase 1 done',
        taskDone([1, 2], { auto: [1], manual: [1], manualHeading: '#### Manual steps:' }),
        CLAUDE,
      );
      return r.cli([]);
    },
  ],
  [
    'history/manual-confirmation',
    'case 4: an agent amends a manual item into a hand-made confirmation the commit-msg hook sealed',
    () => {
      const r = project();
      r.commit('Task 2', taskDone([1, 2], { auto: [1] }), ANA, agent);
      const hook = join(r.dir, '.git', 'hooks', 'commit-msg');
      writeFileSync(
        hook,
        `#!/bin/sh\nexec sh "${fileURLToPath(new URL('../../hooks/commit-msg', import.meta.url))}" "$@"\n`,
      );
      chmodSync(hook, 0o755);
      r.write({ [PLAN]: plan({ tasks: [1, 2], auto: [1], manual: [1] }) });
      r.git('add', PLAN);
      r.gitEnv(r.env(ANA), 'commit', '-q', '-m', `Checked the export\n\nConfirmed-by: ${ANA.name} <${ANA.email}>`);
      r.write({ [PLAN]: plan({ tasks: [1, 2], auto: [1], manual: [1, 2] }) });
      r.git('add', PLAN);
      r.gitEnv(
        { ...r.env(ANA), GIT_COMMITTER_NAME: CLAUDE.name, GIT_COMMITTER_EMAIL: CLAUDE.email },
        'commit',
        '-q',
        '--amend',
        '--no-edit',
        '--no-verify',
      );
      return r.cli([]);
    },
  ],
];

function writeMessage(r, subject) {
  const file = join(r.dir, '.git', 'CANARY_MSG');
  writeFileSync(file, `${subject}\n\nCo-authored-by: ${CLAUDE.name} <${CLAUDE.email}>\n`);
  return file;
}

let through = 0;
for (const [ruleId, what, run] of CANARIES) {
  let res;
  try {
    res = run();
  } catch (err) {
    through++;
    console.log(`✗ ${ruleId}: ${what}: the canary could not be set up (${err.message.split('\n')[0]})`);
    continue;
  }
  const out = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  const refused = res.status === 1 && out.includes(ruleId);
  if (!refused) through++;
  console.log(
    `${refused ? '✓' : '✗'} ${ruleId}: ${what}${refused ? '' : ` (exit ${res.status}, got through)\n${out.split('\n').slice(0, 8).join('\n')}`}`,
  );
}
rmSync(ROOT, { recursive: true, force: true });
console.log(`${CANARIES.length - through} of ${CANARIES.length} canaries refused`);
process.exitCode = through ? 1 : 0;
