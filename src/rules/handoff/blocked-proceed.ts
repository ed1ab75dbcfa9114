import type { Rule, RawFinding } from '../types.js';
import type { Handoff } from '../../model/types.js';
import { attachedNumber, handoffTask, planOf, positionOf, taskHandoffsBySession, tasksOf } from '../../model/queries.js';

function resolved(h: Handoff): boolean {
  const r = h.resolution;
  return r !== null && r !== undefined && r !== '' && !(Array.isArray(r) && r.length === 0);
}

export const rule: Rule = {
  meta: {
    id: 'handoff/blocked-proceed',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'F(proceed_on_mismatch) <- not user_guidance',
    description:
      'After a blocked task handoff, no later task of the session progresses (a later handoff, or a later task checked in the plan) unless the record shows the user\'s guidance: a `resolution:` in the blocked handoff (or, in history, a `Guidance-by:` commit trailer).',
    fix: 'Ask the user how to proceed; they record their answer in a commit with `Guidance-by: Name <email>` (or as `resolution:` in the blocked handoff).',
    messages: {
      proceeded: 'Task {{task}} proceeded although task {{blocked}} is blocked ({{blockedFile}}) with no recorded resolution.',
      checked: 'Task {{task}} is checked although task {{blocked}} is blocked ({{blockedFile}}) with no recorded resolution.',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    for (const [, list] of taskHandoffsBySession(ws)) {
      // A resolution in the handoff, or a human's `Guidance-by:` in a commit while it was blocked (ctx.guidance).
      const blocked = list.find((h) => h.status === 'blocked' && !resolved(h) && !ctx.guidance?.has(h.path));
      if (!blocked) continue;
      const n = handoffTask(blocked)!;
      const where = { blocked: n, blockedFile: blocked.path };
      const later = list.filter((h) => handoffTask(h)! > n);
      for (const h of later) out.push({ file: h.path, ...positionOf(h.positions, '/status'), messageId: 'proceeded', data: { task: handoffTask(h)!, ...where } });
      const plan = planOf(ws, blocked.path);
      if (!plan) continue;
      // In the plan's numbers: a task inserted mid-plan renumbers the plan, not the handoffs already written.
      const at = attachedNumber(plan, blocked) ?? n;
      const withHandoff = new Set(later.map((h) => attachedNumber(plan, h)));
      for (const t of tasksOf(plan).filter((t) => t.checked && t.number > at && !withHandoff.has(t.number))) {
        out.push({ file: plan.path, line: t.line, column: t.column, messageId: 'checked', data: { task: t.number, ...where } });
      }
    }
    return out;
  },
};
