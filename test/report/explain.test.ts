// `validate-workflow explain <rule-id>`: every rule's docs page rendered for a terminal, with what it checks, the
// rule in one line, both examples and the fix; nothing for an id the catalog does not know.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explain, renderForTerminal, ruleList, suggestRules } from '../../src/cli/explain.js';
import { parseMarkdown } from '../../src/read/markdown.js';
import { RULES } from '../../src/engine/catalog.js';

const page = (id: string) => readFileSync(new URL(`../../docs/rules/${id}.md`, import.meta.url), 'utf8');

describe('explain', () => {
  for (const rule of RULES) {
    const id = rule.meta.id;
    it(`renders ${id}`, () => {
      const text = explain(id);
      expect(text).not.toBeNull();
      const lines = text!.split('\n');
      // The title is upper-cased and underlined; section headings are underlined.
      expect(lines.slice(0, 2)).toEqual([id.toUpperCase(), '='.repeat(id.length)]);
      for (const title of ['Failing example', 'Passing example', 'How to fix']) {
        const at = lines.indexOf(title);
        expect(at, title).toBeGreaterThan(0);
        expect(lines[at + 1]).toBe('-'.repeat(title.length));
      }
      expect(text).toContain(`The rule in one line: \`${rule.meta.formula}\``);
      // No Markdown syntax of the page's structure is left: headings and fences are rendered, not echoed.
      expect(text).not.toMatch(/^#{1,6} /m);
      expect(text).not.toMatch(/^\s*(```|~~~)/m);
    });
  }

  it("indents the examples' code under the file they write", () => {
    const text = explain('history/manual-confirmation')!;
    const lines = text.split('\n');
    const caption = lines.indexOf('  thoughts/shared/plans/2026-11-20-auth.md:');
    expect(caption).toBeGreaterThan(0);
    expect(lines[caption + 1]).toBe('    # Auth flow Implementation Plan');
    expect(text).toContain('  commit:\n    message: "Add the auth flow plan"');
    // Every line of every fenced example is there, indented.
    const source = page('history/manual-confirmation');
    const example = /````markdown file=\S+\n([\s\S]*?)\n````/.exec(source)![1]!;
    for (const line of example.split('\n')) if (line) expect(lines).toContain(`    ${line}`);
  });

  it('captions the steps of history examples that have no code: a deletion, how the tool is run', () => {
    expect(explain('history/handoff-deleted')).toContain(
      '\n  delete thoughts/handoffs/auth-flow/task-01-users-table.md\n',
    );
    expect(explain('history/incomplete')).toContain('\n  run with:\n    shallow: true\n');
  });

  it('keeps list items and their continuation lines indented', () => {
    const text = explain('history/manual-confirmation')!;
    expect(text).toContain(
      "- the identity is not an agent's: it matches none of the `agents` patterns (by default `noreply@anthropic.com`,\n  `*[bot]@users.noreply.github.com`",
    );
    expect(text).toContain('- Severity: `error` in `recommended`, `error` in `strict`');
  });

  it('drops relative link targets a terminal cannot follow, keeps absolute ones', () => {
    const text = renderForTerminal(
      parseMarkdown('See [the schema](../schemas/plan.json) and [GitHub](https://github.com).\n'),
    );
    expect(text).toBe('See the schema and GitHub (https://github.com).\n');
  });

  it('renders tables, quotes and ordered lists', () => {
    const text = renderForTerminal(
      parseMarkdown(
        [
          '### Notes',
          '',
          '| a | bb |',
          '| --- | --- |',
          '| ccc | d |',
          '',
          '> quoted',
          '',
          '3. three',
          '4. four',
          '',
        ].join('\n'),
      ),
    );
    expect(text).toBe(
      ['NOTES', '', 'a    bb', '---  --', 'ccc  d', '', '| quoted', '', '3. three', '4. four', ''].join('\n'),
    );
  });

  it('lists every rule on one line with its severities and short description', () => {
    const lines = ruleList().split('\n');
    for (const rule of RULES)
      expect(lines.find((l) => l.startsWith(`${rule.meta.id} `))).toMatch(
        new RegExp(`^${rule.meta.id} +${rule.meta.severities.recommended}/${rule.meta.severities.strict} +\\S`),
      );
  });

  it('suggests the rule a near-miss id meant, or every rule whose id ends with the word', () => {
    expect(suggestRules('plan/modee')).toEqual(['plan/mode']);
    expect(suggestRules('phase-order')).toEqual(['plan/phase-order', 'history/phase-order']);
    expect(suggestRules('nothing-like-it')).toEqual([]);
  });

  it('returns null for an unknown rule, and never reads outside the docs', () => {
    expect(explain('plan/no-such-rule')).toBeNull();
    expect(explain('')).toBeNull();
    expect(explain('../../package')).toBeNull();
  });
});
