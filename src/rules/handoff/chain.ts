import { posix } from 'node:path';
import type { Rule, RawFinding } from '../types.js';
import type { Handoff, Workspace } from '../../model/types.js';
import { handoffTask, positionOf, taskHandoffsBySession } from '../../model/queries.js';

function sameFile(ref: string, from: Handoff, target: Handoff): boolean {
  const clean = ref.trim().replace(/^\.\//, '');
  return [clean, posix.join(posix.dirname(from.path), clean)].some((c) => posix.normalize(c) === target.path);
}

function exists(ws: Workspace, ref: string, from: Handoff): boolean {
  return ws.handoffs.some((h) => sameFile(ref, from, h));
}

export const rule: Rule = {
  meta: {
    id: 'handoff/chain',
    severities: { recommended: 'warn', strict: 'error' },
    formula: '[h_n]:complete(task_n) -> [h_{n+1}]:context(task_{n+1})',
    description:
      'The handoff of task n>1 names the handoff of task n-1 in `previous:`, and that handoff exists. In `recommended` a handoff without a `previous` key passes when the handoff of task n-1 exists in the same session (dialects that do not write the key); `strict` requires the key.',
    fix: 'Set `previous:` to the file name of the handoff of the task before (in the same session).',
    messages: {
      previousMissing: '`previous: {{previous}}` names a handoff that does not exist.',
      previousWrong: '`previous: {{previous}}` is not the handoff of task {{expected}} ({{predecessor}}).',
      previousWrongNoPredecessor: '`previous: {{previous}}` is not the handoff of task {{expected}}.',
      noPredecessor: 'Task {{task}} has no `previous:` and session "{{session}}" has no handoff of task {{expected}}.',
      previousUnset: 'Task {{task}} does not name the handoff of task {{expected}} in `previous:` ({{predecessor}}).',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    for (const [, list] of taskHandoffsBySession(ws)) {
      for (const h of list) {
        const n = handoffTask(h)!;
        // With broken frontmatter `previous:` is unknown, not absent; handoff/schema reports the file.
        if (n <= 1 || h.problems.length > 0) continue;
        const pred = list.find((p) => handoffTask(p) === n - 1);
        const at = { file: h.path, ...positionOf(h.positions, '/previous') };
        if (h.previous) {
          if (pred && sameFile(h.previous, h, pred)) continue;
          if (!exists(ws, h.previous, h)) out.push({ ...at, messageId: 'previousMissing', data: { previous: h.previous } });
          else if (pred) out.push({ ...at, messageId: 'previousWrong', data: { previous: h.previous, expected: n - 1, predecessor: posix.basename(pred.path) } });
          else out.push({ ...at, messageId: 'previousWrongNoPredecessor', data: { previous: h.previous, expected: n - 1 } });
          continue;
        }
        if (!pred) out.push({ ...at, messageId: 'noPredecessor', data: { task: n, session: String(h.session), expected: n - 1 } });
        else if (ctx.preset === 'strict') out.push({ ...at, messageId: 'previousUnset', data: { task: n, expected: n - 1, predecessor: posix.basename(pred.path) } });
      }
    }
    return out;
  },
};
