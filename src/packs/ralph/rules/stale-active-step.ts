import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/stale-active-step',
    short: '`active_step_index` does not point at a completed step.',
    severities: { recommended: 'warn', strict: 'warn' },
    formula: 'W005',
    description:
      'active_step_index does not point at a completed step: the release protocol sets it back to null when a step completes.',
    fix: 'Set active_step_index to null (`ralph next` clears it on the next tick).',
    messages: {
      completed: 'W005: active_step_index {{index}} points at {{step}}, which is completed.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      const idx = s.data.active_step_index;
      const held = typeof idx === 'number' ? s.steps.find((x) => x.i === idx) : undefined;
      if (held && held.step.status === 'completed')
        out.push(at(s, '/active_step_index', 'completed', { index: String(idx), step: label(held.step, held.i) }));
    }
    return out;
  },
};
