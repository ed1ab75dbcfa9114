// The plan-agent dialect: no phases, `### Task N: Title` headings whose own checkboxes are the task's steps. The
// whole plan is one implicit phase.
import type { PlanDialectModule } from '../types.js';

export const taskHeadings: PlanDialectModule = {
  name: 'task-headings',
  detect: (shape) => shape.sequenceBy.size === 0 && shape.headingTasks,
};
