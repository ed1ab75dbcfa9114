// plan/phase-automated-criteria and plan/phase-manual-criteria, scaffold only: a phase without automated (or
// manual) criteria gets the heading the plan's dialect uses, with one unchecked placeholder item a human must
// replace. Nothing existing moves or changes: the new lines are inserted, the automated heading before the phase's
// manual one, else at the end of the phase. The plan is read back after the edit; unless the phase then has the
// criteria and every other item is as it was (text and box), the edit is not made.
import type { Heading } from 'mdast';
import type { Finding } from '../model/finding.js';
import type { Phase, Plan } from '../model/types.js';
import { phaseLabel } from '../model/queries.js';
import { textOf } from '../read/markdown.js';
import { readPlanText } from '../read/plan.js';
import { criteriaKindOf } from '../read/criteria.js';
import { criteriaPhases, unsplit } from '../rules/plan/phase-automated-criteria.js';
import { applyEdits, lineStart, parseForEdit } from './text.js';
import type { FixContext, FixResult, Fixer, TextEdit } from './types.js';

type Kind = 'automated' | 'manual';

const TITLE: Record<Kind, string> = { automated: 'Automated Verification', manual: 'Manual Verification' };
/**
 * Placeholders a human must replace: unchecked, and worded so nobody mistakes them for a real criterion. Plain
 * text, so the reader's item text is the placeholder itself (the read-back below tells them from the plan's items).
 */
export const PLACEHOLDER: Record<Kind, string> = {
  automated: 'TODO: the command that verifies this phase (for example npm test)',
  manual: 'TODO: what a human checks in this phase, or N/A and why there is nothing to check',
};

function headingAt(headings: Heading[], line: number): Heading | undefined {
  return headings.find((h) => h.position?.start.line === line);
}

/** `[start, end)` offsets of a phase: from its heading to the next phase or a heading of its level or above. */
function sectionOf(
  text: string,
  headings: Heading[],
  plan: Plan,
  phase: Phase,
): { heading: Heading | null; start: number; end: number } | null {
  if (phase.label === null && phase.number === null) return { heading: null, start: 0, end: text.length };
  // A phase heading inside a block quote is not a top-level heading: its section has no plain end to insert at.
  const heading = headingAt(headings, phase.line);
  if (!heading) return null;
  const next = plan.phases[plan.phases.indexOf(phase) + 1];
  const after = headings.find(
    (h) =>
      h.position!.start.offset! > heading.position!.start.offset! &&
      (h.depth <= heading.depth || h.position!.start.line === next?.line),
  );
  return { heading, start: heading.position!.start.offset!, end: after ? after.position!.start.offset! : text.length };
}

/**
 * The criteria heading style the plan already uses (level, trailing colon), else the canonical one: a level below
 * the phase's `Success Criteria` heading, else `####` (section 3). Never deeper than the phase's task headings
 * (`### Task N:`), or the criteria would read as the last task's.
 */
function style(
  headings: Heading[],
  phaseDepth: number,
  successDepth: number | null,
  taskDepth: number | null,
): { depth: number; colon: boolean } {
  const existing = headings.find(
    (h) =>
      h.depth >= 3 &&
      h.depth <= 5 &&
      h.depth > phaseDepth &&
      (criteriaKindOf(textOf(h)) === 'automated' || criteriaKindOf(textOf(h)) === 'manual'),
  );
  const wanted = existing?.depth ?? (successDepth !== null ? successDepth + 1 : Math.max(phaseDepth + 1, 4));
  const depth = Math.max(3, phaseDepth + 1, Math.min(5, wanted, taskDepth ?? 5));
  return { depth, colon: existing ? textOf(existing).endsWith(':') : true };
}

