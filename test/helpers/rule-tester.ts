// The vitest face of the in-memory rule tester (src/engine/rule-tester.ts), ESLint's RuleTester style: a rule's
// valid and invalid cases as data, one `it` per case; an invalid case names each finding's message id (and, where
// it matters, its file, line, severity and the values of its placeholders). No repository, no process.
// Not a test file itself.
import { describe, expect, it } from 'vitest';
import type { Config, Preset } from '../../src/config/config.js';
import type { Finding } from '../../src/model/finding.js';
import { RULES, ruleById } from '../../src/engine/catalog.js';
import {
  runSnapshotCase,
  runTransitionCase,
  unfilledPlaceholders,
  type SnapshotCase,
  type TransitionCase,
} from '../../src/engine/rule-tester.js';
import type { Rule } from '../../src/rules/types.js';

export { runSnapshotCase, runTransitionCase };

export interface ExpectedFinding {
  messageId: string;
  file?: string | null;
  line?: number | null;
  column?: number | null;
  severity?: Finding['severity'];
  /** Values of the message's placeholders; the ones left out may be anything. */
  data?: Record<string, string | number>;
  /** The exact text (a string) or a pattern it matches. */
  message?: string | RegExp;
  fix?: string | RegExp;
}

interface Named {
  /** The `it` title; defaults to the case's number. */
  name?: string;
}

export type Case = (SnapshotCase | TransitionCase) & Named;
/** An expected finding, or just its message id. */
export type Expected = ExpectedFinding | string;
export type InvalidCase = Case & { errors: Expected[] };

export interface Cases {
  valid?: Case[];
  invalid?: InvalidCase[];
}

/** The rule's findings on one case, snapshot or transition by the case's shape. */
export function run(rule: Rule | readonly Rule[], test: SnapshotCase | TransitionCase): Finding[] {
  return 'files' in test ? runSnapshotCase(rule, test) : runTransitionCase(rule, test);
}

/** One catalog rule's findings on these files, in memory (placeholders checked filled). */
export function findings(files: Record<string, string | Uint8Array>, ruleId: string, config: Partial<Config> = {}): Finding[] {
  const found = runSnapshotCase(ruleOf(ruleId), { files, config });
  expectFilled(found);
  return found;
}

/** Every snapshot rule of the catalog on these files, in memory: for tests of how rules meet (disables, links). */
export function lintFiles(files: Record<string, string | Uint8Array>, config: Partial<Config> = {}): Finding[] {
  const found = runSnapshotCase(RULES, { files, config });
  expectFilled(found);
  return found;
}

/** The findings of one rule among many. */
export function of(found: readonly Finding[], ruleId: string): Finding[] {
  return found.filter((f) => f.ruleId === ruleId);
}

/** A rule of the catalog by id (pack rules included). */
export function ruleOf(id: string): Rule {
  const rule = ruleById(id);
  if (!rule) throw new Error(`no rule ${id} in the catalog`);
  return rule;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The template as a pattern: the given placeholders by their values, the others by anything. */
function templatePattern(template: string, data: Record<string, string | number>): RegExp {
  const parts = template.split(/(\{\{\s*\w+\s*\}\})/);
  const body = parts
    .map((part) => {
      const m = /^\{\{\s*(\w+)\s*\}\}$/.exec(part);
      if (!m) return escape(part);
      return m[1]! in data ? escape(String(data[m[1]!])) : '[\\s\\S]*?';
    })
    .join('');
  return new RegExp(`^${body}$`);
}

/** Every finding's message and fix are filled in: a rule that forgot a placeholder's value fails here. */
export function expectFilled(found: readonly Finding[]): void {
  for (const f of found) {
    expect(unfilledPlaceholders(f.message), `unfilled placeholder in "${f.message}"`).toEqual([]);
    expect(unfilledPlaceholders(f.fix ?? ''), `unfilled placeholder in fix "${f.fix}"`).toEqual([]);
  }
}

/** The findings are exactly these, in the runner's order (file, line, column, rule). */
export function expectFindings(rule: Rule, found: readonly Finding[], errors: readonly Expected[]): void {
  expectFilled(found);
  const want = errors.map((e) => (typeof e === 'string' ? { messageId: e } : e));
  expect(found.map((f) => f.messageId), found.map((f) => `${f.file}:${f.line} ${f.message}`).join('\n')).toEqual(want.map((e) => e.messageId));
  want.forEach((e, i) => {
    const f = found[i]!;
    const where = `finding ${i} (${f.messageId}: ${f.message})`;
    expect(f.ruleId).toBe(rule.meta.id);
    if (e.file !== undefined) expect(f.file, where).toBe(e.file);
    if (e.line !== undefined) expect(f.line, where).toBe(e.line);
    if (e.column !== undefined) expect(f.column, where).toBe(e.column);
    if (e.severity !== undefined) expect(f.severity, where).toBe(e.severity);
    if (e.data !== undefined) expect(f.message, where).toMatch(templatePattern(rule.meta.messages[e.messageId]!, e.data));
    if (typeof e.message === 'string') expect(f.message, where).toBe(e.message);
    else if (e.message) expect(f.message, where).toMatch(e.message);
    if (typeof e.fix === 'string') expect(f.fix, where).toBe(e.fix);
    else if (e.fix) expect(f.fix, where).toMatch(e.fix);
  });
}

/** One `it` per case: valid cases have no finding at all, invalid ones exactly their `errors`. */
export function ruleTester(rule: Rule, cases: Cases): void {
  describe(`${rule.meta.id} (rule tester)`, () => {
    (cases.valid ?? []).forEach((c, i) => {
      it(`valid: ${c.name ?? `#${i + 1}`}`, () => {
        const found = run(rule, c);
        expectFilled(found);
        expect(found.map((f) => `${f.file}:${f.line} ${f.messageId}: ${f.message}`)).toEqual([]);
      });
    });
    (cases.invalid ?? []).forEach((c, i) => {
      it(`invalid: ${c.name ?? `#${i + 1}`}`, () => {
        expectFindings(rule, run(rule, c), c.errors);
      });
    });
  });
}

