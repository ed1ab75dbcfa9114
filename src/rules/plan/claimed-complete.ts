import type { RawFinding, Rule } from '../types.js';
import { claimedButOpen } from '../../model/queries.js';

export const rule: Rule = {
  meta: {
    id: 'plan/claimed-complete',
    short: 'A plan that says it is done has no open task or automated item.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'O(update_plan) <- task_complete',
    description:
      'A plan that says its work is done (`status: complete` in its frontmatter, a `**Status**: Implementation Complete` line above its phases, or a place in a folder of finished plans such as `implemented/`) has no open task or automated item. Manual items may stay open (they wait for a human); items set aside with their reason (`(skipped: ...)`, `deferred to ...`, `N/A`), deferred phases and phases whose title or own status line (`### Implementation Status: Complete`) says they are done do not count, and a plan that never ticks a box keeps its state in words, not boxes.',
    fix: 'Check the items that are done, mark the ones set aside with their reason (`(skipped: why)`), or take back the claim.',
    messages: {
      claimedOpen:
        'The plan says it is done ({{where}}) but {{count}} of its tasks and automated items are open: first "{{first}}" at line {{line}}.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const plan of ws.plans) {
      const claim = plan.claimsComplete;
      const open = claimedButOpen(plan);
      if (!claim || !open) continue;
      const where =
        claim.source === 'status'
          ? `\`status: ${claim.said}\``
          : claim.source === 'body'
            ? `"Status: ${claim.said}"`
            : `it sits in ${claim.said}`;
      out.push({
        file: plan.path,
        line: claim.line,
        column: claim.column,
        messageId: 'claimedOpen',
        data: { where, count: open.length, first: open[0]!.text, line: open[0]!.line },
      });
    }
    return out;
  },
};
