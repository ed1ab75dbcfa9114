import type { RawFinding, Rule } from '../types.js';
import type { Phase, Plan } from '../../model/types.js';
import { capitalize, finished, inSteps, judgedPhases, phaseLabel, setAside } from '../../model/queries.js';
import { promiseOf } from '../promise.js';
import { describeSource, type ProfileSource } from '../../read/profile.js';
import { plural } from '../../shared/text.js';

/** Criteria of an undivided `### Success Criteria` list: of unknown kind, reported as unsplit, not as missing. */
export function unsplit(phase: Phase): boolean {
  return (phase.unknown ?? []).length > 0;
}

/** Whether a phase has criteria of this kind: checkboxes, or (recommended) a list or code block under the heading. */
export function has(phase: Phase, kind: 'automated' | 'manual', preset: string): boolean {
  if (phase[kind].length > 0) return true;
  return preset !== 'strict' && (phase.listed ?? []).some((k) => k === kind || k === 'unknown');
}

/**
 * Plan-wide criteria of this kind (a list outside the phase sequence): the plan has them, for every phase. In
 * `recommended` the plan's own testing phase (read/plan.ts marks it `verification`) is such a list of unknown kind:
 * the plan keeps its verification in a phase of its own. `strict` holds every phase to its own split criteria.
 */
export function planWide(plan: Plan, kind: 'automated' | 'manual', preset: string): boolean {
  return listedPlanWide(plan, kind) || testingPhase(plan, preset) !== undefined;
}

/** Plan-wide criteria the plan lists outside its phase sequence (a `## Success Criteria` list after the phases). */
function listedPlanWide(plan: Plan, kind: 'automated' | 'manual'): boolean {
  return (
    plan.phases.some((p) => p.outside && (p[kind].length > 0 || unsplit(p))) ||
    (plan.listed ?? []).some((k) => k === kind || k === 'unknown')
  );
}

/** `recommended`: the phase of the sequence that holds the plan's verification (`## Phase 4: Testing`), if any. */
export function testingPhase(plan: Plan, preset: string): Phase | undefined {
  return preset === 'strict' ? undefined : judgedPhases(plan).find((p) => p.verification);
}

/**
 * The phases the criteria rules judge: a plan the reader is sure of, its sequence without deferred or grouping phases;
 * in `recommended`, none of a finished plan.
 */
export function criteriaPhases(plan: Plan, preset: string, configPromised = false): Phase[] {
  if (!plan.readable || plan.notAPlan || plan.unstructured || setAside(plan)) return [];
  if (preset !== 'strict' && finished(plan)) return [];
  // recommended judges a plan by its own form's promise: the step form has no criteria sections (convention 4b).
  // A config that states the promise holds every plan to it.
  if (preset !== 'strict' && !configPromised && inSteps(plan)) return [];
  const phases = judgedPhases(plan);
  // A file with no phase heading is a plan only in the plan-agent dialect (`### Task N:` headings); a checklist, a
  // status report or a guide in the plans folder has no phases to hold to criteria, and the reader never guesses.
  const implicit = phases.length === 1 && phases[0]!.label === null;
  if (
    implicit &&
    !phases[0]!.tasks.some((t) => t.source === 'heading') &&
    !plan.phases.some((p) => p.automated.length + p.manual.length + p.unknown.length > 0)
  )
    return [];
  return phases;
}

/** Whether two thirds of the plans that have criteria split them into automated and manual: the repository's style. */
export function splitsCriteria(plans: readonly Plan[]): boolean {
  const withCriteria = plans.filter(
    (p) =>
      p.readable && !p.notAPlan && p.phases.some((x) => x.automated.length + x.manual.length + x.unknown.length > 0),
  );
  const split = withCriteria.filter(
    (p) => p.phases.some((x) => x.automated.length > 0) && p.phases.some((x) => x.manual.length > 0),
  ).length;
  return withCriteria.length > 0 && split * 3 >= withCriteria.length * 2;
}

