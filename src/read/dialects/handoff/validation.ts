// A validation report written after a plan's phases (`validation-<desc>.md`).
import type { HandoffDialectModule } from '../types.js';

export const validation: HandoffDialectModule = {
  name: 'validation',
  detect: (fileName) => fileName.startsWith('validation-'),
  format: 'markdown',
};
