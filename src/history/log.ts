// The trace: one streamed `git log` over the workflow paths, oldest first in topological order, with each commit's
// metadata, its trailers (git's trailer block, plus the identity lines read from the whole message) and the raw
// changes against its first parent.
import { randomBytes } from 'node:crypto';
import type { Change, Commit, Identity, Trailer } from '../model/history.js';
import { gitStream } from '../shared/git.js';
import { LINK_MODE } from './links.js';

export interface TraceEntry {
  commit: Commit;
  changes: Change[];
}

export function parseTrailers(block: string): Trailer[] {
  const out: Trailer[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    out.push({ key: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
  }
  return out;
}

/**
 * Whether git can find a trailer block in a message (as `git commit` hands it over, comment lines stripped): git reads
 * none in the first paragraph, the title, so a message of one paragraph has none and asking git would cost a process
 * on every commit-msg hook.
 */
export function mayHoldTrailerBlock(message: string): boolean {
  return message !== '' && message.split('\n').some((line) => /^\s*$/.test(line));
}

/** `Co-authored-by:` lines anywhere in a message: a paragraph after them (`Generated with ...`) hides them from git. */
const CO_AUTHOR = /^[ \t>]*(co-authored-by)[ \t]*:[ \t]*(.+?)[ \t]*$/i;
/** Confirmation lines of a squash message: exactly `Key: value`, keys as `confirm` writes them. */
const SQUASHED = /^(Confirmed-by|Confirmed-items): (\S(?:.*\S)?)$/i;

/**
 * How a squash merge lists the squashed commits' messages, or null when the message is no squash merge:
 * GitHub's (`Title (#12)`, then a `* subject` paragraph per commit, their bodies as they were) or git's
 * (`Squashed commit of the following:`, then each commit's message indented by four spaces).
 */
function squashIndent(message: string): string | null {
  const lines = message.split('\n');
  const subject = lines[0] ?? '';
  if (/ \(#\d+\)$/.test(subject) && lines.some((l, i) => i > 0 && lines[i - 1] === '' && /^\* \S/.test(l))) return '';
  if (
    lines.slice(0, 3).some((l) => l.trim() === 'Squashed commit of the following:') &&
    lines.some((l) => /^commit [0-9a-f]{40}$/.test(l))
  )
    return '    ';
  return null;
}

/**
 * A commit's trailers from its whole message: git's trailer block (`block`, as `%(trailers)` or
 * `git interpret-trailers --parse` give it), plus every `Co-authored-by:` line elsewhere in the message (agent
 * identities are read anywhere), plus, for a squash merge, the squashed commits' `Confirmed-by:` and
 * `Confirmed-items:` lines. Lines already in the block are not repeated.
 */
export function messageTrailers(block: readonly Trailer[], message: string): Trailer[] {
  const out = [...block];
  const seen = new Set(block.map((t) => `${t.key.toLowerCase()}\0${t.value}`));
  const add = (key: string, value: string) => {
    const k = `${key.toLowerCase()}\0${value}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push({ key, value });
  };
  const text = message.replace(/\r\n/g, '\n');
  for (const line of text.split('\n')) {
    const m = CO_AUTHOR.exec(line);
    if (m) add('Co-authored-by', m[2]!);
  }
  const indent = squashIndent(text);
  if (indent !== null) {
    for (const line of text.split('\n')) {
      if (!line.startsWith(indent)) continue;
      const m = SQUASHED.exec(line.slice(indent.length));
      if (m) add(m[1]!.toLowerCase() === 'confirmed-by' ? 'Confirmed-by' : 'Confirmed-items', m[2]!);
    }
  }
  return out;
}

/** `--raw -z --no-abbrev` output -> changes; renames (R) keep where the file was, copies (C) count as added, links are marked. */
export function parseRaw(raw: string): Change[] {
  const changes: Change[] = [];
  const tokens = raw.replace(/^[\0\n]+/, '').split('\0');
  const zero = /^0+$/;
  for (let i = 0; i < tokens.length; i++) {
    const meta = tokens[i]!.replace(/^\n/, '');
    if (!meta.startsWith(':')) continue;
    const [, newMode, oldBlob, newBlob, status] = meta.slice(1).split(' ') as [string, string, string, string, string];
    const kind = status[0]!;
    const link = newMode === LINK_MODE ? { link: true } : {};
    if (kind === 'R' || kind === 'C') {
      const from = tokens[++i]!;
      const to = tokens[++i]!;
      if (kind === 'C') changes.push({ status: 'A', path: to, from: null, oldBlob: null, newBlob, ...link });
      else changes.push({ status: 'R', path: to, from, oldBlob, newBlob, ...link });
      continue;
    }
    const path = tokens[++i]!;
    const st = kind === 'A' || kind === 'D' ? kind : 'M';
    changes.push({
      status: st,
      path,
      from: null,
      oldBlob: zero.test(oldBlob) ? null : oldBlob,
      newBlob: zero.test(newBlob) ? null : newBlob,
      ...link,
    });
  }
  return changes;
}

/** Separators of one run: a random tag, so no message (which may hold any byte but NUL) can forge a record. */
function separators(): { format: string; record: string; field: string } {
  const tag = randomBytes(8).toString('hex');
  const record = `\x1e${tag}\x1e`;
  const field = `\x1f${tag}\x1f`;
  const f = `%x1f${tag}%x1f`;
  const fields = ['%H', '%P', '%an', '%ae', '%cn', '%ce', '%ct', '%s', '%(trailers:only,unfold)', '%B'];
  return { format: `%x1e${tag}%x1e${fields.join(f)}${f}`, record, field };
}

function parseRecord(record: string, field: string): TraceEntry {
  const fields = record.split(field);
  const [sha, parents, an, ae, cn, ce, ct, subject, trailers, body] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const raw = fields.slice(10).join(field);
  const author: Identity = { name: an, email: ae };
  const committer: Identity = { name: cn, email: ce };
  const commit: Commit = {
    sha,
    parents: parents ? parents.split(' ') : [],
    author,
    committer,
    time: Number(ct),
    subject,
    trailers: messageTrailers(parseTrailers(trailers), body ?? ''),
  };
  const changes = parseRaw(raw);
  return { commit, changes };
}

/**
 * @param revs what to walk: `['HEAD']`, or `['B', '^base']` for a range
 * @param pathspecs the folders and files that hold workflow files and trust settings
 */
export async function readTrace(root: string, revs: string[], pathspecs: string[]): Promise<TraceEntry[]> {
  const entries: TraceEntry[] = [];
  const sep = separators();
  let pending = '';
  const args = [
    'log',
    ...revs,
    '--reverse',
    '--topo-order',
    // Keep every commit that touches the paths and the merges that join them, with parents rewritten to match,
    // so "before" in the trace is still ancestry.
    '--full-history',
    '--parents',
    '--raw',
    '-z',
    '--no-abbrev',
    '-M',
    '--diff-merges=first-parent',
    `--format=${sep.format}`,
    '--',
    ...pathspecs,
  ];
  await gitStream(root, args, (chunk) => {
    pending += chunk;
    const parts = pending.split(sep.record);
    pending = parts.pop()!;
    for (const part of parts) if (part) entries.push(parseRecord(part, sep.field));
  });
  if (pending) entries.push(parseRecord(pending, sep.field));
  return entries;
}
