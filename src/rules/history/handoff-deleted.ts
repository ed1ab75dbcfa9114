import type { RawFinding, Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'history/handoff-deleted',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](handoff_created(h) -> []exists_on_disk(h))',
    description: 'A committed handoff is never deleted or renamed: it is the record that survives compaction, and the next agent and the reviewer read it by its path.',
    fix: 'Restore the handoff at its original path (`git restore --source=<commit>^ -- <path>`).',
    messages: {
      deleted: 'Handoff {{file}} was deleted.',
      // The fix of one deletion: from HEAD before the commit is made, from the commit's parent afterwards.
      restore: 'Restore the handoff at its path: `git restore --source={{source}} --staged --worktree -- {{file}}`.',
      emptied: 'Handoff {{file}} was left empty or unreadable: its committed record is gone.',
      renamed: 'Handoff {{from}} was renamed to {{file}}.',
    },
  },
  transition: (ctx) =>
    ctx.events.flatMap((e): RawFinding[] => {
      if (e.type === 'handoff-deleted') return [{ file: e.file, line: e.line, messageId: e.emptied ? 'emptied' : 'deleted', fixId: 'restore', data: { file: e.file, source: ctx.commit.sha ? `${ctx.commit.sha.slice(0, 7)}^` : 'HEAD' } }];
      if (e.type === 'handoff-renamed') return [{ file: e.file, line: e.line, messageId: 'renamed', data: { from: e.from, file: e.file } }];
      return [];
    }),
};
