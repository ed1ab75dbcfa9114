import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'history/handoff-deleted',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](handoff_created(h) -> []exists_on_disk(h))',
    description: 'A committed handoff is never deleted or renamed: it is the record that survives compaction, and the next agent and the reviewer read it by its path.',
    fix: 'Restore the handoff at its original path (`git restore --source=<commit>^ -- <path>`).',
  },
  transition: (ctx) =>
    ctx.events.flatMap((e) => {
      if (e.type === 'handoff-deleted') return [{ file: e.file, line: e.line, message: `Handoff ${e.file} was deleted.` }];
      if (e.type === 'handoff-renamed') return [{ file: e.file, line: e.line, message: `Handoff ${e.from} was renamed to ${e.file}.` }];
      return [];
    }),
};
