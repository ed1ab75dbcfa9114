// plan/mode: the seed's mode table (1-3 tasks and not context critical: direct; 4+ or context critical:
// orchestration) with "User preference overrides" recorded as `mode_set_by: user`.
import { describe, expect, it } from 'vitest';
import { PLAN, cliFindings, describeRunnerContract, findings, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'plan/mode';

const directWithFour = plan({ frontmatter: ['context_critical: false', 'mode: direct'], tasksPerPhase: [2, 2] });

describe(ID, () => {
  it('reports `mode: direct` on a plan with 4 tasks, at the mode key', () => {
    expect(findings({ [PLAN]: directWithFour }, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(directWithFour, 'mode: direct'),
        severity: 'warning',
        message: expect.stringContaining('declares `mode: direct` but has 4 tasks'),
      }),
    ]);
    expect(findings({ [PLAN]: directWithFour }, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('reports `mode: direct` on a context_critical plan with few tasks', () => {
    const text = plan({ frontmatter: ['mode: direct', 'context_critical: true'], tasksPerPhase: [1] });
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: 2, message: expect.stringContaining('is context_critical') })]);
  });

  it('respects the user preference: `mode_set_by: user` allows direct mode', () => {
    const text = plan({ frontmatter: ['mode: direct', 'mode_set_by: user', 'context_critical: true'], tasksPerPhase: [3, 3] });
    expect(findings({ [PLAN]: text }, ID)).toEqual([]);
  });

  it('does not take `mode_set_by: agent` as the user preference', () => {
    const text = plan({ frontmatter: ['mode: direct', 'mode_set_by: agent'], tasksPerPhase: [4] });
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: 2 })]);
  });

  it('passes `mode: direct` with 3 tasks, and `mode: orchestration` with any count', () => {
    expect(findings({ [PLAN]: plan({ frontmatter: ['mode: direct'], tasksPerPhase: [2, 1] }) }, ID)).toEqual([]);
    expect(findings({ [PLAN]: plan({ frontmatter: ['mode: orchestration'], tasksPerPhase: [1] }) }, ID)).toEqual([]);
  });

  it('without a mode key the table decides, so there is nothing to report', () => {
    expect(findings({ [PLAN]: plan({ tasksPerPhase: [5, 5] }) }, ID)).toEqual([]);
    expect(findings({ [PLAN]: plan({ frontmatter: ['context_critical: true'], tasksPerPhase: [1] }) }, ID)).toEqual([]);
  });

  it('counts heading tasks (plan-agent dialect)', () => {
    const text = md('---', 'mode: direct', '---', '# P', ...[1, 2, 3, 4].flatMap((n) => [`### Task ${n}: t${n}`, '- [ ] step']));
    expect(findings({ [PLAN]: text }, ID)).toEqual([expect.objectContaining({ line: 2, message: expect.stringContaining('has 4 tasks') })]);
  });

  it('reads the level from validate-workflow.config.json through the CLI', () => {
    const config = JSON.stringify({ rules: { [ID]: 'error' } });
    const { code, results } = cliFindings({ [PLAN]: directWithFour, 'validate-workflow.config.json': config }, ID);
    expect(code).toBe(1);
    expect(results).toEqual([expect.objectContaining({ severity: 'error', line: lineOf(directWithFour, 'mode: direct') })]);
    const off = cliFindings({ [PLAN]: directWithFour, 'validate-workflow.config.json': JSON.stringify({ rules: { [ID]: 'off' } }) }, ID, ['--preset', 'strict']);
    expect(off.results).toEqual([]);
  });
});

describeRunnerContract(ID, { [PLAN]: directWithFour }, { recommended: 'warning', strict: 'error' });
