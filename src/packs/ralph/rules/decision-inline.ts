import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, isDecision, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/decision-inline',
    short: 'Decision steps are evaluated inline, never loaded.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'Decision step 全程不调 `maestro ralph next` / `complete`',
    description:
      'Decision steps are evaluated inline and never loaded through `maestro ralph next`: they have no load, command_scope or command_path.',
    fix: 'Set load, command_scope and command_path of the decision step back to null; evaluate decision steps inline.',
    messages: {
      loaded: '{{step}} is a decision step but has {{key}} {{value}}: it was loaded like an execution step.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      for (const { i, step } of s.steps) {
        if (!isDecision(step)) continue;
        for (const key of ['load', 'command_scope', 'command_path']) {
          const v = step[key];
          if (v !== null && v !== undefined)
            out.push(at(s, `/steps/${i}/${key}`, 'loaded', { step: label(step, i), key, value: JSON.stringify(v) }));
        }
      }
    }
    return out;
  },
};
