// The Claude Code hook's door: the commit an agent's work would become, as (before, after) for the one runner.
// Before is HEAD; after is the working tree (Stop, PostToolUse after a Bash command), or the working tree with one
// edit applied (PreToolUse). The commit is judged at the commit-msg stage, as the git hooks would judge it, made by
// the configured git user with the trailer Claude Code adds. The CLI's hook (cli/claude-hook.ts) reads the payload,
// keeps the time budget and words the answer; it loads this module only once a payload concerns workflow files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type Config } from '../config/config.js';
import { headSnapshot, headTrustSnapshot, specsOf } from '../history/fold.js';
import { parseRaw } from '../history/log.js';
import { MemorySource } from '../history/memory.js';
import { Overlay, Snapshot, TRUST_FILES } from '../history/snapshot.js';
import type { Finding } from '../model/finding.js';
import type { Commit } from '../model/history.js';
import { gitIdentity, gitSync, headCommit, trackedSymlinks } from '../shared/git.js';
import { RULE_IDS, ruleById } from './catalog.js';
import { judgeRange } from './doors.js';
import { guidanceIn, selfResolvedIn } from './guidance.js';
import { trackedPacks } from './history.js';
import { introduced, judgeChange } from './judge.js';
import { citeInstructions } from './findings.js';

/**
 * How the git hooks would see the agent's commit: made by the configured git user, with the `Co-authored-by`
 * trailer Claude Code adds to its commits, and no `Confirmed-by` (a confirmation is a human's own commit).
 */
function agentCommit(root: string): Commit {
  const who = (v: 'GIT_AUTHOR_IDENT' | 'GIT_COMMITTER_IDENT') => gitIdentity(root, v) ?? { name: '', email: '' };
  return {
    sha: '',
    parents: [],
    author: who('GIT_AUTHOR_IDENT'),
    committer: who('GIT_COMMITTER_IDENT'),
    time: Math.floor(Date.now() / 1000),
    subject: '',
    trailers: [{ key: 'Co-authored-by', value: 'Claude <noreply@anthropic.com>' }],
  };
}

/**
 * The settings of HEAD (never the working tree's: an agent could widen the globs first, then check a box). `head`:
 * the commit HEAD names, null without commits; asked once per run (headCommit) and handed to every reader of HEAD.
 */
function headSettings(root: string, head: string | null): Config {
  const working = loadConfig(root, undefined, RULE_IDS);
  // Listed with the packs' files too, as engine/doors.ts lists it: when HEAD's settings track what the working ones
  // do, headSnapshot's listing of HEAD is this one (history/fold.ts lsTree), one git process fewer.
  return headTrustSnapshot(root, working, head, trackedPacks(working)).config(RULE_IDS);
}

function readDisk(root: string, rel: string): Buffer | null {
  try {
    return readFileSync(join(root, rel));
  } catch {
    return null;
  }
}

interface Tree {
  head: Snapshot;
  /** The working tree: HEAD with every changed or untracked workflow, trust and pack file as it is on disk. */
  now: Snapshot;
  memory: MemorySource;
  top: Map<string, string | undefined>;
  headFiles: Map<string, string>;
  relevant: (path: string) => boolean;
  /** Blocked handoffs the user gave guidance for in history. */
  guidance: ReadonlyMap<string, string>;
  /** Resolutions agents' commits wrote in history (the edit's own are the engine's to add). */
  selfResolved: ReadonlySet<string>;
}

