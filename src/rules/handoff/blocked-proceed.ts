import type { Rule, RawFinding } from '../types.js';
import type { Handoff } from '../../model/types.js';
import {
  attachedNumber,
  handoffTask,
  planOf,
  positionOf,
  resolutionOf,
  taskHandoffsBySession,
  tasksOf,
} from '../../model/queries.js';
import { resolutionKey } from '../../history/resolutions.js';

/** Why a blocked handoff still holds the session back: no resolution, or one an agent wrote itself. */
function waiting(
  h: Handoff,
  guidance: ReadonlyMap<string, string> | undefined,
  selfResolved: ReadonlySet<string> | undefined,
): 'none' | 'self' | null {
  if (h.status !== 'blocked' || guidance?.has(h.path)) return null;
  const text = resolutionOf(h);
  if (text === null) return 'none';
  // History knows who wrote the resolution; an agent's own answer to its blocker is no guidance (issue 12).
  return selfResolved?.has(resolutionKey(h.path, text)) ? 'self' : null;
}

export const rule: Rule = {
  meta: {
    id: 'handoff/blocked-proceed',
    short: "No task progresses after a blocked handoff without the user's guidance.",
    severities: { recommended: 'error', strict: 'error' },
    formula: 'F(proceed_on_mismatch) <- not user_guidance',
    description:
      "After a blocked task handoff, no later task of the session progresses (a later handoff, or a later task checked in the plan) unless the record shows the user's guidance: a `resolution:` in the blocked handoff written by a human's commit (in history, one an agent's commit wrote does not count), or a `Guidance-by:` commit trailer by a human.",
    fix: 'Ask the user how to proceed; they record their answer in a commit with `Guidance-by: Name <email>` (or write the `resolution:` in the blocked handoff in a commit of their own).',
    messages: {
      proceeded:
        'Task {{task}} proceeded although task {{blocked}} is blocked ({{blockedFile}}) with no recorded resolution.',
      checked:
        'Task {{task}} is checked although task {{blocked}} is blocked ({{blockedFile}}) with no recorded resolution.',
      proceededSelf:
        "Task {{task}} proceeded although task {{blocked}} is blocked ({{blockedFile}}): its resolution was written by an agent's commit, and only the user's guidance counts.",
      checkedSelf:
        "Task {{task}} is checked although task {{blocked}} is blocked ({{blockedFile}}): its resolution was written by an agent's commit, and only the user's guidance counts.",
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    for (const [, list] of taskHandoffsBySession(ws)) {
      // A resolution a human's commit wrote, or a human's `Guidance-by:` in a commit while it was blocked (ctx.guidance).
      const first = list
        .map((h) => ({ h, why: waiting(h, ctx.guidance, ctx.selfResolved) }))
        .find((x) => x.why !== null);
      if (!first) continue;
      const blocked = first.h;
      const self = first.why === 'self';
      const n = handoffTask(blocked)!;
      const where = { blocked: n, blockedFile: blocked.path };
      const later = list.filter((h) => handoffTask(h)! > n);
      for (const h of later)
        out.push({
          file: h.path,
          ...positionOf(h.positions, '/status'),
          messageId: self ? 'proceededSelf' : 'proceeded',
          data: { task: handoffTask(h)!, ...where },
        });
      const plan = planOf(ws, blocked.path);
      if (!plan) continue;
      // In the plan's numbers: a task inserted mid-plan renumbers the plan, not the handoffs already written.
      const at = attachedNumber(plan, blocked) ?? n;
      const withHandoff = new Set(later.map((h) => attachedNumber(plan, h)));
      for (const t of tasksOf(plan).filter((t) => t.checked && t.number > at && !withHandoff.has(t.number))) {
        out.push({
          file: plan.path,
          line: t.line,
          column: t.column,
          messageId: self ? 'checkedSelf' : 'checked',
          data: { task: t.number, ...where },
        });
      }
    }
    return out;
  },
};
