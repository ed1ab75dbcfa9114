// The packs that exist: adding a pack is its folder plus one line here.
// (Interim: the pack folders are being made self-contained; until then their rules are attached here.)
import type { Pack } from './types.js';
import { ralphPack } from './ralph/pack.js';
import { soongPack } from './soong-plans/pack.js';
import { memoryPack } from './memory/pack.js';
import { ralphRules } from '../rules/ralph/index.js';
import { soongRules } from '../rules/soong-plans/index.js';
import { memoryRules } from '../rules/memory/index.js';

export const PACKS: readonly Pack[] = [
  { ...ralphPack, description: 'maestro-flow ralph sessions', rules: ralphRules, configSchema: {} },
  { ...soongPack, description: 'soong agent plan file names', rules: soongRules, configSchema: {} },
  { ...memoryPack, description: 'append-only JSONL memory', rules: memoryRules, configSchema: {} },
];
