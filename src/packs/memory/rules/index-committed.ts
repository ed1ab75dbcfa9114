import type { Rule, RawFinding } from '../../../rules/types.js';
import { memoryFiles } from '../model.js';

export const rule: Rule = {
  meta: {
    id: 'memory/index-committed',
    short: 'The derived SQLite index is neither committed nor un-ignored.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'derived(index) -> !committed(index)',
    description:
      'The SQLite inverted index of the memory store is derived (rebuilt from the append-only JSONL truth sources), so it is neither committed nor left un-ignored: any `*.sqlite`, `*.sqlite3`, `*.db` (and their `-wal`/`-shm` files) under the memory root, or anything in its `global/index/`, is a finding unless git ignores it and it is not tracked.',
    fix: 'Remove the index from the repository (`git rm --cached <file>`) and ignore it in `.gitignore`; it is rebuilt from the JSONL files.',
    messages: {
      committed:
        'Derived index "{{path}}" is in the repository (tracked or not ignored); it is rebuilt from the JSONL truth sources.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const { path, model } of memoryFiles(packs)) {
      if (model.source !== 'index') continue;
      out.push({ file: path, line: null, messageId: 'committed', data: { path } });
    }
    return out;
  },
};
