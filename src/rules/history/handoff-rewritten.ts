import { posix } from 'node:path';
import type { RawFinding, Rule, TransitionContext } from '../types.js';
import { saysInProgress, statusInOtherWords } from '../../read/handoff.js';

/**
 * The key a blocked handoff's resolution was written under, when the handoff is blocked: the resolution is the
 * user's answer, written after the fact by design. Whose answer it is, is `history/self-exemption`'s question.
 */
function resolutionKeyOf(ctx: TransitionContext, file: string): string | null {
  const h = ctx.after.model(file);
  const was = ctx.before.model(file);
  if (h?.kind !== 'handoff' || (h.status !== 'blocked' && !(was?.kind === 'handoff' && was.status === 'blocked')))
    return null;
  return h.sources.resolution ?? 'resolution';
}

/**
 * A living document in the handoffs folder, rewritten by design: a name with neither a task number nor a date
 * (`current.md`, `latest.md`, `README.md`, `index.md`). A handoff is a record of one moment; such a file is not.
 */
export function isLivingDocument(path: string): boolean {
  const name = posix.basename(path).replace(/\.[^.]+$/, '');
  return !/task[-_]?\d/i.test(name) && !/\d{4}-?\d{2}-?\d{2}/.test(name) && !/^\d/.test(name);
}

/** Keys whose values are the handoff's record: changing them is a rewrite even when they were empty. */
const RECORD_KEYS = new Set([
  'status',
  'task',
  'task_number',
  'outcome',
  'result',
  'verification',
  'verification_results',
  'tests',
  'blocker',
  'blockers',
  'task_desc',
  'context_for_next',
]);

function empty(value: unknown): boolean {
  if (typeof value === 'string' && /^(?:pending|tbd|todo|n\/a|none|unknown|-)?$/i.test(value.trim())) return true;
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

export const rule: Rule = {
  meta: {
    id: 'history/handoff-rewritten',
    short: "A committed handoff's frontmatter never changes afterwards.",
    severities: { recommended: 'warn', strict: 'error' },
    formula: '[h]:context(n) -> [][h]:context(n)',
    description:
      "A committed handoff's frontmatter (status, task, verification results, context for next) never changes afterwards; appending to its body is allowed, so is filling a bookkeeping key that was empty or missing (`git_commit`, `pr`) and, in `recommended`, correcting metadata (any key but status, task, results, outcome, blocker and context), a living document with neither task number nor date in its name (`current.md`) is rewritten by design, and so is the resolution of a blocked handoff (the user's answer; who wrote it is `history/self-exemption`'s concern). In `recommended`, a handoff whose status said it was still in progress (`in_progress`, `wip`, `draft`) is no record until its status says how the work ended, and a status in no handoff's words (`filed`) is no record to rewrite.",
    fix: "Revert the frontmatter change; record what changed in the next handoff, or append a note to this one's body.",
    messages: {
      rewritten: 'Frontmatter of committed handoff {{file}} was rewritten ({{keys}}).',
      // The record was read from the body (a status marker, a section): saying "frontmatter" would misname it.
      rewrittenBody: 'The record of committed handoff {{file}} was rewritten in its body ({{keys}}).',
    },
  },
  transition: (ctx) =>
    ctx.events.flatMap((e): RawFinding[] => {
      if (e.type !== 'handoff-frontmatter-changed') return [];
      const resolution = resolutionKeyOf(ctx, e.file);
      if (isLivingDocument(e.file)) return [];
      const was = ctx.before.model(e.file);
      const prior = was?.kind === 'handoff' ? was : null;
      // recommended: a handoff whose status said it was still in progress (`in_progress`, `wip`, `draft`) was not a
      // record yet; it becomes one when its status says how the work ended. strict: a committed handoff is a record.
      if (ctx.preset !== 'strict' && prior && saysInProgress(prior)) return [];
      const before = prior?.frontmatter ?? {};
      // Filling a bookkeeping key that was empty or missing (`git_commit`, `filed_at`, `pr`) rewrites nothing.
      // recommended: the record is the keys that say what happened (status, task, results, outcome); metadata
      // (`repository`, `git_commit`, `tags`) may be corrected. strict: any key that held a value.
      // Where the record's fields were read from when not from a key of that name (`## Status`, `## Test Results`).
      const now = ctx.after.model(e.file);
      const sources = new Set(
        [was, now].flatMap((h) =>
          h?.kind === 'handoff'
            ? ['status', 'task', 'verification_results', 'outcome']
                .map((f) => h.sources[f])
                .filter((x): x is string => !!x)
            : [],
        ),
      );
      // recommended: a status in no handoff's words (`filed — upstream#8551` in a bug-report draft kept with the
      // handoffs) records no task's outcome, so changing it rewrites no record; the other record keys still count.
      const other = prior ? statusInOtherWords(prior) : null;
      const foreignStatus = ctx.preset !== 'strict' && other !== null && !empty(other);
      const keys = (resolution === null ? e.keys : e.keys.filter((k) => k !== resolution))
        .filter((k) => !(foreignStatus && k === (prior?.sources['status'] ?? 'status')))
        .filter((k) => RECORD_KEYS.has(k) || sources.has(k) || (ctx.preset === 'strict' && !empty(before[k])));
      const inBody = keys.some(
        (k) => !(k in before) && !(now?.kind === 'handoff' && now.frontmatter && k in now.frontmatter),
      );
      return keys.length
        ? [
            {
              file: e.file,
              line: e.line,
              messageId: inBody ? 'rewrittenBody' : 'rewritten',
              data: { file: e.file, keys: keys.map((k) => `\`${k}\``).join(', ') },
            },
          ]
        : [];
    }),
};
