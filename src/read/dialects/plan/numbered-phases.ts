// Phases numbered without the word, under a `## Phases` heading (`### 31.1 Persistent cache`): long-running plans
// that grow by appended, numbered phases.
import type { PlanDialectModule } from '../types.js';

/** The section that lists a plan's phases by number alone, and a numbered heading in it. */
const PHASES_SECTION = /^(?:implementation\s+)?phases:?$/i;
const NUMBERED_HEADING = /^(\d+(?:\.\d+)*)\.?\s*[:.)\-–—]?\s+(\S.*)$/s;

export const numberedPhases: PlanDialectModule = {
  name: 'numbered-phases',
  // Before `phase-headings`: a plan whose sequence holds any numbered phase is of this dialect.
  detect: (shape) => shape.sequenceBy.has('numbered-phases'),
  phaseHeading(text, parent) {
    const m = parent !== null && PHASES_SECTION.test(parent) ? NUMBERED_HEADING.exec(text) : null;
    return m ? { role: 'phase', label: m[1]!, title: m[2]! } : { role: 'none' };
  },
};
