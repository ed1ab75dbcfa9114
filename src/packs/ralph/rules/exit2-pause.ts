import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/exit2-pause',
    short: 'A session with two idle `ralph next` runs in a row is paused.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '连续 2 次 `ralph next` exit=2 → E010 pause',
    description:
      'A session whose consec_exit2_count reached 2 (two idle `ralph next` runs in a row) is paused, not still running: the circuit breaker stops a loop the router keeps sending to the wrong step.',
    fix: 'Set the session to "paused" and check next_pending_step against the router by hand before resuming.',
    messages: {
      stillRunning: 'E010: consec_exit2_count is {{count}} but the session is still running; it must pause.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      const n = s.data.consec_exit2_count;
      if (typeof n === 'number' && n >= 2 && s.data.status === 'running') {
        out.push(at(s, '/consec_exit2_count', 'stillRunning', { count: n }));
      }
    }
    return out;
  },
};
