// plan/placeholder: a plan committed as `new plan` or `--fix-type scaffold` wrote it, its TODO placeholders unfilled,
// says nothing to implement or verify (issue 24). One finding per plan, at the first placeholder.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findings } from '../../helpers/rule-tester.js';
import { PLAN, lineOf, md, strict } from '../fixtures.js';

const ID = 'plan/placeholder';
const TEMPLATE = readFileSync(new URL('../../../templates/plan.md', import.meta.url), 'utf8').replace(
  '{{title}}',
  'Auth flow',
);

describe(ID, () => {
  it('reports the template as `new plan` writes it, once, at its first placeholder, with the count', () => {
    expect(findings({ [PLAN]: TEMPLATE }, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(TEMPLATE, '## Phase 1: TODO phase title'),
        severity: 'warning',
        messageId: 'placeholderMany',
        message: 'The plan still holds 4 template placeholders (first: "TODO phase title").',
      }),
    ]);
    expect(findings({ [PLAN]: TEMPLATE }, ID, strict())).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('names the one placeholder left, and passes a plan whose TODO is its own words', () => {
    const text = (criterion: string) =>
      md(
        '# Cleanup Implementation Plan',
        '## Phase 1: Remove dead code',
        '- [ ] Task 1: Remove the TODO comments from src/',
        '#### Automated Verification:',
        '- [ ] `npm test`',
        '#### Manual Verification:',
        `- [ ] ${criterion}`,
      );
    const left = text('TODO: what a human checks in this phase');
    expect(findings({ [PLAN]: left }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(left, '- [ ] TODO:'),
        messageId: 'placeholder',
        message: 'The plan still holds a template placeholder: "TODO: what a human checks in this phase".',
      }),
    ]);
    expect(findings({ [PLAN]: text('No TODO is left in the logs') }, ID)).toEqual([]);
  });
});
