import type { Rule } from '../types.js';
import { schemaFindings } from '../schema-findings.js';

export const rule: Rule = {
  meta: {
    id: 'handoff/schema',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'output schema: required [status, task_desc, files_modified[], verification_results, context_for_next]',
    description:
      'The handoff parses and its normalized model satisfies schemas/handoff.schema.json. Task handoffs need status, task (an integer), task_desc, files_modified, verification_results and context_for_next, and a blocker when blocked; session handoffs of the other dialects are held to the lighter part of the schema.',
    fix: 'Add or correct the field in the frontmatter (or its section in the body).',
  },
  snapshot: (ws) =>
    ws.handoffs.flatMap((h) =>
      schemaFindings(h, 'handoff', (field) =>
        field === 'blocker' ? 'status is blocked but no `blocker` says what blocks the task' : `task handoff is missing \`${field}\``,
      ),
    ),
};
