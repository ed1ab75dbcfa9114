// ledger/sync: the ledger's `## State` copies what the plan records. A task the plan checks becomes `[x]` in the
// ledger (its box or its `[→]` marker rewritten in place), and a checked task the ledger does not list is added
// next to its neighbours. The ledger is a mirror of the plan for the next context; the check-off itself is the
// plan's, judged there. A ledger that says done where the plan does not is left to a human: which file is wrong
// (the work not done, or the plan not updated) is not mechanical.
import { basename } from 'node:path';
import type { Root } from 'mdast';
import type { Finding } from '../model/finding.js';
import type { Ledger, LedgerItem, Plan, Task } from '../model/types.js';
import { ledgerItemTasks, planOf } from '../model/queries.js';
import { unlistedTasks } from '../rules/ledger/sync.js';
import { checkboxRange, listItemAt } from './markdown.js';
import { lineStart, nextLineStart, parseForEdit } from './text.js';
import type { Change, FixContext, FixResult, Fixer, Skip, TextEdit } from './types.js';

const RULE = 'ledger/sync';
const MARKERS = ['[→]', '[->]', '[>]'];

function markDone(text: string, root: Root, item: LedgerItem): TextEdit | string {
  const node = listItemAt(root, item.line, item.column);
  const box = node ? checkboxRange(text, node, MARKERS) : null;
  // An item whose state comes from a label (`- Now: Task 2`) or a `### Remaining` heading has no box to rewrite;
  // moving it between groups is an edit of the ledger's structure.
  if (!box)
    return `line ${item.line}: the item's state comes from its label or heading, not a box: move it under Done by hand`;
  return { start: box.start, end: box.end, text: '[x]' };
}

/** The new line for an unlisted task, next to the task item before it (or after it), in that item's list style. */
function addItem(text: string, root: Root, ledger: Ledger, plan: Plan, task: Task): TextEdit | string {
  if (task.label !== String(task.number))
    return `Task ${task.label} is sub-numbered: a ledger item tracks whole tasks only`;
  const items = ledger.items.filter((i) => i.task !== null && i.group === null);
  const number = (i: LedgerItem) => ledgerItemTasks(plan, i).at(-1)?.number ?? i.task!;
  const before = items.filter((i) => number(i) < task.number).at(-1);
  const after = items.find((i) => number(i) > task.number);
  const neighbour = before ?? after;
  const node = neighbour ? listItemAt(root, neighbour.line, neighbour.column) : null;
  if (!neighbour || !node?.position || !checkboxRange(text, node, MARKERS))
    return `no checklist item in ## State to add Task ${task.number} next to: add it by hand`;
  const start = node.position.start.offset!;
  const bullet = text[start]!;
  if (!'-*+'.includes(bullet)) return `## State is an ordered list: add Task ${task.number} by hand`;
  const indent = text.slice(lineStart(text, start), start);
  const line = `${indent}${bullet} [x] Task ${task.number}: ${task.title}\n`;
  const at = before ? nextLineStart(text, node.position.end.offset! - 1) : lineStart(text, start);
  return { start: at, end: at, text: line };
}

function fixLedger(
  ctx: FixContext,
  ledger: Ledger,
  plan: Plan,
  findings: Finding[],
): { changes: Change[]; skipped: Skip[] } {
  const text = ctx.text(ledger.path);
  const root = parseForEdit(text);
  const changes: Change[] = [];
  const skipped: Skip[] = [];
  const skip = (why: string) => skipped.push({ ruleId: RULE, file: ledger.path, why });
  for (const f of findings.filter((f) => f.messageId === 'checkedButNotDone')) {
    const item = ledger.items.find((i) => i.line === f.line && i.column === f.column);
    const task = item ? ledgerItemTasks(plan, item).at(-1) : undefined;
    if (!item || !task) continue;
    const edit = markDone(text, root, item);
    if (typeof edit === 'string') skip(edit);
    else
      changes.push({
        ruleId: RULE,
        file: ledger.path,
        edits: [edit],
        says: `line ${item.line}: Task ${item.task} marked done ([x]), as ${basename(plan.path)} has it (${RULE})`,
      });
  }
  if (findings.some((f) => f.messageId === 'checkedButUnlisted')) {
    for (const task of unlistedTasks(plan, ledger)) {
      const edit = addItem(text, root, ledger, plan, task);
      if (typeof edit === 'string') skip(edit);
      else
        changes.push({
          ruleId: RULE,
          file: ledger.path,
          edits: [edit],
          says: `added "${edit.text.trim()}" to ## State, as ${basename(plan.path)} has it checked (${RULE})`,
        });
    }
  }
  for (const f of findings.filter((f) => f.messageId === 'doneButUnchecked' || f.messageId === 'unknownTask')) {
    skip(`line ${f.line}: ${f.message} Which file is right needs a human.`);
  }
  return { changes, skipped };
}

export const ledgerSync: Fixer = {
  ruleId: RULE,
  type: 'problem',
  fix: (findings, ctx): FixResult => {
    const out: FixResult = { changes: [], skipped: [] };
    for (const ledger of ctx.workspace.ledgers) {
      const mine = findings.filter((f) => f.file === ledger.path);
      const plan = planOf(ctx.workspace, ledger.path);
      if (mine.length === 0 || !plan) continue;
      const r = fixLedger(ctx, ledger, plan, mine);
      out.changes.push(...r.changes);
      out.skipped.push(...r.skipped);
    }
    return out;
  },
};
