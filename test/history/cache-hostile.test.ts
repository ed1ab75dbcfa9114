// The cache under .git/ is a file anything that can run git can write: whatever it holds, a run judges as it would
// without it (a bad cache is no cache), ends, and never fails with the tool's own exit code 2.
import { existsSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, taskOneDone, type CliJson } from './helpers.js';

const cacheOf = (dir: string) => join(dir, '.git/validate-workflow/cache.pack');
const verdict = (r: CliJson) => ({ code: r.code, results: r.results });

describe('a hostile cache file', () => {
  it('is no cache when it is larger than a run may read, in a full run and in a hook', () => {
    const repo = taskOneDone();
    const cold = cli(repo.dir);
    expect(cold.code, cold.stderr).not.toBe(2);
    const staged = cli(repo.dir, ['--staged']);
    expect(existsSync(cacheOf(repo.dir))).toBe(true);
    // A sparse file: 5 GB on paper, no disk used.
    truncateSync(cacheOf(repo.dir), 5 * 2 ** 30);
    const full = cli(repo.dir);
    expect(full.stderr).not.toMatch(/internal error/);
    expect(verdict(full)).toEqual(verdict(cold));
    const hook = cli(repo.dir, ['--staged']);
    expect(hook.stderr).not.toMatch(/internal error/);
    expect(verdict(hook)).toEqual(verdict(staged));
  });
});
