import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, gate, isDecision, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/last-step',
    short: 'The step chain ends with milestone-complete.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'Chain 以 `milestone-complete` 结尾',
    description:
      'The step chain ends with milestone-complete: the last step is the milestone-complete execution step, or its post-milestone decision step right after it.',
    fix: 'Append the milestone-complete step (and its post-milestone decision) at the end of steps[] and reindex.',
    messages: {
      notMilestone: 'The chain ends with {{step}}, not with milestone-complete.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      if (s.steps.length === 0) continue;
      let k = s.steps.length - 1;
      if (isDecision(s.steps[k]!.step) && gate(s.steps[k]!.step) === 'post-milestone') k--;
      const last = s.steps[k];
      const ok =
        last &&
        !isDecision(last.step) &&
        (last.step.stage === 'milestone-complete' || last.step.skill === 'maestro-milestone-complete');
      if (!ok) {
        const where = last ?? s.steps[s.steps.length - 1]!;
        out.push(at(s, `/steps/${where.i}`, 'notMilestone', { step: label(where.step, where.i) }));
      }
    }
    return out;
  },
};
