// Corpus round 5 (issue 19): misreads left after round 4, each with a clean fixture and the planted one that must
// still be found, in our own words.
import { describe, expect, it } from 'vitest';
import { lintFiles, of } from '../../helpers/rule-tester.js';
import { readPlanText } from '../../../src/read/plan.js';
import { PLAN, md, reported } from '../fixtures.js';

describe('a Markdown example whose inner block opens with a bare fence never swallows the next phase', () => {
  // The author nests fences as a person reads them: the example's inner blocks open with a bare fence and a
  // `json` fence; CommonMark closes the example at the first bare fence instead.
  const body = (phase2Box: string) =>
    md(
      '# Release notes generator',
      '## Phase 1: Skill file',
      '#### 1.1 Write the skill',
      '```markdown',
      '# Release notes',
      'Run it with a tag:',
      '```',
      '/release-notes v2.3.0',
      '```',
      '## Output',
      '```json',
      '{ "tag": "v2.3.0", "entries": [] }',
      '```',
      '```',
      '### Success Criteria:',
      '#### Automated Verification:',
      '- [x] `make lint` passes',
      '#### Manual Verification:',
      '- [ ] A run on the last tag lists every merged pull request',
      '## Phase 2: Wire it into the release script',
      '```bash',
      'notes=$(claude /release-notes "$TAG")',
      '```',
      '### Success Criteria:',
      '#### Automated Verification:',
      `- ${phase2Box} \`make release-dry-run\` prints the notes`,
      '#### Manual Verification:',
      '- [ ] The draft release on the forge shows the notes',
    );

  it('reads both phases, with their criteria', () => {
    const plan = readPlanText(PLAN, body('[x]'));
    expect(plan.phases.map((p) => [p.label, p.automated.length, p.manual.length])).toEqual([
      ['1', 1, 1],
      ['2', 1, 1],
    ]);
    const found = lintFiles({ [PLAN]: body('[x]') }).filter((f) => reported(f));
    expect(found.map((f) => f.ruleId)).toEqual([]);
  });

  it('a real order problem after such an example is still found', () => {
    const planted = body('[x]').replace('- [x] `make lint` passes', '- [ ] `make lint` passes');
    const found = lintFiles({ [PLAN]: planted }).filter((f) => reported(f));
    expect(found.map((f) => `${f.ruleId}:${f.line}`)).toEqual([
      `plan/phase-order:${planted.split('\n').indexOf('- [x] `make release-dry-run` prints the notes') + 1}`,
    ]);
  });

  it('a bare block that only quotes a plan is left as the parser reads it', () => {
    const quoted = md(
      '# Docs',
      '## Phase 1: Example',
      '```markdown',
      'An example',
      '```',
      'The plan template, verbatim:',
      '```',
      '## Phase 1: [Name]',
      '- [ ] `make test`',
      '```',
      '#### Automated Verification:',
      '- [x] `make docs` passes',
    );
    expect(readPlanText(PLAN, quoted).phases.map((p) => p.label)).toEqual(['1']);
  });
});

describe('an open item that says it was not run is a declared deviation', () => {
  const plan = (open: string) =>
    md(
      '# Watcher filter',
      '## Phase 1: Filter',
      '#### Automated Verification:',
      '- [x] `cargo test -p watcher` passes',
      `- [ ] ${open}`,
      '## Phase 2: Cache',
      '#### Automated Verification:',
      '- [x] `cargo test -p cache` passes',
    );

  it('holds no later phase', () => {
    const found = lintFiles({
      [PLAN]: plan('The end-to-end watcher suite passes (its folder is ignored in the open-source build; not run.)'),
    });
    expect(of(found, 'plan/phase-order')).toEqual([]);
  });

  it('an item that only mentions "not run" in its claim still holds the next phase', () => {
    const found = lintFiles({ [PLAN]: plan('The migration does not run twice on restart') });
    expect(of(found, 'plan/phase-order').map((f) => f.severity)).toEqual(['info']);
  });
});
