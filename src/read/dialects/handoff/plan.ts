// A handoff that hands a plan on to the next session (`plan-<desc>.md`).
import type { HandoffDialectModule } from '../types.js';

export const planHandoff: HandoffDialectModule = {
  name: 'plan',
  detect: (fileName) => fileName.startsWith('plan-'),
  format: 'markdown',
};
