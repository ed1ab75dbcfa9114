// The user's guidance on a blocked handoff (convention section 5, handoff/blocked-proceed): a `resolution:` written
// into the blocked handoff by a human's commit, or a commit carrying `Guidance-by: Name <email>` by a human (the
// same identity checks as a confirmation: not an agent, listed in `confirmers` when set, the commit's author or
// committer, signed when signatures are required), which records the user's word for every handoff that was
// blocked when it was made. A resolution an agent's commit wrote is no one's guidance (issue 12, bypass 10). Every
// door asks git the same way, so the doors agree on what counts.
import type { Config } from '../config/config.js';
import type { Commit } from '../model/history.js';
import { filesAt, newStore } from '../history/fold.js';
import { messageTrailers, parseTrailers } from '../history/log.js';
import { Snapshot } from '../history/snapshot.js';
import { ModelStore, type KnownModels } from '../history/store.js';
import { agentIdentities, confirmation, factsOf, guidance } from '../history/trust.js';
import { resolutionKey } from '../history/resolutions.js';
import { resolutionOf } from '../model/queries.js';
import { ask, gitSync, resolveAll } from '../shared/git.js';
import { trustOf } from './judge.js';
import { loadParsers } from '../read/lazy.js';

/** Blocked handoffs a human gave guidance for: path -> who. */
export type Guidance = ReadonlyMap<string, string>;

const SEP = '\x1f';
const FORMAT = `--format=%H${SEP}%P${SEP}%an${SEP}%ae${SEP}%cn${SEP}%ce${SEP}%ct${SEP}%s${SEP}%B`;

/** One record of FORMAT as a commit, its trailers read from the whole message as history/log.ts reads them. */
function commitOf(root: string, rec: string): Commit {
  const [sha, parents, an, ae, cn, ce, ct, subject, ...body] = rec.split(SEP);
  const message = body.join(SEP);
  const trailers = messageTrailers(
    parseTrailers(gitSync(root, ['interpret-trailers', '--parse'], message).out),
    message,
  );
  return {
    sha: sha!.trim(),
    parents: parents ? parents.split(' ') : [],
    author: { name: an!, email: ae! },
    committer: { name: cn!, email: ce! },
    time: Number(ct),
    subject: subject ?? '',
    trailers,
  };
}

/** The question guidanceIn asks git: the commits from `from` (excluded) to `to` that give guidance. */
export function guidanceLog(to: string, from?: string): string[] {
  return ['log', '-z', '-i', '--grep=^Guidance-by:', FORMAT, from ? `${from}..${to}` : to, '--'];
}

/**
 * The `Guidance-by` commits reachable from `to` (one `git log`), each checked like a confirmation; with `from`, only
 * those not reachable from it (what a cache judged at `from` does not know yet).
 */
export async function guidanceIn(
  root: string,
  config: Config,
  to = 'HEAD',
  from?: string,
): Promise<Map<string, string>> {
  await loadParsers();
  const out = new Map<string, string>();
  const log = await ask(root, guidanceLog(to, from));
  if (!log.ok) return out;
  for (const rec of log.out.split('\0')) {
    if (!rec.trim()) continue;
    const commit = commitOf(root, rec);
    const store = newStore(root, config);
    const parent = commit.parents[0];
    const before = new Snapshot(parent ? filesAt(root, parent, config, store.classify) : new Map(), store);
    const after = new Snapshot(filesAt(root, commit.sha, config, store.classify), store);
    for (const [path, who] of guidedBy(commit, before, after, () => gitSync(root, ['verify-commit', commit.sha]).ok))
      out.set(path, who);
  }
  return out;
}

/**
 * The handoffs one commit's `Guidance-by` covers: those blocked in the commit's own tree (its parent's settings
 * judge the identity, as for every trust question).
 */
export function guidedBy(
  commit: Commit,
  before: Snapshot,
  after: Snapshot,
  signed: () => boolean,
): Map<string, string> {
  const out = new Map<string, string>();
  const given = commit.trailers.filter((t) => t.key.toLowerCase() === 'guidance-by');
  if (given.length === 0) return out;
  const trust = trustOf(before);
  const c = guidance(commit, trust, trust.preset, signed, factsOf(commit, [], [], before, after));
  if (!c.ok || !c.by) return out;
  const who = `${c.by.name} <${c.by.email}>`;
  for (const s of [before, after]) {
    for (const path of s.paths('handoff')) {
      const h = s.model(path);
      if (h?.kind === 'handoff' && h.status === 'blocked') out.set(path, who);
    }
  }
  return out;
}

