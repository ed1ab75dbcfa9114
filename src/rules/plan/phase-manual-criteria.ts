import type { Rule } from '../types.js';
import { capitalize, phaseLabel } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'plan/phase-manual-criteria',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'forall phase. has_manual_criteria(phase)',
    description: 'Every phase has at least one manual verification item; an item reading `N/A ...` counts as present.',
    fix: 'Add `#### Manual Verification:` with at least one `- [ ]` item, or `- [ ] N/A: <why>`.',
    messages: {
      noManual: '{{phase}} has no manual verification item.',
    },
  },
  snapshot: (ws) =>
    ws.plans
      .filter((p) => p.readable)
      .flatMap((plan) =>
        plan.phases
          .filter((phase) => phase.manual.length === 0)
          .map((phase) => ({ file: plan.path, line: phase.line, column: phase.column, messageId: 'noManual', data: { phase: capitalize(phaseLabel(phase)) } })),
      ),
};
