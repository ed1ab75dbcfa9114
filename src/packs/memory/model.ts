// The memory pack's model: each truth source as its parsed JSONL lines; the derived index only as a path.
import type { PackWorkspace } from '../types.js';

export const PACK_ID = 'memory';

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

/** Which part of the store a path is (anything not a truth source is the derived index). */
export function sourceOf(path: string): MemorySource {
  const p = `/${path}`;
  if (p.endsWith('/memory/deltas.jsonl')) return 'deltas';
  if (p.endsWith('/memory/hot_context_versions.jsonl')) return 'hot';
  if (/\/memory\/cold\/[^/]+\.jsonl$/.test(p)) return 'cold';
  return 'index';
}

/** The memory pack's files of a workspace, with their models. */
export function memoryFiles(packs: PackWorkspace): { path: string; model: MemoryModel }[] {
  return (packs.get(PACK_ID) ?? [])
    .filter((f) => f.model !== null)
    .map((f) => ({ path: f.path, model: f.model as MemoryModel }));
}
