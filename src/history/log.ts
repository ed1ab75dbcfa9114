// The trace: one streamed `git log` over the workflow paths, oldest first in topological order, with each commit's
// metadata, its trailers as git parses them, and the raw changes against its first parent.
import type { Change, Commit, Identity, Trailer } from '../model/history.js';
import { gitStream } from '../shared/git.js';

export interface TraceEntry {
  commit: Commit;
  changes: Change[];
}

const FORMAT = '%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%cn%x1f%ce%x1f%ct%x1f%s%x1f%(trailers:only,unfold)%x1f';

export function parseTrailers(block: string): Trailer[] {
  const out: Trailer[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    out.push({ key: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
  }
  return out;
}

/** `--raw -z --no-abbrev` output -> changes; renames (R) keep where the file was, copies (C) count as added. */
export function parseRaw(raw: string): Change[] {
  const changes: Change[] = [];
  const tokens = raw.replace(/^[\0\n]+/, '').split('\0');
  const zero = /^0+$/;
  for (let i = 0; i < tokens.length; i++) {
    const meta = tokens[i]!.replace(/^\n/, '');
    if (!meta.startsWith(':')) continue;
    const [, , oldBlob, newBlob, status] = meta.slice(1).split(' ') as [string, string, string, string, string];
    const kind = status[0]!;
    if (kind === 'R' || kind === 'C') {
      const from = tokens[++i]!;
      const to = tokens[++i]!;
      if (kind === 'C') changes.push({ status: 'A', path: to, from: null, oldBlob: null, newBlob });
      else changes.push({ status: 'R', path: to, from, oldBlob, newBlob });
      continue;
    }
    const path = tokens[++i]!;
    const st = kind === 'A' || kind === 'D' ? kind : 'M';
    changes.push({ status: st, path, from: null, oldBlob: zero.test(oldBlob) ? null : oldBlob, newBlob: zero.test(newBlob) ? null : newBlob });
  }
  return changes;
}

function parseRecord(record: string): TraceEntry {
  const fields = record.split('\x1f');
  const [sha, parents, an, ae, cn, ce, ct, subject, trailers] = fields as [string, string, string, string, string, string, string, string, string];
  const raw = fields.slice(9).join('\x1f');
  const author: Identity = { name: an, email: ae };
  const committer: Identity = { name: cn, email: ce };
  const commit: Commit = {
    sha,
    parents: parents ? parents.split(' ') : [],
    author,
    committer,
    time: Number(ct),
    subject,
    trailers: parseTrailers(trailers),
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
    `--format=${FORMAT}`,
    '--',
    ...pathspecs,
  ];
  await gitStream(root, args, (chunk) => {
    pending += chunk;
    const parts = pending.split('\x1e');
    pending = parts.pop()!;
    for (const part of parts) if (part) entries.push(parseRecord(part));
  });
  if (pending) entries.push(parseRecord(pending));
  return entries;
}
