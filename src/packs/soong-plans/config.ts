// `packs["soong-plans"]`: false switches the pack off; an object sets the name length limit.
import type { Config } from '../../config/config.js';
import { packOption } from '../config.js';
import { PACK_ID, SOONG_PLANS_DIR } from './model.js';

export type SoongPlansConfig = boolean | { maxNameLength?: number };

// The description is also the error a wrong value gets ("must be <description>"), so it names the shapes.
export const configSchema: Record<string, unknown> = {
  description:
    'a boolean (on when .soong-agent/plans/ holds files; false switches it off), or a mapping with `maxNameLength` (a positive integer, 100 by default)',
  anyOf: [
    { type: 'boolean' },
    { type: 'object', additionalProperties: false, properties: { maxNameLength: { type: 'integer', minimum: 1 } } },
  ],
};

export function soongConfig(config: Config): SoongPlansConfig | undefined {
  return packOption<SoongPlansConfig>(config, PACK_ID);
}

/** Every file under the plans folder (so broken names are seen); none when the pack is off. */
export function globs(config: Config): string[] {
  return soongConfig(config) === false ? [] : [`${SOONG_PLANS_DIR}**`];
}

/** The name length limit: `packs["soong-plans"].maxNameLength`, 100 by default. */
export function maxNameLength(config: Config): number {
  const c = soongConfig(config);
  return typeof c === 'object' && c !== null && typeof c.maxNameLength === 'number' ? c.maxNameLength : 100;
}
