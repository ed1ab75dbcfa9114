import type { RawFinding, Rule } from '../types.js';
import type { Phase } from '../../model/types.js';
import { capitalize, phaseLabel } from '../../model/queries.js';

/** Criteria of an undivided `### Success Criteria` list: of unknown kind, reported as unsplit, not as missing. */
export function unsplit(phase: Phase): boolean {
  return (phase.unknown ?? []).length > 0;
}

export const rule: Rule = {
  meta: {
    id: 'plan/phase-automated-criteria',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'forall phase. has_auto_criteria(phase)',
    description:
      'Every phase has at least one automated verification item (plan-level criteria count for the last phase). One finding per plan, listing the phases. Criteria in an undivided `### Success Criteria` list are of unknown kind: one finding per plan says they are not split (this rule says it, not plan/phase-manual-criteria).',
    fix: 'Add `#### Automated Verification:` with at least one `- [ ]` item to the phase.',
    fixable: 'scaffold',
    messages: {
      noAutomated: '{{phase}} has no automated verification item.',
      noAutomatedMany: '{{count}} phases have no automated verification item: {{phases}} (first at line {{line}}).',
      addEach: 'Add `#### Automated Verification:` with at least one `- [ ]` item to each of them.',
      unsplit: 'The success criteria of {{phases}} are one undivided list: nothing says which items are automated and which are manual.',
      split: 'Split the list under `#### Automated Verification:` (commands the agent runs) and `#### Manual Verification:` (what a human checks).',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans) {
      if (!plan.readable || plan.notAPlan) continue;
      const missing = plan.phases.filter((phase) => phase.automated.length === 0 && !unsplit(phase));
      if (missing.length === 1) {
        const phase = missing[0]!;
        out.push({ file: plan.path, line: phase.line, column: phase.column, messageId: 'noAutomated', data: { phase: capitalize(phaseLabel(phase)) } });
      } else if (missing.length > 1) {
        const phase = missing[0]!;
        out.push({ file: plan.path, line: phase.line, column: phase.column, messageId: 'noAutomatedMany', fixId: 'addEach', data: { count: missing.length, phases: missing.map(phaseLabel).join(', '), line: phase.line } });
      }
      const undivided = plan.phases.filter(unsplit);
      if (undivided.length > 0) {
        const at = plan.undividedCriteria ?? undivided[0]!;
        out.push({ file: plan.path, line: at.line, column: at.column, messageId: 'unsplit', fixId: 'split', data: { phases: undivided.map(phaseLabel).join(', ') } });
      }
    }
    return out;
  },
};
