// A process that calls lint() again (an editor's server, a bot) judges the repository as it is at that call: what
// the repository promised its agents (read/profile.ts, convention section 4b) is read afresh by every run, not
// remembered from the process's first run over that folder.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../../src/api/index.js';
import { CREATE_PLAN_COMMAND, makeRepo, writeFiles } from '../helpers/repo.js';

const command = CREATE_PLAN_COMMAND;
const plan = (n: number) =>
  [`# Plan ${n}`, '', '## Phase 1: a', '', '#### Automated Verification:', '', '- [ ] `make`', ''].join('\n');

describe('lint() called again in the same process', () => {
  it('sees an instruction file that appeared, and one that went, since its last call', async () => {
    const dir = makeRepo({
      'thoughts/shared/plans/2026-11-20-a.md': plan(1),
      'thoughts/shared/plans/2026-11-21-b.md': plan(2),
      'thoughts/shared/plans/2026-11-22-c.md': plan(3),
    });
    const manual = async () =>
      (await lint({ cwd: dir, history: false })).results
        .filter((r) => r.ruleId === 'plan/phase-manual-criteria')
        .map((r) => r.severity);
    // Nothing promised manual items: one note for the three plans.
    expect(await manual()).toEqual(['info']);
    writeFiles(dir, { '.claude/commands/create_plan.md': command });
    expect(await manual()).toEqual(['warning', 'warning', 'warning']);
    rmSync(join(dir, '.claude'), { recursive: true });
    expect(await manual()).toEqual(['info']);
  });
});

describe('--print-config asked again in the same process', () => {
  it('prints the promise the tree makes now', async () => {
    const { configFor } = await import('../../src/engine/run.js');
    const dir = makeRepo({ 'thoughts/shared/plans/2026-11-20-a.md': plan(1) });
    const manual = () => (configFor(undefined, dir, {}).profile as Record<string, { value: unknown }>).manualCriteria;
    expect(manual()).toMatchObject({ value: false });
    writeFiles(dir, { '.claude/commands/create_plan.md': command });
    expect(manual()).toMatchObject({ value: true });
  });
});
