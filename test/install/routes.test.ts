// The two ways to install validate-workflow before it is on the registry, as the README gives them, each in a fresh
// project through `npx validate-workflow init` to the hooks refusing an agent's manual check-off and accepting a
// human's confirmation: a tarball made by `npm pack` (prepack and postpack included), and a git URL (a stand-in
// repository's file:// URL for GitHub's). Slow by nature: the git route installs and builds the tool as npm does.
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshRepo, git, must, npm, PROJECT, run, vw } from '../hooks/setup.js';
import { expectGate, gate, standIn } from './scenario.js';

let origin: { dir: string; sha: string };

beforeAll(() => {
  origin = standIn();
});

/** `npm i -D <spec>` as a user types it, its output kept: it must hold no warning. */
function install(dir: string, spec: string): string {
  const res = run(dir, 'npm', ['i', '-D', spec, '--prefer-offline', '--no-audit', '--no-fund']);
  expect(res.code, res.out).toBe(0);
  return res.out;
}

/** init, the `npm install` it asks for, the adoption committed; then the gate. */
function adopt(dir: string): void {
  const first = vw(dir, 'init');
  expect(first.code, first.out).toBe(0);
  expect(first.stdout).toContain('Next: Run `npm install`');
  npm(dir, 'install');
  git(dir, 'add', '-A');
  must(dir, 'git', ['commit', '-q', '-m', 'Adopt validate-workflow']);
  expectGate(gate(dir));
  expect(vw(dir).code).toBe(0);
}

/** What the package must hold once installed: the bundle, its types and licences, no unbundled code, no dependency. */
function expectPayload(project: string): void {
  const installed = join(project, 'node_modules', 'validate-workflow');
  expect(readdirSync(join(installed, 'dist')).sort()).toEqual(['bundle', 'types']);
  expect(existsSync(join(installed, 'dist', 'types', 'api', 'index.d.ts'))).toBe(true);
  expect(readFileSync(join(installed, 'dist', 'bundle', 'THIRD_PARTY_LICENSES'), 'utf8')).toMatch(
    /^unified@11\.0\.5 \(MIT\)$/m,
  );
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
  for (const key of ['scripts', 'dependencies', 'devDependencies']) expect(pkg[key], key).toBeUndefined();
  // Nothing but the tool itself (husky and lint-staged come later, from the `npm install` init asks for).
  expect(readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['validate-workflow']);
}

describe('installing before the package is published', () => {
  it('from a tarball made by `npm pack`: no warning, the bundle only, then the hooks gate commits', () => {
    // A maintainer's clone after `npm ci` (node_modules shared from this checkout); `npm pack` builds, then packs.
    symlinkSync(join(PROJECT, 'node_modules'), join(origin.dir, 'node_modules'));
    const packed = JSON.parse(must(origin.dir, 'npm', ['pack', '--json', '--loglevel=error'])) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files.filter((f) => f.startsWith('dist/') && !/^dist\/(bundle|types)\//.test(f))).toEqual([]);
    expect(files).toContain('dist/bundle/main.js');
    // postpack put the repository's package.json back.
    expect(readFileSync(join(origin.dir, 'package.json'), 'utf8')).toBe(
      readFileSync(join(PROJECT, 'package.json'), 'utf8'),
    );
    expect(git(origin.dir, 'status', '--porcelain', '--', 'package.json')).toBe('');
    expect(existsSync(join(origin.dir, '.package.json.prepack'))).toBe(false);

    const project = freshRepo();
    const tarball = join(project, packed[0]!.filename);
    writeFileSync(tarball, readFileSync(join(origin.dir, packed[0]!.filename)));
    const out = install(project, `./${packed[0]!.filename}`);
    expect(out).not.toMatch(/warn/i);
    expectPayload(project);
    adopt(project);
  }, 300_000);

  it('from a git URL: npm builds it in its own clone, no warning, then the hooks gate commits', () => {
    const project = freshRepo();
    const out = install(project, `git+file://${origin.dir}#${origin.sha}`);
    expect(out).not.toMatch(/warn/i);
    expectPayload(project);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies['validate-workflow']).toMatch(/^git\+file:/);
    adopt(project);
  }, 480_000);
});
