import type { Rule } from '../types.js';
import { SCHEMA_MESSAGES, schemaFindings, type MissingField } from '../schema-findings.js';

const missing: MissingField = (field): ReturnType<MissingField> => {
  if (field === 'goal' || field === 'state')
    return { messageId: 'missingSection', data: { section: `${field[0]!.toUpperCase()}${field.slice(1)}` } };
  return { messageId: 'missingField', data: { field } };
};

export const rule: Rule = {
  meta: {
    id: 'ledger/schema',
    short: 'The ledger parses and has `## Goal` and `## State`.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description:
      'The ledger parses and its normalized model satisfies schemas/ledger.schema.json: `## Goal` and `## State` are required, status is active, complete or abandoned.',
    fix: 'Add the missing section or correct the field.',
    messages: {
      ...SCHEMA_MESSAGES,
      missingSection: 'ledger has no `## {{section}}` section',
      missingField: 'ledger is missing `{{field}}`',
    },
  },
  snapshot: (ws, ctx) =>
    ws.ledgers.filter((l) => !ctx.focus || ctx.focus.has(l.path)).flatMap((l) => schemaFindings(l, 'ledger', missing)),
};
