// The memory pack (seed 001, the Plan2 memory store): append-only JSONL truth sources under `<root>/memory/`
// (deltas, cold storage by category, hot context versions) and the derived SQLite index, which is rebuilt from them
// and so never belongs in the repository. On only when the config names the root (`packs.memory.root`).
// Rule pages: docs/rules/memory/<rule>.md; index: docs/packs/memory.md.
import type { Pack } from '../types.js';
import { configSchema, globs } from './config.js';
import { PACK_ID } from './model.js';
import { read } from './read.js';
import { rules } from './rules/index.js';

export const memory: Pack = {
  id: PACK_ID,
  description: 'append-only JSONL memory',
  globs,
  read,
  rules,
  configSchema,
};
