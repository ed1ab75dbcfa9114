// Who may vouch for what (convention section 6). A `Confirmed-by` trailer counts only when its identity is not an
// agent's, is allowlisted when `confirmers` is set, and is the commit's author or committer; with
// `requireSignedConfirmations` the commit must also carry a good signature (by a key of the parent commit's
// `allowedSigners` file when that is set). A `Confirmed-items` digest binds the confirmation to the items the human
// saw. In `recommended`, a human's own commit that changes only plans (manual checkboxes and prose) is an implicit
// confirmation.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Change, Commit, Event, Identity } from '../model/history.js';
import type { Config, Preset } from '../config/config.js';
import { gitSync } from '../shared/git.js';
import { parseIdentity } from '../shared/identity.js';
import type { Snapshot } from './snapshot.js';
import { ModelStore } from './store.js';

export { parseIdentity };

function globMatch(pattern: string, value: string): boolean {
  const parts = pattern.toLowerCase().split('*');
  const v = value.toLowerCase();
  if (parts.length === 1) return v === parts[0];
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i === 0) {
      if (!v.startsWith(part)) return false;
      pos = part.length;
    } else if (i === parts.length - 1) {
      return v.length - part.length >= pos && v.endsWith(part);
    } else {
      const at = v.indexOf(part, pos);
      if (at < 0) return false;
      pos = at + part.length;
    }
  }
  return true;
}

/** Patterns with `@` are matched against emails, the others against names; `*` is the only wildcard. */
export function matches(patterns: string[], who: Identity): boolean {
  return patterns.some((p) => (p.includes('@') ? globMatch(p, who.email) : globMatch(p, who.name)));
}

export function coAuthors(commit: Commit): Identity[] {
  return commit.trailers
    .filter((t) => t.key.toLowerCase() === 'co-authored-by')
    .flatMap((t) => parseIdentity(t.value) ?? []);
}

