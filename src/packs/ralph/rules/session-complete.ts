import { isAre } from '../../../shared/text.js';
import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, decomposition, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/session-complete',
    short: 'A session is completed only when every step is confirmed.',
    severities: { recommended: 'error', strict: 'error' },
    formula:
      '所有 step `completion_confirmed == true`(除 skipped);task_decomposition 存在时校验 `task_decomposition_all_done == true`',
    description:
      'A session is status "completed" only when every step that is not skipped is completion_confirmed and, when it has a task_decomposition, task_decomposition_all_done is true.',
    fix: 'Set the session back to "running" (or "paused") until the remaining steps are confirmed and the goal audit reports all sub-goals met.',
    messages: {
      unconfirmed: 'The session is completed but {{count}} of its steps {{be}} not confirmed: {{steps}}.',
      decompositionOpen: 'The session is completed but task_decomposition_all_done is not true.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      if (s.data.status !== 'completed') continue;
      const open = s.steps.filter(({ step }) => step.status !== 'skipped' && step.completion_confirmed !== true);
      if (open.length) {
        const names = open
          .slice(0, 3)
          .map(({ i, step }) => label(step, i))
          .join(', ');
        out.push(
          at(s, '/status', 'unconfirmed', {
            count: open.length,
            be: isAre(open.length),
            steps: `${names}${open.length > 3 ? ', …' : ''}`,
          }),
        );
      }
      if (decomposition(s.data) && s.data.task_decomposition_all_done !== true) {
        out.push(at(s, '/status', 'decompositionOpen'));
      }
    }
    return out;
  },
};
