import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/active-step',
    short: 'At most one step is active, and the active step is running.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'E008',
    description:
      'At most one step holds active_step_index: no step other than steps[active_step_index] is running, and when active_step_index is set that step is running (an index on a completed step is ralph/stale-active-step).',
    fix: 'Edit status.json so that active_step_index points at the one running step, or is null with no step running.',
    messages: {
      runningNotActive: 'E008: {{step}} is running but active_step_index is {{index}}.',
      noSuchStep: 'E008: active_step_index {{index}} points at no step (the session has {{count}}).',
      notRunning: 'E008: active_step_index {{index}} points at {{step}}, which is {{status}}, not running.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      const idx = s.data.active_step_index;
      for (const { i, step } of s.steps) {
        if (step.status === 'running' && idx !== i) {
          out.push(
            at(s, `/steps/${i}/status`, 'runningNotActive', {
              step: label(step, i),
              index: idx === null || idx === undefined ? 'null' : String(idx),
            }),
          );
        }
      }
      if (typeof idx !== 'number') continue;
      const held = s.steps.find((x) => x.i === idx);
      if (!held) out.push(at(s, '/active_step_index', 'noSuchStep', { index: idx, count: s.steps.length }));
      else if (held.step.status !== 'running' && held.step.status !== 'completed') {
        out.push(
          at(s, '/active_step_index', 'notRunning', {
            index: idx,
            step: label(held.step, idx),
            status: String(held.step.status),
          }),
        );
      }
    }
    return out;
  },
};
