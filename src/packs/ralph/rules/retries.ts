import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/retries',
    short: 'No step is retried more often than `max_retries` allows.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'retry_count <= max_retries',
    description:
      'No step has been retried more often than its max_retries allows; at the limit the loop escalates instead of retrying again.',
    fix: 'Escalate (quality-debug, then pause for a human) instead of retrying past max_retries.',
    messages: {
      tooMany: '{{step}} has retry_count {{count}}, above max_retries {{max}}.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      for (const { i, step } of s.steps) {
        if (
          typeof step.retry_count === 'number' &&
          typeof step.max_retries === 'number' &&
          step.retry_count > step.max_retries
        ) {
          out.push(
            at(s, `/steps/${i}/retry_count`, 'tooMany', {
              step: label(step, i),
              count: step.retry_count,
              max: step.max_retries,
            }),
          );
        }
      }
    }
    return out;
  },
};
