import type { RawFinding, Rule } from '../types.js';
import { claimedButOpen } from '../../model/queries.js';
import { isAre, plural } from '../../shared/text.js';

export const rule: Rule = {
  meta: {
    id: 'plan/claimed-complete',
    short: 'A plan that says it is done has no open task or automated item.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'O(update_plan) <- task_complete',
    description:
      'A plan that says its work is done (`status: complete` in its frontmatter, a `**Status**: Implementation Complete` line above its phases, or a place in a folder of finished plans such as `implemented/`) has no open task or automated item. Manual items may stay open (they wait for a human); items set aside with their reason (`(skipped: ...)`, `deferred to ...`, `N/A`), deferred phases and phases whose title or own status line (`### Implementation Status: Complete`) says they are done do not count, and a plan that never ticks a box keeps its state in words, not boxes. In `recommended` the claim is contradicted by an open task, or an open automated item of a phase whose verification has not begun (not one of its automated items checked, as history/phase-order reads it); automated items left open in phases whose tasks are all checked and whose verification has begun are one info (the claim stands). `strict` reports any open task or automated item.',
    fix: 'Check the items that are done, mark the ones set aside with their reason (`(skipped: why)`), or take back the claim.',
    messages: {
      claimedOpen:
        'The plan says it is done ({{where}}) but {{open}} {{be}} open: first "{{first}}" at line {{line}}{{also}}.',
      leftOpen:
        'The plan says it is done ({{where}}) and the claim stands: no task is open, and every phase with an open automated item has begun its verification; {{boxes}} {{be}} left open, first "{{first}}" at line {{line}}.',
      // The fix of the note: the claim stands, so taking it back is no fix; the boxes are closed or given a reason.
      closeLeftOpen:
        'Check the automated items left open once they pass, or say on the line why one stays open (`skipped: <reason>`, `deferred to Phase N`).',
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
      // recommended: an open task, or an open automated item of a phase whose verification has not begun,
      // contradicts the claim; an automated box left open in a phase whose tasks are all checked and whose
      // verification began (a check that needs a tool the agent lacked, a stale per-phase test item) leaves it
      // standing. strict: every open task and automated item.
      const causes = ctx.preset === 'strict' ? open : open.filter((o) => !o.leftOpen);
      const left = open.length - causes.length;
      const first = causes[0];
      if (first) {
        const tasks = causes.filter((o) => o.task).length;
        const automated = causes.length - tasks;
        const parts = [
          ...(tasks > 0 ? [plural(tasks, 'task')] : []),
          ...(automated > 0 ? [plural(automated, 'automated item')] : []),
        ];
        out.push({
          ...at,
          messageId: 'claimedOpen',
          data: {
            where,
            count: causes.length,
            open: parts.join(' and '),
            be: isAre(causes.length),
            first: first.text,
            line: first.line,
            also:
              left === 0
                ? ''
                : `; besides, ${plural(left, 'automated item')} ${isAre(left)} left behind in phases whose tasks are all checked and whose verification has begun`,
          },
        });
      } else
        out.push({
          ...at,
          messageId: 'leftOpen',
          fixId: 'closeLeftOpen',
          info: true,
          data: {
            where,
            boxes: plural(open.length, 'automated verification item'),
            be: isAre(open.length),
            first: open[0]!.text,
            line: open[0]!.line,
          },
        });
    }
    return out;
  },
};
