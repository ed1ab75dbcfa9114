// pre-commit judges HEAD -> the index without a message; commit-msg, a moment later in the same `git commit`, judges
// the same change again with the message. A rule reads nothing of a message but its trailers (and shows its subject),
// so when the message carries none, commit-msg's verdict is pre-commit's: pre-commit leaves its verdict in the
// worktree's git folder and commit-msg takes it instead of judging again (issue 13: half the hooks' time).
//
// The record is keyed by everything the verdict depends on besides the message: the tool, the settings, HEAD, the
// index (its entries), who commits, a merge or an amend in progress. A stale record (an aborted commit, a
// restaged file, another identity) has another key and is never taken. Anything that can run git can write the git
// folder; a forged record buys nothing `--no-verify` does not, and pre-push and CI judge the commit again.
//
// A verdict with nothing in it at all, on a change that checks no manual item, also leaves a stamp the commit-msg
// hook's shell checks without starting node (hooks/commit-msg; node's start and load were most of that hook, issue 22).
// The shell cannot compute the key; the stamp binds what the key holds otherwise: the `git commit` process that runs
// both hooks (committingGit: who commits and an amend cannot change inside one), HEAD, and the index's entries by
// git's blob id of their listing (`git ls-files --stage -z | git hash-object --stdin` in the shell). The working
// tree's config is checked by its modification time against the stamp's. Only the hooks' own settings (no --config,
// no --preset) and no merge in progress: the shell knows nothing of the others.
import { createHash } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, Preset } from '../config/config.js';
import type { Finding } from '../model/finding.js';
import type { Trailer } from '../model/history.js';
import { cacheKey, readCacheText, writeCacheFile } from '../history/cache.js';
import { mayHoldTrailerBlock, messageTrailers, parseTrailers } from '../history/log.js';
import {
  amending,
  ask,
  committingGit,
  gitSync,
  identitiesIn,
  mergeHeads,
  repositoryInfo,
  type Identities,
} from '../shared/git.js';

interface Record {
  key: string;
  findings: Finding[];
  files: string[];
}

/** The verdict's record (JSON, for node's commit-msg). */
const RECORD = 'staged-verdict.json';

function recordFile(root: string, name = RECORD): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.gitDir, 'validate-workflow', name) : null;
}

/** The stamp's name and its first word, which hooks/commit-msg checks: a stamp of another format is never taken. */
const STAMP = 'staged-verdict.stamp';
const STAMP_VERSION = 'vw-stamp-1';

/** Removes one of the handover's files. A folder in its place stays: the shell reads only a file, verdictLeft too. */
function removeFile(root: string, name: string): void {
  const file = recordFile(root, name);
  try {
    if (file) rmSync(file, { force: true });
  } catch {
    // A folder in its place: nothing can be taken from it.
  }
}

function removeStamp(root: string): void {
  removeFile(root, STAMP);
}

/**
 * What of the settings keys the record: the working config whole (it was loaded and validated by the pre-commit
 * that left the record, so a commit-msg that finds the same key may take it without validating it again:
 * cli/commit-msg.ts loads no schema and no rule), the --preset given and whether --config was.
 */
export function handoverSettings(config: Config, presetOverride: Preset | undefined, explicitConfig: boolean): unknown {
  return [config, presetOverride ?? null, explicitConfig];
}

/** The message as git will record it: git strips `#` lines after the hook runs; they are not part of it. */
export function commentFree(message: string): string {
  return message
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .trim();
}

/**
 * The key of the change about to be committed (null when the index cannot be read), who commits it and the
 * message's trailers (history/fold.ts trailersOf), which the door needs again: two git questions, asked at once (one
 * for a message of one paragraph, which holds no trailer block).
 */
