import type { Rule, RawFinding } from '../../../rules/types.js';
import { PACK_ID, sourceOf } from '../model.js';

function linesOf(text: string): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export const rule: Rule = {
  meta: {
    id: 'memory/append-only',
    short: 'The JSONL truth sources of the memory store are append-only.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](lines(f) = L -> X(prefix(L, lines(f))))',
    description:
      'The JSONL truth sources of the memory store are append-only: each commit may only add lines at the end of `memory/deltas.jsonl`, `memory/cold/*.jsonl` and `memory/hot_context_versions.jsonl`; a line edited or removed, or the file deleted, is an error naming the commit.',
    fix: 'Restore the old lines and append a new line that supersedes them (a correcting delta) instead of rewriting history.',
    messages: {
      deleted: 'The commit deleted the append-only truth source "{{path}}".',
      removedLine: 'The commit removed line {{line}} of the append-only "{{path}}".',
      removedLines: 'The commit removed lines {{from}}-{{to}} of the append-only "{{path}}".',
      edited: 'The commit edited line {{line}} of the append-only "{{path}}" (lines may only be added at the end).',
    },
  },
  packTransition: (change) => {
    if (change.pack !== PACK_ID || sourceOf(change.path) === 'index' || change.beforeText === null) return [];
    const sha = change.commit.sha.slice(0, 7);
    const path = change.path;
    if (change.afterText === null) return [{ file: path, line: null, messageId: 'deleted', data: { sha, path } }];
    const before = linesOf(change.beforeText);
    const after = linesOf(change.afterText);
    const out: RawFinding[] = [];
    for (let i = 0; i < before.length; i++) {
      if (i >= after.length) {
        const line = after.length || null;
        if (before.length - i > 1)
          out.push({
            file: path,
            line,
            messageId: 'removedLines',
            data: { sha, path, from: i + 1, to: before.length },
          });
        else out.push({ file: path, line, messageId: 'removedLine', data: { sha, path, line: i + 1 } });
        break;
      }
      if (before[i] !== after[i]) {
        out.push({ file: path, line: i + 1, messageId: 'edited', data: { sha, path, line: i + 1 } });
        break;
      }
    }
    return out;
  },
};
