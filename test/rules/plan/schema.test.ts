// plan/schema: a plan that cannot be read is a finding at the line where reading failed (never a tool failure), and
// the normalized model must satisfy schemas/plan.schema.json.
import { describe, expect, it } from 'vitest';
import { findings, describeRuleContract, lintFiles } from '../../helpers/rule-tester.js';
import { cliFindings } from '../cli.js';
import { PLAN, lineOf, md, plan, strict } from '../fixtures.js';

const ID = 'plan/schema';

describe(ID, () => {
  it('passes a canonical plan with every optional frontmatter key', () => {
    const text = plan({ frontmatter: ['mode: orchestration', 'mode_set_by: user', 'context_critical: false'] });
    expect(findings({ [PLAN]: text }, ID)).toEqual([]);
  });

  it('reports frontmatter that is not valid YAML at the line of the YAML error', () => {
    const text = md(
      '---',
      'mode: direct',
      'context_critical: [true',
      '---',
      '# Plan',
      '## Phase 1: A',
      '- [ ] Task 1: a',
    );
    const got = findings({ [PLAN]: text }, ID);
    expect(got.length).toBeGreaterThan(0);
    expect(got[0]).toMatchObject({
      file: PLAN,
      severity: 'error',
      messageId: 'unreadable',
      message: expect.stringContaining('Invalid YAML'),
    });
    expect(got[0]!.line).toBeGreaterThanOrEqual(lineOf(text, 'context_critical'));
    expect(got[0]!.line).toBeLessThanOrEqual(lineOf(text, '---', 2));
  });

  it('reports a duplicate frontmatter key as invalid YAML', () => {
    const text = md('---', 'mode: direct', 'mode: orchestration', '---', '# Plan');
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: lineOf(text, 'mode: orchestration'),
        messageId: 'unreadable',
        message: expect.stringContaining('Invalid YAML'),
      }),
    ]);
  });

  it('reports frontmatter that is a YAML list rather than a mapping', () => {
    const text = md('---', '- mode', '- direct', '---', '# Plan');
    expect(findings({ [PLAN]: text }, ID)).toEqual([
      expect.objectContaining({
        line: lineOf(text, '- mode'),
        messageId: 'unreadable',
        message: expect.stringContaining('must be a YAML mapping'),
      }),
    ]);
  });

  it('reports a binary file at the line of its NUL byte', () => {
    const bytes = Buffer.concat([Buffer.from('# Plan\n## Phase 1: A\n'), Buffer.from([0x00, 0x01, 0x02])]);
    expect(findings({ [PLAN]: bytes }, ID)).toEqual([
      expect.objectContaining({
        file: PLAN,
        line: 3,
        severity: 'error',
        messageId: 'unreadable',
        message: expect.stringContaining('binary'),
      }),
    ]);
  });

  it('reports invalid UTF-8 at the line of the first bad byte', () => {
    const bytes = Buffer.concat([Buffer.from('# Plan\n\n- [ ] Task 1: caf'), Buffer.from([0xe9, 0x0a])]);
    expect(findings({ [PLAN]: bytes }, ID)).toEqual([
      expect.objectContaining({
        line: 3,
        messageId: 'unreadable',
        message: expect.stringContaining('not valid UTF-8'),
      }),
    ]);
  });

  it('reports an empty file', () => {
    expect(findings({ [PLAN]: '  \n\n' }, ID)).toEqual([
      expect.objectContaining({ line: 1, messageId: 'unreadable', message: 'File is empty.' }),
    ]);
  });

  it('reports a file over maxFileBytes without parsing it', () => {
    const got = findings({ [PLAN]: plan() }, ID, { maxFileBytes: 64 });
    expect(got).toEqual([
      expect.objectContaining({
        line: 1,
        messageId: 'unreadable',
        message: expect.stringContaining('maxFileBytes (64)'),
      }),
    ]);
  });

  it('an unreadable plan is reported by plan/schema alone, not by the rules that judge its content', () => {
    expect([...new Set(lintFiles({ [PLAN]: Buffer.from([0x00, 0xff]) }).map((f) => f.ruleId))]).toEqual([ID]);
  });

  it('reports frontmatter values outside the schema at their own lines', () => {
    const text = md(
      '---',
      'mode: fast',
      'mode_set_by: robot',
      'context_critical: "yes"',
      '---',
      '# Plan',
      '## Phase 1: A',
      '- [ ] Task 1: a',
    );
    const got = findings({ [PLAN]: text }, ID);
    expect(got).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'mode: fast'),
        message: expect.stringMatching(/`mode` must be one of "direct", "orchestration", not the string "fast"/),
      }),
      expect.objectContaining({
        line: lineOf(text, 'mode_set_by'),
        messageId: 'invalid',
        message: expect.stringContaining('`mode_set_by` must be one of "user", "agent"'),
      }),
      expect.objectContaining({
        line: lineOf(text, 'context_critical'),
        messageId: 'invalid',
        message: expect.stringContaining('`context_critical` must be boolean'),
      }),
    ]);
  });

  it('accepts `Phase 0` and `Task 0` as written (a setup phase), and never repeats what plan/task-numbering says', () => {
    const text = md(
      '# Plan',
      '## Phase 0: Setup',
      '- [ ] Task 0: nothing',
      '#### Automated Verification:',
      '- [ ] ok',
      '#### Manual Verification:',
      '- [ ] ok',
    );
    expect(findings({ [PLAN]: text }, ID)).toEqual([]);
    const sub = md('# Plan', '### Phase 0.1: A', '- [ ] Task 1: a', '### Phase 0.2: B', '### Phase R.1: Rollback');
    expect(findings({ [PLAN]: sub }, ID)).toEqual([]);
    // Round 3: a label written twice in the sequence leaves the reader unsure of the plan's phases: one info.
    const twice = md('# Plan', '### Phase 0.1: A', '- [ ] Task 1: a', '### Phase 0.2: B', '### Phase 0.2: B again');
    expect(findings({ [PLAN]: twice }, ID)).toEqual([
      expect.objectContaining({ severity: 'info', messageId: 'unstructured', line: lineOf(twice, 'B again') }),
    ]);
  });

  it('is an error in strict too, and through the CLI exits 1', async () => {
    const text = md('---', 'mode: fast', '---', '# Plan');
    expect(findings({ [PLAN]: text }, ID, strict())).toEqual([expect.objectContaining({ severity: 'error', line: 2 })]);
    const { code, results } = await cliFindings({ [PLAN]: text }, ID);
    expect(code).toBe(1);
    expect(results).toEqual([
      expect.objectContaining({ ruleId: ID, severity: 'error', file: PLAN, line: 2, column: 1 }),
    ]);
  });
});

describeRuleContract(
  ID,
  { [PLAN]: md('---', 'mode: fast', '---', '# Plan', '## Phase 1: A', '- [ ] Task 1: a') },
  { recommended: 'error', strict: 'error' },
);
