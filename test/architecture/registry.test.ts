// One list per concept (issue 21): a rule file that is not registered silently does nothing, a rule without its docs
// page leaves users with a dead link, and a message no code path names is dead text. Each is a failing test here.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/engine/catalog.js';
import type { Rule } from '../../src/rules/types.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every rule module of the core families and of the packs: a file under a rules folder. */
function ruleFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string, inRules: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, inRules || entry.name === 'rules');
      else if (
        inRules &&
        entry.name.endsWith('.ts') &&
        !['index.ts', 'types.ts', 'promise.ts', 'schema-findings.ts', 'cause.ts'].includes(entry.name)
      )
        out.push(path);
    }
  };
  walk(join(root, 'src'), false);
  return out.sort();
}

function allSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) out.push(path);
    }
  };
  walk(join(root, 'src'));
  return out;
}

describe('the rule registry', () => {
  const files = ruleFiles();

  it('finds the rule modules (the walk itself works)', () => {
    expect(files.length).toBeGreaterThanOrEqual(RULES.length);
  });

  it('registers every module that exports a rule, once', async () => {
    const ids = RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    const unregistered: string[] = [];
    for (const file of files) {
      const mod = (await import(file)) as { rule?: Rule };
      if (mod.rule && !RULES.includes(mod.rule)) unregistered.push(relative(root, file));
    }
    expect(unregistered).toEqual([]);
  });

  it('gives every rule a one-line description under 80 characters (the PR comment and the rule list show it)', () => {
    const bad = RULES.filter((r) => !r.meta.short || r.meta.short.length >= 80 || /\n/.test(r.meta.short)).map(
      (r) => `${r.meta.id}: ${r.meta.short === undefined ? 'none' : `${r.meta.short.length} characters`}`,
    );
    expect(bad).toEqual([]);
  });

  it('documents every rule (docs/rules/<id>.md)', () => {
    expect(RULES.map((r) => r.meta.id).filter((id) => !existsSync(join(root, 'docs', 'rules', `${id}.md`)))).toEqual(
      [],
    );
  });

  it('names every message in code: a message no code path can pick is dead text', () => {
    // A key counts as named when code quotes it, picks it by its base name
    // (`name('unconfirmed', many)` -> `unconfirmedMany`), builds it from a suffix (`${what}Repeated`) or reads it
    // from the table by name (`messages.grown`).
    // The tables' own keys are unquoted identifiers, so a quoted key is always a use.
    const code = allSources()
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const named = (key: string) => {
      const base = key.replace(/Many$/, '');
      const suffix = /[A-Z]\w*$/.exec(key.slice(1))?.[0];
      return (
        [key, base].some((n) => code.includes(`'${n}'`) || code.includes(`"${n}"`) || code.includes(`messages.${n}`)) ||
        (suffix !== undefined && code.includes(`}${suffix}\``))
      );
    };
    const dead = RULES.flatMap((rule) =>
      Object.keys(rule.meta.messages)
        .filter((k) => !named(k))
        .map((k) => `${rule.meta.id}: ${k}`),
    );
    expect(dead).toEqual([]);
  });
});