/**
 * Whether a blocked handoff is among the snapshot's handoffs, or among `paths` of them: selfResolvedIn asks only
 * those, so a snapshot with none has no resolution an agent wrote.
 */
export async function holdsBlockedHandoff(
  at: Snapshot,
  paths: readonly string[] = at.paths('handoff'),
): Promise<boolean> {
  await loadParsers();
  const asked: { blob: string; path: string }[] = [];
  for (const path of paths) {
    const blob = at.files.get(path);
    if (blob === undefined || at.kindOf(path) !== 'handoff' || at.store.blocked?.(blob, path) === false) continue;
    asked.push({ blob, path });
  }
  // Those the cache cannot answer for are read in one batch: one `git cat-file` each was seconds without a cache.
  at.store.load?.(asked);
  return asked.some(({ path }) => {
    const h = at.model(path);
    return h?.kind === 'handoff' && h.status === 'blocked';
  });
}

/**
 * The resolutions of the blocked handoffs at `to` that an agent's commit wrote (history/resolutions.ts keys): for
 * each blocked handoff with a resolution, the commit that wrote the resolution as it stands (the oldest of the
 * newest commits that hold it) is asked whether an agent took part without the human's `Guidance-by:` or
 * `Confirmed-by:`, with its parent's trust settings. A resolution not yet committed is judged by the door that
 * commits it.
 */
export async function selfResolvedIn(
  root: string,
  config: Config,
  to = 'HEAD',
  seed?: KnownModels,
  at?: Snapshot,
): Promise<Set<string>> {
  await loadParsers();
  const out = new Set<string>();
  const store = at?.store instanceof ModelStore ? at.store : newStore(root, config);
  // The models the caller already holds (the cache, the fold, the snapshot of `to` it listed): every handoff of the
  // tip is asked for its status, and parsing them all again on every run and every commit would cost seconds in a
  // long-lived repository.
  if (!at) store.seed.add(seed);
  // A `to` that names no commit (a repository without commits) lists no file: nothing to ask, and no process spent
  // asking whether it exists first.
  const tip = at ?? new Snapshot(filesAt(root, to, config, store.classify), store);
  for (const path of tip.paths('handoff')) {
    // A version the cache says is no blocked handoff has no resolution to ask about: its model is not decoded.
    const blob = tip.files.get(path);
    if (blob !== undefined && tip.store.blocked?.(blob, path) === false) continue;
    const h = tip.model(path);
    const text = h?.kind === 'handoff' && h.status === 'blocked' ? resolutionOf(h) : null;
    if (text === null) continue;
    let writer: string | null = null;
    const shas = (await ask(root, ['log', '--format=%H', to, '--', path])).out.split('\n').filter(Boolean);
    // The file's blob at each of those commits, all in one process.
    const blobs = resolveAll(
      root,
      shas.map((sha) => `${sha}:${path}`),
    );
    for (const [i, sha] of shas.entries()) {
      const blob = blobs[i];
      const m = blob ? store.get(blob, path) : null;
      if (m?.kind !== 'handoff' || resolutionOf(m) !== text) break;
      writer = sha;
    }
    if (!writer) continue;
    const rec = await ask(root, ['log', '-1', FORMAT, writer, '--']);
    if (!rec.ok) continue;
    const commit = commitOf(root, rec.out);
    const parent = commit.parents[0];
    const before = new Snapshot(parent ? filesAt(root, parent, config, store.classify) : new Map(), store);
    const after = new Snapshot(filesAt(root, commit.sha, config, store.classify), store);
    const trust = trustOf(before);
    if (agentIdentities(commit, trust).length === 0) continue;
    const signed = () => gitSync(root, ['verify-commit', commit.sha]).ok;
    const facts = factsOf(commit, [], [], before, after);
    if (
      confirmation(commit, trust, trust.preset, signed, facts).ok ||
      guidance(commit, trust, trust.preset, signed, facts).ok
    )
      continue;
    out.add(resolutionKey(path, text));
  }
  return out;
}
