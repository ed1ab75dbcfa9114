// Every rule the engine knows: the core families and each registered pack's rules. Config validation, the docs,
// the reports and the doors all take the catalog from here, so a pack's rules exist exactly when it is registered.
import type { Rule } from '../rules/types.js';
import { CORE_RULES } from '../rules/index.js';
import { PACKS } from '../packs/registry.js';

export const RULES: readonly Rule[] = [...CORE_RULES, ...PACKS.flatMap((p) => p.rules)];

export const RULE_IDS: ReadonlySet<string> = new Set(RULES.map((r) => r.meta.id));

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
