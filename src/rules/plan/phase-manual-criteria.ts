import type { RawFinding, Rule } from '../types.js';
import { capitalize, phaseLabel } from '../../model/queries.js';
import { unsplit } from './phase-automated-criteria.js';

export const rule: Rule = {
  meta: {
    id: 'plan/phase-manual-criteria',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'forall phase. has_manual_criteria(phase)',
    description:
      'Every phase has at least one manual verification item; an item reading `N/A ...` counts as present. One finding per plan, listing the phases. A phase whose criteria are an undivided list is plan/phase-automated-criteria\'s (one cause, one finding).',
    fix: 'Add `#### Manual Verification:` with at least one `- [ ]` item, or `- [ ] N/A: <why>`.',
    fixable: 'scaffold',
    messages: {
      noManual: '{{phase}} has no manual verification item.',
      noManualMany: '{{count}} phases have no manual verification item: {{phases}} (first at line {{line}}).',
      addEach: 'Add `#### Manual Verification:` with at least one `- [ ]` item to each of them, or `- [ ] N/A: <why>` where a human has nothing to check.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans) {
      if (!plan.readable || plan.notAPlan) continue;
      const missing = plan.phases.filter((phase) => phase.manual.length === 0 && !unsplit(phase));
      const phase = missing[0];
      if (!phase) continue;
      if (missing.length === 1) out.push({ file: plan.path, line: phase.line, column: phase.column, messageId: 'noManual', data: { phase: capitalize(phaseLabel(phase)) } });
      else out.push({ file: plan.path, line: phase.line, column: phase.column, messageId: 'noManualMany', fixId: 'addEach', data: { count: missing.length, phases: missing.map(phaseLabel).join(', '), line: phase.line } });
    }
    return out;
  },
};
