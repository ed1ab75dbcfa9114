// `## Phase N: Title` headings (HumanLayer's create_plan, the seed's canonical plan, and most repositories): the
// plan's phases are the run of `Phase N` headings at one level, with their criteria under them.
import { criteriaKindOf } from '../../criteria.js';
import { LABEL, type PhaseHeadingRole, type PlanDialectModule } from '../types.js';

const PHASE_HEADING = new RegExp(String.raw`^phase\s+${LABEL}(?![\w])\s*[:.)\-–—]?\s*(.*)$`, 'is');

/** Whether a heading's text is a `Phase N` heading at all (a second list of phases elsewhere in the plan). */
export function isPhaseHeadingText(text: string): boolean {
  return PHASE_HEADING.test(text);
}

/**
 * A `Phase N` heading with no separator whose words describe something of the phase rather than name it
 * (`### Phase 1 Latency Targets`, `### Phase 2 File Summary`): a section about the phase, not a phase.
 */
const ABOUT_PHASE =
  /\b(?:targets?|summary|files?|results?|notes?|metrics|checklist|estimates?|risks?|timeline|status|review|retro(?:spective)?|deliverables|dependencies|rollback|rollback plan|complete|completed|done|overview|assessment|design|follow-?ups?|implementation notes|investigation|analysis|learnings|findings|scope boundaries|progress|recap|diagnosis|plan)$/i;

/** What a `Phase N ...` heading is, read from its words alone. */
function roleOf(text: string): PhaseHeadingRole {
  const m = PHASE_HEADING.exec(text);
  if (!m) return { role: 'none' };
  const label = m[1]!;
  const rest = m[2]!.trim();
  // The words after the label as written (`Phase 2.0 Success Criteria`: the `.` is the label's, no separator).
  const after = text.replace(/^phase\s+/i, '').slice(label.length);
  const separated = /^\s*[:.)\-–—]/.test(after) || rest === '';
  if (!separated) {
    const kind =
      criteriaKindOf(rest) ??
      (/^(?:is )?(?:complete|done|finished) when\b|^exit criteria$|^gate$/i.test(rest.replace(/[:.]\s*$/, ''))
        ? 'unknown'
        : null);
    if (kind) return { role: 'criteria', label, kind };
    // `Phase 7.1 implementation notes (2026-04-17)`, `Phase 3 design (refined)`: words about the phase, in lower
    // case or from the list, once dates and asides in brackets are set apart.
    // ... and before a subtitle (`Phase 5 Follow-up (2026-05-05): host-fallback hardening`).
    const words = rest
      .replace(/\s*[([][^)\]]*[)\]]\s*/g, ' ')
      .split(/\s*[:–—]\s*/)[0]!
      .replace(/[.✅]+\s*$/u, '')
      .trim();
    if (ABOUT_PHASE.test(words) || /^[a-z]/.test(words)) return { role: 'none' };
  }
  return { role: 'phase', label, title: rest };
}

export const phaseHeadings: PlanDialectModule = {
  name: 'phase-headings',
  detect: (shape) => shape.sequenceBy.has('phase-headings'),
  phaseHeading: (text) => roleOf(text),
};
