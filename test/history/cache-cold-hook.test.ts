// A commit judged with no cache for its settings (a fresh clone, the tool just upgraded) parses every workflow file at
// HEAD; it keeps what it parsed as the cache's models, so the next commit parses its change alone, and nothing it
// keeps changes a verdict: the hooks' and the full run's, with and without it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ANA,
  CLAUDE,
  cli,
  handoffPath,
  LEDGER,
  ledgerDoc,
  messageFile,
  PLAN,
  planDoc,
  taskHandoff,
  taskOneDone,
  tempDir,
  type CliJson,
  type Repo,
} from './helpers.js';

const cacheOf = (dir: string) => join(dir, '.git/validate-workflow/cache.pack');
const verdict = (r: CliJson) => ({ code: r.code, results: r.results });
const TIMING = { VALIDATE_WORKFLOW_TIMING: '1' };
const kept = (r: CliJson) => /timing models kept for the next commit \((\d+)\)/.exec(r.stderr)?.[1] ?? null;
const parsed = (r: CliJson) =>
  r.stderr
    .split('\n')
    .filter((l) => l.startsWith('timing '))
    .join('\n');

describe('a commit with no cache for its settings', () => {
  it("keeps HEAD's parsed models for the next commit, which then parses only its change", () => {
    const repo = taskOneDone();
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2] }), [handoffPath(2)]: taskHandoff(2), [LEDGER]: ledgerDoc([1, 2]) });
    const env = { ...TIMING, ...repo.env(CLAUDE) };
    rmSync(cacheOf(repo.dir), { force: true });
    const cold = cli(repo.dir, ['--staged'], env);
    expect(cold.code, cold.stderr).not.toBe(2);
    // HEAD's plan, ledger and handoff, and the index's changed versions: every model the commit parsed.
    expect(Number(kept(cold))).toBeGreaterThanOrEqual(3);
    expect(existsSync(cacheOf(repo.dir))).toBe(true);
    const warm = cli(repo.dir, ['--staged'], env);
    expect(verdict(warm)).toEqual(verdict(cold));
    // A cache there now: nothing written again, and HEAD's unchanged versions come from it.
    expect(kept(warm)).toBeNull();
    expect(parsed(warm)).toMatch(/cache models decoded \([1-9]\d* of \d+\)/);
  });

  it('changes no verdict of the full run that follows, which still judges the whole history', () => {
    const repo = taskOneDone();
    const fresh = cli(repo.dir);
    rmSync(cacheOf(repo.dir), { force: true });
    repo.stage({ 'notes.md': 'a note\n' });
    const hook = cli(repo.dir, ['--staged'], TIMING);
    expect(hook.code, hook.stderr).not.toBe(2);
    expect(existsSync(cacheOf(repo.dir))).toBe(true);
    // The kept cache has no history: the full run walks every commit, as without a cache, with the models spared.
    const full = cli(repo.dir, [], TIMING);
    expect(verdict(full)).toEqual(verdict(fresh));
    expect(full.stderr).toMatch(/timing trace \(2 commits\)/);
    // And keeps that history: the kept cache stands at HEAD, and one that looked unchanged was written back without it.
    const again = cli(repo.dir, [], TIMING);
    expect(verdict(again)).toEqual(verdict(fresh));
    expect(again.stderr).not.toMatch(/timing trace \([1-9]\d* commits\)/);
    // The agent's next commit is judged alike with the models a commit kept and with none.
    rmSync(cacheOf(repo.dir), { force: true });
    repo.stage({ [PLAN]: planDoc({ tasks: [1, 2] }) });
    const env = { ...TIMING, ...repo.env(CLAUDE) };
    const cold = cli(repo.dir, ['--staged'], env);
    expect(kept(cold)).not.toBeNull();
    const warm = cli(repo.dir, ['--staged'], env);
    expect(kept(warm)).toBeNull();
    expect(verdict(warm)).toEqual(verdict(cold));
  });

  it('leaves a cache this build wrote under other settings alone: a full run from the root keeps its history', () => {
    const repo = taskOneDone();
    const first = cli(repo.dir, ['--since', 'root'], TIMING);
    expect(first.stderr).toMatch(/timing trace \(2 commits\)/);
    repo.stage({ 'notes.md': 'a note\n' });
    // The hook's settings are not `--since root`'s: no cache of its own, and none written over that one.
    const hook = cli(repo.dir, ['--staged'], TIMING);
    expect(kept(hook)).toBeNull();
    const again = cli(repo.dir, ['--since', 'root'], TIMING);
    expect(verdict(again)).toEqual(verdict(first));
    expect(again.stderr).not.toMatch(/timing trace \([1-9]\d* commits\)/);
  });
});

