// Temporary folders the test helpers make, removed after each test file by test/setup.ts. One list for every
// helper: with `isolate: false` (vitest.config.ts) a helper module is loaded once per worker and serves many test
// files, so a cleanup registered where the helper loads would run after the first of them only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder under the system's temporary folder, removed when the test file that asked for it ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeScratch(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
