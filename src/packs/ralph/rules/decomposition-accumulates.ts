import type { Rule, RawFinding } from '../../../rules/types.js';
import { isRec, isStatusChange, sessionOf, type Rec } from './session.js';
import { isDeepStrictEqual } from 'node:util';

/** Fields that may move, and only forward. */
function forward(key: string, from: unknown, to: unknown): boolean {
  if (key === 'status') return from === to || (from === 'pending' && to === 'done');
  if (key === 'completion_confirmed') return from === to || (from !== true && to === true);
  if (key === 'completed_at') {
    if (from === null || from === undefined) return true;
    return typeof to === 'string' && typeof from === 'string' && Date.parse(to) >= Date.parse(from);
  }
  return false;
}

function isSet(v: unknown): boolean {
  return !(v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0));
}

function entries(data: Rec | undefined): Map<string, Rec> {
  const list = data && Array.isArray(data.task_decomposition) ? data.task_decomposition.filter(isRec) : [];
  return new Map(list.map((g) => [String(g.id), g]));
}

export const rule: Rule = {
  meta: {
    id: 'ralph/decomposition-accumulates',
    short: '`task_decomposition` only accumulates across commits.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '字段累加,既有字段不删不改',
    description:
      'task_decomposition only accumulates across commits: a sub-goal once written is never removed, and a field once set is never removed or changed, except status (pending → done), completion_confirmed (false → true) and completed_at (set, or moved later) moving forward.',
    fix: 'Restore the sub-goal or field as committed; record progress only through status, completion_confirmed and completed_at, and add new sub-goals instead of rewriting old ones.',
    messages: {
      goalRemoved: 'The commit removes sub-goal {{id}} from task_decomposition.',
      backwards: 'The commit moves {{id}}.{{key}} backwards: {{from}} → {{to}}.',
      fieldRemoved: 'The commit removes {{id}}.{{key}} (was {{was}}).',
      fieldChanged: 'The commit changes {{id}}.{{key}}: {{from}} → {{to}}.',
    },
  },
  packTransition: (change) => {
    if (!isStatusChange(change)) return [];
    const before = sessionOf(change.before);
    const after = sessionOf(change.after);
    if (!before) return [];
    const sha = change.commit.sha.slice(0, 7);
    const old = entries(before.data);
    const now = entries(after?.data);
    const out: RawFinding[] = [];
    const where = (id: string, key?: string) => {
      const list = after && Array.isArray(after.data.task_decomposition) ? after.data.task_decomposition : [];
      const k = list.findIndex((g) => isRec(g) && String(g.id) === id);
      const p =
        after && k !== -1
          ? after.at(`/task_decomposition/${k}${key ? `/${key}` : ''}`)
          : (after?.at('/task_decomposition') ?? { line: null, column: null });
      return { file: change.path, line: p.line, column: p.column };
    };
    for (const [id, g] of old) {
      const h = now.get(id);
      if (!h) {
        out.push({ ...where(id), messageId: 'goalRemoved', data: { sha, id } });
        continue;
      }
      for (const [key, v] of Object.entries(g)) {
        const w = h[key];
        if (['status', 'completion_confirmed', 'completed_at'].includes(key)) {
          if (!forward(key, v, w))
            out.push({
              ...where(id, key),
              messageId: 'backwards',
              data: { sha, id, key, from: String(JSON.stringify(v)), to: JSON.stringify(w ?? null) },
            });
          continue;
        }
        if (!isSet(v)) continue;
        if (!(key in h))
          out.push({ ...where(id), messageId: 'fieldRemoved', data: { sha, id, key, was: String(JSON.stringify(v)) } });
        else if (!isDeepStrictEqual(v, w))
          out.push({
            ...where(id, key),
            messageId: 'fieldChanged',
            data: { sha, id, key, from: String(JSON.stringify(v)), to: String(JSON.stringify(w)) },
          });
      }
    }
    return out;
  },
};
