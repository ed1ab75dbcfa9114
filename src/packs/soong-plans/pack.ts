// The soong-plans pack (seed 003, the soong agent core): plan files live under `.soong-agent/plans/` and the core
// only validates the file name the model chose. Every file under the folder is read (so broken names are seen);
// the content is ordinary Markdown and is not judged.
import type { Config } from '../../config/config.js';
import type { Pack } from '../types.js';

export const SOONG_PLANS_DIR = '.soong-agent/plans/';

/** A plan file: its name relative to the plans folder (a `/` in it means a subfolder). */
export interface SoongPlanModel {
  name: string;
}

export const soongPack: Omit<Pack, 'rules' | 'description' | 'configSchema'> = {
  id: 'soong-plans',
  globs: (config: Config) => (config.packs['soong-plans'] === false ? [] : ['.soong-agent/plans/**']),
  read: (path) => ({
    pack: 'soong-plans',
    path,
    model: { name: path.startsWith(SOONG_PLANS_DIR) ? path.slice(SOONG_PLANS_DIR.length) : path } satisfies SoongPlanModel,
    problems: [],
  }),
};

/** The name length limit: `packs["soong-plans"].maxNameLength`, 100 by default. */
export function maxNameLength(config: Config): number {
  const c = config.packs['soong-plans'];
  return typeof c === 'object' && c !== null && typeof c.maxNameLength === 'number' ? c.maxNameLength : 100;
}
