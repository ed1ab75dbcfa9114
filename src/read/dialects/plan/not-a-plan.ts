// A file in the plans folder with no checkbox, no criteria heading, no task and no `type: plan` (a README, a log,
// a timings table with `## Phase N` sections): not judged as a plan.
import type { PlanDialectModule } from '../types.js';

export const notAPlan: PlanDialectModule = {
  name: 'not-a-plan',
  detect: (shape) => shape.notAPlan,
};
