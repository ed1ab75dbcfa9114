// The classifier's glob test (read/classify.ts globMatcher) answers as picomatch's matcher, which it stands in for:
// generated paths of the folders and names workflow globs use, against the default globs and others a config writes.
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/read/classify.js';
import { propertyRuns } from '../helpers/runs.js';

const GLOBS = [
  'thoughts/shared/plans/**/*.md',
  'thoughts/handoffs/**/*.{md,yaml,yml}',
  'thoughts/ledgers/CONTINUITY_*.md',
  'thoughts/searchable/**',
  'docs/plans/*.MD',
  '**/plans/*.md',
  '.claude/handoffs/**',
  'plans/[a-c]*.md',
  'thoughts/[x].md',
  'notes/?.md',
];
const PARTS = [
  'thoughts',
  'shared',
  'plans',
  'handoffs',
  'ledgers',
  'searchable',
  'docs',
  '.claude',
  '.hidden',
  'a',
  'b',
  'x',
  '[x]',
  's001',
  '',
];
const NAMES = [
  'CONTINUITY_a.md',
  'plan.md',
  'plan.MD',
  'task-01.yaml',
  '.dot.md',
  'b.md',
  'x.md',
  '[x].md',
  'c d.md',
  'note.yml',
  '',
];

describe('the classifier glob test', () => {
  it('answers as picomatch with dot: false', () => {
    const path = fc
      .tuple(fc.array(fc.constantFrom(...PARTS), { maxLength: 5 }), fc.constantFrom(...NAMES))
      .map(([dirs, name]) => [...dirs, name].join('/'));
    const literal = fc.constantFrom(...GLOBS);
    fc.assert(
      fc.property(fc.constantFrom(...GLOBS), fc.oneof(path, literal), (glob, p) => {
        expect(globMatcher(glob)(p), `${glob} ${p}`).toBe(picomatch(glob, { dot: false })(p));
      }),
      { seed: 20261129, numRuns: propertyRuns(2000) },
    );
  });
});
