// Repositories without package.json (Rust, Python): `validate-workflow init` from a global install writes plain git
// hooks, and the pre-commit framework (the real `pre-commit`, Debian's package) runs the hooks this repository's
// .pre-commit-hooks.yaml declares. Each gates commits the way the Node route does; pre-push refuses a history made
// with --no-verify. Slow by nature: pre-commit installs and builds the tool once, in its own cache.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE, PLAN, ident, planDoc } from '../history/helpers.js';
import { commit, git, identity, must, npm, pack, run, tempDir } from '../hooks/setup.js';
import { expectGate, gate, standIn } from './scenario.js';

/** A Rust project: a Cargo.toml, no package.json, Ana at the keyboard. */
function rustRepo(): string {
  const dir = tempDir('vw-rust-');
  git(dir, 'init', '-q', '-b', 'main');
  identity(dir);
  writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n');
  writeFileSync(join(dir, '.gitignore'), 'target/\n');
  return dir;
}

describe('init in a repository without package.json', () => {
  it('writes plain git hooks that run the global install, which gate commits and pushes', () => {
    const prefix = tempDir('vw-global-');
    npm(prefix, 'i', '-g', '--prefix', prefix, pack());
    const env = { PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}` };
    const dir = rustRepo();
    writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho "cargo fmt ran" >&2\n', { mode: 0o755 });
    const first = run(dir, 'validate-workflow', ['init'], { env });
    expect(first.code, first.out).toBe(0);
    expect(first.stdout).toMatch(/moved\s+\.git\/hooks\/pre-commit: to pre-commit\.pre-validate-workflow/);
    expect(first.stdout).toMatch(/created\s+\.git\/hooks\/commit-msg/);
    expect(first.stdout).toMatch(/created\s+validate-workflow\.config\.json/);
    expect(first.stdout).not.toContain('npm install');
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
    // A second run writes nothing.
    const again = run(dir, 'validate-workflow', ['init'], { env });
    expect(again.stdout).toContain('Nothing to change');
    git(dir, 'add', '-A');
    must(dir, 'git', ['commit', '-q', '-m', 'Adopt validate-workflow']);

    const result = gate(dir, env);
    expectGate(result);
    // The hook that was there still runs, first.
    expect(result.refused.out).toContain('cargo fmt ran');

    const remote = tempDir('vw-remote-');
    git(remote, 'init', '-q', '--bare');
    git(dir, 'remote', 'add', 'origin', remote);
    expect(run(dir, 'git', ['push', '-q', 'origin', 'main'], { env }).code).toBe(0);
    writeFileSync(join(dir, PLAN), planDoc({ tasks: [1, 2], auto: [1], manual: [1, 2] }));
    git(dir, 'add', '-A');
    expect(commit(dir, ['--no-verify', `--author=${ident(CLAUDE)}`, '-m', 'Phase 2 verified'], env).code).toBe(0);
    const push = run(dir, 'git', ['push', '-q', 'origin', 'main'], { env });
    expect(push.code).not.toBe(0);
    expect(push.out).toContain('history/manual-confirmation');
  }, 240_000);
});

describe('the pre-commit framework', () => {
  let origin: { dir: string; sha: string };
  beforeAll(() => {
    origin = standIn();
  });

  it("runs this repository's hooks in a repository without package.json: commits gated, a bad push refused", () => {
    const found = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
    if (found.error || found.status !== 0)
      throw new Error('`pre-commit` is not installed: `apt-get install -y pre-commit` (.ci/run installs it)');
    // pre-commit's own cache, fresh: it clones the stand-in at the pinned commit, installs and builds it there.
    const env = { PRE_COMMIT_HOME: tempDir('vw-pre-commit-home-') };
    const dir = rustRepo();
    const config = [
      'default_install_hook_types: [pre-commit, commit-msg, pre-push]',
      'repos:',
      `  - repo: ${origin.dir}`,
      `    rev: ${origin.sha}`,
      '    hooks:',
      '      - id: validate-workflow',
      '      - id: validate-workflow-commit-msg',
      '      - id: validate-workflow-pre-push',
      '',
    ].join('\n');
    writeFileSync(join(dir, '.pre-commit-config.yaml'), config);
    const installed = run(dir, 'pre-commit', ['install'], { env });
    expect(installed.code, installed.out).toBe(0);
    // Adoption: the config by hand, as the README says for this route (`validate-workflow init` writes the same).
    const hooksBefore = readFileSync(join(dir, '.git', 'hooks', 'pre-commit'), 'utf8');
    writeFileSync(join(dir, 'validate-workflow.config.json'), '{ "preset": "recommended" }\n');
    git(dir, 'add', '-A');
    const adopt = commit(dir, ['-m', 'Adopt validate-workflow through pre-commit'], env);
    expect(adopt.code, adopt.out).toBe(0);
    expect(adopt.out).toMatch(/validate-workflow \(the staged change\)\.+Passed/);
    expect(readFileSync(join(dir, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe(hooksBefore);

    const result = gate(dir, env);
    expectGate(result);
    expect(result.refused.out).toMatch(/validate-workflow \(the commit with its message\)\.+Failed/);

    const remote = tempDir('vw-remote-');
    git(remote, 'init', '-q', '--bare');
    git(dir, 'remote', 'add', 'origin', remote);
    const first = run(dir, 'git', ['push', '-q', 'origin', 'main'], { env });
    expect(first.code, first.out).toBe(0);
    writeFileSync(join(dir, PLAN), planDoc({ tasks: [1, 2], auto: [1], manual: [1, 2] }));
    git(dir, 'add', '-A');
    expect(commit(dir, ['--no-verify', `--author=${ident(CLAUDE)}`, '-m', 'Phase 2 verified'], env).code).toBe(0);
    const pushed = git(remote, 'rev-parse', 'main');
    const push = run(dir, 'git', ['push', '-q', 'origin', 'main'], { env });
    expect(push.code).not.toBe(0);
    expect(push.out).toContain('history/manual-confirmation');
    expect(push.out).toMatch(/validate-workflow \(the pushed commits\)\.+Failed/);
    expect(git(remote, 'rev-parse', 'main')).toBe(pushed);
  }, 480_000);
});
