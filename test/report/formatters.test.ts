// One Formatter per format, looked up by name: the registry covers every --format value, and each formatter prints
// exactly what its format function prints (the other tests in this folder pin those outputs).
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { FORMATS, FORMATTERS, type ReportInput } from '../../src/report/index.js';
import { formatGithub } from '../../src/report/github.js';
import { formatJson } from '../../src/report/json.js';
import { formatMarkdown } from '../../src/report/markdown.js';
import { formatSarif } from '../../src/report/sarif.js';
import { formatStylish } from '../../src/report/stylish.js';
import { summarize } from '../../src/engine/summary.js';
import { RULES } from '../../src/engine/catalog.js';

const findings: Finding[] = [
  {
    ruleId: 'plan/manual-before-automated',
    severity: 'error',
    file: 'thoughts/shared/plans/p.md',
    line: 7,
    column: 1,
    message: 'Manual item checked first.',
    fix: 'Uncheck it.',
  },
  {
    ruleId: 'plan/phase-manual-criteria',
    severity: 'warning',
    file: 'thoughts/shared/plans/p.md',
    line: 2,
    column: 1,
    message: 'No manual item.',
  },
] as Finding[];

const input = (over: Partial<ReportInput> = {}): ReportInput => ({
  findings,
  summary: summarize(findings, 1, 3),
  rules: RULES,
  version: '1.2.3',
  docsBase: 'https://github.com/validate-workflow/validate-workflow/blob/v1.2.3',
  color: false,
  workspace: null,
  timeline: [],
  ...over,
});

describe('the formatters registry', () => {
  it('has one formatter per --format value, under its own name', () => {
    expect(Object.keys(FORMATTERS).sort()).toEqual([...FORMATS].sort());
    for (const name of FORMATS) expect(FORMATTERS[name].name).toBe(name);
  });

  it('prints what each format function prints', () => {
    const i = input();
    expect(FORMATTERS.stylish.format(i)).toBe(formatStylish(findings, i.summary, { color: false }));
    expect(FORMATTERS.stylish.format(input({ color: true }))).toBe(formatStylish(findings, i.summary, { color: true }));
    expect(FORMATTERS.json.format(i)).toBe(formatJson(findings, i.summary));
    expect(FORMATTERS.sarif.format(i)).toBe(formatSarif(findings, RULES, { version: '1.2.3', docsBase: i.docsBase }));
    expect(FORMATTERS.github.format(i)).toBe(
      formatGithub(findings, { reportHint: 'run `npx validate-workflow` locally, or see the job summary' }),
    );
    expect(FORMATTERS.markdown.format(i)).toBe(formatMarkdown(i));
  });

  it('markdown says why when there was nothing to judge', () => {
    const note = 'validate-workflow: no workflow files found (looked for thoughts/shared/plans/**/*.md).\n';
    expect(FORMATTERS.markdown.format(input({ findings: [], summary: summarize([], 0, 0), note }))).toBe(
      `## validate-workflow review\n\n${note}`,
    );
  });
});
