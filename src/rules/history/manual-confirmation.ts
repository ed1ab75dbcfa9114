import type { Rule, RawFinding } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'history/manual-confirmation',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'F(checkoff_manual) <- not user_confirmed',
    description:
      "Every commit that checks a manual verification item (or adds one already checked) carries a human's confirmation: a `Confirmed-by: Name <email>` trailer whose identity is not an agent's, is listed in `confirmers` when that is set, is the commit's author or committer, and (with `requireSignedConfirmations`) a good signature. In `strict` a confirmation commit may not be co-authored by an agent.",
    fix: 'Leave manual items to a human: `npx validate-workflow confirm <plan> --phase N` commits them with the trailer.',
  },
  transition: (ctx) => {
    // Pre-commit has no message yet; commit-msg judges the same change with its trailers.
    if (ctx.stage === 'staged') return [];
    const checked = ctx.events.filter((e) => e.type === 'item-checked' && e.kind === 'manual' && e.checked);
    if (checked.length === 0) return [];
    const c = ctx.confirmation();
    const out: RawFinding[] = [];
    for (const e of checked) {
      if (e.type !== 'item-checked') continue;
      if (!c.ok) out.push({ file: e.file, line: e.line, message: `Manual item "${e.text}" is checked without a human's confirmation: ${c.reason}.` });
      else if (ctx.agents.length > 0) {
        out.push({ file: e.file, line: e.line, info: true, message: `Manual item "${e.text}" confirmed by ${c.by!.name} <${c.by!.email}> in a commit an agent co-authored (the agent relays the human's word).` });
      }
    }
    return out;
  },
};
