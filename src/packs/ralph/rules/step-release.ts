import type { Rule, RawFinding } from '../../../rules/types.js';
import { isDecision, isStatusChange, label, sessionOf, type Rec } from './session.js';

/** A step's identity across reindexing: its gate or its command line, and which occurrence of it it is. */
function keyed(steps: { i: number; step: Rec }[]): Map<string, { i: number; step: Rec }> {
  const seen = new Map<string, number>();
  const out = new Map<string, { i: number; step: Rec }>();
  for (const s of steps) {
    const base = isDecision(s.step)
      ? `decision:${String(s.step.decision)}`
      : `${String(s.step.skill ?? '')} ${String(s.step.args ?? '')} ${String(s.step.stage ?? '')}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(`${base}#${n}`, s);
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'ralph/step-release',
    short: 'A completed step never goes back to pending (except a released decision).',
    severities: { recommended: 'error', strict: 'error' },
    formula:
      '重评分支(fix / escalate / goal-fix):`step.status = "pending"`, `step.completion_confirmed = false`, `session.active_step_index = null`, `step.retry_count += 1`',
    description:
      'A completed step never goes back to pending, except a decision step released on a fix, escalate or goal-fix verdict, which the release protocol marks by raising its retry_count by one.',
    fix: 'Leave completed steps completed; to redo work, insert new steps (the fix-loop templates) after the current step, or release the decision step with retry_count + 1.',
    messages: {
      notReleased:
        'The commit sets {{step}} from completed back to pending without the re-evaluation release (retry_count + 1).',
      notDecision:
        'The commit sets {{step}} from completed back to pending; only a decision step is released back to pending.',
    },
  },
  packTransition: (change) => {
    if (!isStatusChange(change)) return [];
    const before = sessionOf(change.before);
    const after = sessionOf(change.after);
    if (!before || !after) return [];
    const sha = change.commit.sha.slice(0, 7);
    const now = keyed(after.steps);
    const out: RawFinding[] = [];
    for (const [key, was] of keyed(before.steps)) {
      const is = now.get(key);
      if (!is || was.step.status !== 'completed' || is.step.status !== 'pending') continue;
      const retried = typeof was.step.retry_count === 'number' && is.step.retry_count === was.step.retry_count + 1;
      if (isDecision(is.step) && retried) continue;
      const p = after.at(`/steps/${is.i}/status`);
      out.push({
        file: change.path,
        line: p.line,
        column: p.column,
        messageId: isDecision(is.step) ? 'notReleased' : 'notDecision',
        data: { sha, step: label(is.step, is.i) },
      });
    }
    return out;
  },
};
