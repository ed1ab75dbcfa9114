// Versions of a plan without a parse (issue 22). Many versions of a plan in an agent's history differ from the
// previous one only in box marks (`- [ ]` to `- [x]`); the issue names prose appended at the end too. When that is
// all that changed, the new model is derived from the previous one:
// - Box marks (deriveChecked): every changed box is one the previous version's model already holds, and the new model
//   is the previous one with those items checked: the block structure of a Markdown document does not depend on the
//   character between a task item's brackets. Anything else (an unchecked box, a box the model does not hold) is parsed.
// - Appended prose (deriveVersion): after a blank line that nothing open can swallow (read/sections.ts closedAtEnd),
//   paragraphs that start at column 0 parse exactly as they would alone, and the plan reader does nothing with a
//   paragraph whose text says nothing it looks for (read/plan.ts planMayMatter: no box, comment, entity, quote or bold
//   label). The model is then the previous one as it is. Anything else appended (a heading, a list, code) is parsed.
// test/read/derive.test.ts holds the derived model equal to a full read for generated plans and edits;
// bench/corpus-derive.mjs does the same on real histories (18% of their plan edits are box marks alone; their appends
// add sections, which are parsed).
import type { CheckItem, Plan, Task, WorkflowFile } from '../model/types.js';
import { planMayMatter, stepsDone } from './plan.js';
import { parseWhole } from './markdown.js';
import { closedAtEnd } from './sections.js';

/** A list marker and a task box at the start of what follows the item's column: `- [ ] `, `12) [x] `. */
const BOX_AFTER_BULLET = /^(?:[-*+]|\d{1,9}[.)])[ \t]+\[[ xX]\]/;

type Box = CheckItem | Task;

/** Every box the plan's model holds, by the line of its list item. */
function boxesByLine(plan: Plan): Map<number, Box> {
  const boxes = new Map<number, Box>();
  for (const phase of plan.phases) {
    for (const task of phase.tasks) {
      if (task.source === 'item') boxes.set(task.line, task);
      for (const step of task.steps) boxes.set(step.line, step);
    }
    for (const list of [phase.automated, phase.manual, phase.unknown, phase.other])
      for (const item of list) boxes.set(item.line, item);
  }
  return boxes;
}

/**
 * The model of `text`, derived from `previous` (the model of `previousText`), or null when `text` must be parsed:
 * only plans, and only when every changed line checks a box the previous model holds.
 */
export function deriveChecked(previous: WorkflowFile, previousText: string, text: string): Plan | null {
  if (previous.kind !== 'plan' || !previous.readable || previousText.length !== text.length) return null;
  if (previousText === text) return structuredClone(previous);
  const before = previousText.split('\n');
  const after = text.split('\n');
  if (before.length !== after.length) return null;
  const changed: number[] = [];
  for (let i = 0; i < after.length; i++) if (before[i] !== after[i]) changed.push(i);
  const boxes = boxesByLine(previous);
  for (const i of changed) {
    const was = before[i]!;
    const now = after[i]!;
    let at = 0;
    while (was[at] === now[at]) at++;
    // One character changed, from an open box to a checked one.
    if (was.slice(at + 1) !== now.slice(at + 1) || was[at] !== ' ' || (now[at] !== 'x' && now[at] !== 'X')) return null;
    const box = boxes.get(i + 1);
    if (!box || box.checked) return null;
    const start = box.column - 1;
    const head = BOX_AFTER_BULLET.exec(now.slice(start));
    // The box of the item on that line, not a `[ ]` in its text.
    if (!head || start + head[0].length - 2 !== at) return null;
  }
  const plan = structuredClone(previous);
  const flip = boxesByLine(plan);
  for (const i of changed) {
    const box = flip.get(i + 1)!;
    box.checked = true;
    // A declared deviation is an open item with its reason: checked, it is none.
    if ('deviation' in box) delete box.deviation;
  }
  // What the reader computes from the boxes: a heading task is checked when all its steps are, and the normalized
  // model carries every task's state.
  for (const phase of plan.phases)
    for (const task of phase.tasks) if (task.source === 'heading') task.checked = stepsDone(task);
  const normalized = plan.normalized as { phases?: { tasks: { checked: boolean }[] }[] } | undefined;
  normalized?.phases?.forEach((p, i) => p.tasks.forEach((t, j) => (t.checked = plan.phases[i]!.tasks[j]!.checked)));
  return plan;
}

/**
 * The model of `text`, derived from `previous` (the model of `previousText`), or null when `text` must be parsed: the
 * previous text with boxes checked (deriveChecked), then possibly prose appended that the reader does nothing with.
 */
export function deriveVersion(previous: WorkflowFile, previousText: string, text: string): Plan | null {
  if (previous.kind !== 'plan' || !previous.readable || text.length < previousText.length) return null;
  const prefix = text.slice(0, previousText.length);
  if (prefix.length < text.length && !proseOnly(prefix, text.slice(prefix.length))) return null;
  return deriveChecked(previous, previousText, prefix);
}

/** Whether `added`, appended to `before`, is paragraphs the plan reader does nothing with, parsing as they would alone. */
function proseOnly(before: string, added: string): boolean {
  if (added.includes('\r')) return false;
  // Cheapest first: the appended text alone, then a scan of the whole previous text, then a parse.
  if (planMayMatter({ text: added, offset: 0, line: 0, kind: 'preamble', unseen: false })) return false;
  const lead = /^(?:[ \t]*\n)*/.exec(added)![0];
  if (!closedAtEnd(before + lead)) return false;
  const blocks = parseWhole(added).children;
  // The first starts at column 0: indented, it could continue a list item of the previous text.
  return blocks.length > 0 && blocks.every((b) => b.type === 'paragraph') && blocks[0]!.position?.start.column === 1;
}
