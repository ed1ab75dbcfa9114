import type { Rule, RawFinding } from '../types.js';
import type { Plan } from '../../model/types.js';
import { checkedBoxes, phaseLabel, phaseVerified } from '../../model/queries.js';

function phaseIndex(plan: Plan, n: number): number {
  return plan.phases.findIndex((p, i) => (p.number ?? i + 1) === n);
}

export const rule: Rule = {
  meta: {
    id: 'history/phase-order',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](phase(n) -> P(verified(n-1)))',
    description:
      'The commit that first checks an item of phase n comes after the commit that completed the verification of every earlier phase (all its automated and manual items checked or N/A). The same commit finishing phase n-1 and starting phase n is too early.',
    fix: 'Verify the earlier phase in its own commit (a human confirms its manual items) before starting the next phase.',
    messages: {
      startedWithPlan: 'First check-off in {{phase}} comes in the commit that adds the plan, before {{first}} was verified.',
      startedEarly: 'First check-off in {{phase}} comes before {{open}} was verified.',
    },
  },
  transition: (ctx) => {
    const out: RawFinding[] = [];
    const seen = new Set<string>();
    for (const e of ctx.events) {
      const starts = (e.type === 'item-checked' && e.checked) || (e.type === 'task-completed' && e.completed);
      if (!starts || seen.has(`${e.file}|${e.phase}`)) continue;
      seen.add(`${e.file}|${e.phase}`);
      const after = ctx.after.plan(e.file);
      if (!after) continue;
      const before = ctx.before.plan(e.file);
      const ai = phaseIndex(after, e.phase);
      // A plan that arrives with a later phase already checked verified nothing before this commit.
      if (!before) {
        if (ai > 0) out.push({ file: e.file, line: e.line, messageId: 'startedWithPlan', data: { phase: phaseLabel(after.phases[ai]!), first: phaseLabel(after.phases[0]!) } });
        continue;
      }
      const bi = phaseIndex(before, e.phase);
      // Only the commit that first checks something in the phase is judged; later ones build on it.
      if (bi >= 0 && checkedBoxes(before.phases[bi]!).length > 0) continue;
      const upTo = bi >= 0 ? bi : ai;
      const open = before.phases.slice(0, upTo).find((p) => !phaseVerified(p));
      if (!open) continue;
      out.push({ file: e.file, line: e.line, messageId: 'startedEarly', data: { phase: phaseLabel(after.phases[ai]!), open: phaseLabel(open) } });
    }
    return out;
  },
};
