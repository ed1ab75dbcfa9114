import type { Rule, RawFinding } from '../types.js';
import type { Event } from '../../model/history.js';

function describe(e: Event): string {
  switch (e.type) {
    case 'item-checked':
      return `${e.checked ? 'checks' : 'unchecks'} the ${e.kind} item "${e.text}" (${e.file}:${e.line})`;
    case 'task-completed':
      return `${e.completed ? 'checks' : 'unchecks'} Task ${e.task} (${e.file}:${e.line})`;
    case 'trust-file-changed':
      return `changes ${e.file}`;
    default:
      return `changes ${e.file} (${e.type.replace(/-/g, ' ')})`;
  }
}

export const rule: Rule = {
  meta: {
    id: 'history/manual-confirmation',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'F(checkoff_manual) <- not user_confirmed',
    description:
      "Every commit that checks a manual verification item (or adds one already checked) carries a human's confirmation: a `Confirmed-by: Name <email>` trailer whose identity is not an agent's, is listed in `confirmers` when that is set, is the commit's author or committer, and (with `requireSignedConfirmations`) a good signature. In `strict` an agent may not take part in a confirmation commit (as author, committer or co-author), and a confirmation commit changes nothing but manual checkboxes.",
    fix: 'Leave manual items to a human: `npx validate-workflow confirm <plan> --phase N` commits them with the trailer.',
  },
  transition: (ctx) => {
    // Pre-commit has no message yet; commit-msg judges the same change with its trailers.
    if (ctx.stage === 'staged') return [];
    const checked = ctx.events.filter((e) => e.type === 'item-checked' && e.kind === 'manual' && e.checked);
    if (checked.length === 0) return [];
    let c = ctx.confirmation();
    // Strict: a confirmation commit changes nothing but manual checkboxes, so the human vouches for exactly that.
    const other = c.ok && ctx.preset === 'strict' ? ctx.events.find((e) => !(e.type === 'item-checked' && e.kind === 'manual')) : undefined;
    if (other) c = { ok: false, by: c.by, reason: `in \`strict\` a confirmation commit changes nothing but manual checkboxes, and this one also ${describe(other)}` };
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
