// Bytes -> text, with every way a file can be unreadable turned into a located problem instead of a crash.
import type { ReadProblem } from '../model/types.js';

export type Decoded = { ok: true; text: string } | { ok: false; problem: ReadProblem };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** Index of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return -1;
}

export function decode(bytes: Uint8Array, maxBytes: number): Decoded {
  if (bytes.length > maxBytes) {
    return {
      ok: false,
      problem: {
        line: 1,
        column: 1,
        message: `File is ${bytes.length} bytes, larger than maxFileBytes (${maxBytes}); it was not parsed. Split it, or raise maxFileBytes in the config.`,
      },
    };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return {
      ok: false,
      problem: { line: lineOfOffset(bytes, nul), column: 1, message: 'File looks binary (it contains a NUL byte); a workflow file must be UTF-8 text.' },
    };
  }
  try {
    // The decoder drops a leading BOM, so line and column numbers match what an editor shows.
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return {
      ok: false,
      problem: { line: lineOfOffset(bytes, at < 0 ? 0 : at), column: 1, message: 'File is not valid UTF-8; re-save it as UTF-8.' },
    };
  }
}
