// The commit doors keep the models of the versions the index brings (engine/change-models.ts): the next commit takes
// HEAD's side of its change from there instead of parsing it, and reads the index's side itself. What a user sees is
// the verdict, which is the one a commit with nothing kept gets; the rest is which reads were spared.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TIMING, cacheOf, coldly, committed, memoryOf, redigested, verdict } from './kept.js';
import {
  AGENT,
  ANA,
  PLAN,
  Repo,
  cli,
  messageFile,
  phaseOneCheckedOff,
  phaseOneReady,
  type CliJson,
} from '../history/helpers.js';

/** Plans parsed, derived, and HEAD's versions known without a parse, as the pending read reports them. */
const reads = (r: CliJson) =>
  /versions changed \(plans: (\d+) parsed, (\d+) derived; (\d+) of HEAD's known\)/.exec(r.stderr)?.slice(1).map(Number);

/** The agent checks phase 1's manual item, as commit-msg judges it. */
function checkOff(repo: Repo): CliJson {
  repo.stage({ [PLAN]: phaseOneCheckedOff() });
  return cli(repo.dir, ['commit-msg', messageFile('Phase 1 verified', AGENT)], { ...TIMING, ...repo.env(ANA) });
}

describe('the models the last commit door kept', () => {
  it("give HEAD's side of the next change, and the agent's check-off is refused as without them", () => {
    const repo = committed();
    // The commit before kept a cache too (it had none): set aside, so that HEAD's models come from the change's.
    rmSync(cacheOf(repo));
    const warm = checkOff(repo);
    // HEAD's plan was not parsed: the staged version is derived from the kept model (a box checked).
    expect(reads(warm)).toEqual([0, 1, 1]);
    expect(warm.code).toBe(1);
    expect(warm.results.map((f) => f.ruleId)).toContain('history/manual-confirmation');
    const cold = coldly(repo);
    expect(reads(cold)).toEqual([1, 1, 0]);
    expect(verdict(warm)).toEqual(verdict(cold));
  });

  it("keep HEAD's side through a refused commit, and are not written again for the same change", () => {
    const repo = committed();
    rmSync(cacheOf(repo));
    // Refused: HEAD stays, and the models kept for it must outlive what the refused attempt kept.
    expect(checkOff(repo).code).toBe(1);
    const written = statSync(memoryOf(repo)).mtimeMs;
    expect(checkOff(repo).code).toBe(1);
    expect(statSync(memoryOf(repo)).mtimeMs).toBe(written);
    // The agent stages something else: HEAD's plan is still known without a parse.
    repo.stage({ [PLAN]: phaseOneReady({ tasks: [1, 2, 3] }) });
    const next = cli(repo.dir, ['--staged'], { ...TIMING, ...repo.env(ANA) });
    expect(next.code).not.toBe(2);
    expect(reads(next)).toEqual([0, 1, 1]);
  });

  it.each([
    ['a byte changed', (text: string) => text.replace('"kind":"plan"', '"kind":"plam"')],
    ['cut short', (text: string) => text.slice(0, text.length >> 1)],
    ['not JSON', () => 'x'.repeat(41)],
    // Under a digest made again: what is checked is the settings, or the model's shape, not the digest.
    [
      'kept under other settings',
      (text: string) => redigested(text.replace(/"settings":"[^"]*"/, '"settings":"other"')),
    ],
    ['a plan without its phases', (text: string) => redigested(text.replace('"phases":[', '"phasesGone":['))],
  ])('are no memory when the file is %s, and judge as none', (_what, damage) => {
    const repo = committed();
    const text = readFileSync(memoryOf(repo), 'utf8');
    const damaged = damage(text);
    expect(damaged).not.toBe(text);
    writeFileSync(memoryOf(repo), damaged);
    rmSync(cacheOf(repo));
    const warm = checkOff(repo);
    expect(warm.stderr).not.toMatch(/internal error/);
    expect(reads(warm)).toEqual([1, 1, 0]);
    expect(verdict(warm)).toEqual(verdict(coldly(repo)));
  });

  it('judge the change again without them when a model of the right outer shape fails the judgement', () => {
    const repo = committed();
    const text = readFileSync(memoryOf(repo), 'utf8');
    // Phases with nothing in them: no reader makes this, and isEntry's first check lets it through.
    const data = JSON.parse(text.slice(text.indexOf('\n') + 1)) as { entries: [string, { phases: unknown }][] };
    for (const [, model] of data.entries) model.phases = [{}];
    writeFileSync(memoryOf(repo), redigested(`x\n${JSON.stringify(data)}`));
    rmSync(cacheOf(repo));
    const warm = checkOff(repo);
    expect(warm.stderr).not.toMatch(/internal error/);
    expect(warm.code).toBe(1);
    expect(verdict(warm)).toEqual(verdict(coldly(repo)));
  });
});
