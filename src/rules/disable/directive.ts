import type { Rule, RawFinding } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'disable/directive',
    severities: { recommended: 'warn', strict: 'warn' },
    formula: 'O(respect_user_preference)',
    description:
      'An inline `validate-workflow-disable` comment names known rules and gives a reason after ` -- `. It never silences a `history/*` rule. A disable without a reason still applies, but is reported.',
    fix: 'Write `<!-- validate-workflow-disable <rule-id> -- <why> -->`.',
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    for (const file of [...ws.plans, ...ws.handoffs, ...ws.ledgers]) {
      for (const d of file.disables) {
        const at = { file: file.path, line: d.line, column: d.column };
        if (d.ruleIds.length === 0) out.push({ ...at, message: 'Disable comment names no rule.' });
        if (!d.reason) out.push({ ...at, message: `Disable of ${d.ruleIds.join(', ') || 'nothing'} gives no reason.` });
        for (const id of d.ruleIds) {
          if (id.startsWith('history/')) out.push({ ...at, message: `${id} cannot be disabled inline; history rules judge what was committed.` });
          else if (!ctx.knownRules.has(id)) out.push({ ...at, message: `Disable names unknown rule ${id}.` });
        }
      }
    }
    return out;
  },
};