/** Task 1 done, task 2 blocked and waiting for the user (as test/history/guidance.test.ts). */
function waiting(): Repo {
  const repo = taskOneDone();
  const blocked = taskHandoff(2, {
    status: 'blocked',
    blocker: 'The staging database refuses the migration; which schema should win?',
    verification_results: [],
  });
  repo.commit('Task 2 blocked', { [handoffPath(2)]: blocked, [LEDGER]: ledgerDoc([1], 2) }, { author: CLAUDE });
  return repo;
}
const GUIDED = { author: ANA, trailers: [`Guidance-by: ${ANA.name} <${ANA.email}>`], args: ['--allow-empty'] };
const nextTask = { [handoffPath(3)]: taskHandoff(3, { previous: 'task-02-step-2.md' }) };
const blockedProceed = (r: CliJson) =>
  r.results.filter((f) => f.ruleId === 'handoff/blocked-proceed').map((f) => f.file);
const WHOLE = /timing guidance walked over HEAD's whole history/;
const SINCE = /timing guidance walked since the cache's head/;

describe("a commit with no cache keeps what HEAD's history says of blocked handoffs", () => {
  it('so the next commit walks only the commits since for guidance, and finds what a human gave there', () => {
    const repo = waiting();
    rmSync(cacheOf(repo.dir), { force: true });
    const env = { ...TIMING, ...repo.env(CLAUDE) };
    repo.stage({ 'notes.md': 'a note\n' });
    const cold = cli(repo.dir, ['--staged'], env);
    expect(cold.stderr).toMatch(WHOLE);
    expect(kept(cold)).not.toBeNull();
    repo.commitStaged('A note', { author: CLAUDE });
    // Without guidance the next task is refused, from the kept cache as from none.
    repo.stage(nextTask);
    const refused = cli(repo.dir, ['--staged'], env);
    expect(refused.stderr).toMatch(SINCE);
    expect(refused.stderr).not.toMatch(WHOLE);
    expect(blockedProceed(refused)).toEqual([handoffPath(3)]);
    // Ana's word, given after the cache was kept, is among the commits walked.
    repo.git('reset', '-q');
    rmSync(join(repo.dir, handoffPath(3)));
    repo.commit('Use the new schema; drop the old table', {}, GUIDED);
    repo.stage(nextTask);
    const guided = cli(repo.dir, ['--staged'], env);
    expect(guided.stderr).toMatch(SINCE);
    expect(blockedProceed(guided)).toEqual([]);
  });

  it("keeps the guidance HEAD's history gave before, which the next commit takes from it", () => {
    const repo = waiting();
    repo.commit('Use the new schema; drop the old table', {}, GUIDED);
    rmSync(cacheOf(repo.dir), { force: true });
    const env = { ...TIMING, ...repo.env(CLAUDE) };
    repo.stage({ 'notes.md': 'a note\n' });
    cli(repo.dir, ['--staged'], env);
    repo.commitStaged('A note', { author: CLAUDE });
    repo.stage(nextTask);
    const next = cli(repo.dir, ['--staged'], env);
    expect(next.stderr).toMatch(SINCE);
    expect(next.stderr).not.toMatch(WHOLE);
    expect(blockedProceed(next)).toEqual([]);
    // The full run over the kept cache takes its guidance along, and reads as one with no cache.
    const full = cli(repo.dir, [], TIMING);
    expect(full.stderr).toMatch(/timing trace \([1-9]\d* commits\)/);
    // The same verdicts as with no cache at all.
    rmSync(cacheOf(repo.dir), { force: true });
    expect(verdict(cli(repo.dir))).toEqual(verdict(full));
    rmSync(cacheOf(repo.dir), { force: true });
    expect(blockedProceed(cli(repo.dir, ['--staged'], env))).toEqual([]);
  });

  it('keeps the resolutions an agent wrote itself: the next task is still held back by the same finding', () => {
    const repo = waiting();
    // The agent appends the user's answer to its own blocked handoff (test/history/self-resolved.test.ts).
    const resolved = taskHandoff(
      2,
      {
        status: 'blocked',
        blocker: 'The staging database refuses the migration; which schema should win?',
        verification_results: [],
      },
      '\n## Resolution\n\nThe user said: use the new schema and drop the old table.\n',
    );
    repo.commit('Task 2: the user said to go on', { [handoffPath(2)]: resolved }, { author: CLAUDE });
    repo.stage(nextTask);
    rmSync(cacheOf(repo.dir), { force: true });
    const env = { ...TIMING, ...repo.env(CLAUDE) };
    const cold = cli(repo.dir, ['--staged'], env);
    expect(kept(cold)).not.toBeNull();
    expect(blockedProceed(cold)).toEqual([handoffPath(3)]);
    // At the same HEAD the kept cache answers which resolutions an agent wrote: the same verdict.
    const warm = cli(repo.dir, ['--staged'], env);
    expect(kept(warm)).toBeNull();
    expect(verdict(warm)).toEqual(verdict(cold));
  });

  it("keeps none of the guidance the commit's own message gives: a commit that did not land gave none", () => {
    const repo = waiting();
    rmSync(cacheOf(repo.dir), { force: true });
    repo.stage(nextTask);
    // commit-msg with Ana's word in the message, judged with no cache: the guidance counts for this commit.
    const message = messageFile('Task 3: go on with the new schema', {
      trailers: [`Guidance-by: ${ANA.name} <${ANA.email}>`],
    });
    const msg = cli(repo.dir, ['commit-msg', message], { ...TIMING, ...repo.env(ANA) });
    expect(kept(msg)).not.toBeNull();
    expect(blockedProceed(msg)).toEqual([]);
    // The commit was not made (another hook refused it, the editor was closed empty): the same change, asked again
    // from the kept cache, has no guidance.
    const again = cli(repo.dir, ['--staged'], { ...TIMING, ...repo.env(CLAUDE) });
    // Taken from the kept cache at HEAD: no log walked.
    expect(again.stderr).not.toMatch(WHOLE);
    expect(again.stderr).not.toMatch(SINCE);
    expect(blockedProceed(again)).toEqual([handoffPath(3)]);
  });

  it('keeps none in a shallow clone, whose log stops short: guidance given before its boundary counts once deepened', () => {
    const repo = waiting();
    repo.commit('Use the new schema; drop the old table', {}, GUIDED);
    repo.commit('A note', { 'notes.md': 'a note\n' }, { author: CLAUDE });
    const dir = join(tempDir(), 'shallow');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    execFileSync('git', ['clone', '-q', '--depth', '1', pathToFileURL(repo.dir).href, dir], { stdio: 'pipe' });
    const stage = (files: Record<string, string>) => {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      git('add', '-A');
    };
    const env = { ...TIMING, ...repo.env(CLAUDE) };
    // The first commit in the shallow clone has no cache: it keeps HEAD's models, and nothing of its cut-off log.
    stage({ 'notes.md': 'another note\n' });
    expect(kept(cli(dir, ['--staged'], env))).not.toBeNull();
    git('reset', '-q', '--hard');
    git('fetch', '-q', '--unshallow');
    stage(nextTask);
    const next = cli(dir, ['--staged'], env);
    expect(next.stderr).toMatch(WHOLE);
    expect(blockedProceed(next)).toEqual([]);
  });
});
