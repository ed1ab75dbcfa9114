// The public home (github.com/validate-workflow/validate-workflow until a fork says otherwise) is named in one place,
// package.json's `repository`; rule links, SARIF's helpUri, the action `init` writes and the pre-commit framework's
// `repo:` are derived from it. A second spelling of the address would drift the day the home moves.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { actionRef, docsBase, homePage, repositoryPage, toolVersion } from '../../src/shared/version.js';
import { preCommitBlock } from '../../src/cli/init/plain-hooks.js';
import { action } from '../../src/cli/init/ci-workflow.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { repository: { url: string } };

describe('the public home', () => {
  it('comes from package.json: the docs links, the action and the pre-commit block', () => {
    const home = repositoryPage(pkg.repository)!;
    expect(homePage()).toBe(home);
    expect(docsBase()).toBe(`${home}/blob/v${toolVersion()}`);
    expect(action()).toBe(actionRef(home, toolVersion()));
    expect(preCommitBlock('1.2.3', home)).toContain(`  - repo: ${home}\n    rev: v1.2.3\n`);
  });

  it("names the action by the home's owner and name at the major version's tag", () => {
    expect(actionRef('https://github.com/validate-workflow/validate-workflow', '0.1.0')).toBe(
      'validate-workflow/validate-workflow@v0',
    );
    expect(actionRef('https://github.com/someone/vw-fork/', '2.3.4')).toBe('someone/vw-fork@v2');
  });

  it('is spelled nowhere in the source but package.json', () => {
    const home = repositoryPage(pkg.repository)!.replace(/^https:\/\//, '');
    const spelled = fg
      .sync(['src/**/*.ts', 'scripts/**/*.mjs', 'hooks/**'], { cwd: ROOT })
      .filter((f) => readFileSync(`${ROOT}/${f}`, 'utf8').includes(home));
    expect(spelled).toEqual([]);
  });
});
