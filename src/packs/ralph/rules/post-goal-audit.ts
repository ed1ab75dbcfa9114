import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, decomposition, gate, isDecision, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/post-goal-audit',
    short: 'A session with a task decomposition has a post-goal-audit step.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '`task_decomposition` 存在时,chain 含 `decision:post-goal-audit`',
    description:
      'A session with a task_decomposition has a post-goal-audit decision step in its chain, which audits the sub-goals before milestone-complete.',
    fix: 'Insert `{ "decision": "post-goal-audit", "retry_count": 0, "max_retries": 2 }` after the last verify/review/test step, before milestone-complete, and reindex.',
    messages: {
      missing: 'The session has a task_decomposition but no decision:post-goal-audit step.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      if (!decomposition(s.data)) continue;
      if (!s.steps.some(({ step }) => isDecision(step) && gate(step) === 'post-goal-audit')) {
        out.push(at(s, '/task_decomposition', 'missing'));
      }
    }
    return out;
  },
};
