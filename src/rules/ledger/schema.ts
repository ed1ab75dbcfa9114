import type { Rule } from '../types.js';
import { schemaFindings } from '../schema-findings.js';

export const rule: Rule = {
  meta: {
    id: 'ledger/schema',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description: 'The ledger parses and its normalized model satisfies schemas/ledger.schema.json: `## Goal` and `## State` are required, status is active, complete or abandoned.',
    fix: 'Add the missing section or correct the field.',
  },
  snapshot: (ws, ctx) =>
    ws.ledgers.filter((l) => !ctx.focus || ctx.focus.has(l.path)).flatMap((l) => schemaFindings(l, 'ledger', (field) => (field === 'goal' || field === 'state' ? `ledger has no \`## ${field[0]!.toUpperCase()}${field.slice(1)}\` section` : `ledger is missing \`${field}\``))),
};
