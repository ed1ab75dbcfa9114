// The packs that exist: adding a pack is its folder (src/packs/<name>/index.ts exporting one Pack) plus one line here
// (and its config fragment in schemas/config.schema.json, which test/packs/config-schema.test.ts holds to this list).
import type { Pack } from './types.js';
import { ralph } from './ralph/index.js';
import { soongPlans } from './soong-plans/index.js';
import { memory } from './memory/index.js';

export const PACKS: readonly Pack[] = [ralph, soongPlans, memory];
