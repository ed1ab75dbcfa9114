import type { RawFinding, Rule } from '../types.js';
import { claimedButOpen } from '../../model/queries.js';
import { plural } from '../../shared/text.js';

export const rule: Rule = {
  meta: {
    id: 'plan/claimed-complete',
    short: 'A plan that says it is done has no open task or automated item.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'O(update_plan) <- task_complete',
    description:
      'A plan that says its work is done (`status: complete` in its frontmatter, a `**Status**: Implementation Complete` line above its phases, or a place in a folder of finished plans such as `implemented/`) has no open task or automated item. Manual items may stay open (they wait for a human); items set aside with their reason (`(skipped: ...)`, `deferred to ...`, `N/A`), deferred phases and phases whose title or own status line (`### Implementation Status: Complete`) says they are done do not count, and a plan that never ticks a box keeps its state in words, not boxes. In `recommended` the claim is contradicted by an open task, or by a phase with automated items whose verification never began (not one box of the phase checked); automated items left open in phases that were otherwise worked are one info (the claim stands, the boxes were left behind). `strict` reports any open task or automated item.',
    fix: 'Check the items that are done, mark the ones set aside with their reason (`(skipped: why)`), or take back the claim.',
    messages: {
      claimedOpen:
        'The plan says it is done ({{where}}) but {{count}} of its tasks and automated items are open: first "{{first}}" at line {{line}}{{also}}.',
      leftOpen:
        'The plan says it is done ({{where}}) and the claim stands: no task is open, and the phases were worked; {{boxes}} left open, first "{{first}}" at line {{line}}.',
    },
  },
  snapshot: (ws, ctx) => {
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
      const at = { file: plan.path, line: claim.line, column: claim.column };
      // recommended: an open task, or a phase whose verification never began, contradicts the claim; an automated
      // box left open in a phase that was worked (a check that needs a tool the agent lacked, a stale per-phase test
      // item) leaves it standing. strict: every open task and automated item.
      const causes = ctx.preset === 'strict' ? open : open.filter((o) => !o.leftOpen);
      const left = open.length - causes.length;
      const first = causes[0];
      if (first)
        out.push({
          ...at,
          messageId: 'claimedOpen',
          data: {
            where,
            count: causes.length,
            first: first.text,
            line: first.line,
            also:
              left === 0
                ? ''
                : `; ${plural(left, 'more automated item')} left open in phases that were otherwise worked`,
          },
        });
      else
        out.push({
          ...at,
          messageId: 'leftOpen',
          info: true,
          data: {
            where,
            boxes: plural(open.length, 'automated verification item'),
            first: open[0]!.text,
            line: open[0]!.line,
          },
        });
    }
    return out;
  },
};