/** A commit is an agent's when its author, committer or any co-author matches the `agents` patterns. */
export function agentIdentities(commit: Commit, config: Config): Identity[] {
  const seen = new Set<string>();
  return [commit.author, commit.committer, ...coAuthors(commit)].filter((who) => {
    const key = `${who.name}\0${who.email.toLowerCase()}`;
    if (seen.has(key) || !matches(config.agents, who)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// What a confirmation covers: item identities and the `Confirmed-items` digest

/** A manual item as a confirmation names it: plan path, phase number, item text. */
export interface ItemRef {
  file: string;
  phase: number;
  text: string;
}

/** The identity of an item, the one definition `confirm` and the history check share. */
export function itemIdentity(item: ItemRef): string {
  return JSON.stringify([item.file, item.phase, item.text]);
}

/** `Confirmed-items: <digest>`: the first 12 hex digits of sha256 over the sorted identities, one per line. */
export function itemsDigest(items: readonly ItemRef[]): string {
  const lines = items.map(itemIdentity).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12);
}

/** Subsets of one group searched for a cover by several digests (a squash of several confirmations). */
const MAX_COVER = 16;

/**
 * Whether the digests account for exactly these items: one digest for the whole set, or (a squash of several
 * confirmations) a split of each plan's phase into parts that each match a digest. `confirm` digests one phase of
 * one plan, so the split is searched per (plan, phase).
 */
export function digestsCover(items: readonly ItemRef[], digests: readonly string[]): boolean {
  const wanted = new Set(digests.map((d) => d.toLowerCase()));
  if (wanted.has(itemsDigest(items))) return true;
  const groups = new Map<string, ItemRef[]>();
  for (const item of items) {
    const k = JSON.stringify([item.file, item.phase]);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  for (const group of groups.values()) {
    if (wanted.has(itemsDigest(group))) continue;
    if (group.length > MAX_COVER) return false;
    const full = (1 << group.length) - 1;
    const parts: number[] = [];
    for (let mask = 1; mask <= full; mask++) {
      if (wanted.has(itemsDigest(group.filter((_, i) => mask & (1 << i))))) parts.push(mask);
    }
    // Which unions of disjoint parts are reachable.
    const reach = new Uint8Array(full + 1);
    reach[0] = 1;
    for (let mask = 0; mask <= full; mask++) {
      if (!reach[mask]) continue;
      for (const p of parts) if ((mask & p) === 0) reach[mask | p] = 1;
    }
    if (!reach[full]) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Signatures against the repository's allowed-signers file

const SSH_SIGNATURE = '-----BEGIN SSH SIGNATURE-----';

/**
 * Whether commit `sha` carries a good SSH signature by a key listed in `allowedSigners` as the commit's first parent
 * holds it (a commit cannot add its own key). Without `allowedSigners`, git's own configuration decides.
 */
export function verifySignature(root: string, sha: string, allowedSigners: string | null): boolean {
  if (!allowedSigners) return gitSync(root, ['verify-commit', sha]).ok;
  const raw = gitSync(root, ['cat-file', 'commit', sha]);
  const header = raw.out.slice(0, raw.out.indexOf('\n\n'));
  // Only an SSH signature is checked against the file; a GPG signature would be judged by the local keyring.
  if (!raw.ok || !/^gpgsig /m.test(header) || !header.includes(SSH_SIGNATURE)) return false;
  const file = gitSync(root, ['cat-file', 'blob', `${sha}^1:${allowedSigners}`]);
  if (!file.ok || !file.out.trim()) return false;
  const dir = mkdtempSync(join(tmpdir(), 'vw-signers-'));
  try {
    const path = join(dir, 'allowed_signers');
    writeFileSync(path, file.out);
    return gitSync(root, ['-c', `gpg.ssh.allowedSignersFile=${path}`, 'verify-commit', sha]).ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What the engine knows of the commit besides its metadata

export interface CommitFacts {
  /** The manual items the commit checks. */
  checked: readonly ItemRef[];
  /** Whether the commit changes only plans, manual checkboxes and prose (asked only for an implicit confirmation). */
  onlyManualBoxes: () => boolean;
  /** Whether the commit changes documents only (workflow files, Markdown, text): an import, not the implementing commit. */
  documentsOnly: () => boolean;
  /** The repository, when the snapshots are git's (not the rule tester's): signatures and other files are asked of it. */
  root: string | null;
}

export const NO_FACTS: CommitFacts = {
  checked: [],
  onlyManualBoxes: () => false,
  documentsOnly: () => false,
  root: null,
};

type Checked = Extract<Event, { type: 'item-checked' }>;
const isManualBox = (e: Event): e is Checked => e.type === 'item-checked' && e.kind === 'manual';

/** The manual items checked among these events. */
export function manualChecked(events: readonly Event[]): ItemRef[] {
  return events
    .filter((e): e is Checked => isManualBox(e) && e.checked)
    .map((e) => ({ file: e.file, phase: e.phase, text: e.text }));
}

/**
 * Whether the commit changes only plan files, and in them only manual checkboxes and prose (convention section 6,
 * round 3: implicit confirmation widened): its events are manual box changes only (no task box, no automated item,
 * no item added or removed), every changed workflow file is a plan, and (asked of git when the repository is known)
 * it changes no other file at all: no handoff, no ledger, no code.
 */
export function onlyManualBoxes(
  commit: Commit,
  events: readonly Event[],
  changes: readonly Change[],
  before: Snapshot,
  after: Snapshot,
  root: string | null,
): boolean {
  if (events.length === 0 || !events.every(isManualBox) || commit.parents.length > 1) return false;
  const paths = new Set<string>();
  for (const c of changes) {
    paths.add(c.path);
    if (c.status !== 'M' || after.kindOf(c.path) !== 'plan' || before.kindOf(c.path) !== 'plan') return false;
  }
  if (!root) return true;
  const all = commitPaths(root, commit);
  return all !== null && all.every((p) => paths.has(p));
}

/**
 * Every file the commit changes, asked of git: files outside the workflow paths (code, docs) are not in the trace.
 * Null when git cannot say.
 */
function commitPaths(root: string, commit: Commit): string[] | null {
  if (commit.sha) {
    const known = expected.root === root ? expected.paths.get(commit.sha) : undefined;
    if (known !== undefined) return known;
    if (expected.root === root && expected.shas.has(commit.sha)) return askExpected(commit.sha);
  }
  return commit.sha
    ? diffTree(root, commit.sha)
    : listed(
        gitSync(root, ['diff', '--cached', '--name-only', '-z', ...(commit.parents[0] ? [commit.parents[0]] : [])]),
      );
}

const listed = (res: { ok: boolean; out: string }) => (res.ok ? res.out.split('\0').filter(Boolean) : null);
const diffTree = (root: string, sha: string) =>
  listed(gitSync(root, ['diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', sha]));

// The commits the fold is about to judge (history/fold.ts, one chunk at a time): the first whose paths a rule asks
// for has git answer for every one of them not answered yet, in one `diff-tree --stdin` (a process per commit cost
// the cold run of the wide bench shape 36 of its 85 s). A commit's paths never change, so an answer is never stale;
// only the chunk's are kept.
const expected = {
  root: '',
  shas: new Map<string, number>(),
  order: [] as string[],
  paths: new Map<string, string[] | null>(),
};

/** The commits the next questions will be about, in the order they will be asked (the previous chunk's are dropped). */
export function expectCommits(root: string, shas: readonly string[]): void {
  expected.root = root;
  expected.order = shas.filter(Boolean);
  expected.shas = new Map(expected.order.map((sha, i) => [sha, i]));
  expected.paths = new Map();
}

/** `sha`'s paths, asked of git with those of the expected commits after it that are not answered yet. */
function askExpected(sha: string): string[] | null {
  const ask = expected.order
    .slice(expected.shas.get(sha))
    .filter((s) => expected.shas.has(s) && !expected.paths.has(s));
  const answers = commitsPaths(expected.root, ask);
  for (const s of ask) {
    const paths = answers.get(s);
    // One git did not answer for as expected (a commit it cannot read) is asked alone, as before.
    if (paths === undefined) expected.shas.delete(s);
    else expected.paths.set(s, paths);
  }
  return expected.paths.get(sha) ?? diffTree(expected.root, sha);
}

/**
 * Every file each commit changes (against its first parent; nothing for a merge, as `diff-tree` shows a merge),
 * for many commits through one `git diff-tree --stdin`; a commit git does not answer for is left out.
 */
export function commitsPaths(root: string, shas: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (shas.length === 0) return out;
  // --always: a header (the commit's name) for every commit, also one that changes nothing.
  const res = gitSync(
    root,
    ['diff-tree', '--stdin', '-r', '--root', '--always', '--name-only', '-z'],
    `${shas.join('\n')}\n`,
  );
  if (!res.ok) return out;
  const tokens = res.out.split('\0');
  // Each commit's header, then its paths up to the next commit's header.
  let k = 0;
  for (const [n, sha] of shas.entries()) {
    if (tokens[k] !== sha) break;
    const paths: string[] = [];
    for (k++; k < tokens.length && tokens[k] !== shas[n + 1]; k++) if (tokens[k]) paths.push(tokens[k]!);
    out.set(sha, paths);
  }
  return out;
}

/**
 * Whether the commit only adds, moves or edits documents: workflow files and other Markdown or text (an import of
 * plans, a docs commit), no code. Without a repository (the rule tester) only the commit's workflow changes are known.
 */
function documentsOnly(commit: Commit, changes: readonly Change[], root: string | null): boolean {
  const doc = (p: string) => /\.(?:md|markdown|mdx|txt|ya?ml|json)$/i.test(p);
  if (!changes.every((c) => doc(c.path))) return false;
  if (!root) return true;
  const all = commitPaths(root, commit);
  return all !== null && all.every(doc);
}

/** The facts of one judged commit, for `confirmation` and the rules that ask what else it changed. */
export function factsOf(
  commit: Commit,
  events: readonly Event[],
  changes: readonly Change[],
  before: Snapshot,
  after: Snapshot,
): CommitFacts {
  const root = before.store instanceof ModelStore ? before.store.root : null;
  let only: boolean | undefined;
  let docs: boolean | undefined;
  return {
    checked: manualChecked(events),
    root,
    onlyManualBoxes: () => (only ??= onlyManualBoxes(commit, events, changes, before, after, root)),
    documentsOnly: () => (docs ??= documentsOnly(commit, changes, root)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The confirmation a commit carries

export interface Confirmation {
  ok: boolean;
  by: Identity | null;
  /** Why it does not count, or a note on why it counts only in `recommended`. */
  reason: string;
  /** No trailer: a human's own commit of manual checkboxes only, counted in `recommended` (convention section 6). */
  implicit?: boolean;
}

const same = (a: Identity, b: Identity) => a.email.toLowerCase() === b.email.toLowerCase();
const trailerValues = (commit: Commit, key: string) =>
  commit.trailers.filter((t) => t.key.toLowerCase() === key).map((t) => t.value.trim());
const label = (who: Identity) => `${who.name} <${who.email}>`;

/** Why the `Confirmed-items` trailers do not let the confirmation count, or null when they do. */
function digestProblem(commit: Commit, preset: Preset, checked: readonly ItemRef[]): string | null {
  if (checked.length === 0) return null;
  const digests = trailerValues(commit, 'confirmed-items').filter(Boolean);
  if (digests.length === 0) {
    return preset === 'strict'
      ? 'in `strict` a confirmation needs the `Confirmed-items:` trailer that `validate-workflow confirm` writes'
      : null;
  }
  if (digestsCover(checked, digests)) return null;
  return `\`Confirmed-items: ${digests.join(', ')}\` does not match the manual items checked in this commit (${itemsDigest(checked)}): an amend, rebase or squash added an item to a confirmed commit, so the human did not confirm what it checks`;
}

/** No reason worth adding to "no trailer": nothing to confirm, or an agent authored or committed it. */
const SILENT = '';

/** Why a commit without `Confirmed-by` is no implicit confirmation, or null when it is one. */
function notImplicit(commit: Commit, config: Config, preset: Preset, facts: CommitFacts): string | null {
  if (facts.checked.length === 0) return SILENT;
  if (preset === 'strict') return '`strict` always needs the trailer';
  const agents = agentIdentities(commit, config);
  // An agent's commit is simply unconfirmed; the implicit path is worth explaining only for a human's own commit.
  if (agents.length > 0)
    return commit.author === agents[0] || commit.committer === agents[0]
      ? SILENT
      : `an agent took part in the commit (${label(agents[0]!)}), so it is no implicit confirmation`;
  if (config.confirmers && !matches(config.confirmers, commit.author))
    return `its author ${label(commit.author)} is not listed in \`confirmers\``;
  if (!facts.onlyManualBoxes())
    return 'the commit changes more than manual checkboxes and the prose of plans, so it is no implicit confirmation';
  return null;
}

/**
 * The confirmation a commit carries for the manual items it checks (`facts.checked`). `signed` answers whether the
 * commit carries a good signature by git's own configuration (at commit-msg: whether it will be signed); with
 * `allowedSigners` set and the repository known, the parent commit's file decides instead.
 */
export function confirmation(
  commit: Commit,
  config: Config,
  preset: Preset,
  signed: () => boolean,
  facts: CommitFacts = NO_FACTS,
): Confirmation {
  const isSigned = () =>
    config.allowedSigners && facts.root && commit.sha
      ? verifySignature(facts.root, commit.sha, config.allowedSigners)
      : signed();
  const unsigned = config.allowedSigners
    ? `the commit has no good signature by a key listed in ${config.allowedSigners} (the parent commit's version) and \`requireSignedConfirmations\` is set`
    : 'the commit has no good signature and `requireSignedConfirmations` is set';
  const trailers = trailerValues(commit, 'confirmed-by');
  if (trailers.length === 0) {
    const why = notImplicit(commit, config, preset, facts);
    if (why !== null)
      return {
        ok: false,
        by: null,
        reason: `the commit has no \`Confirmed-by:\` trailer${why === SILENT ? '' : ` (${why})`}`,
      };
    const digest = digestProblem(commit, preset, facts.checked);
    if (digest) return { ok: false, by: commit.author, reason: digest };
    if (config.requireSignedConfirmations && !isSigned()) return { ok: false, by: commit.author, reason: unsigned };
    return { ok: true, by: commit.author, reason: '', implicit: true };
  }
  let last: Confirmation = { ok: false, by: null, reason: '' };
  for (const value of trailers) {
    const by = parseIdentity(value);
    if (!by) {
      last = { ok: false, by: null, reason: `\`Confirmed-by: ${value}\` is not of the form \`Name <email>\`` };
      continue;
    }
    if (matches(config.agents, by))
      last = { ok: false, by, reason: `${label(by)} matches the \`agents\` patterns: an agent cannot confirm` };
    else if (config.confirmers && !matches(config.confirmers, by))
      last = { ok: false, by, reason: `${label(by)} is not listed in \`confirmers\`` };
    else if (!same(by, commit.author) && !same(by, commit.committer))
      last = { ok: false, by, reason: `${label(by)} is neither the author nor the committer of the commit` };
    // Strict: the agent may not even relay the human's word, whether as co-author, author or committer.
    else if (preset === 'strict' && agentIdentities(commit, config).length > 0)
      last = {
        ok: false,
        by,
        reason: 'in `strict` a confirmation commit may not be authored, committed or co-authored by an agent',
      };
    else {
      // The identity holds; the digest and the signature are the commit's, the same for every trailer.
      const digest = digestProblem(commit, preset, facts.checked);
      if (digest) return { ok: false, by, reason: digest };
      if (config.requireSignedConfirmations && !isSigned()) return { ok: false, by, reason: unsigned };
      return { ok: true, by, reason: '' };
    }
  }
  return last;
}

/**
 * The commit's `Guidance-by: Name <email>` (the user's answer to a blocked handoff), checked with the identity
 * checks of a confirmation: not an agent, in `confirmers` when set, the commit's author or committer, signed when
 * signatures are required. It confirms no checkbox, so no digest is asked for.
 */
export function guidance(
  commit: Commit,
  config: Config,
  preset: Preset,
  signed: () => boolean,
  facts: CommitFacts = NO_FACTS,
): Confirmation {
  const given = trailerValues(commit, 'guidance-by');
  if (given.length === 0) return { ok: false, by: null, reason: 'the commit has no `Guidance-by:` trailer' };
  const trailers = [
    ...commit.trailers.filter((t) => t.key.toLowerCase() !== 'confirmed-by'),
    ...given.map((value) => ({ key: 'Confirmed-by', value })),
  ];
  return confirmation({ ...commit, trailers }, config, preset, signed, { ...facts, checked: [] });
}
