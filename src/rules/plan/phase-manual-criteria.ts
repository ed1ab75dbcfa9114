import type { RawFinding, Rule } from '../types.js';
import { capitalize, phaseLabel } from '../../model/queries.js';
import {
  criteriaPhases,
  has,
  notPromised,
  perPhase,
  planWide,
  sourceNote,
  unsplit,
} from './phase-automated-criteria.js';
import { promiseOf } from '../promise.js';

export const rule: Rule = {
  meta: {
    id: 'plan/phase-manual-criteria',
    short: 'Every phase has at least one manual verification item (or N/A).',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'forall phase. has_manual_criteria(phase)',
    description:
      "Every phase has at least one manual verification item; an item reading `N/A ...` or `None ...` counts as present, and plan-wide manual criteria count for every phase; in `recommended`, a plan with manual items in some phase keeps the promise, and only a plan with none at all is reported. One finding per plan, listing the phases. In `recommended` only where the repository promised manual criteria (its config `protocol`, its own create_plan command or template, or two thirds of its plans); elsewhere one info per run says what `strict` would check. A finished plan (every box checked or N/A) is a record: `recommended` leaves its criteria alone. A phase with no criteria at all, or with an undivided list, is plan/phase-automated-criteria's (one cause, one finding). In `recommended` a plan's own testing phase (`## Phase 4: Testing & Validation` holding plain checkboxes of no stated kind, not tasks) holds plan-wide criteria of unknown kind, which count for every phase.",
    fix: 'Add `#### Manual Verification:` with at least one `- [ ]` item, or `- [ ] N/A: <why>`.',
    fixable: 'scaffold',
    messages: {
      noManual: '{{phase}} has no manual verification item{{because}}.',
      noManualMany:
        '{{count}} phases have no manual verification item: {{phases}} (first at line {{line}}){{because}}.',
      noManualPlan:
        'None of the {{count}} phases of this plan has a manual verification item (first at line {{line}}){{because}}.',
      addEach:
        'Add `#### Manual Verification:` with at least one `- [ ]` item to each of them, or `- [ ] N/A: <why>` where a human has nothing to check.',
      notPromised:
        'Phases without manual verification items in {{plans}}: this repository does not hold its plans to them ({{because}}), so they are not reported. `--preset strict` checks every phase, or set `protocol.manualCriteria` in the config.',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    const promise = promiseOf(ws, ctx);
    const expected = promise.manualCriteria;
    let quiet = 0;
    for (const plan of ws.plans) {
      const phases = criteriaPhases(plan, ctx.preset, expected.source.from === 'config');
      if (phases.length === 0 || planWide(plan, 'manual', ctx.preset)) continue;
      // A phase with no criteria at all is the automated rule's finding when that rule expects criteria.
      const automatedReports = promise.automatedCriteria.value && !planWide(plan, 'automated', ctx.preset);
      // recommended: a plan with manual items in some phase keeps the promise (authors leave a human nothing to
      // check in a refactor or tests-only phase); only a plan with none at all departs from it. strict: every phase.
      if (!perPhase(ctx.preset, expected.source) && phases.some((p) => has(p, 'manual', ctx.preset) || unsplit(p)))
        continue;
      const missing = phases.filter(
        (phase) =>
          !has(phase, 'manual', ctx.preset) &&
          !unsplit(phase) &&
          !(automatedReports && !has(phase, 'automated', ctx.preset)),
      );
      const phase = missing[0];
      if (!phase) continue;
      if (!expected.value) {
        quiet++;
        continue;
      }
      const note = sourceNote(expected.source);
      if (missing.length === 1)
        out.push({
          file: plan.path,
          line: phase.line,
          column: phase.column,
          messageId: 'noManual',
          data: { phase: capitalize(phaseLabel(phase)), because: note },
        });
      else if (!perPhase(ctx.preset, expected.source))
        out.push({
          file: plan.path,
          line: phase.line,
          column: phase.column,
          messageId: 'noManualPlan',
          fixId: 'addEach',
          data: { count: missing.length, line: phase.line, because: note },
        });
      else
        out.push({
          file: plan.path,
          line: phase.line,
          column: phase.column,
          messageId: 'noManualMany',
          fixId: 'addEach',
          data: { count: missing.length, phases: missing.map(phaseLabel).join(', '), line: phase.line, because: note },
        });
    }
    if (quiet > 0) out.push(notPromised(quiet, expected.source));
    return out;
  },
};
