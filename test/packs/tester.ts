// An in-memory tester for one pack rule (ESLint's RuleTester): files in, findings out with their message ids and
// rendered texts, no repository and no process. Real repositories stay for the doors and history (history.ts).
import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../src/config/config.js';
import { fixOf, messageOf } from '../../src/engine/findings.js';
import type { Commit } from '../../src/model/history.js';
import { PACKS } from '../../src/packs/registry.js';
import type { Pack, PackChange, PackFile, PackWorkspace } from '../../src/packs/types.js';
import type { RawFinding, Rule, RuleContext } from '../../src/rules/types.js';

/** A pack rule's finding, rendered as every door renders it. */
export interface Rendered {
  file: string | null;
  line: number | null;
  messageId: string;
  message: string;
  fix: string;
}

function ruleOf(pack: Pack, id: string): Rule {
  const rule = pack.rules.find((r) => r.meta.id === id);
  if (!rule) throw new Error(`pack ${pack.id} has no rule ${id}`);
  return rule;
}

const KNOWN: ReadonlySet<string> = new Set(PACKS.flatMap((p) => p.rules.map((r) => r.meta.id)));

function contextOf(patch: Partial<Config> = {}): RuleContext {
  const config = { ...defaultConfig(), ...patch };
  return { preset: config.preset, config, knownRules: KNOWN };
}

function render(rule: Rule, raws: RawFinding[]): Rendered[] {
  return raws.map((raw) => {
    const message = messageOf(rule, raw);
    const fix = fixOf(rule, raw);
    // A placeholder left as written is a bug in the rule (a data key missing or misspelled).
    expect(`${message}\n${fix}`, `${rule.meta.id}/${raw.messageId}`).not.toMatch(/\{\{\s*\w+\s*\}\}/);
    return { file: raw.file, line: raw.line, messageId: raw.messageId, message, fix };
  });
}

/** Read files as the pack reads them; `null` contents are left out. */
export function workspace(pack: Pack, files: Record<string, string | null>): PackWorkspace {
  const list: PackFile[] = Object.entries(files)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([path, text]) => pack.read(path, Buffer.from(text)));
  return new Map(list.length ? [[pack.id, list]] : []);
}

/** A pack snapshot rule's findings on these files. */
export function snapshotFindings(pack: Pack, ruleId: string, files: Record<string, string | null>, config?: Partial<Config>): Rendered[] {
  const rule = ruleOf(pack, ruleId);
  if (!rule.packSnapshot) throw new Error(`${ruleId} has no snapshot check`);
  return render(rule, rule.packSnapshot(workspace(pack, files), contextOf(config)));
}

export const COMMIT: Commit = {
  sha: 'abc1234def5678abc1234def5678abc1234def56',
  parents: [],
  author: { name: 'Test Human', email: 'human@example.com' },
  committer: { name: 'Test Human', email: 'human@example.com' },
  time: 0,
  subject: 'test commit',
  trailers: [],
};

/** A pack transition rule's findings on one commit changing these files (null: absent on that side). */
export function transitionFindings(pack: Pack, ruleId: string, before: Record<string, string | null>, after: Record<string, string | null>, config?: Partial<Config>): Rendered[] {
  const rule = ruleOf(pack, ruleId);
  if (!rule.packTransition) throw new Error(`${ruleId} has no transition check`);
  const ctx = contextOf(config);
  const out: Rendered[] = [];
  for (const path of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const b = before[path] ?? null;
    const a = after[path] ?? null;
    if (b === a) continue;
    const change: PackChange = {
      pack: pack.id,
      path,
      before: b === null ? null : pack.read(path, Buffer.from(b)),
      after: a === null ? null : pack.read(path, Buffer.from(a)),
      beforeText: b,
      afterText: a,
      commit: COMMIT,
    };
    out.push(...render(rule, rule.packTransition(change, ctx)));
  }
  return out;
}

type Files = Record<string, string | null>;
type Expected = Partial<Rendered> & { messageId: string };
interface SnapshotCase {
  name?: string;
  files: Files;
  config?: Partial<Config>;
}
interface TransitionCase {
  name?: string;
  before: Files;
  after: Files;
  config?: Partial<Config>;
}

/**
 * ESLint's RuleTester for one pack rule: valid cases have no finding, each invalid case has exactly the findings
 * listed (message id, and line, file or the exact message when given), in order.
 */
export function testPackRule(
  pack: Pack,
  ruleId: string,
  cases: {
    valid?: SnapshotCase[];
    invalid?: (SnapshotCase & { errors: Expected[] })[];
    validTransitions?: TransitionCase[];
    invalidTransitions?: (TransitionCase & { errors: Expected[] })[];
  },
): void {
  const title = (kind: string, n: number, name?: string) => `${kind} #${n + 1}${name ? `: ${name}` : ''}`;
  describe(ruleId, () => {
    (cases.valid ?? []).forEach((c, n) => it(title('valid', n, c.name), () => expect(snapshotFindings(pack, ruleId, c.files, c.config)).toEqual([])));
    (cases.invalid ?? []).forEach((c, n) => it(title('invalid', n, c.name), () => expect(snapshotFindings(pack, ruleId, c.files, c.config)).toMatchObject(c.errors)));
    (cases.validTransitions ?? []).forEach((c, n) =>
      it(title('valid transition', n, c.name), () => expect(transitionFindings(pack, ruleId, c.before, c.after, c.config)).toEqual([])),
    );
    (cases.invalidTransitions ?? []).forEach((c, n) =>
      it(title('invalid transition', n, c.name), () => expect(transitionFindings(pack, ruleId, c.before, c.after, c.config)).toMatchObject(c.errors)),
    );
  });
}
