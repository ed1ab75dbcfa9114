import type { Rule } from '../types.js';
import { capitalize, phaseLabel } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'plan/phase-automated-criteria',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'forall phase. has_auto_criteria(phase)',
    description: 'Every phase has at least one automated verification item (plan-level criteria count for the last phase).',
    fix: 'Add `#### Automated Verification:` with at least one `- [ ]` item to the phase.',
    messages: {
      noAutomated: '{{phase}} has no automated verification item.',
    },
  },
  snapshot: (ws) =>
    ws.plans
      .filter((p) => p.readable)
      .flatMap((plan) =>
        plan.phases
          .filter((phase) => phase.automated.length === 0)
          .map((phase) => ({ file: plan.path, line: phase.line, column: phase.column, messageId: 'noAutomated', data: { phase: capitalize(phaseLabel(phase)) } })),
      ),
};
