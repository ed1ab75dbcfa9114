import type { Rule } from '../types.js';
import { positionOf, tasksOf } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'plan/mode',
    short: 'Direct mode with 4+ tasks needs `mode_set_by: user`.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'O(orchestration) <- tasks >= 4; P(direct) <- tasks <= 3; O(respect_user_preference)',
    description:
      "A plan that declares `mode: direct` although it has 4 or more tasks (or is context_critical) must record that this is the user's preference with `mode_set_by: user`. Without a `mode` key the mode follows the table: 4+ tasks or context_critical means orchestration, else direct.",
    fix: 'Use `mode: orchestration`, or add `mode_set_by: user` if the user asked for direct mode.',
    messages: {
      directWithManyTasks:
        'Plan declares `mode: direct` but has {{tasks}} tasks; the table requires orchestration unless the user chose direct mode.',
      directWhenCritical:
        'Plan declares `mode: direct` but is context_critical; the table requires orchestration unless the user chose direct mode.',
    },
  },
  snapshot: (ws) =>
    ws.plans
      .filter((p) => p.readable && p.frontmatter?.mode === 'direct' && p.frontmatter?.mode_set_by !== 'user')
      .flatMap((plan) => {
        const tasks = tasksOf(plan).length;
        const critical = plan.frontmatter?.context_critical === true;
        if (tasks < 4 && !critical) return [];
        const pos = positionOf(plan.positions, '/mode');
        return [
          critical
            ? { file: plan.path, ...pos, messageId: 'directWhenCritical' }
            : { file: plan.path, ...pos, messageId: 'directWithManyTasks', data: { tasks } },
        ];
      }),
};
