// The soong-plans pack (seed 003, the soong agent core): plan files live under `.soong-agent/plans/` and the core
// only validates the file name the model chose. Rule pages: docs/rules/soong-plans/<rule>.md; index: docs/packs/soong-plans.md.
import type { Pack } from '../types.js';
import { configSchema, globs } from './config.js';
import { PACK_ID } from './model.js';
import { read } from './read.js';
import { rules } from './rules/index.js';

export const soongPlans: Pack = {
  id: PACK_ID,
  description: 'soong agent plan file names',
  globs,
  read,
  rules,
  configSchema,
};
