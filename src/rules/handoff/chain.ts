import { posix } from 'node:path';
import type { Rule, RawFinding } from '../types.js';
import type { Handoff, Workspace } from '../../model/types.js';
import { promiseOf } from '../promise.js';
import {
  attachedNumber,
  handoffTask,
  namesFile,
  planOf,
  positionOf,
  refCandidates,
  taskHandoffsBySession,
} from '../../model/queries.js';

const sameFile = namesFile;

/** The handoffs of a workspace by path, each with its place in `ws.handoffs` (built once per workspace). */
function byPath(ws: Workspace): Map<string, number[]> {
  let index = handoffIndex.get(ws.handoffs);
  if (!index) {
    index = new Map();
    ws.handoffs.forEach((h, i) => {
      const list = index!.get(h.path);
      if (list) list.push(i);
      else index!.set(h.path, [i]);
    });
    handoffIndex.set(ws.handoffs, index);
  }
  return index;
}

const handoffIndex = new WeakMap<readonly Handoff[], Map<string, number[]>>();

/** The handoffs `ref` (written in `from`) names, in the workspace's order: what a search of ws.handoffs finds. */
function namedBy(ws: Workspace, ref: string, from: Handoff): Handoff[] {
  const index = byPath(ws);
  const at = refCandidates(ref, from.path).flatMap((p) => index.get(p) ?? []);
  return [...new Set(at)].sort((a, b) => a - b).map((i) => ws.handoffs[i]!);
}

function exists(ws: Workspace, ref: string, from: Handoff): boolean {
  return namedBy(ws, ref, from).length > 0;
}

/**
 * A `previous:` that leaves the session and still continues the plan's chain: the handoff of task n-1 of the same
 * plan in another session (a new session picks up where the last one stopped), or an earlier handoff of task n
 * itself (a retry names the attempt it follows; handoff/one-per-task judges retries).
 */
function continues(ws: Workspace, h: Handoff, hasPredecessor: boolean): boolean {
  const plan = planOf(ws, h.path);
  const target = plan
    ? namedBy(ws, h.previous!, h).find((t) => t !== h && t.isTask && ws.links.get(t.path) === plan.path)
    : undefined;
  if (!plan || !target) return false;
  // In the plan's numbering: sessions on either side of a task inserted mid-plan number their handoffs differently.
  const n = attachedNumber(plan, h);
  const tn = attachedNumber(plan, target);
  if (n === null || tn === null) return false;
  return tn === n || (tn === n - 1 && !hasPredecessor && target.session !== h.session);
}

export const rule: Rule = {
  meta: {
    id: 'handoff/chain',
    short: "Task n's handoff names task n-1's handoff in `previous:`.",
    severities: { recommended: 'warn', strict: 'error' },
    formula: '[h_n]:complete(task_n) -> [h_{n+1}]:context(task_{n+1})',
    description:
      "The handoff of task n>1 names the handoff of task n-1 in `previous:`, and that handoff exists. A session that continues a plan where another stopped names that session's handoff of task n-1 (by path); a retry may name the earlier handoff of its own task instead. In `recommended` a missing `previous` key is reported only where the repository's handoffs chain (its instructions write the key, or two thirds of its task handoffs do), and passes when the handoff of task n-1 exists in the same session; `strict` requires the key. A `previous:` that is written is always checked.",
    fix: 'Set `previous:` to the file name of the handoff of the task before (in the same session).',
    fixable: 'problem',
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
    // A handoff without `previous:` is a broken chain only where the repository's handoffs chain (its own
    // instructions, two thirds of its task handoffs, or strict); a `previous:` that is written must still be right.
    const chains = promiseOf(ws, ctx).handoffChain.value;
    for (const [, list] of taskHandoffsBySession(ws)) {
      for (const h of list) {
        const n = handoffTask(h)!;
        // With broken frontmatter `previous:` is unknown, not absent; handoff/schema reports the file.
        if (n <= 1 || h.problems.length > 0) continue;
        // Two handoffs of one number in a session: a task inserted mid-plan, or a duplicate (handoff/one-per-task's).
        const preds = list.filter((p) => handoffTask(p) === n - 1);
        const pred = preds[0];
        // Where a finding lands, asked only for one: a cached model decodes its positions when first read.
        const at = () => ({ file: h.path, ...positionOf(h.positions, '/previous') });
        if (h.previous) {
          if (preds.some((p) => sameFile(h.previous!, h, p)) || continues(ws, h, pred !== undefined)) continue;
          if (!exists(ws, h.previous, h))
            out.push({ ...at(), messageId: 'previousMissing', data: { previous: h.previous } });
          else if (pred)
            out.push({
              ...at(),
              messageId: 'previousWrong',
              data: { previous: h.previous, expected: n - 1, predecessor: posix.basename(pred.path) },
            });
          else
            out.push({
              ...at(),
              messageId: 'previousWrongNoPredecessor',
              data: { previous: h.previous, expected: n - 1 },
            });
          continue;
        }
        if (!chains) continue;
        if (!pred)
          out.push({
            ...at(),
            messageId: 'noPredecessor',
            data: { task: n, session: String(h.session), expected: n - 1 },
          });
        else if (ctx.preset === 'strict')
          out.push({
            ...at(),
            messageId: 'previousUnset',
            data: { task: n, expected: n - 1, predecessor: posix.basename(pred.path) },
          });
      }
    }
    return out;
  },
};
