// The doors that judge a change run every snapshot rule twice, on the snapshot before the change and after it, and
// report what is new (engine/judge.ts judgeChange). The snapshot before a commit is HEAD's, and HEAD's is almost always
// the snapshot after the commit judged last: pre-commit keeps what the snapshot rules found on both sides in the git
// folder, and the next door takes the `before` side's from there when everything the rules are given is what they
// were judged from (a repository of 3,600 workflow files: a fifth of a commit's time). The `after` side, the change
// being judged, is always judged afresh.
//
// Kept by a digest of everything a snapshot judgement reads; each input is in it for the reason written beside it.
// The baseline is not: it is applied afterwards to the findings, on every run (judgeChange's `settle`), as the
// working tree's cached verdict does (engine/lint.ts). Anything that can run git can write the git folder; a forged
// record hides only snapshot findings (transition rules, the confirmations among them, always run), and buys
// nothing `--no-verify` does not: pre-push and CI judge the commit again (engine/handover.ts says the same).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Finding } from '../model/finding.js';
import type { Discovered } from '../read/discover.js';
import type { Snapshot } from '../history/snapshot.js';
import { readCacheText, writeCacheFile } from '../history/cache.js';
import { instructionInputs } from '../read/profile.js';
import { repositoryInfo } from '../shared/git.js';
import type { SnapshotGiven, SnapshotMemory } from './judge.js';

const FORMAT = 3;
/** Every field of a classification, as the digest spells it: a field added to Discovered fails to compile here. */
const SPELLED: Record<keyof Discovered, true> = { path: true, kind: true, root: true, symlink: true };
/** Judgements kept: both sides of the last change at either door, so the next commit finds its `before` among them. */
const KEPT = 4;

interface Entry {
  inputs: string;
  findings: Finding[];
}

function memoryFile(root: string): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.gitDir, 'validate-workflow', 'snapshot-findings.json') : null;
}

const isEntry = (e: unknown): e is Entry =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as Entry).inputs === 'string' &&
  Array.isArray((e as Entry).findings) &&
  (e as Entry).findings.every((f) => typeof f === 'object' && f !== null);

function readEntries(file: string | null): Entry[] {
  if (!file) return [];
  try {
    const data = JSON.parse(readCacheText(file)) as { format?: unknown; entries?: unknown };
    return data.format === FORMAT && Array.isArray(data.entries) ? data.entries.filter(isEntry) : [];
  } catch {
    return [];
  }
}

/**
 * The digest of what a snapshot judgement reads. `settings` is the door's settingsKey (engine/doors.ts).
 */
function digest(
  root: string,
  settings: string,
  instructions: [string, string][],
  snapshot: Snapshot,
  given: SnapshotGiven,
): string {
  const hash = createHash('sha1').update(
    JSON.stringify([
      FORMAT,
      Object.keys(SPELLED),
      // The tool (readers, rules, messages: the build id in cacheKey) and the settings the store reads versions
      // under (the globs, maxFileBytes, the packs).
      settings,
      // The workspace's root (plan references resolve against it, and the promise reads the tree's instructions).
      root,
      // The parent's settings choose the rule packs and their files; the policy holds the preset, every rule's
      // severity and the protocol the structure rules learn from.
      given.trust,
      given.config,
      // What history hands the rules: the guidance given, and the resolutions an agent wrote itself (this
      // change's own among them). None given and none known are the same to the rules.
      [...given.guidance].sort(),
      [...given.selfResolved].sort(),
      // The tree's instruction files (.claude/commands, CLAUDE.md, AGENTS.md, templates): the promise's signals
      // are a function of their paths and contents (read/profile.ts instructionInputs).
      instructions,
    ]),
  );
  // A snapshot named by its commit's listing (Snapshot.listed) is that name: the next door knows HEAD by git's text,
  // where every path cost ~6 ms of each side on the wide bench shape.
  if (snapshot.listed !== undefined) return hash.update(`listed\0${snapshot.listed}`).digest('hex');
  // Every path in the snapshot's order (the workspace is built in it), with its version (the blob, or a link's value:
  // the model and the pack file are read from it, a link is a stray) and what the store classifies it as (the kind a
  // model is read as, a handoff's root, searchable strays, a link and whether it is followed; the plans named outside
  // the globs are in sight through it, and the sight is learned from both sides of the change). Five fields a path,
  // each ended by a NUL, which none of them can hold (git's paths and link values cannot): no two inputs spell the
  // same text. A template per path, not a JSON text: JSON.stringify of 3,600 paths' lines was ~10 ms of each side's
  // digest on the wide bench shape.
  const texts: string[] = [];
  for (const path of snapshot.files.keys()) {
    const kind = snapshot.store.classify(path);
    const link = kind?.symlink ? JSON.stringify(kind.symlink) : '';
    texts.push(`${path}\0${snapshot.files.get(path) ?? ''}\0${kind?.kind ?? ''}\0${kind?.root ?? ''}\0${link}\0`);
  }
  return hash.update(texts.join('')).digest('hex');
}

/** The memory of one door's run: read once, written back with what this run judged (`save`). */
export function snapshotMemory(root: string, settings: string): SnapshotMemory & { save(): void } {
  const file = memoryFile(root);
  let stored: Entry[] | null = null;
  const kept: Entry[] = [];
  const used: Entry[] = [];
  // Read once per run, as the rules read them once (instructionSignals).
  let instructions: [string, string][] | undefined;
  const inputsOf = (snapshot: Snapshot, given: SnapshotGiven) =>
    digest(root, settings, (instructions ??= instructionInputs(root)), snapshot, given);
  return {
    recall(snapshot, given) {
      stored ??= readEntries(file);
      if (stored.length === 0) return undefined;
      const inputs = inputsOf(snapshot, given);
      const entry = stored.find((e) => e.inputs === inputs);
      if (entry) used.push(entry);
      return entry?.findings;
    },
    keep(snapshot, given, findings) {
      kept.push({ inputs: inputsOf(snapshot, given), findings });
    },
    save() {
      if (!file || kept.length === 0) return;
      stored ??= readEntries(file);
      const next: Entry[] = [];
      for (const e of [...kept, ...used, ...stored])
        if (next.length < KEPT && !next.some((n) => n.inputs === e.inputs)) next.push(e);
      const text = JSON.stringify({ format: FORMAT, entries: next });
      // Judged again as it was (the same change at the same HEAD): nothing to write.
      if (text !== JSON.stringify({ format: FORMAT, entries: stored })) writeCacheFile(file, text);
    },
  };
}
