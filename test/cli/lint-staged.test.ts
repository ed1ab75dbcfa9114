// Which lint-staged configurations the pre-commit hook reads itself (cli/lint-staged.ts): one JSON or YAML
// configuration at the top, of globs and commands, where the check's entry is the one init writes; every other layout
// is lint-staged's to find (null), since reading it wrong would run the wrong tasks or none. Real repositories: the
// files are those git lists, tracked or not, ignored ones aside, as lint-staged lists them.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintStagedPlan } from '../../src/cli/lint-staged.js';
import { git, makeRepo } from '../helpers/repo.js';

const CHECK = 'validate-workflow --staged .';
const GLOB = '{thoughts/**,validate-workflow.config.json}';
const pkg = (config: unknown, extra: object = {}) =>
  `${JSON.stringify({ name: 'app', private: true, ...extra, ...(config === undefined ? {} : { 'lint-staged': config }) })}\n`;

describe('the lint-staged configuration the hook hands lint-staged', () => {
  it('is empty when the check is the only task of package.json', () => {
    expect(lintStagedPlan(makeRepo({ 'package.json': pkg({ [GLOB]: CHECK }) }, { commit: true }))).toEqual({
      config: {},
      source: 'package.json',
    });
  });

  it('keeps every other task, and the shape of each entry', () => {
    const dir = makeRepo({
      'package.json': pkg({ [GLOB]: [CHECK, 'prettier --check'], '*.ts': 'eslint', '*.md': ['prettier --write'] }),
    });
    expect(lintStagedPlan(dir)?.config).toEqual({
      [GLOB]: ['prettier --check'],
      '*.ts': 'eslint',
      '*.md': ['prettier --write'],
    });
  });

  it('knows the check written with npx in front', () => {
    const dir = makeRepo({ 'package.json': pkg({ [GLOB]: `npx --no-install ${CHECK}`, '*.ts': 'eslint' }) });
    expect(lintStagedPlan(dir)?.config).toEqual({ '*.ts': 'eslint' });
  });

  it('reads a .lintstagedrc in JSON or YAML at the top, untracked too, beside a package.json without the key', () => {
    const json = makeRepo({ 'package.json': pkg(undefined), '.lintstagedrc.json': JSON.stringify({ [GLOB]: CHECK }) });
    expect(lintStagedPlan(json)).toEqual({ config: {}, source: '.lintstagedrc.json' });
    const yaml = makeRepo({ '.lintstagedrc.yml': `'*.ts': eslint\n'${GLOB}': ${CHECK}\n` });
    expect(lintStagedPlan(yaml)).toEqual({ config: { '*.ts': 'eslint' }, source: '.lintstagedrc.yml' });
  });

  it('passes over a configuration file git ignores, as lint-staged does', () => {
    const dir = makeRepo({
      'package.json': pkg({ [GLOB]: CHECK }),
      '.gitignore': 'build/\n',
      'build/.lintstagedrc.json': JSON.stringify({ '*': 'false' }),
    });
    expect(lintStagedPlan(dir)?.config).toEqual({});
  });

  it.each([
    ['a JavaScript configuration', { 'lint-staged.config.mjs': `export default { '*.ts': 'eslint' };\n` }],
    ['two configurations', { 'package.json': pkg({ [GLOB]: CHECK }), '.lintstagedrc': `'*.ts': eslint\n` }],
    [
      'a configuration in a subfolder (a monorepo package)',
      { 'package.json': pkg({ [GLOB]: CHECK }), 'packages/web/package.json': pkg({ '*.ts': 'eslint' }) },
    ],
    ['only a configuration in a subfolder', { 'packages/web/.lintstagedrc.json': JSON.stringify({ '*': 'true' }) }],
    ['the check with options of its own', { 'package.json': pkg({ [GLOB]: `${CHECK} --config other.json` }) }],
    ['an entry that is no command', { 'package.json': pkg({ '*.ts': { title: 'x' } }) }],
    ['a package.json that is not JSON', { 'package.json': '{ "name": "app", ' }],
    ['no configuration at all', { 'README.md': 'hello\n' }],
  ])("is lint-staged's own to find: %s", (_name, files) => {
    expect(lintStagedPlan(makeRepo(files))).toBeNull();
  });

  it('passes over a subfolder package.json without the key', () => {
    const dir = makeRepo({
      'package.json': pkg({ [GLOB]: CHECK, '*.ts': 'eslint' }),
      'packages/web/package.json': pkg(undefined, { name: 'web' }),
    });
    git(dir, 'add', '-A');
    expect(lintStagedPlan(dir)?.config).toEqual({ '*.ts': 'eslint' });
  });
});

describe('a configuration read as lint-staged reads it, or left to lint-staged', () => {
  it.each([
    [
      'an ignored configuration at the top',
      {
        'package.json': pkg({ [GLOB]: CHECK }),
        '.gitignore': '.lintstagedrc.json\n',
        '.lintstagedrc.json': '{"*.md": "false"}',
      },
    ],
    ['a .json configuration that is YAML, not JSON', { '.lintstagedrc.json': `'*.ts': eslint\n` }],
    ['an empty configuration', { 'package.json': pkg({}) }],
    [
      'a __proto__ glob',
      { 'package.json': `{"name": "app", "lint-staged": {"__proto__": ["eslint"], "${GLOB}": "${CHECK}"}}\n` },
    ],
  ])("is lint-staged's own: %s", (_name, files) => {
    expect(lintStagedPlan(makeRepo(files))).toBeNull();
  });

  it("is lint-staged's own when the configuration is a link (lint-staged reads its target by the target's name)", () => {
    // JSON text in a module: lint-staged imports it (no default export, no configuration); read as JSON it would be one.
    const dir = makeRepo({ 'config/lint.mjs': `${JSON.stringify({ '*.ts': 'eslint', [GLOB]: CHECK })}\n` });
    symlinkSync('config/lint.mjs', join(dir, '.lintstagedrc.json'));
    expect(lintStagedPlan(dir)).toBeNull();
  });

  it('passes over a nested package.json that does not parse, as lint-staged does', () => {
    const dir = makeRepo({
      'package.json': pkg({ [GLOB]: CHECK }),
      'templates/app/package.json': '{ "name": "{{name}}", }\n',
    });
    expect(lintStagedPlan(dir)).toEqual({ config: {}, source: 'package.json' });
  });
});
