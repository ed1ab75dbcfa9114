// The memory pack (seed 001, the Plan2 memory store): append-only JSONL truth sources under `<root>/memory/`
// (deltas, cold storage by category, hot context versions) and the derived SQLite index, which is rebuilt from them
// and so never belongs in the repository. On only when the config names the root (`packs.memory.root`).
import type { Config } from '../../config/config.js';
import type { Pack, PackFile } from '../types.js';

export type MemorySource = 'deltas' | 'cold' | 'hot' | 'index';

/** One non-blank line of a JSONL file: its parsed value, or why it did not parse. */
export interface JsonlLine {
  line: number;
  value?: unknown;
  error?: string;
}

export interface MemoryModel {
  source: MemorySource;
  /** Non-blank lines (empty for the index). */
  lines: JsonlLine[];
}

/** The configured root, normalized to a repository-relative prefix ('' for the repository root). */
export function memoryRoot(config: Config): string | null {
  const m = config.packs.memory;
  if (!m || typeof m !== 'object' || typeof m.root !== 'string') return null;
  const root = m.root.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  return root === '.' || root === '' ? '' : `${root}/`;
}

const INDEX_EXT = '{sqlite,sqlite3,db,sqlite-wal,sqlite-shm,db-wal,db-shm}';

export function memoryGlobs(config: Config): string[] {
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

export function sourceOf(path: string): MemorySource {
  const p = `/${path}`;
  if (p.endsWith('/memory/deltas.jsonl')) return 'deltas';
  if (p.endsWith('/memory/hot_context_versions.jsonl')) return 'hot';
  if (/\/memory\/cold\/[^/]+\.jsonl$/.test(p)) return 'cold';
  return 'index';
}

/** Split JSONL text into parsed lines; a bad line is recorded at its line number, never thrown. */
export function parseJsonl(text: string): JsonlLine[] {
  const out: JsonlLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw) as unknown });
    } catch (err) {
      out.push({ line: i + 1, error: (err as Error).message });
    }
  }
  return out;
}

export const memoryPack: Omit<Pack, 'rules' | 'description' | 'configSchema'> = {
  id: 'memory',
  globs: memoryGlobs,
  read: (path, bytes): PackFile<MemoryModel> => {
    const source = sourceOf(path);
    if (source === 'index') return { pack: 'memory', path, model: { source, lines: [] }, problems: [] };
    return { pack: 'memory', path, model: { source, lines: parseJsonl(Buffer.from(bytes).toString('utf8')) }, problems: [] };
  },
};

/** The memory pack's files of a workspace, with their models. */
export function memoryFiles(packs: Map<string, PackFile[]>): { path: string; model: MemoryModel }[] {
  return (packs.get('memory') ?? []).filter((f) => f.model !== null).map((f) => ({ path: f.path, model: f.model as MemoryModel }));
}
