// Any other file in a handoffs folder: read as a Markdown handoff, held to the lighter schema. The last resort of the registry.
import type { HandoffDialectModule } from '../types.js';

export const other: HandoffDialectModule = {
  name: 'other',
  detect: () => true,
  format: 'markdown',
};
