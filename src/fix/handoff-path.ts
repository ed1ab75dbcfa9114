// handoff/path: a task handoff renamed to `task-NN-<kebab-desc>.md` and its `task` key set to NN. The rename is a
// plain rename of the working file (nothing is staged: `git add -A` records it as git would a `git mv`). Only a
// handoff that is not in HEAD yet is renamed: a committed handoff is history, and renaming or rewriting it is
// history/handoff-deleted and history/handoff-rewritten, a worse finding than a file name.
import { posix } from 'node:path';
import type { Finding } from '../model/finding.js';
import type { Handoff } from '../model/types.js';
import { namesFile, planOf, tasksFor } from '../model/queries.js';
import { kebab } from '../shared/text.js';
import { setKey, setYamlKey } from './frontmatter.js';
import type { Change, FixContext, FixResult, Fixer } from './types.js';

const RULE = 'handoff/path';
const TASK_NAME = /^task-(\d+)-(.+)\.(?:md|ya?ml)$/;
/** A YAML handoff keeps its extension (the reader picks the dialect by it); any other is Markdown. */
const extensionOf = (name: string) => /\.(ya?ml)$/.exec(name)?.[1] ?? 'md';

/**
 * The task number the file should carry. When the file name and the `task` key disagree, the plan decides: the one
 * task whose text is the handoff's `task_desc`. Without that, which of the two is right needs a human.
 */
function numberOf(ctx: FixContext, h: Handoff, mismatch: boolean): number | string {
  if (!mismatch) return h.task ?? h.fileTask ?? 'it has no task number';
  const plan = planOf(ctx.workspace, h.path);
  const byText = plan && h.taskDesc ? tasksFor(plan, null, h.taskDesc) : [];
  const n = byText.length === 1 ? byText[0]!.number : null;
  if (n !== null && (n === h.task || n === h.fileTask)) return n;
  return `the file name says task ${h.fileTask} and the \`task\` key says ${h.task}, and no single plan task has its task_desc: which is right needs a human`;
}

function descOf(h: Handoff, name: string): string {
  const m = TASK_NAME.exec(name);
  if (m) return kebab(m[2]!);
  return kebab(h.taskDesc ?? name.replace(/\.[^.]*$/, ''));
}

function fixHandoff(ctx: FixContext, h: Handoff, findings: Finding[], claimed: Set<string>): FixResult {
  const name = posix.basename(h.path);
  const skip = (why: string): FixResult => ({ changes: [], skipped: [{ ruleId: RULE, file: h.path, why }] });
  if (ctx.committed(h.path))
    return skip(
      'committed in HEAD: renaming a committed handoff is history/handoff-deleted; leave it, or record the finding in the baseline',
    );
  const n = numberOf(
    ctx,
    h,
    findings.some((f) => f.messageId === 'taskMismatch'),
  );
  if (typeof n === 'string') return skip(n);
  const desc = descOf(h, name);
  if (!desc) return skip('no description to name it by (no task_desc, no words in the file name)');
  const ext = extensionOf(name);
  const target = posix.join(posix.dirname(h.path), `task-${String(n).padStart(2, '0')}-${desc}.${ext}`);
  const changes: Change[] = [];
  if (h.task !== null && h.task !== n) {
    const key = h.sources.task ?? 'task';
    const edit = ext === 'md' ? setKey(ctx.text(h.path), key, n) : setYamlKey(ctx.text(h.path), key, n);
    if (!edit) return skip(`its \`${key}\` key cannot be rewritten safely (not a plain one-line value)`);
    changes.push({ ruleId: RULE, file: h.path, edits: [edit], says: `${key}: ${h.task} -> ${n} (${RULE})` });
  }
  if (target !== h.path) {
    if (ctx.exists(target) || claimed.has(target)) return skip(`${posix.basename(target)} already exists: not renamed`);
    // Handoffs that name this one in `previous:` are renamed with it; a committed one cannot be, so neither is this.
    const referrers = ctx.workspace.handoffs.filter(
      (o) => o !== h && o.previous !== null && namesFile(o.previous, o, h),
    );
    const fixed = referrers.find((o) => ctx.committed(o.path));
    if (fixed) return skip(`${fixed.path} (committed) names it in \`previous:\`: renaming it would break that chain`);
    for (const o of referrers) {
      const ref = o.previous!.trim();
      const value = ref.includes('/') ? posix.join(posix.dirname(ref), posix.basename(target)) : posix.basename(target);
      const key = o.sources.previous ?? 'previous';
      const edit = setKey(ctx.text(o.path), key, value);
      if (!edit) return skip(`${o.path} names it in \`${key}:\` in a way that cannot be rewritten safely: not renamed`);
      changes.push({
        ruleId: RULE,
        file: o.path,
        edits: [edit],
        says: `${key}: ${ref} -> ${value}, following the rename (${RULE})`,
      });
    }
    claimed.add(target);
    ctx.renames.set(h.path, target);
    changes.push({
      ruleId: RULE,
      file: h.path,
      edits: [],
      renameTo: target,
      says: `renamed to ${posix.basename(target)} (${RULE})`,
    });
  }
  return { changes, skipped: [] };
}

export const handoffPath: Fixer = {
  ruleId: RULE,
  type: 'problem',
  fix: (findings, ctx): FixResult => {
    const out: FixResult = { changes: [], skipped: [] };
    const claimed = new Set<string>();
    for (const h of ctx.workspace.handoffs) {
      const mine = findings.filter((f) => f.file === h.path);
      if (mine.length === 0) continue;
      const r = fixHandoff(ctx, h, mine, claimed);
      out.changes.push(...r.changes);
      out.skipped.push(...r.skipped);
    }
    return out;
  },
};
