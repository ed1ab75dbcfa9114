import type { Rule } from '../types.js';
import { SCHEMA_MESSAGES, schemaFindings } from '../schema-findings.js';

export const rule: Rule = {
  meta: {
    id: 'plan/schema',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description: 'The plan parses (its frontmatter is valid YAML, the file is UTF-8 text) and its normalized model satisfies schemas/plan.schema.json.',
    fix: 'Fix the YAML or the field named in the message.',
    messages: { ...SCHEMA_MESSAGES },
  },
  snapshot: (ws, ctx) => ws.plans.filter((p) => !ctx.focus || ctx.focus.has(p.path)).flatMap((plan) => schemaFindings(plan, 'plan')),
};
