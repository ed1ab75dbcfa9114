import type { Rule, RawFinding } from '../types.js';
import {
  claimContradicted,
  checkedBoxes,
  phaseLabel,
  phaseVerified,
  sequence,
  setAside,
  verificationBegun,
} from '../../model/queries.js';

/** What verified means for this phase in this preset, for the message. */
function verifiedMeans(phase: Parameters<typeof phaseVerified>[0], preset: 'recommended' | 'strict'): string {
  if (preset === 'strict' && phase.automated.length + phase.manual.length > 0)
    return 'its automated and manual items checked or N/A';
  if (phase.automated.length > 0) return 'its automated items checked or N/A';
  return 'its tasks checked';
}

/** The cause both phase-order rules name: this phase of this plan left unverified (one cause, one finding). */
export function openPhaseCause(file: string, phase: { label: string | null; title: string }): string {
  return `open-phase\0${file}\0${phase.label ?? phase.title}`;
}

/**
 * The narrower cause of an open phase whose verification never began (queries.ts verificationBegun): what
 * history/phase-order's error in `recommended` judges, where its note judges a begun phase with boxes left open. This
 * rule names it too while the phase shows no beginning, so a history note on a beginning since undone does not stand
 * for the state at HEAD (finding.ts oneCause).
 */
export function unbegunPhaseCause(file: string, phase: { label: string | null; title: string }): string {
  return `${openPhaseCause(file, phase)}\0unbegun`;
}

export const rule: Rule = {
  meta: {
    id: 'plan/phase-order',
    short: 'No item of a phase is checked before the earlier phases are verified.',
    severities: { recommended: 'info', strict: 'error' },
    introducedAs: 'error',
    formula: '[](phase(n) -> P(phase(n-1) & verified(n-1)))',
    description:
      "No item of phase n (task, step or criterion) is checked while an earlier phase is not verified. `recommended`: verified = all its automated items checked or N/A (manual boxes are a human's and often lag); `strict`: all its automated and manual items checked or N/A. A phase without those criteria needs its tasks checked. A plan that says it is done while open boxes contradict the claim is plan/claimed-complete's finding, not this one's (one cause, one finding); where that rule only notes automated items left behind, this rule judges the plan as usual. In `recommended` a finding is an info: the boxes at HEAD show a state, not an order (git cannot say in what order boxes that arrived together, in an import, a squash merge or one commit for every phase, were checked), and the order of check-offs commit by commit is history/phase-order's. A change that brings the state about (a commit at the hooks, a pull request's range) is an error. Set the rule to `error` in the config to make the standing state an error too.",
    fix: 'Finish and verify {{earlier}} first ({{verified}}), or uncheck the item.',
    messages: {
      checkedBeforeVerified:
        '"{{item}}" in {{phase}} is checked while {{earlier}} is not verified (that needs {{verified}}).',
      checkedBeforeVerifiedMany:
        '{{phases}} have checked items while {{earlier}} is not verified (that needs {{verified}}); first "{{item}}" at line {{line}}.',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    // A plan that says it is done while open boxes contradict it is one cause, plan/claimed-complete's warning: its
    // stale boxes are not reported again as order. Where that rule only notes boxes left behind (an info), nothing
    // else reports the order, so this rule judges the plan as usual: a claim must not let an order error through.
    for (const plan of ws.plans.filter(
      (p) => p.readable && !p.unstructured && !setAside(p) && !claimContradicted(p, ctx.preset),
    )) {
      const phases = sequence(plan);
      // One cause, one finding: each unverified phase once, listing the later phases that went ahead of it.
      const ahead = new Map<
        (typeof phases)[number],
        { phase: (typeof phases)[number]; first: ReturnType<typeof checkedBoxes>[number] }[]
      >();
      for (let i = 1; i < phases.length; i++) {
        // Every earlier phase, not only n-1: an empty phase between them must not launder an unverified one.
        const prev = phases.slice(0, i).find((p) => !phaseVerified(p, ctx.preset));
        const phase = phases[i]!;
        if (!prev) continue;
        const first = checkedBoxes(phase)[0];
        if (!first) continue;
        ahead.set(prev, [...(ahead.get(prev) ?? []), { phase, first }]);
      }
      for (const [prev, list] of ahead) {
        const { phase, first } = list[0]!;
        const data = {
          item: first.text,
          phase: phaseLabel(phase),
          phases: list.map((x) => phaseLabel(x.phase)).join(', '),
          line: first.line,
          earlier: phaseLabel(prev),
          verified: verifiedMeans(prev, ctx.preset),
        };
        out.push({
          file: plan.path,
          line: first.line,
          column: first.column,
          messageId: list.length > 1 ? 'checkedBeforeVerifiedMany' : 'checkedBeforeVerified',
          data,
          causes: [
            openPhaseCause(plan.path, prev),
            ...(verificationBegun(prev) ? [] : [unbegunPhaseCause(plan.path, prev)]),
          ],
        });
      }
    }
    return out;
  },
};
