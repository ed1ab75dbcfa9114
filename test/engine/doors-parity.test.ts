// The doors agree (one engine): for each scripted change, the verdict of pre-commit + commit-msg equals what the full
// run adds after the commit (snapshot findings wherever they land, transition findings, pack rules of both kinds),
// and the Claude Code hook's Stop door blocks exactly for what the hooks would refuse, with the same rule ids and
// messages. The change is made by a human with Claude as co-author, the commit the Claude Code hook imagines.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { CLI } from '../helpers/repo.js';
import { hook } from '../claude/helpers.js';
import {
  ANA,
  CLAUDE,
  LEDGER,
  PLAN,
  Repo,
  cliHere,
  door,
  handoffPath,
  ledgerDoc,
  messageFile,
  planDoc,
  taskHandoff,
  type CommitOpts,
} from '../history/helpers.js';

const RALPH = '.workflow/.maestro/ralph-20260112-143015';
const STATUS = `${RALPH}/status.json`;
const DECISIONS = `${RALPH}/decisions.ndjson`;
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/packs/ralph/clean/${name}`, import.meta.url), 'utf8');
const DELTAS = 'memory/deltas.jsonl';
const CONFIG = 'validate-workflow.config.json';
const memoryConfig = (rules: Record<string, string> = {}) =>
  `${JSON.stringify({ packs: { memory: { root: '.' } }, rules }, null, 2)}\n`;
const delta = (n: number, text = `fact ${n}`) => JSON.stringify({ id: `d${n}`, op: 'add', content: text });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
function status(mutate: (s: Json) => void = () => {}): string {
  const s = JSON.parse(fixture(STATUS)) as Json;
  mutate(s);
  return `${JSON.stringify(s, null, 2)}\n`;
}

const WHO: CommitOpts = { author: ANA, coAuthors: [CLAUDE] };

interface Scenario {
  name: string;
  /** The committed history before the change; the full run over it is the "before" of the verdict. */
  setup: (repo: Repo) => void;
  files: Record<string, string>;
  remove?: string[];
  /** Rule ids the verdict must hold, so no scenario passes vacuously. */
  expected: string[];
}

function planned(repo: Repo): void {
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
}

function taskOne(repo: Repo): void {
  planned(repo);
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    WHO,
  );
}

const SCENARIOS: Scenario[] = [
  {
    name: 'a clean task commit',
    setup: planned,
    files: { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    expected: [],
  },
  {
    name: 'a plan change that puts the ledger out of sync (the finding lands on a file the commit did not touch)',
    setup: planned,
    files: { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1) },
    expected: ['ledger/sync'],
  },
  {
    name: 'a handoff deletion',
    setup: taskOne,
    files: {},
    remove: [handoffPath(1)],
    expected: ['history/handoff-deleted'],
  },
  {
    name: 'a manual check-off without a confirmation',
    setup: (repo) => {
      taskOne(repo);
      repo.commit(
        'Task 2: Do step 2',
        {
          [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }),
          [handoffPath(2)]: taskHandoff(2),
          [LEDGER]: ledgerDoc([1, 2]),
        },
        WHO,
      );
    },
    files: { [PLAN]: planDoc({ tasks: [1, 2], auto: [1], manual: [1] }) },
    expected: ['history/manual-confirmation'],
  },
  {
    name: 'a pack file change that breaks a pack snapshot rule (ralph: two running steps)',
    setup: (repo) =>
      repo.commit('Ralph session', { [STATUS]: status(), [DECISIONS]: fixture(DECISIONS) }, { author: ANA }),
    files: {
      [STATUS]: status((s) => {
        for (const step of s.steps as Json[]) step.status = 'running';
      }),
    },
    expected: ['ralph/active-step'],
  },
  {
    name: 'a pack file change that breaks a pack history rule (memory: an appended log edited)',
    setup: (repo) =>
      repo.commit('Memory', { [CONFIG]: memoryConfig(), [DELTAS]: `${delta(1)}\n${delta(2)}\n` }, { author: ANA }),
    files: { [DELTAS]: `${delta(1, 'fact one, rewritten')}\n${delta(2)}\n` },
    expected: ['memory/append-only'],
  },
];

const key = (f: Finding) => `${f.ruleId} | ${f.file ?? '-'} | ${f.message}`;
const problems = (list: Finding[]) => list.filter((f) => f.severity !== 'info');
const keys = (list: Finding[]) => [...new Set(problems(list).map(key))].sort();

/** The full run's problems after the commit that were not there before it. */
function added(before: Finding[], after: Finding[]): Finding[] {
  const had = new Set(problems(before).map(key));
  return problems(after).filter((f) => !had.has(key(f)));
}

/**
 * The first two scenarios (one clean, one with a finding) pass the hooks' doors through the CLI's run() (cliHere),
 * the others through the API (`door`: the engine path the CLI runs); Stop goes to the Claude Code hook's own function.
 * All in this process: what is compared is the verdicts; the doors' processes are parity.test.ts's, the hook tests'
 * and claude/cli.test.ts's subject.
 */
const REAL = 2;

describe.each(SCENARIOS.map((s, i) => ({ ...s, real: i < REAL })))('the doors agree: $name', (s) => {
  it('pre-commit + commit-msg give the verdict the full run gives after the commit, and Stop blocks for exactly the refused findings', async () => {
    const run = (dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) =>
      s.real ? cliHere(dir, args, env) : door(dir, args, env);
    const repo = Repo.create();
    s.setup(repo);
    const beforeRun = await door(repo.dir);
    // The Claude Code hook sees the change in the working tree, before anything is staged.
    repo.write(s.files);
    for (const path of s.remove ?? []) rmSync(join(repo.dir, path));
    const payload = { hook_event_name: 'Stop', stop_hook_active: false };
    const stopped = await hook(JSON.stringify({ session_id: 's1', cwd: repo.dir, ...payload }), repo.dir);
    expect(stopped.code).toBe(0);
    const stop = stopped.stdout;

    repo.stage({}, {});
    const env = repo.env(ANA);
    const staged = await run(repo.dir, ['--staged'], env);
    const msg = await run(repo.dir, ['commit-msg', messageFile('The change', WHO)], env);
    repo.commitStaged('The change', WHO);
    const afterRun = await door(repo.dir);

    const full = added(beforeRun.results, afterRun.results);
    const hooks = [...staged.results, ...msg.results];
    expect(keys(hooks)).toEqual(keys(full));
    for (const id of s.expected) expect(full.map((f) => f.ruleId)).toContain(id);
    if (s.expected.length === 0) expect(keys(full)).toEqual([]);
    const refuses = full.some((f) => f.severity === 'error');
    expect(Math.max(staged.code ?? 0, msg.code ?? 0)).toBe(refuses ? 1 : 0);

    const errors = full.filter((f) => f.severity === 'error');
    if (errors.length === 0) expect(stop).toBe('');
    else {
      const reason = (JSON.parse(stop) as { decision: string; reason: string }).reason;
      for (const f of errors) {
        expect(reason).toContain(f.message);
        expect(reason).toContain(`(${f.ruleId})`);
      }
      const listed = reason.split('\n').filter((l) => l.startsWith('- ')).length;
      expect(listed).toBe(errors.length);
    }
  });
});

describe('severities of pack history come from the parent commit', () => {
  it('a commit that turns a pack rule on is judged by the parent (off); the next one by its own settings', async () => {
    const repo = Repo.create();
    repo.commit(
      'Memory, append-only off for now',
      { [CONFIG]: memoryConfig({ 'memory/append-only': 'off' }), [DELTAS]: `${delta(1)}\n${delta(2)}\n` },
      { author: ANA },
    );
    repo.stage({ [CONFIG]: memoryConfig(), [DELTAS]: `${delta(1, 'edited under the old settings')}\n${delta(2)}\n` });
    const env = repo.env(ANA);
    const ruled = (list: Finding[]) => list.filter((f) => f.ruleId === 'memory/append-only');
    expect(ruled((await door(repo.dir, ['--staged'], env)).results)).toEqual([]);
    const first = repo.commitStaged('Turn append-only on');
    expect(ruled((await door(repo.dir)).results).filter((f) => f.commit === first)).toEqual([]);

    repo.stage({
      [DELTAS]: `${delta(1, 'edited under the old settings')}\n${delta(2, 'edited under the new ones')}\n`,
    });
    const staged = ruled((await door(repo.dir, ['--staged'], repo.env(ANA))).results);
    expect(staged).toHaveLength(1);
    const second = repo.commitStaged('Edit another line');
    const full = ruled((await door(repo.dir)).results).filter((f) => f.commit === second);
    expect(full.map(key)).toEqual(staged.map(key));
  });
});

describe('the Claude Code hook refuses an edit with the rule messages the hooks print', () => {
  it('denies a manual check-off with the text of history/manual-confirmation', async () => {
    const repo = Repo.create();
    taskOne(repo);
    repo.commit(
      'Task 2: Do step 2',
      { [PLAN]: planDoc({ tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) },
      WHO,
    );
    const after = planDoc({ tasks: [1, 2], auto: [1], manual: [1] });
    // The hook's own function in this process: the script Claude Code runs is claude/cli.test.ts's subject.
    const denied = await hook(
      JSON.stringify({
        session_id: 's1',
        cwd: repo.dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: `${repo.dir}/${PLAN}`, content: after },
      }),
      repo.dir,
    );
    expect(denied.code).toBe(0);
    const reason = (JSON.parse(denied.stdout) as { hookSpecificOutput: { permissionDecisionReason: string } })
      .hookSpecificOutput.permissionDecisionReason;
    repo.stage({ [PLAN]: after });
    const msg = (await door(repo.dir, ['commit-msg', messageFile('Check it', WHO)], repo.env(ANA))).results.filter(
      (f) => f.severity === 'error',
    );
    expect(msg.map((f) => f.ruleId)).toEqual(['history/manual-confirmation']);
    expect(reason).toContain(`${msg[0]!.message}`);
    expect(reason).toContain('(history/manual-confirmation)');
  });
});

describe('git commit --amend through real hooks: judged against HEAD^, as the full run will judge it', () => {
  function withHooks(repo: Repo): void {
    for (const [name, args] of [
      ['pre-commit', '--staged'],
      ['commit-msg', 'commit-msg "$1"'],
    ] as const) {
      const file = join(repo.dir, '.git', 'hooks', name);
      writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" ${args}\n`);
      chmodSync(file, 0o755);
    }
  }

  it('an amend that renames a handoff nobody has seen yet is no deletion', async () => {
    const repo = Repo.create();
    planned(repo);
    repo.commit(
      'Task 1: Do step 1',
      { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
      WHO,
    );
    withHooks(repo);
    repo.git('mv', handoffPath(1), handoffPath(1, 'users-table'));
    const res = spawnSync('git', ['commit', '-q', '--amend', '--no-edit'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, ...repo.env(ANA) },
    });
    expect(res.stderr).not.toContain('history/handoff-deleted');
    expect(res.status).toBe(0);
    expect((await door(repo.dir)).results.filter((f) => f.ruleId === 'history/handoff-deleted')).toEqual([]);
  });

  it('an amend that adds a check-off to a commit is judged as that one commit (the hooks refuse what CI will)', () => {
    const repo = Repo.create();
    taskOne(repo);
    withHooks(repo);
    // The agent amends a manual check-off into its own task commit.
    repo.write({ [PLAN]: planDoc({ tasks: [1], auto: [1], manual: [1] }) });
    repo.git('add', '-A');
    const res = spawnSync('git', ['commit', '-q', '--amend', '--no-edit'], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, ...repo.env(CLAUDE) },
    });
    expect(res.status).toBe(1);
    expect(res.stdout + res.stderr).toContain('history/manual-confirmation');
  });
});
