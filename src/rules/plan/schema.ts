import type { RawFinding, Rule } from '../types.js';
import { SCHEMA_MESSAGES, schemaFindings } from '../schema-findings.js';

export const rule: Rule = {
  meta: {
    id: 'plan/schema',
    short: 'The plan parses and matches the plan schema.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description:
      "The plan parses (its frontmatter is valid YAML, the file is UTF-8 text) and its normalized model satisfies schemas/plan.schema.json. A plan whose phase sequence the reader is not sure of (a phase label repeated at the sequence's level) is read as unstructured: one info says so, and the structure rules stay silent on it; the history rules still follow every checkbox.",
    fix: 'Fix the YAML or the field named in the message.',
    messages: {
      ...SCHEMA_MESSAGES,
      unstructured:
        "Read as unstructured: {{reason}}, so the plan's phases are not judged (criteria, numbering, phase order).",
      structure:
        'Give each phase of the plan one `## Phase N: <title>` heading, and put other `Phase N` sections (rollout, checklists, future work) under a heading that says so.',
    },
  },
  snapshot: (ws, ctx) =>
    ws.plans
      .filter((p) => !ctx.focus || ctx.focus.has(p.path))
      .flatMap((plan): RawFinding[] => [
        ...schemaFindings(plan, 'plan'),
        ...(plan.unstructured
          ? [
              {
                file: plan.path,
                line: plan.unstructured.line,
                column: plan.unstructured.column,
                messageId: 'unstructured',
                fixId: 'structure',
                info: true,
                data: { reason: plan.unstructured.reason },
              },
            ]
          : []),
      ]),
};
