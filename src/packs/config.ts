// A pack's own key of the config (`packs.<id>`). The core types `packs` as an open record: each pack declares the
// JSON Schema of its key (`Pack.configSchema`, which the build writes into schemas/config.schema.json) and reads it
// back through this accessor with its own type, next to that schema in its folder.
import type { Config } from '../config/config.js';
import type { PackId } from './types.js';

/** `config.packs[id]` as the pack's schema allows it (configs are validated on load); undefined when unset. */
export function packOption<T>(config: Config, id: PackId): T | undefined {
  return config.packs[id] as T | undefined;
}
