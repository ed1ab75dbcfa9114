// The packs that exist. Each pack folder exports its definition; a pack is on when its files exist, unless the
// config switches it off (`packs: { "<id>": false }`); `memory` only when the config names its root.
import type { PackDef } from './types.js';
import { ralphPack } from './ralph/pack.js';
import { soongPack } from './soong-plans/pack.js';
import { memoryPack } from './memory/pack.js';

export const PACKS: readonly PackDef[] = [ralphPack, soongPack, memoryPack];
