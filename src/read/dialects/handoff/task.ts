// The seed's task handoff, `task-NN-<desc>.md`: one per task, held to the micro-spec output schema.
import type { HandoffDialectModule } from '../types.js';

export const task: HandoffDialectModule = {
  name: 'task',
  detect: (fileName) => /^task-\d+/i.test(fileName),
  format: 'markdown',
};
