// The ralph pack (seed 004, maestro-flow's ralph loop): `.workflow/.maestro/ralph-*/status.json` (the session state)
// and `decisions.ndjson` (the decision log next to it), judged against the seed's session schema and invariants.
// Rule pages: docs/rules/ralph/<rule>.md; index: docs/packs/ralph.md.
import type { Pack } from '../types.js';
import { configSchema, globs } from './config.js';
import { PACK_ID } from './model.js';
import { read } from './read.js';
import { rules } from './rules/index.js';

export const ralph: Pack = {
  id: PACK_ID,
  description: 'maestro-flow ralph sessions',
  globs,
  read,
  rules,
  configSchema,
};