/** What the plan says of every item, without positions: equal before and after an edit that only adds. */
function items(plan: Plan): string {
  const placeholder = new Set(Object.values(PLACEHOLDER));
  const keep = (list: { text: string; checked: boolean }[]) =>
    list.filter((i) => !placeholder.has(i.text)).map((i) => [i.text, i.checked]);
  return JSON.stringify(
    plan.phases.map((p) => [
      p.label,
      p.tasks.map((t) => [t.title, t.checked, keep(t.steps)]),
      keep(p.automated),
      keep(p.manual),
      keep(p.unknown),
      keep(p.other),
    ]),
  );
}

function insertion(text: string, headings: Heading[], plan: Plan, phase: Phase, kind: Kind): TextEdit | null {
  const section = sectionOf(text, headings, plan, phase);
  if (!section) return null;
  const inside = headings.filter(
    (h) => h.position!.start.offset! > section.start && h.position!.start.offset! < section.end,
  );
  const success = inside.find((h) => criteriaKindOf(textOf(h)) === 'unknown');
  const tasks = inside.filter((h) =>
    phase.tasks.some((t) => t.source === 'heading' && t.line === h.position!.start.line),
  );
  const { depth, colon } = style(
    headings,
    section.heading?.depth ?? 1,
    success?.depth ?? null,
    tasks.length ? Math.min(...tasks.map((h) => h.depth)) : null,
  );
  // Automated before manual, as section 3 orders them.
  const manual =
    kind === 'automated' ? inside.find((h) => h.depth >= 3 && criteriaKindOf(textOf(h)) === 'manual') : undefined;
  const at = manual ? lineStart(text, manual.position!.start.offset!) : section.end;
  const before = text.slice(0, at);
  const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const block = `${'#'.repeat(depth)} ${TITLE[kind]}${colon ? ':' : ''}\n\n- [ ] ${PLACEHOLDER[kind]}\n`;
  return { start: at, end: at, text: `${lead}${block}${at < text.length ? '\n' : ''}` };
}

function scaffold(kind: Kind, ruleId: string, alsoFixes?: Fixer['alsoFixes']): Fixer {
  return {
    ruleId,
    type: 'scaffold',
    ...(alsoFixes ? { alsoFixes } : {}),
    fix: (findings: Finding[], ctx: FixContext): FixResult => {
      const out: FixResult = { changes: [], skipped: [] };
      const files = new Set(findings.filter((f) => f.messageId !== 'unsplit').map((f) => f.file));
      for (const plan of ctx.workspace.plans.filter((p) => files.has(p.path))) {
        const text = ctx.text(plan.path);
        const root = parseForEdit(text);
        const headings = root.children.filter((n): n is Heading => n.type === 'heading');
        // The phases the rules judge: never a section outside the sequence, a deferred or a grouping phase. A plan
        // with findings was judged, finished or not (the findings carry the preset's verdict).
        const missing = criteriaPhases(plan, 'strict').filter((p) => p[kind].length === 0 && !unsplit(p));
        for (const phase of missing) {
          const edit = insertion(text, headings, plan, phase, kind);
          const index = plan.phases.indexOf(phase);
          const after = edit ? readPlanText(plan.path, applyEdits(text, [edit])) : null;
          if (!edit || !after || after.phases[index]?.[kind].length !== 1 || items(after) !== items(plan)) {
            out.skipped.push({
              ruleId,
              file: plan.path,
              why: `${phaseLabel(phase)}: no place to add ${TITLE[kind]} that the plan would read as this phase's (add it by hand)`,
            });
            continue;
          }
          out.changes.push({
            ruleId,
            file: plan.path,
            edits: [edit],
            says: `added ${TITLE[kind]} to ${phaseLabel(phase)} with a placeholder item to fill in (${ruleId})`,
          });
        }
      }
      return out;
    },
  };
}

export const automatedCriteria = scaffold('automated', 'plan/phase-automated-criteria');
// A phase with no criteria at all is one finding of plan/phase-automated-criteria (`noCriteria`): both headings go in.
export const manualCriteria = scaffold(
  'manual',
  'plan/phase-manual-criteria',
  (f) => f.ruleId === 'plan/phase-automated-criteria' && (f.messageId ?? '').startsWith('noCriteria'),
);
