// Plan text -> Plan model. Reads three dialects into one shape:
//  - HumanLayer create_plan: `## Phase N:` with `#### Automated/Manual Verification:` per phase;
//  - Continuous-Claude plan-agent: `### Task N:` headings whose checkboxes are steps, criteria once per plan;
//  - canonical micro-spec: `- [ ] Task N:` items under `## Phase N:`.
// Labels are read as written (`Phase 2A`, `Phase 3.1`, `Task 3.2`, `Phase R.1`); criteria come under headings
// (`Automated Verification`, `Automated:`, `Automated Testing`), under bold labels (`**Automated verification:**`),
// or undivided under `### Success Criteria` (criteria of unknown kind).
import type { Code, Heading, List, ListItem, Paragraph, Root, RootContent } from 'mdast';
import type { CheckItem, Phase, Plan, PositionMap, Position, ReadProblem, Task } from '../model/types.js';
import { isHeading, itemText, lineOf, parseMarkdown, textOf } from './markdown.js';
import { markdownDisables } from './disables.js';
import { readFrontmatter } from './frontmatter.js';

/**
 * A label as written: digits with an optional letter (`2A`), sub-numbers after `.` or `-` (`3.1`, `3-28`, `0.5`),
 * or a letter followed by sub-numbers (`R.1`).
 */
const LABEL = String.raw`(\d+[A-Za-z]?(?:[.\-]\d+[A-Za-z]?)*|[A-Za-z](?:[.\-]\d+[A-Za-z]?)+)`;
const PHASE_HEADING = new RegExp(String.raw`^phase\s+${LABEL}(?![\w])\s*[:.)\-–—]?\s*(.*)$`, 'is');
const TASK_TEXT = new RegExp(String.raw`^task\s+${LABEL}(?![\w])\s*[:.)\-–—]?\s*(.*)$`, 'is');

export type CriteriaKind = 'automated' | 'manual' | 'unknown';

/**
 * What a criteria heading or bold label says about its items: `Automated Verification`, `Automated:`,
 * `Automated Testing`, `Manual Testing`, `Success Criteria (automated)`; `Success Criteria` alone is undivided.
 * Only a short label counts: a sentence that mentions "manual" is not a criteria heading.
 */
export function criteriaKindOf(label: string): CriteriaKind | null {
  const text = label.replace(/[:.]\s*$/, '').replace(/\s+/g, ' ').trim().toLowerCase();
  const what = String.raw`(?: (?:verification|testing|tests?|checks?|criteria|validation|qa))?(?: ?\(.*\))?`;
  if (/^(?:automated|automatic) verification\b/.test(text) || new RegExp(`^(?:automated|automatic)${what}$`).test(text)) return 'automated';
  if (/^manual verification\b/.test(text) || new RegExp(`^manual${what}$`).test(text)) return 'manual';
  const criteria = /^(?:success|acceptance|completion|verification) criteria(?: ?\((automated|automatic|manual)\))?$/.exec(text);
  if (criteria) return criteria[1] === undefined ? 'unknown' : criteria[1] === 'manual' ? 'manual' : 'automated';
  return null;
}

export function isNotApplicable(text: string): boolean {
  return text.slice(0, 3).toUpperCase() === 'N/A';
}

/** The top-level number of a label: 3 for `3.1`, 2 for `2A`, null for `R.1`. */
export function topNumber(label: string): number | null {
  const digits = /^\d+/.exec(label);
  return digits ? Number(digits[0]) : null;
}

interface Scope {
  phase: { value: Phase; depth: number } | null;
  /** depth 7: opened by a bold label, closed by any heading or another bold label. */
  criteria: { kind: CriteriaKind; depth: number } | null;
  headingTask: { value: Task; depth: number } | null;
}

/** Items seen outside any phase: before the first phase, or after a non-phase heading closed the last one. */
interface Loose {
  tasks: Task[];
  automated: CheckItem[];
  manual: CheckItem[];
  unknown: CheckItem[];
  other: CheckItem[];
}

function newPhase(number: number | null, label: string | null, title: string, line: number, column: number): Phase {
  return { number, label, title, line, column, tasks: [], automated: [], manual: [], unknown: [], other: [] };
}

/** A bold label that opens a paragraph (`**Automated verification:**`), with its text. */
function boldLabel(p: Paragraph): string | null {
  const first = p.children[0];
  if (first?.type !== 'strong') return null;
  const label = textOf(first);
  // The label is the whole paragraph, or the paragraph's first line: `**Manual:** (a human runs these)`.
  const rest = textOf(p).slice(label.length).trim();
  return rest === '' || rest.startsWith(':') || /^\(.*\)$/.test(rest) ? `${label} ${rest}`.trim() : label.endsWith(':') ? label : null;
}

