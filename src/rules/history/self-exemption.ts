import type { Rule, RawFinding } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'history/self-exemption',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(respect_user_preference); F(checkoff_manual)',
    description:
      "An agent's commit does not loosen the rules that bind it without a human's `Confirmed-by`: it does not change the config or the baseline, add a disable comment, add `mode_set_by: user`, turn an item into `N/A` (or add an `N/A` item), or delete a verification item, a criteria section or a whole plan.",
    fix: 'Ask the human to make this change, or to confirm it with a `Confirmed-by:` trailer in the commit.',
    messages: {
      // {{agents}}: the commit's agent identities, `Name <email>`, comma-separated.
      deletesPlan: "An agent's commit ({{agents}}) deletes the plan {{file}} with its {{count}} verification {{items}} without a human's confirmation.",
      changesConfig: "An agent's commit ({{agents}}) changes the validate-workflow config without a human's confirmation.",
      changesBaseline: "An agent's commit ({{agents}}) changes the baseline without a human's confirmation.",
      addsDisable: "An agent's commit ({{agents}}) adds a disable comment for {{rules}} without a human's confirmation.",
      setsModeByUser: "An agent's commit ({{agents}}) adds `mode_set_by: user` without a human's confirmation.",
      makesNa: "An agent's commit ({{agents}}) turns {{kind}} item \"{{item}}\" into N/A without a human's confirmation.",
      addsNa: "An agent's commit ({{agents}}) adds the N/A {{kind}} item \"{{item}}\" without a human's confirmation.",
      deletesItem: "An agent's commit ({{agents}}) deletes the {{kind}} verification item \"{{item}}\" without a human's confirmation.",
    },
  },
  transition: (ctx) => {
    if (ctx.stage === 'staged' || ctx.agents.length === 0) return [];
    const out: RawFinding[] = [];
    const agents = ctx.agents.map((a) => `${a.name} <${a.email}>`).join(', ');
    const deletedPlans = new Set<string>();
    for (const e of ctx.events) {
      let said: Pick<RawFinding, 'messageId' | 'data'> | null = null;
      if (e.type === 'item-removed' && ctx.after.model(e.file) === null) {
        // The whole plan is gone: one finding for the file, not one per item.
        if (deletedPlans.has(e.file)) continue;
        deletedPlans.add(e.file);
        const n = ctx.events.filter((x) => x.type === 'item-removed' && x.file === e.file).length;
        said = { messageId: 'deletesPlan', data: { agents, file: e.file, count: n, items: n === 1 ? 'item' : 'items' } };
      } else if (e.type === 'trust-file-changed') said = { messageId: e.what === 'config' ? 'changesConfig' : 'changesBaseline', data: { agents } };
      else if (e.type === 'disable-added') said = { messageId: 'addsDisable', data: { agents, rules: e.ruleIds.join(', ') || 'no rule' } };
      else if (e.type === 'mode-set-by-user') said = { messageId: 'setsModeByUser', data: { agents } };
      else if (e.type === 'item-made-na') said = { messageId: 'makesNa', data: { agents, kind: e.kind, item: e.text } };
      else if (e.type === 'item-added-na') said = { messageId: 'addsNa', data: { agents, kind: e.kind, item: e.text } };
      else if (e.type === 'item-removed' && (e.kind === 'automated' || e.kind === 'manual')) said = { messageId: 'deletesItem', data: { agents, kind: e.kind, item: e.text } };
      if (!said) continue;
      if (ctx.confirmation().ok) return [];
      out.push({ file: e.file, line: e.line, ...said });
    }
    return out;
  },
};
