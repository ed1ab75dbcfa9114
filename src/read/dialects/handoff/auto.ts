// A handoff written by a hook when the context runs out (`auto-handoff-<date>.md`).
import type { HandoffDialectModule } from '../types.js';

export const auto: HandoffDialectModule = {
  name: 'auto',
  detect: (fileName) => fileName.startsWith('auto-handoff-'),
  format: 'markdown',
};
