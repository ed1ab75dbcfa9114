import type { RawFinding, Rule, TransitionContext } from '../types.js';

/**
 * The key a blocked handoff's resolution was written under, when the handoff is blocked: the resolution is the
 * user's answer, written after the fact by design. Whose answer it is, is `history/self-exemption`'s question.
 */
function resolutionKeyOf(ctx: TransitionContext, file: string): string | null {
  const h = ctx.after.model(file);
  const was = ctx.before.model(file);
  if (h?.kind !== 'handoff' || (h.status !== 'blocked' && !(was?.kind === 'handoff' && was.status === 'blocked'))) return null;
  return h.sources.resolution ?? 'resolution';
}

export const rule: Rule = {
  meta: {
    id: 'history/handoff-rewritten',
    severities: { recommended: 'warn', strict: 'error' },
    formula: '[h]:context(n) -> [][h]:context(n)',
    description:
      "A committed handoff's frontmatter (status, task, verification results, context for next) never changes afterwards; appending to its body is allowed, and so is the resolution of a blocked handoff (the user's answer; who wrote it is `history/self-exemption`'s concern).",
    fix: 'Revert the frontmatter change; record what changed in the next handoff, or append a note to this one\'s body.',
    messages: {
      rewritten: 'Frontmatter of committed handoff {{file}} was rewritten ({{keys}}).',
    },
  },
  transition: (ctx) =>
    ctx.events.flatMap((e): RawFinding[] => {
      if (e.type !== 'handoff-frontmatter-changed') return [];
      const resolution = resolutionKeyOf(ctx, e.file);
      const keys = resolution === null ? e.keys : e.keys.filter((k) => k !== resolution);
      return keys.length ? [{ file: e.file, line: e.line, messageId: 'rewritten', data: { file: e.file, keys: keys.map((k) => `\`${k}\``).join(', ') } }] : [];
    }),
};
