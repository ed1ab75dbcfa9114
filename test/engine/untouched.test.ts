// Most commits stage code alone, nothing the check reads: the commit doors then judge by git's answer alone
// (history/fold.ts untouched), without reading HEAD's workflow files, the cache or history. What the check reads
// besides the workflow files must each still send a commit to the full judgement: a file a workflow file links to,
// whatever its name (here); a plan named outside the globs (test/history/out-of-sight.test.ts, and here whatever the
// environment tells git of pathspecs); the amend of a human's confirmation (test/hooks/e2e.test.ts). Real repositories, the engine in this process, and
// the built CLI where its timing lines are the point.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { runCli } from '../helpers/repo.js';
import {
  AGENT,
  ANA,
  CLAUDE,
  CONFIG,
  PLAN,
  Repo,
  TASK,
  cli,
  door,
  ledger,
  messageFile,
  phaseOneCheckedOff,
  phaseOneReady,
} from '../history/helpers.js';

const LEDGER = 'thoughts/ledgers/CONTINUITY_CLAUDE-auth-1.md';
const RULE = 'history/manual-confirmation';
const ready = phaseOneReady;
const checked = phaseOneCheckedOff;
const confirmations = (list: Finding[]) => list.filter((f) => f.ruleId === RULE).map((f) => f.file);

/** The agent's check-off, staged as `stage` does it, as commit-msg judges it (pre-commit leaves it to commit-msg). */
async function checkOffFound(repo: Repo, env: NodeJS.ProcessEnv = {}): Promise<(string | null)[]> {
  const msg = messageFile('Phase 1 verified', AGENT);
  return confirmations((await door(repo.dir, ['commit-msg', msg], { ...repo.env(ANA), ...env })).results);
}