/** A file's text with the inline disable of convention section 5 appended (it covers the whole file). */
function withDisable(files: Record<string, string | Uint8Array>, path: string, ruleId: string, reason: string | null): Record<string, string | Uint8Array> {
  const text = files[path];
  if (typeof text !== 'string') throw new Error(`no text file ${path} in fixture`);
  const body = `validate-workflow-disable ${ruleId}${reason === null ? '' : ` -- ${reason}`}`;
  return { ...files, [path]: text + (/\.ya?ml$/i.test(path) ? `# ${body}\n` : `\n<!-- ${body} -->\n`) };
}

/**
 * The runner's contract for one snapshot rule, on files it reports: its severity in each preset (as given, and as
 * its meta says), `rules: {id: off|warn|error}` overrides, and an inline disable (with and without a reason)
 * silencing it in that file only, the reasonless one reported by disable/directive.
 */
export function describeRuleContract(ruleOrId: Rule | string, files: Record<string, string | Uint8Array>, severities: Record<Preset, 'warning' | 'error'>): void {
  const rule = typeof ruleOrId === 'string' ? ruleOf(ruleOrId) : ruleOrId;
  const id = rule.meta.id;
  const judge = (config: Partial<Config> = {}, f = files) => runSnapshotCase(rule, { files: f, config });
  const problems = (list: Finding[]) => list.filter((f) => f.severity !== 'info');
  describe(`${id}: presets, config and inline disables`, () => {
    for (const preset of ['recommended', 'strict'] as const) {
      it(`reports ${severities[preset]} in ${preset}`, () => {
        expect(rule.meta.severities[preset]).toBe(severities[preset] === 'warning' ? 'warn' : 'error');
        const got = problems(judge({ preset }));
        expect(got.length).toBeGreaterThan(0);
        for (const f of got) expect(f.severity).toBe(severities[preset]);
      });
    }

    it('is silenced by rules: {id: off} and re-levelled by warn / error', () => {
      expect(judge({ rules: { [id]: 'off' } })).toEqual([]);
      expect(judge({ preset: 'strict', rules: { [id]: 'off' } })).toEqual([]);
      const warned = problems(judge({ preset: 'strict', rules: { [id]: 'warn' } }));
      expect(warned.length).toBeGreaterThan(0);
      expect(new Set(warned.map((f) => f.severity))).toEqual(new Set(['warning']));
      const errored = problems(judge({ rules: { [id]: 'error' } }));
      expect(errored.length).toBe(warned.length);
      expect(new Set(errored.map((f) => f.severity))).toEqual(new Set(['error']));
    });

    it('is silenced in the file by an inline disable with a reason, and nowhere else', () => {
      const before = judge();
      const target = before.find((f) => f.file && typeof files[f.file] === 'string')!.file!;
      const disabled = withDisable(files, target, id, 'tracked in ISSUE-12');
      const after = judge({}, disabled);
      expect(after.filter((f) => f.file === target)).toEqual([]);
      expect(after).toEqual(before.filter((f) => f.file !== target));
      expect(runSnapshotCase(ruleOf('disable/directive'), { files: disabled })).toEqual([]);
    });

    it('is silenced by an inline disable without a reason, which disable/directive reports', () => {
      const target = judge().find((f) => f.file && typeof files[f.file] === 'string')!.file!;
      const disabled = withDisable(files, target, id, null);
      expect(judge({}, disabled).filter((f) => f.file === target)).toEqual([]);
      expect(runSnapshotCase(ruleOf('disable/directive'), { files: disabled })).toEqual([
        expect.objectContaining({ file: target, severity: 'warning', messageId: 'noReason', message: `Disable of ${id} gives no reason.` }),
      ]);
    });
  });
}
