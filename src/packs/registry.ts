// The packs that exist: adding a pack is its folder (src/packs/<name>/index.ts exporting one Pack) plus one line here.
// The build writes each pack's config schema into schemas/config.schema.json (scripts/build-schemas.mjs).
import type { Pack } from './types.js';
import { ralph } from './ralph/index.js';
import { soongPlans } from './soong-plans/index.js';
import { memory } from './memory/index.js';

export const PACKS: readonly Pack[] = [ralph, soongPlans, memory];
