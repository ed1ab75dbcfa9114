// `packs.ralph`: on when its files exist; false switches it off.
import type { Config } from '../../config/config.js';
import { packOption } from '../config.js';
import { PACK_ID } from './model.js';

export const configSchema: Record<string, unknown> = {
  type: 'boolean',
  description: 'On when its files exist (.workflow/.maestro/ralph-*/status.json); false switches it off.',
};

export const STATUS_GLOB = '.workflow/.maestro/ralph-*/status.json';
export const DECISIONS_GLOB = '.workflow/.maestro/ralph-*/decisions.ndjson';

export function globs(config: Config): string[] {
  return packOption<boolean>(config, PACK_ID) === false ? [] : [STATUS_GLOB, DECISIONS_GLOB];
}
