import type { Rule } from '../types.js';

// Reported by the baseline itself (src/engine/baseline.ts) after the other rules ran: it judges the baseline file
// against their findings, not the workflow files.
export const rule: Rule = {
  meta: {
    id: 'baseline/stale',
    short: 'A baseline entry counts more findings than remain: shrink it.',
    severities: { recommended: 'warn', strict: 'warn' },
    formula: '—',
    description:
      "An entry of `validate-workflow.baseline.json` counts more findings of a rule in a file than remain. The baseline records the findings a repository had when it adopted the tool, so that later runs report only new ones; once some are fixed, the entry must shrink, or a new violation could take the fixed one's place unnoticed.",
    fix: 'Run `npx validate-workflow --baseline-write` to record the counts as they are now, and commit validate-workflow.baseline.json.',
    messages: {
      // {{findings}}: "finding" or "findings"; {{remains}}: "none remains", "1 remains", "2 remain".
      stale:
        "validate-workflow.baseline.json allows {{allowed}} {{rule}} {{findings}} in this file but {{remains}}: the baseline can shrink, so a new one cannot take the fixed one's place unnoticed.",
      // Appended to a finding of another rule whose count grew past its entry.
      grown:
        '{{message}} (validate-workflow.baseline.json allows {{allowed}} {{rule}} {{findings}} in this file; there are {{now}} now)',
    },
  },
};
