// The cache under .git/ keeps models and findings between runs; they are only as good as the build that made them.
// An upgraded tool (another build of readers, rules or engine) must rebuild them, never resume from them (issue 13:
// "a stale cache is rebuilt, never trusted"). The installed package is a copy of dist/, so its build id can change.
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT } from '../hooks/setup.js';
import { ANA, CLAUDE, LEDGER, PLAN, Repo, handoffPath, ledgerDoc, planDoc, taskHandoff } from './helpers.js';

const pkg = mkdtempSync(join(tmpdir(), 'vw-pkg-'));
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

/** Whether the run folded history afresh (VALIDATE_WORKFLOW_TIMING reports the history step only then). */
function foldsHistory(dir: string): boolean {
  const res = spawnSync(process.execPath, [join(pkg, 'dist/bundle/main.js')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, VALIDATE_WORKFLOW_TIMING: '1', NO_COLOR: '1' },
  });
  expect(res.status, res.stderr).toBe(0);
  return /^timing history: /m.test(res.stderr);
}

describe('the cache and the build that wrote it', () => {
  it('is resumed by the same build and rebuilt by another one', () => {
    cpSync(join(PROJECT, 'dist'), join(pkg, 'dist'), { recursive: true });
    cpSync(join(PROJECT, 'package.json'), join(pkg, 'package.json'));
    // ajv's standalone validators require its runtime, as an installed package finds it.
    symlinkSync(join(PROJECT, 'node_modules'), join(pkg, 'node_modules'));
    const repo = Repo.create();
    repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit(
      'Task 1: Do step 1',
      { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
      { author: CLAUDE },
    );
    expect(foldsHistory(repo.dir)).toBe(true);
    expect(foldsHistory(repo.dir)).toBe(false);
    // An upgrade: the same version number, another build.
    writeFileSync(join(pkg, 'dist/bundle/BUILD_ID'), 'another build\n');
    expect(foldsHistory(repo.dir)).toBe(true);
    expect(foldsHistory(repo.dir)).toBe(false);
  });
});