describe('a commit that stages nothing the check reads', () => {
  it('is passed on git’s answer alone, with HEAD’s findings unread', () => {
    const repo = Repo.create();
    repo.commit('Adopt', { [CONFIG]: '{}\n', [PLAN]: ready() }, { author: ANA });
    // HEAD already holds an agent's unconfirmed check-off (made with --no-verify): the full run reports it.
    repo.commit('Phase 1 verified', { [PLAN]: checked() }, AGENT);
    expect(confirmations(cli(repo.dir).results)).toEqual([PLAN]);
    repo.stage({ 'src/app.ts': 'export const answer = 42;\n', 'README.txt': 'Notes\n' });
    const res = cli(repo.dir, ['--staged'], { VALIDATE_WORKFLOW_TIMING: '1', ...repo.env(CLAUDE) });
    expect(res.code).toBe(0);
    expect(res.results).toEqual([]);
    expect(res.stderr).toContain('timing nothing the check reads is staged');
    expect(res.stderr).not.toContain('timing pending commit read');
    // A Markdown file anywhere may be a plan some handoff names: judged in full.
    repo.stage({ 'docs/notes.md': '# Notes\n' });
    const md = cli(repo.dir, ['--staged'], { VALIDATE_WORKFLOW_TIMING: '1' });
    expect(md.stderr).toContain('timing pending commit read');
  });

  it('is judged in full when it stages a file a workflow file links to, whatever its name', async () => {
    const target = 'docs/auth-plan.txt';
    const repo = Repo.create();
    repo.write({
      [CONFIG]: '{}\n',
      [target]: ready(),
      [LEDGER]: ledger({ plan: PLAN, state: [1, 2].map((t) => `- [ ] ${TASK(t)}`) }),
    });
    mkdirSync(dirname(join(repo.dir, PLAN)), { recursive: true });
    symlinkSync(relative(dirname(join(repo.dir, PLAN)), join(repo.dir, target)), join(repo.dir, PLAN));
    repo.stage();
    repo.commitStaged('Adopt validate-workflow', { author: ANA });
    repo.stage({ [target]: checked() });
    expect(await checkOffFound(repo)).toEqual([PLAN]);
  });

  it('is passed on git’s answer where the links the check reads through end at Markdown files', () => {
    // CLAUDE.md kept as a link to AGENTS.md (common in agents' repositories), and a code folder linked elsewhere: git's
    // answer over every Markdown file covers the first, and the check reads nothing through the second.
    const repo = Repo.create();
    repo.write({ [CONFIG]: '{}\n', [PLAN]: ready(), 'AGENTS.md': '# Agents\n', 'src/app.ts': 'export {};\n' });
    symlinkSync('AGENTS.md', join(repo.dir, 'CLAUDE.md'));
    symlinkSync('src', join(repo.dir, 'lib'));
    repo.stage();
    repo.commitStaged('Adopt', { author: ANA });
    const timed = () => cli(repo.dir, ['--staged'], { VALIDATE_WORKFLOW_TIMING: '1' }).stderr;
    repo.stage({ 'src/app.ts': 'export const answer = 42;\n' });
    expect(timed()).toContain('timing nothing the check reads is staged');
    // The file the link reads is Markdown: its change is judged in full.
    repo.stage({ 'AGENTS.md': '# Agents\n\nAlways write a handoff.\n' });
    expect(timed()).toContain('timing pending commit read');
  });

  it('is judged in full where the check reads through a link to a folder', () => {
    // A linked `thoughts/templates`: the instruction walk reads the templates under the link's name, and a YAML
    // template's change is staged under the target's name, which no pathspec of the question covers.
    const template = 'tools/templates/handoff.yaml';
    const repo = Repo.create();
    repo.write({ [CONFIG]: '{}\n', [PLAN]: ready(), [template]: 'status: complete\n' });
    symlinkSync('../tools/templates', join(repo.dir, 'thoughts/templates'));
    repo.stage();
    repo.commitStaged('Adopt', { author: ANA });
    const timed = () => cli(repo.dir, ['--staged'], { VALIDATE_WORKFLOW_TIMING: '1' }).stderr;
    repo.stage({ [template]: 'status: complete\nblocker: null\n' });
    expect(timed()).toContain('timing pending commit read');
    repo.git('reset', '-q');
    repo.stage({ 'src/app.ts': 'export const answer = 42;\n' });
    expect(timed()).toContain('timing pending commit read');
  });

  it('is judged in full whatever the environment tells git of pathspecs', async () => {
    // A plan one folder up, named by the ledger: only the Markdown pathspec (a glob) brings its change to the door,
    // and the sight reads it through `:(literal)plans/auth.md`.
    const plan = 'plans/auth.md';
    const repo = Repo.create();
    repo.commit(
      'Adopt validate-workflow',
      { [CONFIG]: '{}\n', [plan]: ready(), [LEDGER]: ledger({ plan, state: [1, 2].map((t) => `- [ ] ${TASK(t)}`) }) },
      { author: ANA },
    );
    repo.stage({ [plan]: checked() });
    expect(await checkOffFound(repo)).toEqual([plan]);
    // With every pathspec literal, git read both as file names: the check-off was out of the hooks' sight.
    expect(await checkOffFound(repo, { GIT_LITERAL_PATHSPECS: '1' })).toEqual([plan]);
  });

  it('stops on a baseline HEAD holds that cannot be read, as every commit did', () => {
    const repo = Repo.create();
    repo.commit(
      'Adopt',
      { [CONFIG]: '{}\n', [PLAN]: ready(), 'validate-workflow.baseline.json': 'not json\n' },
      {
        author: ANA,
      },
    );
    repo.stage({ 'src/app.ts': 'export const answer = 42;\n' });
    const res = runCli(repo.dir, ['--staged']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('validate-workflow.baseline.json: not valid JSON');
  });

  it('is judged in full when the index is written while git is asked about it', () => {
    // A git that adds a broken plan to the index just before the door lists it (another lint-staged task writing the
    // index beside the check): git's answer that nothing is staged was of the index before.
    const repo = Repo.create();
    repo.commit('Adopt', { [CONFIG]: '{}\n', [PLAN]: ready() }, { author: ANA });
    const bad = 'thoughts/shared/plans/2026-11-23-broken.md';
    repo.write({ [bad]: '' });
    repo.stage({ 'src/app.ts': 'export const answer = 42;\n' });
    repo.git('reset', '-q', '--', bad);
    const bin = join(repo.dir, '.git', 'shim');
    mkdirSync(bin);
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      join(bin, 'git'),
      [
        '#!/bin/sh',
        'case " $* " in',
        `  *" ls-files --stage -z "*) if [ ! -e "$VW_MARK" ]; then : > "$VW_MARK"; sleep 0.3; ${real} add ${bad}; fi ;;`,
        'esac',
        `exec ${real} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const res = cli(repo.dir, ['--staged'], { PATH: `${bin}:${process.env.PATH}`, VW_MARK: join(bin, 'mark') });
    expect(res.results.map((f) => f.file)).toContain(bad);
    expect(res.code).toBe(1);
  });

  it('leaves nothing out where a glob names no folder: git is asked about the whole tree', async () => {
    // `**/plans/*.md` has no static folder: no pathspec of git's names its files, and both the doors and history
    // listed none of them (git was asked about the folders the other globs name).
    const plan = 'docs/plans/auth.md';
    const repo = Repo.create();
    repo.commit(
      'Adopt validate-workflow',
      { [CONFIG]: JSON.stringify({ paths: { plans: ['**/plans/*.md'] } }), [plan]: ready() },
      { author: ANA },
    );
    repo.stage({ 'src/app.ts': 'export const answer = 42;\n' });
    expect(cli(repo.dir, ['--staged'], { VALIDATE_WORKFLOW_TIMING: '1' }).stderr).toContain(
      'timing pending commit read',
    );
    repo.git('reset', '-q');
    repo.stage({ [plan]: checked() });
    expect(await checkOffFound(repo)).toEqual([plan]);
    repo.commitStaged('Phase 1 verified', AGENT);
    expect(confirmations((await door(repo.dir)).results)).toEqual([plan]);
  });

  it('leaves nothing out where a pack is rooted at the repository: git is asked about the whole tree', () => {
    // The memory pack rooted at `.` reads `**/*.sqlite` and its kin: a derived index committed in any folder is a
    // finding, and a commit that stages only such a file stages something the check reads.
    const repo = Repo.create();
    repo.commit(
      'Adopt validate-workflow',
      { [CONFIG]: JSON.stringify({ packs: { memory: { root: '.' } } }), [PLAN]: ready() },
      { author: ANA },
    );
    repo.stage({ 'scratch/store.sqlite': 'SQLite format 3\n' });
    const res = cli(repo.dir, ['--staged']);
    expect(res.results.map((f) => [f.ruleId, f.file])).toEqual([['memory/index-committed', 'scratch/store.sqlite']]);
    expect(res.code).toBe(1);
  });
});
