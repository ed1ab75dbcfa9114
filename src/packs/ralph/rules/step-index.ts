import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/step-index',
    short: 'Every step carries its own position as `index`.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'steps[i].index == i',
    description:
      'Every step carries its own position as index: after A_APPLY_* inserts or removes steps, steps[] is reindexed.',
    fix: 'Reindex steps[] (steps[i].index = i) and move active_step_index with it.',
    messages: {
      wrong: '{{step}} has index {{index}}, not {{position}}.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      for (const { i, step } of s.steps) {
        if (step.index !== i)
          out.push(
            at(s, `/steps/${i}/index`, 'wrong', {
              step: label(step, i),
              index: String(JSON.stringify(step.index)),
              position: i,
            }),
          );
      }
    }
    return out;
  },
};
