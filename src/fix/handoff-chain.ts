// handoff/chain: a missing `previous:` set to the handoff of the task before in the same session (the one file the
// rule would accept). A `previous:` that is there but wrong is the author's statement, left to a human; so is a
// task whose session has no handoff of the task before (another session's, or none: not mechanical). As with
// handoff/path, a handoff already in HEAD is left alone: changing its frontmatter is history/handoff-rewritten.
import { posix } from 'node:path';
import { handoffTask, taskHandoffsBySession } from '../model/queries.js';
import { addKey } from './frontmatter.js';
import type { FixResult, Fixer } from './types.js';

const RULE = 'handoff/chain';
/** Where section 3 puts `previous:`: after the plan, else after the task's description and number. */
const AFTER = ['plan', 'plan_file', 'task_desc', 'task_total', 'task', 'task_number'];

export const handoffChain: Fixer = {
  ruleId: RULE,
  type: 'problem',
  fix: (findings, ctx): FixResult => {
    const out: FixResult = { changes: [], skipped: [] };
    const sessions = [...taskHandoffsBySession(ctx.workspace).values()];
    for (const f of findings) {
      const list = sessions.find((l) => l.some((h) => h.path === f.file));
      const h = list?.find((x) => x.path === f.file);
      if (!list || !h) continue;
      const skip = (why: string) => out.skipped.push({ ruleId: RULE, file: h.path, why });
      if (f.messageId !== 'previousUnset') {
        skip(`${f.message} Which handoff it follows needs a human.`);
        continue;
      }
      if (ctx.committed(h.path)) {
        skip(
          'committed in HEAD: adding `previous:` now is history/handoff-rewritten; leave it, or record the finding in the baseline',
        );
        continue;
      }
      const preds = list.filter((p) => handoffTask(p) === handoffTask(h)! - 1);
      if (preds.length !== 1) {
        skip(
          `the session has ${preds.length} handoffs of task ${handoffTask(h)! - 1}: which one it follows needs a human`,
        );
        continue;
      }
      const previous = posix.basename(ctx.renames.get(preds[0]!.path) ?? preds[0]!.path);
      const edit = addKey(ctx.text(h.path), 'previous', previous, AFTER);
      if (!edit) skip('its frontmatter cannot be edited safely');
      else
        out.changes.push({ ruleId: RULE, file: h.path, edits: [edit], says: `added previous: ${previous} (${RULE})` });
    }
    return out;
  },
};
