// The vitest face of the in-memory rule tester (src/engine/rule-tester.ts), ESLint's RuleTester style: a rule's
// valid and invalid cases as data, one `it` per case; an invalid case names each finding's message id (and, where
// it matters, its file, line, severity and the values of its placeholders). No repository, no process. The cases
// run through the same RuleTester the package exports to pack authors, so its assertions are the ones every rule
// test here exercises. Not a test file itself.
import { describe, expect, it } from 'vitest';
import type { Config, Preset } from '../../src/config/config.js';
import type { Finding } from '../../src/model/finding.js';
import { RULES, ruleById } from '../../src/engine/catalog.js';
import {
  assertFilled,
  assertFindings,
  RuleTester,
  runCase,
  runSnapshotCase,
  runTransitionCase,
  type Expected,
  type RuleTesterCases,
} from '../../src/engine/rule-tester.js';
import type { Rule } from '../../src/rules/types.js';

export { runSnapshotCase, runTransitionCase };
export type { Expected, ExpectedFinding } from '../../src/engine/rule-tester.js';
export type {
  RuleTesterCase as Case,
  InvalidRuleTesterCase as InvalidCase,
  RuleTesterCases as Cases,
} from '../../src/engine/rule-tester.js';

RuleTester.describe = describe;
RuleTester.it = it;

/** The rule's findings on one case, snapshot or transition by the case's shape. */
export const run = runCase;

/** One catalog rule's findings on these files, in memory (placeholders checked filled). */
export function findings(
  files: Record<string, string | Uint8Array>,
  ruleId: string,
  config: Partial<Config> = {},
): Finding[] {
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

/** Every finding's message and fix are filled in: a rule that forgot a placeholder's value fails here. */
export const expectFilled: (found: readonly Finding[]) => void = assertFilled;

/** The findings are exactly these, in the runner's order (file, line, column, rule). */
export const expectFindings: (rule: Rule, found: readonly Finding[], errors: readonly Expected[]) => void =
  assertFindings;

/** One `it` per case: valid cases have no finding at all, invalid ones exactly their `errors`. */
export function ruleTester(rule: Rule, cases: RuleTesterCases): void {
  new RuleTester().run(rule, cases);
}

/** A file's text with the inline disable of convention section 5 appended (it covers the whole file). */
function withDisable(
  files: Record<string, string | Uint8Array>,
  path: string,
  ruleId: string,
  reason: string | null,
): Record<string, string | Uint8Array> {
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
export function describeRuleContract(
  ruleOrId: Rule | string,
  files: Record<string, string | Uint8Array>,
  severities: Record<Preset, 'info' | 'warning' | 'error'>,
): void {
  const rule = typeof ruleOrId === 'string' ? ruleOf(ruleOrId) : ruleOrId;
  const id = rule.meta.id;
  const judge = (config: Partial<Config> = {}, f = files) => runSnapshotCase(rule, { files: f, config });
  const problems = (list: Finding[]) => list.filter((f) => f.severity !== 'info');
  describe(`${id}: presets, config and inline disables`, () => {
    for (const preset of ['recommended', 'strict'] as const) {
      it(`reports ${severities[preset]} in ${preset}`, () => {
        expect(rule.meta.severities[preset]).toBe(severities[preset] === 'warning' ? 'warn' : severities[preset]);
        // A preset that reports the rule as notes (info) gives nothing but notes.
        const got = severities[preset] === 'info' ? judge({ preset }) : problems(judge({ preset }));
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
        expect.objectContaining({
          file: target,
          severity: 'warning',
          messageId: 'noReason',
          message: `Disable of ${id} gives no reason.`,
        }),
      ]);
    });
  });
}
