import type { PackDef } from '../types.js';

// Placeholder until the memory pack lands: no globs, so the pack is never on.
export const memoryPack: PackDef = {
  id: 'memory',
  globs: () => [],
  read: (path) => ({ pack: 'memory', path, model: null, problems: [] }),
};
