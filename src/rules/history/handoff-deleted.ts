import { posix } from 'node:path';
import { isLivingDocument } from './handoff-rewritten.js';
import type { Event } from '../../model/history.js';
import { undoKey } from '../../model/finding.js';
import type { RawFinding, Rule, TransitionContext } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'history/handoff-deleted',
    short: 'A committed handoff is never deleted or renamed.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](handoff_created(h) -> []exists_on_disk(h))',
    description:
      'A committed handoff is never deleted or renamed: it is the record that survives compaction, and the next agent and the reviewer read it by its path. In the full history, a commit with no agent identity (author, committer, co-authors) that deletes or moves several handoffs, or (in `recommended`) one that deletes whole plans with their handoffs, or a sweep of three or more handoffs across two or more sessions, or a move of handoffs with their content unchanged (into an archive folder, even outside the workflow folders), is a cleanup: one info. A living document in the handoffs folder (`current.md`, no task number or date in its name) is no record.',
    fix: 'Restore the handoff at its original path (`git restore --source=<commit>^ -- <path>`).',
    messages: {
      deleted: 'Handoff {{file}} was deleted.',
      // The fix of one deletion: from HEAD before the commit is made, from the commit's parent afterwards.
      restore: 'Restore the handoff at its path: `git restore --source={{source}} --staged --worktree -- {{file}}`.',
      emptied: 'Handoff {{file}} was left empty or unreadable: its committed record is gone.',
      renamed: 'Handoff {{from}} was renamed to {{file}}.',
      housekeeping:
        'This commit deleted or moved {{count}} handoffs ({{files}}) with no agent identity on it, or together with whole plans: read as a cleanup, not as an agent erasing its record.',
    },
  },
  transition: (ctx) => {
    // A person's cleanup (several handoffs, no agent identity on the commit) is housekeeping: one info for the
    // commit. Living documents (`current.md`) were never a record of one moment.
    const gone = ctx.events.filter(
      (e) =>
        (e.type === 'handoff-deleted' || e.type === 'handoff-renamed') &&
        !isLivingDocument(e.type === 'handoff-renamed' ? e.from : e.file),
    );
    // A commit that deletes whole plans with their handoffs archives a piece of work; an agent hiding its record
    // deletes a handoff and keeps the plan (recommended; strict holds every deletion).
    if (ctx.stage !== 'history') return gone.flatMap((e) => judged(e, ctx));
    const archive =
      ctx.preset !== 'strict' && ctx.changes.some((c) => c.status === 'D' && ctx.before.kindOf(c.path) === 'plan');
    // A sweep across sessions (three or more handoffs of two or more sessions) clears out old work; an agent that
    // erases its record deletes the handoff of its own task (recommended; strict holds every deletion).
    const sessions = new Set(gone.map((e) => posix.dirname(e.type === 'handoff-renamed' ? e.from : e.file)));
    const sweep = ctx.preset !== 'strict' && gone.length >= 3 && sessions.size >= 2;
    // A person moving a handoff whole into an archive folder keeps the record (only its path changed).
    const archived =
      ctx.preset !== 'strict' &&
      ctx.agents.length === 0 &&
      gone.length > 0 &&
      gone.every((e) => e.type === 'handoff-renamed' && e.intact);
    if ((gone.length > 1 && ctx.agents.length === 0) || (gone.length > 0 && archive) || sweep || archived) {
      const files = gone.map((e) => (e.type === 'handoff-renamed' ? e.from : e.file));
      return [
        {
          file: gone[0]!.file,
          line: gone[0]!.line,
          messageId: 'housekeeping',
          info: true,
          data: { count: gone.length, files: files.slice(0, 3).join(', ') + (files.length > 3 ? ', ...' : '') },
        },
      ];
    }
    return gone.flatMap((e) => judged(e, ctx));
  },
};

/** The finding of one deletion or rename, judged on its own. */
function judged(e: Event, ctx: TransitionContext): RawFinding[] {
  // Back at its path in a later commit, the record was restored: the runner says so (a warning naming that commit).
  if (e.type === 'handoff-deleted')
    return [
      {
        file: e.file,
        line: e.line,
        messageId: e.emptied ? 'emptied' : 'deleted',
        fixId: 'restore',
        data: { file: e.file, source: ctx.commit.sha ? `${ctx.commit.sha.slice(0, 7)}^` : 'HEAD' },
        ...(e.emptied ? {} : { undo: [undoKey('restore', e.file)] }),
      },
    ];
  if (e.type === 'handoff-renamed')
    return [
      {
        file: e.file,
        line: e.line,
        messageId: 'renamed',
        data: { from: e.from, file: e.file },
        undo: [undoKey('restore', e.from)],
      },
    ];
  return [];
}
