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
    messages: {
      // {{reason}}: why the commit's confirmation does not count (src/history/trust.ts says it in one clause).
      unconfirmed: 'Manual item "{{item}}" is checked without a human\'s confirmation: {{reason}}.',
      strictOtherChange:
        'Manual item "{{item}}" is checked without a human\'s confirmation: in `strict` a confirmation commit changes nothing but manual checkboxes, and this one also {{change}}.',
      // The fix of a finding about one item: the plan and phase are known, so the command is complete.
      confirmNow:
        'Manual items are checked by a human, never by an agent: leave it unchecked and tell the user Phase {{phase}} is ready for manual verification (they confirm with `npx validate-workflow confirm {{file}} --phase {{phase}}`).',
      relayed: 'Manual item "{{item}}" confirmed by {{name}} <{{email}}> in a commit an agent co-authored (the agent relays the human\'s word).',
    },
  },
  transition: (ctx) => {
    // Pre-commit has no message yet; commit-msg judges the same change with its trailers.
    if (ctx.stage === 'staged') return [];
    const checked = ctx.events.filter((e) => e.type === 'item-checked' && e.kind === 'manual' && e.checked);
    if (checked.length === 0) return [];
    const c = ctx.confirmation();
    // Strict: a confirmation commit changes nothing but manual checkboxes, so the human vouches for exactly that.
    const other = c.ok && ctx.preset === 'strict' ? ctx.events.find((e) => !(e.type === 'item-checked' && e.kind === 'manual')) : undefined;
    const out: RawFinding[] = [];
    for (const e of checked) {
      if (e.type !== 'item-checked') continue;
      const fix = { fixId: 'confirmNow', data: { item: e.text, file: e.file, phase: e.phase } };
      if (other) out.push({ file: e.file, line: e.line, messageId: 'strictOtherChange', ...fix, data: { ...fix.data, change: describe(other) } });
      else if (!c.ok) out.push({ file: e.file, line: e.line, messageId: 'unconfirmed', ...fix, data: { ...fix.data, reason: c.reason } });
      else if (ctx.agents.length > 0) {
        out.push({ file: e.file, line: e.line, info: true, messageId: 'relayed', data: { item: e.text, name: c.by!.name, email: c.by!.email } });
      }
    }
    return out;
  },
};