/** The one info per run for plans a repository never promised criteria for (convention section 4b). */
export function notPromised(plans: number, source: ProfileSource): RawFinding {
  return {
    file: null,
    line: null,
    messageId: 'notPromised',
    info: true,
    data: { plans: plural(plans, 'plan'), because: describeSource(source) },
  };
}

/** ` (this repository's ... asks for ...)`: where the expectation came from, when it is the repository's own. */
export function sourceNote(source: ProfileSource): string {
  // The user's own config needs no citing (`--print-config` shows it); a learned expectation does.
  return source.from === 'strict' || source.from === 'config' ? '' : ` (${describeSource(source)})`;
}

/**
 * Every phase is held to criteria under strict and where the config states the promise; a promise learned from the
 * instructions or the majority is kept by a plan that writes such criteria in some phase (authors leave them out
 * of a phase with nothing to run or to look at).
 */
export function perPhase(preset: string, source: ProfileSource): boolean {
  return preset === 'strict' || source.from === 'config';
}

export const rule: Rule = {
  meta: {
    id: 'plan/phase-automated-criteria',
    short: 'Every phase has at least one automated verification item.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'forall phase. has_auto_criteria(phase)',
    description:
      "Every phase has at least one automated verification item (plan-wide criteria count for every phase); in `recommended`, a plan with automated items in some phase keeps the promise, and only a plan with none at all is reported. One finding per plan, listing the phases; a phase with no criteria at all is reported here once, not by plan/phase-manual-criteria. In `recommended` only where the repository promised automated criteria (config `protocol`, its own create_plan, or two thirds of its plans); elsewhere one info per run says what `strict` would check. `recommended` leaves alone finished plans and plans in the step form. An undivided `### Success Criteria` list is criteria of unknown kind: one finding per plan says it is not split (an info in `recommended`). In `recommended` a plan's own testing phase (`## Phase 4: Testing & Validation` holding plain boxes, not tasks) holds criteria of unknown kind for every phase; where it stands in for the promised automated items, one info names it (kind unsaid).",
    fix: 'Add `#### Automated Verification:` with at least one `- [ ]` item to the phase.',
    fixable: 'scaffold',
    messages: {
      noAutomated: '{{phase}} has no automated verification item{{because}}.',
      noAutomatedMany:
        '{{count}} phases have no automated verification item: {{phases}} (first at line {{line}}){{because}}.',
      noCriteria: '{{phase}} has no verification items, automated or manual{{because}}.',
      noCriteriaMany:
        '{{count}} phases have no verification items: {{phases}} (first at line {{line}}; {{without}} of them have no automated item){{because}}.',
      noAutomatedPlan:
        'None of the {{count}} phases of this plan has an automated verification item (first at line {{line}}){{because}}.',
      noCriteriaPlan:
        'None of the {{count}} phases of this plan has verification items, automated or manual (first at line {{line}}){{because}}.',
      addEach: 'Add `#### Automated Verification:` with at least one `- [ ]` item to each of them.',
      unsplit:
        'The success criteria of {{phases}} are one undivided list: nothing says which items are automated and which are manual.',
      split:
        'Split the list under `#### Automated Verification:` (commands the agent runs) and `#### Manual Verification:` (what a human checks).',
      testingStandsIn:
        'The plan keeps its verification in {{phase}}, as checkboxes of no stated kind: it stands in for the automated items of {{phases}}, but nothing says which of its items are automated (kind unsaid).',
      splitTesting:
        'Put the checks the agent runs under `#### Automated Verification:` in {{phase}} (or in the phases they verify), and what a human checks under `#### Manual Verification:`.',
      notPromised:
        'Phases without automated verification items in {{plans}}: this repository does not hold its plans to them ({{because}}), so they are not reported. `--preset strict` checks every phase, or set `protocol.automatedCriteria` in the config.',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    const promise = promiseOf(ws, ctx);
    const expected = promise.automatedCriteria;
    let quiet = 0;
    let split: boolean | undefined;
    for (const plan of ws.plans) {
      const phases = criteriaPhases(plan, ctx.preset, expected.source.from === 'config');
      if (phases.length === 0) continue;
      // recommended: a plan that writes automated criteria in some phase keeps the promise (authors leave them out
      // of a phase with nothing to run); only a plan with none at all departs from it. strict: every phase.
      const keeps =
        !perPhase(ctx.preset, expected.source) && phases.some((p) => has(p, 'automated', ctx.preset) || unsplit(p));
      const missing =
        planWide(plan, 'automated', ctx.preset) || keeps
          ? []
          : phases.filter((phase) => !has(phase, 'automated', ctx.preset) && !unsplit(phase));
      if (!expected.value) {
        if (missing.length > 0) quiet++;
        continue;
      }
      const note = sourceNote(expected.source);
      const bare = missing.filter((p) => !has(p, 'manual', ctx.preset) && !planWide(plan, 'manual', ctx.preset));
      const first = missing[0];
      if (first) {
        const data = {
          phase: capitalize(phaseLabel(first)),
          count: missing.length,
          phases: missing.map(phaseLabel).join(', '),
          line: first.line,
          without: bare.length,
          because: note,
        };
        const one = missing.length === 1;
        const whole = !perPhase(ctx.preset, expected.source) && !one;
        const messageId =
          bare.length === missing.length
            ? whole
              ? 'noCriteriaPlan'
              : one
                ? 'noCriteria'
                : 'noCriteriaMany'
            : whole
              ? 'noAutomatedPlan'
              : one
                ? 'noAutomated'
                : 'noAutomatedMany';
        out.push({
          file: plan.path,
          line: first.line,
          column: first.column,
          messageId,
          ...(one ? {} : { fixId: 'addEach' }),
          data,
        });
      }
      // A testing phase that stands in for the automated items the promise asks of the plan (without it the plan would
      // be reported above): its boxes are verification, but of no stated kind, so the plan gets one note naming it,
      // as an undivided list does, rather than nothing (the promise was made, and nothing shows it kept).
      const testing = testingPhase(plan, ctx.preset);
      const stoodIn =
        testing && !keeps && !listedPlanWide(plan, 'automated')
          ? phases.filter((phase) => !has(phase, 'automated', ctx.preset) && !unsplit(phase))
          : [];
      if (testing && stoodIn.length > 0)
        out.push({
          file: plan.path,
          line: testing.line,
          column: testing.column,
          messageId: 'testingStandsIn',
          fixId: 'splitTesting',
          info: true,
          data: { phase: phaseLabel(testing), phases: stoodIn.map(phaseLabel).join(', ') },
        });
      // A phase that also has automated or manual items did split its criteria: an extra list beside them (`All
      // tests must pass`) is no undivided list.
      const undivided = phases.filter((p) => unsplit(p) && p.automated.length + p.manual.length === 0);
      // An undivided list is a departure only where the repository's own plans split theirs (strict: always).
      if (
        undivided.length > 0 &&
        (perPhase(ctx.preset, promise.manualCriteria.source) ||
          (promise.manualCriteria.value && (split ??= splitsCriteria(ws.plans))))
      ) {
        // The list's heading when it stands in the first phase reported, else that phase's first undivided item.
        const phase = undivided[0]!;
        const next = plan.phases[plan.phases.indexOf(phase) + 1]?.line ?? Infinity;
        const heading = plan.undividedCriteria;
        const at =
          heading && heading.line >= phase.line && heading.line < next
            ? heading
            : { line: phase.unknown[0]!.line, column: 1 };
        out.push({
          file: plan.path,
          line: at.line,
          column: at.column,
          messageId: 'unsplit',
          fixId: 'split',
          // recommended: the phases have verification, only its kind is unsaid, and a reader that cannot tell says
          // so once as a note (convention section 4); strict holds every plan to the split to the letter.
          ...(ctx.preset === 'strict' ? {} : { info: true }),
          data: { phases: undivided.map(phaseLabel).join(', ') },
        });
      }
    }
    if (quiet > 0) out.push(notPromised(quiet, expected.source));
    return out;
  },
};
