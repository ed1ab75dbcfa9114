// The cache under .git/validate-workflow/ (never committed): parsed models by blob id and path, and the history
// findings up to the last judged commit, so a later run parses only new contents and folds only new commits.
// Anything unreadable, from another version, or made under other settings is ignored and rebuilt.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowFile } from '../model/types.js';
import { blobId, repositoryInfo } from '../shared/git.js';

// 4: states hold link values and plans named outside the globs (history/links.ts, history/sight.ts).
const FORMAT = 4;

export interface CacheData {
  format: number;
  /** Tool version and the settings the cached results depend on. */
  key: string;
  head: string | null;
  /** What the engine keeps to continue judging from `head` (its own shape; null when history was not judged). */
  history: unknown;
  state: [string, string][];
  models: Record<string, WorkflowFile>;
}

/**
 * The tool itself is part of the key: a rebuilt reader may read the same bytes differently, a changed rule judge the
 * same commit differently. By content, not by modification time: CI installs the same version afresh on every run
 * (new mtimes), and a cache restored there (README, "Warm CI") must match when the tool is the same, and be rebuilt
 * when it is not.
 */
let stamp: string | undefined;
function toolStamp(): string {
  if (stamp !== undefined) return stamp;
  const here = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha1');
  for (const f of [
    '../read/plan.js',
    '../read/handoff.js',
    '../read/ledger.js',
    '../read/yaml.js',
    '../read/markdown.js',
    '../../package.json',
  ]) {
    const path = resolve(here, f);
    hash.update(f).update(existsSync(path) ? readFileSync(path) : '');
  }
  // The bundle (dist/bundle/) holds readers, rules and engine in its chunks, and the findings cached were made by
  // all of them: the build's own hash of every file (scripts/bundle.mjs). Unbundled, this module's file stands in.
  const build = resolve(here, 'BUILD_ID');
  hash.update(existsSync(build) ? readFileSync(build) : readFileSync(fileURLToPath(import.meta.url)));
  stamp = hash.digest('hex');
  return stamp;
}

export function cacheKey(parts: unknown[]): string {
  return createHash('sha1')
    .update(JSON.stringify([toolStamp(), ...parts]))
    .digest('hex');
}

/** git's blob id of some bytes: the same key whether the content comes from the working tree or a commit. */
export { blobId };

export function cacheFile(root: string): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.commonDir, 'validate-workflow', 'cache.json') : null;
}

export function loadCache(file: string | null, key: string): CacheData | null {
  if (!file) return null;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as CacheData;
    if (data.format !== FORMAT || data.key !== key || !Array.isArray(data.state) || typeof data.models !== 'object')
      return null;
    return data;
  } catch {
    return null;
  }
}

export function saveCache(file: string | null, data: Omit<CacheData, 'format'>): void {
  if (file) writeCacheFile(file, JSON.stringify({ format: FORMAT, ...data }));
}

/**
 * Writes a file of the cache folder (the cache, status's index) whole or not at all. Rename is atomic: a concurrent
 * run reads the old file or the new one, never half of one. A read-only .git or a full disk costs speed, not
 * correctness, so a failure is ignored.
 */
export function writeCacheFile(file: string, text: string): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch {
    // See above: the next run rebuilds what this one could not keep.
  }
}
