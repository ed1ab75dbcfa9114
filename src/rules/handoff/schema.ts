import type { Rule } from '../types.js';
import type { Handoff } from '../../model/types.js';
import { SCHEMA_MESSAGES, schemaFindings } from '../schema-findings.js';

/**
 * The template writes `blocker: null`; on a blocked handoff that is the micro spec's missing "blocker when blocked",
 * so it gets that message rather than a type error about null.
 */
function judged(h: Handoff): Handoff {
  if (h.normalized.status !== 'blocked' || h.normalized.blocker !== null) return h;
  const { blocker: _null, ...rest } = h.normalized;
  return { ...h, normalized: rest };
}

export const rule: Rule = {
  meta: {
    id: 'handoff/schema',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'output schema: required [status, task_desc, files_modified[], verification_results, context_for_next]',
    description:
      'The handoff parses and its normalized model satisfies schemas/handoff.schema.json. Task handoffs need status, task_desc, files_modified, verification_results and context_for_next, a task number (the `task` key, an integer, or `task-NN` in the file name), and a blocker when blocked; session handoffs of the other dialects are held to the lighter part of the schema.',
    fix: 'Add or correct the field in the frontmatter (or its section in the body).',
    messages: {
      ...SCHEMA_MESSAGES,
      missingField: 'task handoff is missing `{{field}}`',
      missingBlocker: 'status is blocked but no `blocker` says what blocks the task',
    },
  },
  snapshot: (ws, ctx) =>
    ws.handoffs.filter((h) => !ctx.focus || ctx.focus.has(h.path)).flatMap((h) =>
      schemaFindings(judged(h), 'handoff', (field) =>
        field === 'blocker' ? { messageId: 'missingBlocker' } : { messageId: 'missingField', data: { field } },
      ),
    ),
};
