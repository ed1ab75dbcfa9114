// pre-commit judges HEAD -> the index without a message; commit-msg, a moment later in the same `git commit`, judges
// the same change again with the message. A rule reads nothing of a message but its trailers (and shows its subject),
// so when the message carries none, commit-msg's verdict is pre-commit's: pre-commit leaves its verdict in the
// worktree's git folder and commit-msg takes it instead of judging again (issue 13: half the hooks' time).
//
// The record is keyed by everything the verdict depends on besides the message: the tool, the settings, HEAD, the
// index (its tree), who commits, a merge or an amend in progress. A stale record (an aborted commit, a restaged
// file, another identity) has another key and is never taken. Anything that can run git can write the git folder;
// a forged record buys nothing `--no-verify` does not, and pre-push and CI judge the commit again.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../model/finding.js';
import { cacheKey, writeCacheFile } from '../history/cache.js';
import { amending, gitIdentities, gitSync, mergeHeads, repositoryInfo } from '../shared/git.js';

interface Record {
  key: string;
  findings: Finding[];
  files: string[];
}

function recordFile(root: string): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.gitDir, 'validate-workflow', 'staged-verdict.json') : null;
}

/**
 * The key of the change about to be committed (null when it has none: an index with conflicts has no tree), and who
 * commits it, which the door needs again (one git process fewer).
 */
export function handoverKey(
  root: string,
  settings: unknown,
  head: string | null,
): { key: string | null; who: ReturnType<typeof gitIdentities> } {
  const who = gitIdentities(root);
  const tree = gitSync(root, ['write-tree']);
  return {
    key: tree.ok
      ? cacheKey([
          settings,
          head,
          tree.out.trim(),
          who.author,
          who.committer,
          mergeHeads(root),
          head !== null && amending(),
        ])
      : null,
    who,
  };
}

/** pre-commit's verdict, for commit-msg to take. */
export function leaveVerdict(root: string, key: string, findings: Finding[], files: string[]): void {
  const file = recordFile(root);
  if (file) writeCacheFile(file, JSON.stringify({ key, findings, files } satisfies Record));
}

/** pre-commit's verdict on this very change, once (the record is removed as it is taken), or null. */
export function takeVerdict(root: string, key: string): { findings: Finding[]; files: string[] } | null {
  const file = recordFile(root);
  if (!file) return null;
  let record: Record;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as Record;
  } catch {
    return null;
  }
  rmSync(file, { force: true });
  return record.key === key && Array.isArray(record.findings) && Array.isArray(record.files)
    ? { findings: record.findings, files: record.files }
    : null;
}
