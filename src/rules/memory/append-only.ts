import type { Rule, RawFinding } from '../types.js';
import { sourceOf } from '../../packs/memory/pack.js';

function linesOf(text: string): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export const rule: Rule = {
  meta: {
    id: 'memory/append-only',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](lines(f) = L -> X(prefix(L, lines(f))))',
    description:
      'The JSONL truth sources of the memory store are append-only: each commit may only add lines at the end of `memory/deltas.jsonl`, `memory/cold/*.jsonl` and `memory/hot_context_versions.jsonl`; a line edited or removed, or the file deleted, is an error naming the commit.',
    fix: 'Restore the old lines and append a new line that supersedes them (a correcting delta) instead of rewriting history.',
  },
  packTransition: (change) => {
    if (change.pack !== 'memory' || sourceOf(change.path) === 'index' || change.beforeText === null) return [];
    const short = change.commit.sha.slice(0, 7);
    if (change.afterText === null) {
      return [{ file: change.path, line: null, message: `Commit ${short} deleted the append-only truth source "${change.path}".` }];
    }
    const before = linesOf(change.beforeText);
    const after = linesOf(change.afterText);
    const out: RawFinding[] = [];
    for (let i = 0; i < before.length; i++) {
      if (i >= after.length) {
        out.push({ file: change.path, line: after.length || null, message: `Commit ${short} removed line${before.length - after.length > 1 ? 's' : ''} ${i + 1}${before.length - i > 1 ? `-${before.length}` : ''} of the append-only "${change.path}".` });
        break;
      }
      if (before[i] !== after[i]) {
        out.push({ file: change.path, line: i + 1, message: `Commit ${short} edited line ${i + 1} of the append-only "${change.path}" (lines may only be added at the end).` });
        break;
      }
    }
    return out;
  },
};
