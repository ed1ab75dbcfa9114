// `init` in-process, for what it decides about files that are already there: no npm, no hooks running, just the
// files it writes and what it says. (The end-to-end path, installed from the packed tarball, is e2e.test.ts.)
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { init, lintStagedGlob, LINT_STAGED_TASK, PREPARE, type InitOptions } from '../../src/cli/init/index.js';
import { DEFAULT_PATHS } from '../../src/config/config.js';
import type { Io } from '../../src/cli/io.js';
import { PROJECT, git, gitInit, identity, tempDir, tree } from './setup.js';

function repo(pkg: Record<string, unknown> | string | null = { name: 'app', private: true }): string {
  const dir = tempDir();
  gitInit(dir);
  identity(dir);
  if (pkg !== null) writeFileSync(join(dir, 'package.json'), typeof pkg === 'string' ? pkg : `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

async function run(dir: string, opts: Partial<InitOptions> = {}, cwd = dir): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), color: false, env: {} };
  const code = await init({ force: false, claude: false, ...opts }, io);
  return { code, stdout, stderr };
}

const pkgOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

describe('init and what it cannot set up', () => {
  it('outside a git repository', async () => {
    const res = await run(tempDir());
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('git init');
  });

  it('without a package.json, where the pre-commit framework owns the hooks: leaves them, says what to add', async () => {
    const dir = repo(null);
    writeFileSync(join(dir, '.pre-commit-config.yaml'), 'repos: []\n');
    const res = await run(dir);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/note\s+\.pre-commit-config\.yaml: the pre-commit framework owns the git hooks here/);
    expect(res.stdout).toContain('- id: validate-workflow-pre-push');
    expect(res.stdout).toMatch(/created\s+validate-workflow\.config\.json/);
    expect(res.stdout).not.toContain('npm install');
    expect(existsSync(join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(join(dir, 'package.json'))).toBe(false);
  });

  it('with a package.json that is not JSON, leaving it as it was', async () => {
    const dir = repo('{ "name": ');
    const res = await run(dir);
    expect(res.code).toBe(2);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{ "name": ');
  });
});

describe('init and the files already there', () => {
  it('from a subfolder sets up the repository root, and a second run writes nothing', async () => {
    const dir = repo();
    mkdirSync(join(dir, 'src'));
    const first = await run(dir, {}, join(dir, 'src'));
    expect(first.code).toBe(0);
    expect(existsSync(join(dir, '.husky/pre-commit'))).toBe(true);
    const before = tree(dir);
    const second = await run(dir);
    expect(second.stdout).toContain('Nothing to change');
    expect(tree(dir)).toEqual(before);
  });

  it("chains a user's prepare script and keeps the versions they chose", async () => {
    const dir = repo({ name: 'app', scripts: { prepare: 'npm run build' }, devDependencies: { husky: '^9.0.0' } });
    await run(dir);
    const pkg = pkgOf(dir);
    expect(pkg.scripts.prepare).toBe(`npm run build && (${PREPARE})`);
    expect(pkg.devDependencies.husky).toBe('^9.0.0');
    expect(pkg.devDependencies['lint-staged']).toBe('16.4.0');
    // Never chained twice.
    await run(dir);
    expect(pkgOf(dir).scripts.prepare).toBe(`npm run build && (${PREPARE})`);
  });

  it("keeps package.json's indentation", async () => {
    const dir = repo('{\n\t"name": "app"\n}\n');
    await run(dir);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toMatch(/^\{\n\t"name": "app",\n\t"devDependencies": \{\n\t\t"husky"/);
  });

  it('adds its task to an existing .lintstagedrc.json, and only says what to add to a JavaScript config', async () => {
    const json = repo();
    writeFileSync(join(json, '.lintstagedrc.json'), '{\n    "*.ts": "eslint"\n}\n');
    const a = await run(json);
    expect(a.stdout).toMatch(/updated\s+\.lintstagedrc\.json/);
    expect(JSON.parse(readFileSync(join(json, '.lintstagedrc.json'), 'utf8'))).toEqual({ '*.ts': 'eslint', [lintStagedGlob(DEFAULT_PATHS)]: LINT_STAGED_TASK });
    expect(pkgOf(json)['lint-staged']).toBeUndefined();

    const js = repo();
    writeFileSync(join(js, 'lint-staged.config.mjs'), 'export default {}\n');
    const b = await run(js);
    expect(b.stdout).toMatch(/kept\s+lint-staged\.config\.mjs: init does not edit this format: add/);
    expect(readFileSync(join(js, 'lint-staged.config.mjs'), 'utf8')).toBe('export default {}\n');
    expect(pkgOf(js)['lint-staged']).toBeUndefined();
  });

  it('leaves an existing lint-staged entry for validate-workflow alone', async () => {
    const dir = repo({ name: 'app', 'lint-staged': { 'thoughts/**': 'validate-workflow --staged .' } });
    await run(dir);
    expect(pkgOf(dir)['lint-staged']).toEqual({ 'thoughts/**': 'validate-workflow --staged .' });
  });

  it('keeps a config kept in package.json (a config file would take precedence over it)', async () => {
    const dir = repo({ name: 'app', validateWorkflow: { preset: 'strict', paths: { plans: ['docs/plans/**/*.md'] } } });
    const res = await run(dir);
    expect(existsSync(join(dir, 'validate-workflow.config.json'))).toBe(false);
    expect(res.stdout).toContain('package.json#validateWorkflow');
    // The lint-staged glob follows the configured folders.
    expect(Object.keys(pkgOf(dir)['lint-staged'])[0]).toContain('docs/**');
  });

  it('never overwrites the config; replaces an edited CI workflow only with --force', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'validate-workflow.config.json'), '{ "preset": "strict" }\n');
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(join(dir, '.github/workflows/validate-workflow.yml'), 'name: mine\n');
    const first = await run(dir);
    expect(first.stdout).toMatch(/kept\s+\.github\/workflows\/validate-workflow\.yml: differs/);
    expect(readFileSync(join(dir, '.github/workflows/validate-workflow.yml'), 'utf8')).toBe('name: mine\n');
    const forced = await run(dir, { force: true });
    expect(forced.stdout).toMatch(/updated\s+\.github\/workflows\/validate-workflow\.yml/);
    expect(readFileSync(join(dir, '.github/workflows/validate-workflow.yml'), 'utf8')).toContain('fetch-depth: 0');
    expect(readFileSync(join(dir, 'validate-workflow.config.json'), 'utf8')).toBe('{ "preset": "strict" }\n');
  });

  it('writes a CI workflow that runs the action on the pull request\'s own head, allowed to keep its comment', async () => {
    const dir = repo();
    expect((await run(dir)).code).toBe(0);
    const ci = parseYaml(readFileSync(join(dir, '.github/workflows/validate-workflow.yml'), 'utf8'));
    expect(ci.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const [checkout, action, ...rest] = ci.jobs['validate-workflow'].steps;
    expect(checkout).toEqual({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0, ref: '${{ github.event.pull_request.head.sha || github.sha }}' } });
    expect(action.uses).toBe('validate-workflow/validate-workflow@v0');
    expect(rest).toEqual([]);
    // Every input it sets is one the action declares.
    const declared = Object.keys(parseYaml(readFileSync(join(PROJECT, 'action.yml'), 'utf8')).inputs);
    expect(declared).toEqual(expect.arrayContaining(Object.keys(action.with)));
  });

  it('keeps an edited hook of its own unless --force, and keeps the chains it named', async () => {
    const dir = repo();
    const hook = join(dir, '.git/hooks/pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    chmodSync(hook, 0o755);
    await run(dir);
    const path = join(dir, '.husky/pre-commit');
    writeFileSync(path, `${readFileSync(path, 'utf8')}echo mine\n`);
    const kept = await run(dir);
    expect(kept.stdout).toMatch(/kept\s+\.husky\/pre-commit: differs/);
    // Once husky owns core.hooksPath the old folder is no longer the active one; --force still keeps its chain.
    git(dir, 'config', 'core.hooksPath', '.husky/_');
    const forced = await run(dir, { force: true });
    expect(forced.stdout).toMatch(/updated\s+\.husky\/pre-commit: chains \.git\/hooks\/pre-commit/);
    expect(readFileSync(path, 'utf8')).not.toContain('echo mine');
  });

  it('creates the thoughts/ skeleton, with a .gitkeep only where a folder would be empty', async () => {
    const dir = repo();
    const res = await run(dir);
    expect(res.stdout).toMatch(/created\s+thoughts\/handoffs\/\.gitkeep/);
    // A folder that already holds files needs no .gitkeep.
    const other = repo();
    mkdirSync(join(other, 'thoughts/ledgers'), { recursive: true });
    writeFileSync(join(other, 'thoughts/ledgers/CONTINUITY_x.md'), '# x\n');
    await run(other);
    expect(existsSync(join(other, 'thoughts/ledgers/.gitkeep'))).toBe(false);
  });

  it('--claude merges the Claude Code hook into .claude/settings.json, once', async () => {
    const dir = repo();
    const first = await run(dir, { claude: true });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/updated\s+\.claude\/settings\.json/);
    const settings = readFileSync(join(dir, '.claude/settings.json'), 'utf8');
    expect(settings).toContain('validate-workflow');
    const second = await run(dir, { claude: true });
    expect(second.stdout).toMatch(/unchanged\s+\.claude\/settings\.json/);
    expect(second.stdout).toContain('Nothing to change');
  });
});

describe('init --strict and what each choice protects against', () => {
  const SIGNERS = 'validate-workflow.allowed-signers';
  const configOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'validate-workflow.config.json'), 'utf8'));

  function sshKey(): { key: string; pub: string } {
    const key = join(tempDir(), 'id_ed25519');
    const res = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ana@laptop', '-f', key], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`ssh-keygen failed: ${res.stderr}`);
    const [type, body] = readFileSync(`${key}.pub`, 'utf8').trim().split(' ');
    return { key, pub: `${type} ${body}` };
  }

  it('plain init writes recommended and says what it does and does not stop', async () => {
    const dir = repo();
    const res = await run(dir);
    expect(configOf(dir)).toMatchObject({ preset: 'recommended' });
    expect(res.stdout).toMatch(/note\s+preset recommended: an agent's unconfirmed check-off is refused; .*forges a human author gets through/);
    expect(res.stdout).not.toMatch(/confirmers:/);
  });

  it('says how many earlier commits are read and not judged, in words that fit the count', async () => {
    for (const [count, said] of [
      [1, 'the commit before it is read, not judged'],
      [2, 'the 2 commits before it are read, not judged'],
    ] as const) {
      const dir = repo();
      for (let i = 0; i < count; i++) git(dir, 'commit', '-q', '--allow-empty', '-m', `Earlier ${i}`);
      expect((await run(dir)).stdout).toContain(said);
    }
  });

  it('without commit signing: preset strict and the current git identity as the only confirmer, and says signatures are not set', async () => {
    const dir = repo();
    const res = await run(dir, { strict: true });
    expect(res.code).toBe(0);
    const config = configOf(dir);
    expect(config).toMatchObject({ preset: 'strict', confirmers: ['ana@example.com'] });
    expect(config.requireSignedConfirmations).toBeUndefined();
    expect(existsSync(join(dir, SIGNERS))).toBe(false);
    expect(res.stdout).toMatch(/note\s+preset strict: .*Confirmed-items/);
    expect(res.stdout).toMatch(/note\s+confirmers: an agent can no longer invent a confirmer, but can still name a listed human/);
    expect(res.stdout).toMatch(/note\s+requireSignedConfirmations: not set/);
  });

  it('with an SSH signing key: signed confirmations against an allowed-signers file holding that key; a second run writes nothing', async () => {
    const dir = repo();
    const { key, pub } = sshKey();
    git(dir, 'config', 'gpg.format', 'ssh');
    git(dir, 'config', 'user.signingkey', `${key}.pub`);
    const res = await run(dir, { strict: true });
    expect(res.code).toBe(0);
    expect(configOf(dir)).toMatchObject({ preset: 'strict', confirmers: ['ana@example.com'], requireSignedConfirmations: true, allowedSigners: SIGNERS });
    expect(readFileSync(join(dir, SIGNERS), 'utf8')).toBe(`ana@example.com namespaces="git" ${pub}\n`);
    expect(res.stdout).toMatch(new RegExp(`created\\s+${SIGNERS}`));
    expect(res.stdout).toMatch(/note\s+requireSignedConfirmations: only a commit signed by a key listed in validate-workflow\.allowed-signers .*keep that signing key out of the agent's environment/);
    const before = tree(dir);
    const again = await run(dir, { strict: true });
    expect(again.stdout).toContain('Nothing to change');
    expect(tree(dir)).toEqual(before);
    // The file is what ssh-keygen verifies against: a signature by that key checks out.
    const data = join(tempDir(), 'data');
    writeFileSync(data, 'x');
    expect(spawnSync('ssh-keygen', ['-Y', 'sign', '-f', key, '-n', 'git', data]).status).toBe(0);
    const verify = spawnSync('ssh-keygen', ['-Y', 'verify', '-f', join(dir, SIGNERS), '-I', 'ana@example.com', '-n', 'git', '-s', `${data}.sig`], { input: 'x' });
    expect(verify.status).toBe(0);
  });

  it('takes a literal `key::` signing key too', async () => {
    const dir = repo();
    const { pub } = sshKey();
    git(dir, 'config', 'gpg.format', 'ssh');
    git(dir, 'config', 'user.signingkey', `key::${pub} ana@laptop`);
    await run(dir, { strict: true });
    expect(readFileSync(join(dir, SIGNERS), 'utf8')).toBe(`ana@example.com namespaces="git" ${pub}\n`);
  });

  it("refuses an agent's identity and writes nothing", async () => {
    const dir = repo();
    git(dir, 'config', 'user.name', 'Claude');
    git(dir, 'config', 'user.email', 'noreply@anthropic.com');
    const before = tree(dir);
    const res = await run(dir, { strict: true });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Claude <noreply@anthropic\.com> is an agent's identity/);
    expect(tree(dir)).toEqual(before);
  });

  it('keeps an existing config and says what to set, describing the config in force', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'validate-workflow.config.json'), '{ "preset": "recommended", "confirmers": ["bob@example.com"] }\n');
    const res = await run(dir, { strict: true });
    expect(readFileSync(join(dir, 'validate-workflow.config.json'), 'utf8')).toBe('{ "preset": "recommended", "confirmers": ["bob@example.com"] }\n');
    expect(res.stdout).toMatch(/kept\s+validate-workflow\.config\.json: yours, kept as is; for the strong gate set \{"preset":"strict","confirmers":\["ana@example.com"\]\}/);
    expect(res.stdout).toMatch(/note\s+preset recommended:/);
    expect(res.stdout).toMatch(/note\s+confirmers: an agent can no longer invent/);
  });
});

describe('the lint-staged glob', () => {
  it('covers the folders of the workflow globs and the files that hold trust settings', () => {
    expect(lintStagedGlob(DEFAULT_PATHS)).toBe('{thoughts/**,validate-workflow.config.json,validate-workflow.baseline.json,package.json,validate-workflow.allowed-signers}');
    expect(lintStagedGlob({ ...DEFAULT_PATHS, plans: ['**/PLAN.md'] })).toBe('**');
  });
});
