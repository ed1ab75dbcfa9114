// HumanLayer's session handoff, named by its create_handoff command: `YYYY-MM-DD_HH-MM-SS_<desc>.md`.
import type { HandoffDialectModule } from '../types.js';

export const humanlayer: HandoffDialectModule = {
  name: 'humanlayer',
  detect: (fileName) => /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_/.test(fileName),
  format: 'markdown',
};
