import type { Rule, RawFinding } from '../types.js';
import { checkedBoxes, phaseLabel, phaseVerified } from '../../model/queries.js';

/** What verified means for this phase in this preset, for the message. */
function verifiedMeans(phase: Parameters<typeof phaseVerified>[0], preset: 'recommended' | 'strict'): string {
  if (preset === 'strict' && phase.automated.length + phase.manual.length > 0) return 'its automated and manual items checked or N/A';
  if (phase.automated.length > 0) return 'its automated items checked or N/A';
  return 'its tasks checked';
}

export const rule: Rule = {
  meta: {
    id: 'plan/phase-order',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](phase(n) -> P(phase(n-1) & verified(n-1)))',
    description:
      "No item of phase n (task, step or criterion) is checked while an earlier phase is not verified. `recommended`: verified = all its automated items checked or N/A (manual boxes are a human's and often lag); `strict`: all its automated and manual items checked or N/A. A phase without those criteria needs its tasks checked.",
    fix: 'Finish and verify {{earlier}} first ({{verified}}), or uncheck the item.',
    messages: {
      checkedBeforeVerified: '"{{item}}" in {{phase}} is checked while {{earlier}} is not verified (that needs {{verified}}).',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable)) {
      for (let i = 1; i < plan.phases.length; i++) {
        // Every earlier phase, not only n-1: an empty phase between them must not launder an unverified one.
        const prev = plan.phases.slice(0, i).find((p) => !phaseVerified(p, ctx.preset));
        const phase = plan.phases[i]!;
        if (!prev) continue;
        const first = checkedBoxes(phase)[0];
        if (!first) continue;
        out.push({
          file: plan.path,
          line: first.line,
          column: first.column,
          messageId: 'checkedBeforeVerified',
          data: { item: first.text, phase: phaseLabel(phase), earlier: phaseLabel(prev), verified: verifiedMeans(prev, ctx.preset) },
        });
      }
    }
    return out;
  },
};
