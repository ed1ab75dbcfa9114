// The dry run's diff is for `git apply` and for people: whatever the texts, applying it to the file before gives
// the file after (a last line without a newline included), and a text that did not change gives no hunk.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { git, makeRepo } from '../helpers/repo.js';
import { unifiedDiff } from '../../src/fix/diff.js';
import { propertyRuns } from '../helpers/runs.js';

const FILE = 'thoughts/ledgers/CONTINUITY_CLAUDE-s.md';
/** Few distinct lines, so the texts share lines and the diff has context, moves and repeats to get right. */
const text = fc
  .tuple(
    fc.array(fc.constantFrom('- [ ] Task 1', '- [x] Task 1', '## State', '', 'a', 'b'), { maxLength: 12 }),
    fc.boolean(),
  )
  .map(([lines, newline]) => (lines.length ? lines.join('\n') + (newline ? '\n' : '') : ''));

describe('unifiedDiff', () => {
  it('gives a patch git applies to turn the text before into the text after', () => {
    const dir = makeRepo({});
    const RUNS = { seed: 20261125, numRuns: propertyRuns(150) };
    const applies = fc.property(text, text, (before, after) => {
      fc.pre(before !== after);
      writeFileSync(join(dir, 'f.md'), before);
      writeFileSync(join(dir, 'fix.diff'), unifiedDiff('f.md', 'f.md', before, after));
      git(dir, 'apply', 'fix.diff');
      expect(readFileSync(join(dir, 'f.md'), 'utf8')).toBe(after);
    });
    // Each pair's patch, for a file of its own, goes to one `git apply`, which applies the patch files it is given one
    // after the other as it applies each alone: one git process for all the pairs instead of one each. Should any
    // fail, the property runs pair by pair, for fast-check's smallest failing pair.
    const pairs = fc.sample(
      fc.tuple(text, text).filter(([before, after]) => before !== after),
      RUNS,
    );
    const patches = pairs.map(([before, after], i) => {
      writeFileSync(join(dir, `f${i}.md`), before);
      writeFileSync(join(dir, `fix${i}.diff`), unifiedDiff(`f${i}.md`, `f${i}.md`, before, after));
      return `fix${i}.diff`;
    });
    const all = spawnSync('git', ['apply', ...patches], { cwd: dir, encoding: 'utf8' });
    const wrong = pairs.filter(([, after], i) => readFileSync(join(dir, `f${i}.md`), 'utf8') !== after).length;
    if (all.status !== 0 || wrong > 0) fc.assert(applies, RUNS);
    expect(all.status, all.stderr).toBe(0);
    expect(wrong).toBe(0);
    expect(pairs).toHaveLength(RUNS.numRuns);
  });

  it('marks a last line without a newline as git does', () => {
    expect(unifiedDiff(FILE, FILE, '## State\n- [ ] Task 1', '## State\n- [x] Task 1\n')).toBe(
      [
        `diff --git a/${FILE} b/${FILE}`,
        `--- a/${FILE}`,
        `+++ b/${FILE}`,
        '@@ -1,2 +1,2 @@',
        ' ## State',
        '-- [ ] Task 1',
        '\\ No newline at end of file',
        '+- [x] Task 1',
        '',
      ].join('\n'),
    );
  });

  it('says nothing of a file that did not change, and only the rename of a file renamed unchanged', () => {
    expect(unifiedDiff(FILE, FILE, 'a\n', 'a\n')).toBe('');
    expect(unifiedDiff('a/task-3-x.md', 'a/task-03-x.md', 'a\n', 'a\n')).toBe(
      'diff --git a/a/task-3-x.md b/a/task-03-x.md\nrename from a/task-3-x.md\nrename to a/task-03-x.md\n',
    );
  });
});
