// Positions -> offsets, and edits applied to a text. The parsers give lines and columns (mdast, yaml's
// LineCounter); edits are made at offsets computed from them, never by searching the Markdown with a pattern.
import type { Root } from 'mdast';
import { parseWhole } from '../read/markdown.js';
import type { TextEdit } from './types.js';

/** Offset of a 1-based line and column. */
export function offsetAt(text: string, line: number, column = 1): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** Offset of the start of the line after the one `offset` is on (the text's end on the last line). */
export function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * A whole-file parse for editing: the sectioned parse of read/markdown.ts reuses cached sections, and an edit needs
 * every offset to be this text's own.
 */
export function parseForEdit(text: string): Root {
  return parseWhole(text);
}

/**
 * The edits applied in offset order; insertions at one offset keep the order they were given in. Overlapping
 * edits are a fixer's bug, refused rather than guessed at.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits.map((e, i) => ({ e, i })).sort((a, b) => a.e.start - b.e.start || a.i - b.i);
  let out = '';
  let at = 0;
  for (const { e } of sorted) {
    if (e.start < at || e.end < e.start) throw new Error(`overlapping edits at offset ${e.start}`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** Two edit lists touch the same bytes (insertions at one point do not). */
export function overlaps(a: readonly TextEdit[], b: readonly TextEdit[]): boolean {
  return a.some((x) => b.some((y) => x.start < y.end && y.start < x.end));
}
