// The verify cache keeps the newest verdicts only: a repository verified on every pull request must not fill .git.
import { readFileSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/repo.js';
import { verifyCache } from '../../src/verify/cache.js';

const TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const key = (n: number) => ({ tree: TREE, command: `npm run check-${n}`, setup: null, timeout: 600 });
const passed = { outcome: 'passed' as const, ms: 5, output: 'ok\n' };

describe('the verify cache', () => {
  it('keeps the newest verdicts beyond its limit and forgets the oldest', () => {
    const root = makeRepo({ 'README.md': '# r\n' });
    const folder = join(root, '.git', 'validate-workflow', 'verify');
    const cache = verifyCache(root, 3);
    const fileOf = (n: number) =>
      readdirSync(folder).find((f) => readFileSync(join(folder, f), 'utf8').includes(`"npm run check-${n}"`))!;
    for (let n = 1; n <= 5; n++) {
      cache.put(key(n), passed);
      // Each verdict an hour older than the next, so "oldest" does not depend on the clock's resolution.
      const at = new Date(Date.UTC(2026, 0, 1, n));
      utimesSync(join(folder, fileOf(n)), at, at);
    }
    expect(readdirSync(folder).filter((f) => f.endsWith('.json'))).toHaveLength(3);
    expect([1, 2, 3, 4, 5].map((n) => cache.get(key(n)) !== null)).toEqual([false, false, true, true, true]);
    expect(cache.get(key(5))).toEqual(passed);
  });
});
