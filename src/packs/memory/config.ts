// `packs.memory`: on only when it names the store's root folder (its folder names are too common to guess).
import type { Config } from '../../config/config.js';
import { packOption } from '../config.js';
import { PACK_ID } from './model.js';

export type MemoryConfig = false | { root: string };

// The description is also the error a wrong value gets ("must be <description>"), so it names the shapes.
export const configSchema: Record<string, unknown> = {
  description: "false, or a mapping with `root` (the store's root folder: the pack is on only when it is named)",
  anyOf: [
    { const: false },
    {
      type: 'object',
      additionalProperties: false,
      required: ['root'],
      properties: { root: { type: 'string', minLength: 1 } },
    },
  ],
};

/** The configured root, normalized to a repository-relative prefix ('' for the repository root); null when off. */
export function memoryRoot(config: Config): string | null {
  const m = packOption<MemoryConfig>(config, PACK_ID);
  if (!m || typeof m !== 'object' || typeof m.root !== 'string') return null;
  const root = m.root
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  return root === '.' || root === '' ? '' : `${root}/`;
}

const INDEX_EXT = '{sqlite,sqlite3,db,sqlite-wal,sqlite-shm,db-wal,db-shm}';

export function globs(config: Config): string[] {
  const r = memoryRoot(config);
  if (r === null) return [];
  return [
    `${r}memory/deltas.jsonl`,
    `${r}memory/cold/*.jsonl`,
    `${r}memory/hot_context_versions.jsonl`,
    // The derived inverted index (seed: `global/index/`, SQLite): any SQLite file under the root, or the index folder.
    `${r}**/*.${INDEX_EXT}`,
    `${r}global/index/**`,
  ];
}
