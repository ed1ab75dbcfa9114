// The user's guidance on a blocked handoff (convention section 5, handoff/blocked-proceed): besides a `resolution:`
// written into the blocked handoff, a commit carrying `Guidance-by: Name <email>` by a human (the same identity
// checks as a confirmation: not an agent, listed in `confirmers` when set, the commit's author or committer, signed
// when signatures are required) records the user's word for every handoff that was blocked when it was made. Every
// door asks git for those commits the same way, so the doors agree on what counts.
import type { Config } from '../config/config.js';
import type { Commit } from '../model/history.js';
import { filesAt, newStore } from '../history/fold.js';
import { messageTrailers, parseTrailers } from '../history/log.js';
import { Snapshot } from '../history/snapshot.js';
import { confirmation, factsOf } from '../history/trust.js';
import { ask, gitSync } from '../shared/git.js';
import { trustOf } from './judge.js';

/** Blocked handoffs a human gave guidance for: path -> who. */
export type Guidance = ReadonlyMap<string, string>;

const SEP = '\x1f';

/** The `Guidance-by` commits reachable from `to` (one `git log`), each checked like a confirmation. */
export async function guidanceIn(root: string, config: Config, to = 'HEAD'): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const log = await ask(root, ['log', '-z', '-i', '--grep=^Guidance-by:', `--format=%H${SEP}%P${SEP}%an${SEP}%ae${SEP}%cn${SEP}%ce${SEP}%ct${SEP}%s${SEP}%B`, to, '--']);
  if (!log.ok) return out;
  for (const rec of log.out.split('\0')) {
    if (!rec.trim()) continue;
    const [sha, parents, an, ae, cn, ce, ct, subject, ...body] = rec.split(SEP);
    const message = body.join(SEP);
    const trailers = messageTrailers(parseTrailers(gitSync(root, ['interpret-trailers', '--parse'], message).out), message);
    const commit: Commit = { sha: sha!, parents: parents ? parents.split(' ') : [], author: { name: an!, email: ae! }, committer: { name: cn!, email: ce! }, time: Number(ct), subject: subject ?? '', trailers };
    const store = newStore(root, config);
    const parent = commit.parents[0];
    const before = new Snapshot(parent ? filesAt(root, parent, config, store.classify) : new Map(), store);
    const after = new Snapshot(filesAt(root, commit.sha, config, store.classify), store);
    for (const [path, who] of guidedBy(commit, before, after, () => gitSync(root, ['verify-commit', commit.sha]).ok)) out.set(path, who);
  }
  return out;
}

/**
 * The handoffs one commit's `Guidance-by` covers: those blocked in the commit's own tree (its parent's settings
 * judge the identity, as for every trust question).
 */
export function guidedBy(commit: Commit, before: Snapshot, after: Snapshot, signed: () => boolean): Map<string, string> {
  const out = new Map<string, string>();
  const given = commit.trailers.filter((t) => t.key.toLowerCase() === 'guidance-by');
  if (given.length === 0) return out;
  const trust = trustOf(before);
  // The trust checks of a confirmation, asked of the Guidance-by identity.
  const asConfirmation: Commit = { ...commit, trailers: [...commit.trailers.filter((t) => t.key.toLowerCase() !== 'confirmed-by'), ...given.map((t) => ({ key: 'Confirmed-by', value: t.value }))] };
  const c = confirmation(asConfirmation, trust, trust.preset, signed, factsOf(asConfirmation, [], [], before, after));
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
