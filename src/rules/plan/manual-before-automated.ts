import type { Rule, RawFinding } from '../types.js';
import { phaseLabel } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'plan/manual-before-automated',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](automated_pass -> <>manual_verify); O(exists v.[v]:pass(auto)) <- pre_manual',
    description: 'No manual verification item is checked while an automated item of the same phase is still unchecked.',
    fix: 'Run and check the automated items first; manual verification comes after them.',
    messages: {
      manualBeforeAutomated:
        'Manual item "{{manual}}" is checked while {{open}} automated item(s) of {{phase}} are not (first: "{{first}}", line {{firstLine}}).',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans.filter((p) => p.readable)) {
      for (const phase of plan.phases) {
        const open = phase.automated.filter((a) => !a.checked && !a.na);
        if (open.length === 0) continue;
        for (const manual of phase.manual.filter((m) => m.checked && !m.na)) {
          out.push({
            file: plan.path,
            line: manual.line,
            column: manual.column,
            messageId: 'manualBeforeAutomated',
            data: { manual: manual.text, open: open.length, phase: phaseLabel(phase), first: open[0]!.text, firstLine: open[0]!.line },
          });
        }
      }
    }
    return out;
  },
};
