// The commit doors judge HEAD -> the index, and the index's side of one commit is HEAD's side of the next: an agent
// that commits its plan again and again had it parsed twice per commit, HEAD's version cold (44 ms of a wide
// repository's plan commit, 171 ms of the monorepo shape's 50 KB plan; issue 22). Each door that judged a change keeps
// the models of the versions the index brought, by blob id and path, and the next door takes HEAD's side from here
// (or from the cache) like every unchanged file's. The index's side is never taken from either as it stands: it is
// parsed, or derived from HEAD's model when it only checks boxes or appends prose (read/derive.ts), HEAD's text read
// for that with the change.
//
// Anything that can run git can write the git folder. A forged entry misstates HEAD's side of a change at pre-commit
// and commit-msg, and through the derivation the index's side too (an agent's check-off read as no change), as a
// forged cache.pack already could for every file the change leaves alone and, at pre-push, for the base of the push.
// It buys nothing `--no-verify` does not: the hooks can be skipped, and CI judges every commit with no cache
// (engine/handover.ts and engine/snapshot-memory.ts say the same of the verdicts they keep). A damaged file (cut short,
// edited by hand) is checked by its digest and is no memory.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowFile } from '../model/types.js';
import { readCacheText, writeCacheFile } from '../history/cache.js';
import type { KnownModels } from '../history/store.js';
import { repositoryInfo } from '../shared/git.js';

const FORMAT = 1;
/**
 * Versions kept: the index's side of the change judged last, and HEAD's side it took from here, so that a commit
 * refused in between (its index is kept, HEAD stays) does not lose HEAD's. Older versions are left out: every model
 * kept is parsed back by the next door.
 */
const KEPT = 16;
/** A change of many large files is not worth its write on every commit: beyond this, the newest models only. */
const MAX_CHARS = 4 * 2 ** 20;

type Entry = [key: string, model: WorkflowFile];

function memoryFile(root: string): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.gitDir, 'validate-workflow', 'change-models.json') : null;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/**
 * A model for the path its key names, of the shape every model has (a kind, its problems; a plan's phases): anything
 * else in the file is not taken. Only a first check, as cache.pack's (history/cache.ts decodeModel): a forged model
 * can still be wrong inside.
 */
const isEntry = (e: unknown): e is Entry => {
  if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string') return false;
  const model = e[1] as Partial<WorkflowFile> | null;
  return (
    typeof model === 'object' &&
    model !== null &&
    !Array.isArray(model) &&
    typeof model.kind === 'string' &&
    Array.isArray(model.problems) &&
    (model.kind !== 'plan' || Array.isArray((model as { phases?: unknown }).phases)) &&
    e[0].endsWith(`:${String(model.path)}`)
  );
};

/** The entries kept under these settings; none when the file is missing, damaged or kept under other settings. */
function readEntries(file: string | null, settings: string): Entry[] {
  if (!file) return [];
  try {
    const text = readCacheText(file);
    const cut = text.indexOf('\n');
    const body = text.slice(cut + 1);
    if (cut !== 40 || sha1(body) !== text.slice(0, cut)) return [];
    const data = JSON.parse(body) as { format?: unknown; settings?: unknown; entries?: unknown };
    return data.format === FORMAT && data.settings === settings && Array.isArray(data.entries)
      ? data.entries.filter(isEntry)
      : [];
  } catch {
    return [];
  }
}

/** The models the last commit doors kept, asked like the cache's (a Seed source), and what this run keeps. */
export interface ChangeModels extends KnownModels {
  keep(k: string, model: WorkflowFile): void;
  /** Writes the index's models this run kept, and HEAD's it was given. */
  save(): void;
  /** Whether any kept model was given to this run. */
  consulted(): boolean;
}

/** The file is dropped: a model in it failed a judgement (engine/doors.ts judgePending). */
export function forgetChangeModels(root: string): void {
  const file = memoryFile(root);
  if (file) rmSync(file, { force: true });
}

export function changeModels(root: string, settings: string): ChangeModels {
  const file = memoryFile(root);
  const stored = new Map(readEntries(file, settings));
  const kept = new Map<string, WorkflowFile>();
  const used = new Map<string, WorkflowFile>();
  return {
    get(k) {
      const model = stored.get(k);
      if (model) used.set(k, model);
      return model;
    },
    has: (k) => stored.has(k),
    consulted: () => used.size > 0,
    keep(k, model) {
      kept.set(k, model);
    },
    save() {
      if (!file || kept.size === 0) return;
      const entries = [...kept, ...[...used].filter(([k]) => !kept.has(k))];
      // Judged again as it was (commit-msg after pre-commit, a retried commit): nothing to write.
      if (entries.length === stored.size && entries.every(([k]) => stored.has(k))) return;
      const next: string[] = [];
      let chars = 0;
      for (const e of entries) {
        const text = JSON.stringify(e);
        if (next.length >= KEPT || (next.length > 0 && chars + text.length > MAX_CHARS)) break;
        next.push(text);
        chars += text.length;
      }
      const body = `{"format":${FORMAT},"settings":${JSON.stringify(settings)},"entries":[${next.join(',')}]}`;
      writeCacheFile(file, `${sha1(body)}\n${body}`);
    },
  };
}
