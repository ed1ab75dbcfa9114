// Corpus round 4 (issue 19): causes of noise on public repositories, each with a clean fixture (nothing to
// report in recommended) and the planted one that must still be found, in our own words.
import { describe, expect, it } from 'vitest';
import { findings, lintFiles } from '../../helpers/rule-tester.js';
import { forgetInstructions, instructionSignals } from '../../../src/read/profile.js';
import { makeRepo } from '../../helpers/repo.js';
import { PLAN, lineOf, md, reported, strict } from '../fixtures.js';

const problems = (files: Record<string, string>, ruleId: string, config = {}) =>
  findings(files, ruleId, config).filter((f) => reported(f));

describe('a plan that says it is done with boxes open is one cause: plan/claimed-complete', () => {
  const body = [
    '## Phase 1: Columns',
    '- [ ] Task 1: Pick the columns',
    '#### Automated Verification:',
    '- [ ] `npm test -- columns`',
    '#### Manual Verification:',
    '- [x] Finance opens the file',
    '## Phase 2: Writer',
    '- [x] Task 2: Write the file',
    '#### Automated Verification:',
    '- [x] `npm test -- writer`',
    '#### Manual Verification:',
    '- [ ] Finance opens the export',
  ];
  const claimed = md('---', 'status: done', '---', '# Export', ...body);
  const unclaimed = md('# Export', ...body);

  it('reports the claim once, not the stale boxes again as order', () => {
    const all = lintFiles({ [PLAN]: claimed }).filter((f) => reported(f) && f.ruleId.startsWith('plan/'));
    expect(all.map((f) => `${f.ruleId}:${f.messageId}`)).toEqual(['plan/claimed-complete:claimedOpen']);
  });

  it('without the claim, the order rules report as before', () => {
    const all = lintFiles({ [PLAN]: unclaimed }).filter((f) => reported(f) && f.ruleId.startsWith('plan/'));
    expect(all.map((f) => `${f.ruleId}:${f.messageId}`).sort()).toEqual([
      'plan/manual-before-automated:manualBeforeAutomated',
      'plan/phase-order:checkedBeforeVerified',
    ]);
  });
});

describe('phases described in one section and checked off in another are not guessed', () => {
  const twoLists = md(
    '# Row-level security Implementation Plan',
    '## Proposed API Contracts',
    '### Phase 1: Secure writes',
    'POST /api/uploads takes the session cookie.',
    '### Phase 2: Secure reads',
    'GET /api/uploads filters by owner.',
    '## Implementation Checklist',
    '### Phase 1: Writes',
    '- [x] Route for uploads',
    '### Phase 2: Reads',
    '- [ ] Route for listing',
  );

  it('one info from plan/schema, and the structure rules stay silent', () => {
    expect(findings({ [PLAN]: twoLists }, 'plan/schema')).toEqual([
      expect.objectContaining({
        severity: 'info',
        messageId: 'unstructured',
        line: lineOf(twoLists, '### Phase 1: Writes'),
        message: expect.stringContaining('the checkboxes are under a second list of phases ("Phase 1: Writes"'),
      }),
    ]);
    for (const id of [
      'plan/phase-automated-criteria',
      'plan/phase-manual-criteria',
      'plan/phase-order',
      'plan/task-numbering',
    ])
      expect(problems({ [PLAN]: twoLists }, id, strict())).toEqual([]);
  });

  it('a plan whose phases hold its boxes, with a checklist repeating them, is judged as before', () => {
    const worked = md(
      '# Plan',
      '## Phase 1: Writes',
      '- [ ] Task 1: Route for uploads',
      '## Phase 2: Reads',
      '- [x] Task 2: Route for listing',
      '## Implementation Checklist',
      '### Phase 1: Writes',
      '- [ ] Uploads done',
    );
    expect(findings({ [PLAN]: worked }, 'plan/schema')).toEqual([]);
    expect(problems({ [PLAN]: worked }, 'plan/phase-order').map((f) => f.messageId)).toEqual(['checkedBeforeVerified']);
  });
});

describe('only instructions that write plans promise their criteria', () => {
  const report = md(
    '# Implement a plan',
    'After each phase, tell the human:',
    '```',
    '## Phase [N] Complete',
    '### Automated Verification',
    '- [x] `make test`',
    '### Manual Verification Required',
    '- [ ] Open the page',
    '```',
  );
  const template = md(
    '# Create a plan',
    'Write each phase as:',
    '```markdown',
    '## Phase 1: [Name]',
    '#### Automated Verification:',
    '- [ ] `make test`',
    '#### Manual Verification:',
    '- [ ] [What a human checks]',
    '```',
  );
  const guide = md(
    '# Fixing beta feedback',
    '## Phase 1: Triage',
    '## Phase 2: Fix',
    '### Manual Verification',
    '- reproduce it by hand',
  );

  it("implement_plan's fenced report and a workflow guide's own phases promise nothing about plans", () => {
    forgetInstructions();
    expect(instructionSignals(makeRepo({ '.claude/commands/implement_plan.md': report })).manual).toBeNull();
    expect(instructionSignals(makeRepo({ '.claude/skills/feedback/references/workflow.md': guide })).manual).toBeNull();
  });

  it("create_plan's template does", () => {
    forgetInstructions();
    expect(instructionSignals(makeRepo({ '.claude/commands/create_plan.md': template })).manual).toMatchObject({
      file: '.claude/commands/create_plan.md',
      line: lineOf(template, '#### Manual Verification:'),
    });
  });
});
