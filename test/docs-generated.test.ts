// The rule tables of README.md and the severity line of each rule's page are generated from the catalog
// (scripts/rule-docs.mjs, `npm run docs`): this fails when someone edits a rule's severities, adds or removes a
// rule, and forgets to regenerate, or edits the generated text by hand.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../src/engine/catalog.js';
import { PACKS } from '../src/packs/registry.js';
// @ts-expect-error: a plain ES module script, without type declarations
import { generate, pagePath, renderPage, renderReadme, severityLine, splitCatalog } from '../scripts/rule-docs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string): string | null => (existsSync(join(ROOT, p)) ? readFileSync(join(ROOT, p), 'utf8') : null);

interface Generated {
  path: string;
  current: string;
  expected: string;
}

describe('generated docs', () => {
  const { core, packs } = splitCatalog(RULES, PACKS) as { core: typeof RULES; packs: typeof RULES };

  it('README.md and every rule page say what the catalog says (run `npm run docs` when this fails)', () => {
    const stale = (generate(read, core, packs) as Generated[])
      .filter((f) => f.current !== f.expected)
      .map((f) => f.path);
    expect(stale).toEqual([]);
  });

  it('the README rule tables list exactly the catalog, core rules first, then the packs', () => {
    const readme = read('README.md')!;
    const section = readme.slice(readme.indexOf('## Rules'), readme.indexOf('\n## ', readme.indexOf('## Rules') + 1));
    const listed = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...core, ...packs].map((r) => r.meta.id));
    expect(core.length).toBeGreaterThan(0);
    expect(packs.length).toBe(PACKS.flatMap((p) => p.rules).length);
  });

  it('every rule has a page with one severity line', () => {
    for (const rule of RULES) {
      const page = read(pagePath(rule.meta.id));
      expect(page, pagePath(rule.meta.id)).not.toBeNull();
      expect(page!.match(/^- Severity: /gm), pagePath(rule.meta.id)).toHaveLength(1);
    }
  });

  it('rewrites only the table rows and the severity line', () => {
    const rule = { meta: { id: 'x/y', severities: { recommended: 'warn', strict: 'error' } } };
    expect(severityLine(rule)).toBe('- Severity: `warn` in `recommended`, `error` in `strict`');
    const page =
      '# x/y\n\nWords.\n\n- Severity: `error` in `recommended`, `error` in `strict`\n- The rule in one line: `—`\n';
    expect(renderPage(page, rule)).toBe(page.replace('`error` in `recommended`', '`warn` in `recommended`'));
    const readme = [
      '# t',
      '## Rules',
      'Intro.',
      '',
      '| rule | recommended / strict |',
      '| --- | --- |',
      '| `old/rule` | error / error |',
      '',
      'Packs:',
      '',
      '| rule | recommended / strict |',
      '| --- | --- |',
      '',
      '## Next',
      '| rule | recommended / strict |',
      '| --- | --- |',
      '| `kept/as-is` | off / off |',
    ].join('\n');
    const pack = { meta: { id: 'p/z', severities: { recommended: 'error', strict: 'error' } } };
    expect(renderReadme(readme, [rule], [pack])).toBe(
      readme
        .replace('| `old/rule` | error / error |', '| `x/y` | warn / error |')
        .replace('| --- | --- |\n\n## Next', '| --- | --- |\n| `p/z` | error / error |\n\n## Next'),
    );
  });
});
