import type { PackDef } from '../types.js';

// Placeholder until the soong-plans pack lands: no globs, so the pack is never on.
export const soongPack: PackDef = {
  id: 'soong-plans',
  globs: () => [],
  read: (path) => ({ pack: 'soong-plans', path, model: null, problems: [] }),
};
