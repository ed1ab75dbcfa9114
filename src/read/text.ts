// Bytes -> text, with every way a file can be unreadable turned into a located problem instead of a crash.
import type { ReadProblem } from '../model/types.js';

export type Decoded = { ok: true; text: string } | { ok: false; problem: ReadProblem };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Line and column of a byte offset; the column counts the characters before it on its line, as an editor does. */
function positionOfOffset(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  // For bad UTF-8, everything before `offset` is valid and decodes exactly; in a binary file the count is rough.
  const before = new TextDecoder('utf-8').decode(bytes.subarray(lineStart, offset));
  return { line, column: before.length + 1 };
}

/**
 * Index of the first byte of the first ill-formed sequence (Unicode table 3-7), so the finding points where an editor
 * shows the bad character. Only called after the decoder has already rejected the bytes; the decoder gives no offset.
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0) return i;
    // The second byte's range is narrower after these leads: no overlong forms, no surrogates, nothing past U+10FFFF.
    const [lo, hi] =
      b === 0xe0
        ? [0xa0, 0xbf]
        : b === 0xed
          ? [0x80, 0x9f]
          : b === 0xf0
            ? [0x90, 0xbf]
            : b === 0xf4
              ? [0x80, 0x8f]
              : [0x80, 0xbf];
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
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
        fix: 'Split the file into smaller ones, or raise `maxFileBytes` in validate-workflow.config.json.',
      },
    };
  }
  // A UTF-16 byte-order mark: Windows tools (PowerShell's `>` among them) write text this way. Its NUL bytes would
  // otherwise make it look binary, which sends the user looking for the wrong problem.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return {
      ok: false,
      problem: {
        line: 1,
        column: 1,
        message: 'File is UTF-16 text (it starts with a UTF-16 byte-order mark); re-save it as UTF-8.',
        fix: 'Re-save the file as UTF-8 (`iconv -f UTF-16 -t UTF-8`, or `Set-Content -Encoding utf8` in PowerShell).',
      },
    };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return {
      ok: false,
      problem: {
        ...positionOfOffset(bytes, nul),
        message: 'File looks binary (it contains a NUL byte); a workflow file must be UTF-8 text.',
        fix: 'Move the file out of the workflow folders (or list it under `ignore` in the config), or replace it with UTF-8 text.',
      },
    };
  }
  try {
    // The decoder drops a leading BOM, so line and column numbers match what an editor shows.
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return {
      ok: false,
      problem: {
        ...positionOfOffset(bytes, at < 0 ? 0 : at),
        message: 'File is not valid UTF-8; re-save it as UTF-8.',
        fix: 'Re-save the file as UTF-8 (your editor\'s "Save with encoding", or `iconv -f LATIN1 -t UTF-8`).',
      },
    };
  }
}