export async function handoverKey(
  root: string,
  settings: unknown,
  head: string | null,
  message: string,
): Promise<{ key: string | null; who: Identities; trailers: Trailer[]; index?: string }> {
  // The index git will commit, by its entries (mode, object, stage, path: what the commit's tree is made of; git
  // reads GIT_INDEX_FILE, which names another index in a hook of `git commit -a` or of a commit of paths). Not by the
  // file's bytes: lint-staged rewrites the index after its tasks with the same entries, and commit-msg then judged
  // the change again in most real commits (measured: 4 of 6 on the wide bench shape).
  const [vars, parsed, staged] = await Promise.all([
    ask(root, ['var', '-l']),
    mayHoldTrailerBlock(message) ? ask(root, ['interpret-trailers', '--parse'], message) : null,
    ask(root, ['ls-files', '--stage', '-z']),
  ]);
  const index = staged.ok ? createHash('sha256').update(staged.out).digest('hex') : null;
  // A failing git still says what it knows on stdout, and the sync questions these replace took that: asked again.
  const who = identitiesIn(vars.ok ? vars.out : gitSync(root, ['var', '-l']).out);
  const block =
    parsed === null ? '' : parsed.ok ? parsed.out : gitSync(root, ['interpret-trailers', '--parse'], message).out;
  return {
    key:
      index !== null
        ? cacheKey([settings, head, index, who.author, who.committer, mergeHeads(root), head !== null && amending()])
        : null,
    who,
    trailers: message ? messageTrailers(parseTrailers(block), message) : [],
    // The listing the key was made of: the door's listing of the index's workflow files is taken from it.
    ...(staged.ok ? { index: staged.out } : {}),
  };
}

/**
 * The stamp's line for a clean verdict on this HEAD and index listing (handoverKey's `index`), or null where the shell
 * could not check one: no git process above this one, no HEAD (the shell's `rev-parse --verify` fails there too).
 */
export function verdictStamp(head: string | null, index: string | undefined): string | null {
  if (head === null || index === undefined) return null;
  const git = committingGit();
  if (git === null) return null;
  // git's blob id of the listing, in the repository's object format (a SHA-256 repository's HEAD has 64 digits).
  const bytes = Buffer.from(index, 'utf8');
  const id = createHash(head.length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
  return `${STAMP_VERSION} ${git} ${head} ${id}\n`;
}

/**
 * pre-commit's verdict, for commit-msg to take; with `stamp` (verdictStamp: a verdict with no finding, on a change
 * that checks no manual item) the shell of the commit-msg hook takes it without node. Without `stamp`, one left before
 * is removed: it stood for another verdict.
 */
export function leaveVerdict(
  root: string,
  key: string,
  findings: Finding[],
  files: string[],
  stamp: string | null,
): void {
  const file = recordFile(root);
  if (!file) return;
  if (stamp === null) removeStamp(root);
  writeCacheFile(file, JSON.stringify({ key, findings, files } satisfies Record));
  if (stamp !== null) writeCacheFile(join(file, '..', STAMP), stamp);
}

/**
 * Removes any verdict a hook left before (hooks/pre-commit, before lint-staged runs the check as its task), or only
 * the stamp (`stampOnly`: a pre-commit that refuses leaves no verdict, and no stamp of an earlier one may outlive it).
 */
export function dropVerdict(root: string, stampOnly = false): void {
  removeStamp(root);
  if (!stampOnly) removeFile(root, RECORD);
}

/** Whether a verdict is waiting for commit-msg: the check ran as lint-staged's task since dropVerdict. */
export function verdictLeft(root: string): boolean {
  const file = recordFile(root);
  try {
    return file !== null && statSync(file).isFile();
  } catch {
    return false;
  }
}

/** pre-commit's verdict on this very change, once (the record is removed as it is taken), or null. */
export function takeVerdict(root: string, key: string): { findings: Finding[]; files: string[] } | null {
  const file = recordFile(root);
  if (!file) return null;
  // The shell must not take what node has taken (or found missing) either.
  removeStamp(root);
  let record: Record;
  try {
    record = JSON.parse(readCacheText(file)) as Record;
  } catch {
    return null;
  }
  rmSync(file, { force: true });
  return record.key === key && Array.isArray(record.findings) && Array.isArray(record.files)
    ? { findings: record.findings, files: record.files }
    : null;
}