async function workingTree(root: string, config: Config, headSha: string | null): Promise<Tree> {
  const tracked = trackedPacks(config);
  const head = headSnapshot(root, config, tracked, headSha);
  const headFiles = head.fileMap();
  // HEAD's classifier: the globs, and the plans HEAD's ledgers and handoffs name outside them (history/sight.ts).
  const classify = head.store.classify;
  const relevant = (p: string) =>
    TRUST_FILES.includes(p) || (classify(p) !== null && classify(p)!.kind !== 'searchable') || tracked.match(p);
  const memory = new MemorySource(classify, config.maxFileBytes, head.store);
  const top = new Map<string, string | undefined>();
  const specs = specsOf(config, tracked);
  const hasHead = headSha !== null;
  const paths = new Set<string>();
  if (hasHead)
    for (const c of parseRaw(
      // The commit asked once for this run, not the name: a commit landing meanwhile must not mix two HEADs.
      gitSync(root, ['diff', '--raw', '-z', '--no-abbrev', '--no-renames', headSha, '--', ...specs]).out,
    ))
      paths.add(c.path);
  else for (const p of gitSync(root, ['ls-files', '-z', '--', ...specs]).out.split('\0')) if (p) paths.add(p);
  for (const p of gitSync(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', ...specs]).out.split('\0'))
    if (p) paths.add(p);
  // A workflow file stored as a symbolic link changes when its target does, which git does not report as a change.
  for (const p of trackedSymlinks(root, specs)) paths.add(p);
  for (const p of paths) {
    if (!relevant(p)) continue;
    const bytes = readDisk(root, p);
    top.set(p, bytes === null ? undefined : memory.put(bytes));
  }
  const now = new Snapshot(new Overlay(headFiles, top), memory);
  return {
    head,
    now,
    memory,
    top,
    headFiles,
    relevant,
    guidance: await guidanceIn(root, config),
    selfResolved: await selfResolvedIn(root, config),
  };
}

/** The working tree with one file replaced by its content after the edit. */
function withEdit(tree: Tree, rel: string, text: string): Snapshot {
  const top = new Map(tree.top);
  top.set(rel, tree.memory.put(text));
  return new Snapshot(new Overlay(tree.headFiles, top), tree.memory);
}

/**
 * What the git hooks would refuse of a commit from HEAD to `after`: its error findings. `atEdit` marks those an
 * Edit is refused for: how the change was made (transition rules), and snapshot rules about the order of steps.
 */
function refused(root: string, tree: Tree, after: Snapshot, commit: Commit): { finding: Finding; atEdit: boolean }[] {
  const result = judgeChange({
    root,
    stage: 'commit-msg',
    commit,
    before: tree.head,
    after,
    guidance: tree.guidance,
    selfResolved: tree.selfResolved,
  });
  const fromSnapshot = new Set(result.introduced);
  return result.findings
    .filter((f) => f.severity === 'error')
    .map((finding) => ({
      finding,
      atEdit: !fromSnapshot.has(finding) || ruleById(finding.ruleId)?.meta.editGate === true,
    }));
}

/**
 * PreToolUse: what an edit of `rel` to `afterText` would add that the git hooks refuse, and an edit is refused for.
 * Only what this edit adds: a violation already in the working tree (made through Bash, or by a human) is the Stop
 * check's business, and refusing every later edit of the file for it would wedge the agent. Consistency between
 * files (a ledger out of sync with its plan) is restored over several edits: judged at Stop.
 */
export async function judgeAgentEdit(root: string, rel: string, afterText: string): Promise<Finding[]> {
  const head = headCommit(root);
  const tree = await workingTree(root, headSettings(root, head), head);
  if (!tree.relevant(rel)) return [];
  const commit = agentCommit(root);
  const before = refused(root, tree, tree.now, commit).map((r) => r.finding);
  const after = refused(root, tree, withEdit(tree, rel, afterText), commit);
  const added = new Set(
    introduced(
      before,
      after.map((r) => r.finding),
    ),
  );
  return citeInstructions(
    root,
    after.filter((r) => r.atEdit && added.has(r.finding)).map((r) => r.finding),
  );
}

/** A finding's identity across runs of the hook: what it says about which file, not where. */
export const findingKey = (f: Finding) => `${f.ruleId}|${f.file ?? ''}|${f.message}`;

/**
 * Stop and PostToolUse: what the git hooks would refuse of the working tree as the agent's commit, and of the
 * commits made since `since` (`git commit -n` inside one Bash call leaves a clean tree), judged as the pre-push
 * hook and CI will judge them.
 */
export async function judgeAgentTree(root: string, since: string | null): Promise<Finding[]> {
  const head = headCommit(root);
  const config = headSettings(root, head);
  const tree = await workingTree(root, config, head);
  const found = tree.top.size === 0 ? [] : refused(root, tree, tree.now, agentCommit(root)).map((r) => r.finding);
  if (since !== null) {
    const made = await judgeRange(root, config, { from: since, to: head ?? 'HEAD' });
    const seen = new Set(found.map(findingKey));
    for (const f of made.findings) if (f.severity === 'error' && !seen.has(findingKey(f))) found.push(f);
  }
  // The git hooks' words (engine/doors.ts judgeDoor), added once both halves are in and compared uncited.
  return citeInstructions(root, found);
}
