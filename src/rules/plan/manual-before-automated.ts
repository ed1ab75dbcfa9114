import type { Rule, RawFinding } from '../types.js';
import { claimContradicted, phaseLabel, sequence, setAside } from '../../model/queries.js';
import { isAre, plural } from '../../shared/text.js';

export const rule: Rule = {
  meta: {
    id: 'plan/manual-before-automated',
    short: "No manual item is checked while the phase's automated items are open.",
    severities: { recommended: 'info', strict: 'error' },
    introducedAs: 'error',
    formula: '[](automated_pass -> <>manual_verify); O(exists v.[v]:pass(auto)) <- pre_manual',
    description:
      "No manual verification item is checked while an automated item of the same phase is still unchecked. One finding per phase; an automated item with its reason on the line (`(skipped: ...)`, `deferred to ...`) or struck through does not count as open. A plan that says it is done while open boxes contradict the claim is plan/claimed-complete's finding, not this one's; where that rule only notes automated items left behind, this rule judges the plan as usual. In `recommended` a finding is an info: the boxes at HEAD show a state, not the order in which they were checked, and an agent's manual check-off is history/manual-confirmation's error. A change that brings the state about (a commit at the hooks, a pull request's range) is an error. Set the rule to `error` in the config to make the standing state an error too.",
    fix: 'Run and check the automated items first; manual verification comes after them.',
    messages: {
      manualBeforeAutomated:
        'Manual item "{{manual}}" is checked while {{open}} of {{phase}} {{be}} not (first: "{{first}}", line {{firstLine}}).',
      manualBeforeAutomatedMany:
        '{{count}} manual items of {{phase}} are checked (first "{{manual}}") while {{open}} {{be}} not (first: "{{first}}", line {{firstLine}}).',
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
      for (const phase of sequence(plan)) {
        const open = phase.automated.filter((a) => !a.checked && !a.na && !a.deviation);
        if (open.length === 0) continue;
        // One cause, one finding: the phase's checked manual items together, at the first.
        const early = phase.manual.filter((m) => m.checked && !m.na);
        const manual = early[0];
        if (!manual) continue;
        const data = {
          manual: manual.text,
          count: early.length,
          open: plural(open.length, 'automated item'),
          be: isAre(open.length),
          phase: phaseLabel(phase),
          first: open[0]!.text,
          firstLine: open[0]!.line,
        };
        out.push({
          file: plan.path,
          line: manual.line,
          column: manual.column,
          messageId: early.length > 1 ? 'manualBeforeAutomatedMany' : 'manualBeforeAutomated',
          data,
        });
      }
    }
    return out;
  },
};
