import type { PackDef } from '../types.js';

// Placeholder until the ralph pack lands: no globs, so the pack is never on.
export const ralphPack: PackDef = {
  id: 'ralph',
  globs: () => [],
  read: (path) => ({ pack: 'ralph', path, model: null, problems: [] }),
};