/**
 * A fence whose content holds an unclosed inner opening fence was closed early by the inner fence's closing line
 * (CommonMark: ```` ```markdown ```` holding ```` ```rust ````). The parser's result shows it: the outer code node's
 * value, parsed on its own, ends inside an unclosed code node; and the intended closing line of the outer fence
 * opened a new, info-less code node further down. Returns the two lines (0-based) of the outer fence's opening and
 * intended closing, or null when the tree has no such fence.
 */
function earlyClosedFence(root: Root, lines: string[]): [number, number] | null {
  const nodes = root.children;
  for (let i = 0; i < nodes.length; i++) {
    const outer = nodes[i]!;
    if (outer.type !== 'code' || !outer.position) continue;
    if (!hasUnclosedFence(outer.value)) continue;
    const opener = lines[outer.position.start.line - 1] ?? '';
    const fence = /^\s*(`{3,}|~{3,})/.exec(opener)?.[1];
    if (!fence) continue;
    // The intended closing line: the next code node without an info string, opened by a bare fence of the same kind.
    const closer = nodes.slice(i + 1).find((n): n is Code => n.type === 'code' && !n.lang && (lines[(n.position?.start.line ?? 0) - 1] ?? '').trim().startsWith(fence));
    if (!closer?.position) continue;
    return [outer.position.start.line - 1, closer.position.start.line - 1];
  }
  return null;
}

/** Whether Markdown text ends inside a fenced code block that no closing fence ends. */
function hasUnclosedFence(value: string): boolean {
  if (!value.includes('```') && !value.includes('~~~')) return false;
  const inner = parseMarkdown(value);
  const last = inner.children[inner.children.length - 1];
  if (last?.type !== 'code' || !last.position) return false;
  const lines = value.split('\n');
  const open = /^\s*(`{3,}|~{3,})/.exec(lines[last.position.start.line - 1] ?? '')?.[1];
  if (!open) return false; // an indented code block
  // A closed fence ends on its closing line; an unclosed one ends on the last line of the text.
  const endLine = (lines[last.position.end.line - 1] ?? '').trim();
  return !(last.position.end.line > last.position.start.line && endLine.startsWith(open[0]!) && /^(`+|~+)$/.test(endLine));
}

/**
 * Parse, lengthening the fences of an outer block that an inner fence closed early, until the tree has none (a
 * bounded number of rounds: each round fixes one block). The text keeps its lines, so positions stay the file's.
 */
function parsePlanMarkdown(text: string): Root {
  let root = parseMarkdown(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let lines = text.split(/\r?\n/);
  for (let round = 0; round < 20; round++) {
    const hit = earlyClosedFence(root, lines);
    if (!hit) break;
    const longest = Math.max(...lines.map((l) => /^\s*(`+|~+)/.exec(l)?.[1]!.length ?? 0));
    lines = lines.map((l, i) => (i === hit[0] || i === hit[1] ? l.replace(/^(\s*)(`+|~+)/, (_m, sp: string, f: string) => sp + f[0]!.repeat(longest + 1)) : l));
    root = parseMarkdown(lines.join(eol));
  }
  return root;
}

export function readPlanText(path: string, text: string): Plan {
  const root = parsePlanMarkdown(text);
  const fm = readFrontmatter(root);
  const problems: ReadProblem[] = [...fm.problems];
  const phases: Phase[] = [];
  const preamble: Loose = { tasks: [], automated: [], manual: [], unknown: [], other: [] };
  let closedPhase: Phase | null = null;
  let title: string | null = null;
  let firstHeading: Position | null = null;
  let undivided: Position | null = null;
  let boxes = 0;
  const scope: Scope = { phase: null, criteria: null, headingTask: null };

  const target = (): Loose => scope.phase?.value ?? closedPhase ?? preamble;

  const onHeading = (h: Heading): void => {
    const text = textOf(h);
    const { line, column } = lineOf(h);
    firstHeading ??= { line, column };
    if (h.depth === 1 && title === null) title = text;
    const phaseMatch = h.depth >= 2 && h.depth <= 3 ? PHASE_HEADING.exec(text) : null;
    if (phaseMatch) {
      const label = phaseMatch[1]!;
      const phase = newPhase(topNumber(label), label, phaseMatch[2]!.trim(), line, column);
      phases.push(phase);
      scope.phase = { value: phase, depth: h.depth };
      scope.criteria = null;
      scope.headingTask = null;
      return;
    }
    if (scope.criteria && h.depth <= scope.criteria.depth) scope.criteria = null;
    if (scope.headingTask && h.depth <= scope.headingTask.depth) scope.headingTask = null;
    if (scope.phase && h.depth <= scope.phase.depth) {
      closedPhase = scope.phase.value;
      scope.phase = null;
    }
    const taskMatch = h.depth >= 2 && h.depth <= 4 ? TASK_TEXT.exec(text) : null;
    if (taskMatch) {
      const label = taskMatch[1]!;
      const number = topNumber(label);
      if (number !== null) {
        const task: Task = { number, label, title: taskMatch[2]!.trim(), checked: false, source: 'heading', steps: [], line, column };
        target().tasks.push(task);
        scope.headingTask = { value: task, depth: h.depth };
        scope.criteria = null;
        return;
      }
    }
    const found = h.depth >= 2 && h.depth <= 5 ? criteriaKindOf(text) : null;
    // `Automated`/`Manual` headings count at levels 3 to 5; an undivided `## Success Criteria` also at level 2.
    const kind = found === 'unknown' || h.depth >= 3 ? found : null;
    if (kind) {
      scope.criteria = { kind, depth: h.depth };
      scope.headingTask = null;
      if (kind === 'unknown') undivided ??= { line, column };
    }
  };

  const onParagraph = (p: Paragraph): void => {
    const label = boldLabel(p);
    if (label === null) return;
    const kind = criteriaKindOf(label);
    if (kind) {
      // Under an undivided `### Success Criteria`, a bold label divides it from here on, until that heading's scope ends.
      scope.criteria = { kind, depth: scope.criteria && scope.criteria.depth < 7 ? scope.criteria.depth : 7 };
      scope.headingTask = null;
      if (kind === 'unknown') undivided ??= lineOf(p);
    } else if (scope.criteria?.depth === 7) scope.criteria = null;
  };

  const onItem = (item: ListItem): void => {
    if (item.checked !== null && item.checked !== undefined) {
      boxes++;
      const text = itemText(item);
      const { line, column } = lineOf(item);
      const check: CheckItem = { text, checked: item.checked, na: isNotApplicable(text), line, column };
      const taskMatch = scope.criteria ? null : TASK_TEXT.exec(text);
      const number = taskMatch ? topNumber(taskMatch[1]!) : null;
      if (scope.criteria) target()[scope.criteria.kind].push(check);
      else if (taskMatch && number !== null) {
        target().tasks.push({ number, label: taskMatch[1]!, title: taskMatch[2]!.trim(), checked: item.checked, source: 'item', steps: [], line, column });
      } else if (scope.headingTask) scope.headingTask.value.steps.push(check);
      else target().other.push(check);
    }
    for (const child of item.children) if (child.type === 'list') onList(child);
  };

  const onList = (list: List): void => {
    for (const item of list.children) onItem(item);
  };

  const walk = (nodes: RootContent[]): void => {
    for (const node of nodes) {
      if (isHeading(node)) onHeading(node);
      else if (node.type === 'list') onList(node);
      else if (node.type === 'paragraph') onParagraph(node);
      else if (node.type === 'blockquote') walk(node.children);
    }
  };
  walk(root.children);

  const structured = phases.length > 0 || boxes > 0 || preamble.tasks.length > 0;
  if (phases.length === 0) phases.push(newPhase(null, null, '', 1, 1));
  const first = phases[0]!;
  const last = phases[phases.length - 1]!;
  // Plan-level tasks before any phase belong to the first phase; plan-level criteria apply to the last one.
  first.tasks.unshift(...preamble.tasks);
  first.other.unshift(...preamble.other);
  last.automated.push(...preamble.automated);
  last.manual.push(...preamble.manual);
  last.unknown.push(...preamble.unknown);
  for (const phase of phases) {
    for (const task of phase.tasks) {
      if (task.source === 'heading') task.checked = task.steps.length > 0 && task.steps.every((s) => s.checked || s.na);
    }
  }
  // A list under `### Success Criteria` that sub-headings or bold labels divided entirely is not undivided.
  const undividedCriteria = phases.some((p) => p.unknown.length > 0) ? undivided : null;

  const positions: PositionMap = { ...fm.positions };
  phases.forEach((phase, i) => {
    positions[`/phases/${i}`] = { line: phase.line, column: phase.column };
    phase.tasks.forEach((task, j) => (positions[`/phases/${i}/tasks/${j}`] = { line: task.line, column: task.column }));
  });
  const data = fm.data ?? {};
  const normalized: Record<string, unknown> = {
    title,
    ...pick(data, ['mode', 'mode_set_by', 'context_critical']),
    phases: phases.map((p) => ({
      number: p.number,
      label: p.label,
      title: p.title,
      tasks: p.tasks.map((t) => ({ number: t.number, label: t.label, title: t.title, checked: t.checked })),
      automated: p.automated.length,
      manual: p.manual.length,
      unknown: p.unknown.length,
    })),
  };

  return {
    kind: 'plan',
    path,
    readable: true,
    problems,
    disables: markdownDisables(root),
    positions,
    anchor: firstHeading ?? { line: fm.data ? fm.line : 1, column: 1 },
    frontmatter: fm.data,
    title,
    phases,
    notAPlan: !structured && problems.length === 0 && data.type !== 'plan' && !['mode', 'mode_set_by', 'context_critical'].some((k) => k in data),
    undividedCriteria,
    normalized,
  };
}

function pick(data: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in data) out[key] = data[key];
  return out;
}

export function allTasks(plan: Plan): Task[] {
  return plan.phases.flatMap((p) => p.tasks);
}
