import type { Rule, RawFinding } from '../types.js';
import { checkedBoxes, phaseLabel, phaseVerified } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'plan/phase-order',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](phase(n) -> P(phase(n-1) & verified(n-1)))',
    description: 'No item of phase n (task, step or criterion) is checked while phase n-1 is not fully verified: all its automated and manual items checked or N/A.',
    fix: 'Finish and verify the earlier phase first (a human confirms its manual items), or uncheck the item.',
    messages: {
      checkedBeforeVerified: '"{{item}}" in {{phase}} is checked while {{earlier}} is not verified.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable)) {
      for (let i = 1; i < plan.phases.length; i++) {
        // Every earlier phase, not only n-1: an empty phase between them must not launder an unverified one.
        const prev = plan.phases.slice(0, i).find((p) => !phaseVerified(p));
        const phase = plan.phases[i]!;
        if (!prev) continue;
        const first = checkedBoxes(phase)[0];
        if (!first) continue;
        out.push({
          file: plan.path,
          line: first.line,
          column: first.column,
          messageId: 'checkedBeforeVerified',
          data: { item: first.text, phase: phaseLabel(phase), earlier: phaseLabel(prev) },
        });
      }
    }
    return out;
  },
};
