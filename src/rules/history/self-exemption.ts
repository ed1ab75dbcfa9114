import type { Rule, RawFinding } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'history/self-exemption',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(respect_user_preference); F(checkoff_manual)',
    description:
      "An agent's commit does not loosen the rules that bind it without a human's `Confirmed-by`: it does not change the config or the baseline, add a disable comment, add `mode_set_by: user`, turn an item into `N/A` (or add an `N/A` item), or delete a verification item, a criteria section or a whole plan.",
    fix: 'Ask the human to make this change, or to confirm it with a `Confirmed-by:` trailer in the commit.',
  },
  transition: (ctx) => {
    if (ctx.stage === 'staged' || ctx.agents.length === 0) return [];
    const out: RawFinding[] = [];
    const agent = ctx.agents.map((a) => `${a.name} <${a.email}>`).join(', ');
    const deletedPlans = new Set<string>();
    for (const e of ctx.events) {
      let what: string | null = null;
      if (e.type === 'item-removed' && ctx.after.model(e.file) === null) {
        // The whole plan is gone: one finding for the file, not one per item.
        if (deletedPlans.has(e.file)) continue;
        deletedPlans.add(e.file);
        const n = ctx.events.filter((x) => x.type === 'item-removed' && x.file === e.file).length;
        what = `deletes the plan ${e.file} with its ${n} verification item${n === 1 ? '' : 's'}`;
      } else if (e.type === 'trust-file-changed') what = e.what === 'config' ? 'changes the validate-workflow config' : 'changes the baseline';
      else if (e.type === 'disable-added') what = `adds a disable comment for ${e.ruleIds.join(', ') || 'no rule'}`;
      else if (e.type === 'mode-set-by-user') what = 'adds `mode_set_by: user`';
      else if (e.type === 'item-made-na') what = `turns ${e.kind} item "${e.text}" into N/A`;
      else if (e.type === 'item-added-na') what = `adds the N/A ${e.kind} item "${e.text}"`;
      else if (e.type === 'item-removed' && (e.kind === 'automated' || e.kind === 'manual')) what = `deletes the ${e.kind} verification item "${e.text}"`;
      if (!what) continue;
      if (ctx.confirmation().ok) return [];
      out.push({ file: e.file, line: e.line, message: `An agent's commit (${agent}) ${what} without a human's confirmation.` });
    }
    return out;
  },
};
