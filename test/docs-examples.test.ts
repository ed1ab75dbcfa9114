// Every rule's docs page carries a failing and a passing example; this suite runs them, so the docs cannot drift
// from the behaviour and removing a rule fails its page (the remark-lint way).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Code, Heading, RootContent } from 'mdast';
import { parseMarkdown, textOf } from '../src/read/markdown.js';
import { RULES } from '../src/rules/index.js';
import { lint, makeRepo } from './helpers/repo.js';
import type { Preset } from '../src/config/config.js';

interface Example {
  files: Record<string, string>;
  preset: Preset;
}

/** Code blocks with `file=<path>` in their meta under a `## Failing example` / `## Passing example` heading. */
function examples(page: string): { failing: Example; passing: Example } {
  const root = parseMarkdown(page);
  const out = { failing: { files: {}, preset: 'recommended' } as Example, passing: { files: {}, preset: 'recommended' } as Example };
  let current: Example | null = null;
  for (const node of root.children as RootContent[]) {
    if (node.type === 'heading' && (node as Heading).depth === 2) {
      const title = textOf(node).toLowerCase();
      current = title.startsWith('failing example') ? out.failing : title.startsWith('passing example') ? out.passing : null;
      continue;
    }
    if (!current || node.type !== 'code') continue;
    const meta = (node as Code).meta ?? '';
    const file = /(?:^|\s)file=(\S+)/.exec(meta)?.[1];
    const preset = /(?:^|\s)preset=(\S+)/.exec(meta)?.[1];
    if (preset === 'strict') current.preset = 'strict';
    if (file) current.files[file] = `${(node as Code).value}\n`;
  }
  return out;
}

describe('docs/rules pages', () => {
  for (const rule of RULES) {
    const id = rule.meta.id;
    const path = new URL(`../docs/rules/${id}.md`, import.meta.url);
    describe(id, () => {
      it('has a docs page with the id, the seed formula and both examples', () => {
        expect(existsSync(path), `docs/rules/${id}.md`).toBe(true);
        const page = readFileSync(path, 'utf8');
        expect(page).toContain(`# ${id}`);
        expect(page).toContain(rule.meta.formula);
        const ex = examples(page);
        expect(Object.keys(ex.failing.files).length).toBeGreaterThan(0);
        expect(Object.keys(ex.passing.files).length).toBeGreaterThan(0);
      });
      it('failing example is reported by the rule, passing example is not', () => {
        if (!existsSync(path)) return expect.fail(`docs/rules/${id}.md is missing`);
        const ex = examples(readFileSync(path, 'utf8'));
        const failing = lint(makeRepo(ex.failing.files), { preset: ex.failing.preset }).filter((f) => f.ruleId === id && f.severity !== 'info');
        expect(failing.length, `failing example of ${id} produced no ${id} finding`).toBeGreaterThan(0);
        const passing = lint(makeRepo(ex.passing.files), { preset: ex.passing.preset }).filter((f) => f.ruleId === id && f.severity !== 'info');
        expect(passing, `passing example of ${id}`).toEqual([]);
      });
    });
  }
});
