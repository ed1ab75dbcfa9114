import type { RawFinding, Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'history/handoff-rewritten',
    severities: { recommended: 'warn', strict: 'error' },
    formula: '[h]:context(n) -> [][h]:context(n)',
    description: "A committed handoff's frontmatter (status, task, verification results, context for next) never changes afterwards; appending to its body is allowed.",
    fix: 'Revert the frontmatter change; record what changed in the next handoff, or append a note to this one\'s body.',
    messages: {
      rewritten: 'Frontmatter of committed handoff {{file}} was rewritten ({{keys}}).',
    },
  },
  transition: (ctx) =>
    ctx.events.flatMap((e): RawFinding[] =>
      e.type === 'handoff-frontmatter-changed'
        ? [{ file: e.file, line: e.line, messageId: 'rewritten', data: { file: e.file, keys: e.keys.map((k) => `\`${k}\``).join(', ') } }]
        : [],
    ),
};
