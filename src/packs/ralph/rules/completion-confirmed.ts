import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, isDecision, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/completion-confirmed',
    short: '`completion_confirmed` is set only on completed steps.',
    severities: { recommended: 'error', strict: 'error' },
    formula:
      '每个 step 必须 `completion_confirmed: true` — 由 `maestro ralph complete N --status DONE|DONE_WITH_CONCERNS` 写入',
    description:
      'completion_confirmed is true only on completed steps; a confirmed execution step has a completion_status of DONE or DONE_WITH_CONCERNS; decision steps, evaluated inline and never completed through `ralph complete`, carry no completion_status.',
    fix: 'Complete execution steps through `maestro ralph complete N --status DONE|DONE_WITH_CONCERNS`; release decision steps with completion_status null.',
    messages: {
      decisionStatus: '{{step}} is a decision step but carries completion_status {{status}}.',
      notCompleted: '{{step}} has completion_confirmed true but its status is {{status}}, not "completed".',
      badStatus: '{{step}} is confirmed with completion_status {{status}}; it must be DONE or DONE_WITH_CONCERNS.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      for (const { i, step } of s.steps) {
        const cs = step.completion_status ?? null;
        if (isDecision(step) && cs !== null) {
          out.push(
            at(s, `/steps/${i}/completion_status`, 'decisionStatus', {
              step: label(step, i),
              status: JSON.stringify(cs),
            }),
          );
        }
        if (step.completion_confirmed !== true) continue;
        if (step.status !== 'completed') {
          out.push(
            at(s, `/steps/${i}/completion_confirmed`, 'notCompleted', {
              step: label(step, i),
              status: String(JSON.stringify(step.status)),
            }),
          );
        } else if (!isDecision(step) && cs !== 'DONE' && cs !== 'DONE_WITH_CONCERNS') {
          out.push(
            at(s, `/steps/${i}/completion_status`, 'badStatus', { step: label(step, i), status: JSON.stringify(cs) }),
          );
        }
      }
    }
    return out;
  },
};
