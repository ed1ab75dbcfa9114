// Results of earlier re-runs, so the same command on the same tree runs once: every later run of `verify` over the
// same commits, and two commits with one tree (a rebase, a cherry-pick), find their verdicts here. Kept beside the
// history cache, in `.git/validate-workflow/verify/`, one small file per tree, command, set-up step and limit (a
// different set-up or limit can give a different verdict).
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readCacheText, writeCacheFile } from '../history/cache.js';
import { repositoryInfo } from '../shared/git.js';
import type { Ran } from './process.js';

const FORMAT = 1;

/**
 * Verdicts kept: each is a small file with up to 64 KiB of output, one per tree and command, so a repository verified
 * on every pull request for years would otherwise fill `.git` without end. The oldest go first.
 */
export const KEEP = 1000;

export interface CacheEntry {
  format: number;
  tree: string;
  command: string;
  setup: string | null;
  timeout: number;
  ran: Ran;
  /** When it ran (ISO time), for a human reading the folder. */
  at: string;
}

export interface VerifyCache {
  get(key: CacheKey): Ran | null;
  put(key: CacheKey, ran: Ran): void;
}

export interface CacheKey {
  tree: string;
  command: string;
  setup: string | null;
  timeout: number;
}

function fileOf(folder: string, key: CacheKey): string {
  const id = createHash('sha256')
    .update(JSON.stringify([FORMAT, key.tree, key.command, key.setup, key.timeout]))
    .digest('hex');
  return join(folder, `${id.slice(0, 40)}.json`);
}

/** Removes the oldest verdicts (by modification time) beyond `keep`; a failure costs disk space, not correctness. */
function prune(folder: string, keep: number): void {
  try {
    const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
    if (files.length <= keep) return;
    const aged = files.map((f) => ({ f, t: statSync(join(folder, f)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { f } of aged.slice(0, files.length - keep)) rmSync(join(folder, f), { force: true });
  } catch {
    // Another run pruned the same folder, or it cannot be read: the next run tries again.
  }
}

/** The cache of the repository holding `root` (its common git folder, shared by every worktree of it). */
export function verifyCache(root: string, keep = KEEP): VerifyCache {
  const info = repositoryInfo(root);
  if (!info) return { get: () => null, put: () => {} };
  const folder = join(info.commonDir, 'validate-workflow', 'verify');
  return {
    get(key) {
      try {
        const entry = JSON.parse(readCacheText(fileOf(folder, key))) as CacheEntry;
        if (entry.format !== FORMAT || entry.tree !== key.tree || entry.command !== key.command) return null;
        return entry.ran;
      } catch {
        return null;
      }
    },
    put(key, ran) {
      const entry: CacheEntry = { format: FORMAT, ...key, ran, at: new Date().toISOString() };
      writeCacheFile(fileOf(folder, key), `${JSON.stringify(entry)}\n`);
      prune(folder, keep);
    },
  };
}
