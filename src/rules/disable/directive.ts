import type { Rule, RawFinding } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'disable/directive',
    short: 'An inline disable names known rules and gives a reason.',
    severities: { recommended: 'warn', strict: 'warn' },
    formula: 'O(respect_user_preference)',
    description:
      'An inline `validate-workflow-disable` comment names known rules and gives a reason after ` -- `. It never silences a `history/*` rule. A disable without a reason still applies, but is reported.',
    fix: 'Write `<!-- validate-workflow-disable <rule-id> -- <why> -->` (it covers the whole file: at its end it moves no line).',
    messages: {
      noRule: 'Disable comment names no rule.',
      noReason: 'Disable of {{rules}} gives no reason.',
      historyRule: '{{rule}} cannot be disabled inline; history rules judge what was committed.',
      unknownRule: 'Disable names unknown rule {{rule}}.',
      historyRuleFix:
        'Remove {{rule}} from the comment: fix what the history finding names now (`npx validate-workflow confirm` for manual items), or record it in the baseline (`npx validate-workflow --baseline-write`).',
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    for (const file of [...ws.plans, ...ws.handoffs, ...ws.ledgers]) {
      for (const d of file.disables) {
        const at = { file: file.path, line: d.line, column: d.column };
        if (d.ruleIds.length === 0) out.push({ ...at, messageId: 'noRule' });
        if (!d.reason) out.push({ ...at, messageId: 'noReason', data: { rules: d.ruleIds.join(', ') || 'nothing' } });
        for (const id of d.ruleIds) {
          if (id.startsWith('history/'))
            out.push({ ...at, messageId: 'historyRule', fixId: 'historyRuleFix', data: { rule: id } });
          else if (!ctx.knownRules.has(id)) out.push({ ...at, messageId: 'unknownRule', data: { rule: id } });
        }
      }
    }
    return out;
  },
};
