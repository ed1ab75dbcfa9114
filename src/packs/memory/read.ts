// Reading a memory file: a truth source is split into JSONL lines (a bad line is recorded at its line number, never
// thrown); the derived index is not read at all.
import type { PackFile } from '../types.js';
import { PACK_ID, sourceOf, type JsonlLine, type MemoryModel } from './model.js';

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

export function read(path: string, bytes: Uint8Array): PackFile<MemoryModel> {
  const source = sourceOf(path);
  if (source === 'index') return { pack: PACK_ID, path, model: { source, lines: [] }, problems: [] };
  return {
    pack: PACK_ID,
    path,
    model: { source, lines: parseJsonl(Buffer.from(bytes).toString('utf8')) },
    problems: [],
  };
}
