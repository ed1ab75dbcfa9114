// Plan text -> Plan model. Reads three dialects into one shape:
//  - HumanLayer create_plan: `## Phase N:` with `#### Automated/Manual Verification:` per phase;
//  - Continuous-Claude plan-agent: `### Task N:` headings whose checkboxes are steps, criteria once per plan;
//  - canonical micro-spec: `- [ ] Task N:` items under `## Phase N:`.
import type { Heading, List, ListItem, RootContent } from 'mdast';
import type { CheckItem, CriterionKind, Phase, Plan, PositionMap, ReadProblem, Task } from '../model/types.js';
import { isHeading, itemText, lineOf, parseMarkdown, textOf } from './markdown.js';
import { markdownDisables } from './disables.js';
import { readFrontmatter } from './frontmatter.js';

const PHASE_HEADING = /^phase\s+(\d+)\b\s*[:.\-–—]?\s*(.*)$/i;
const TASK_TEXT = /^task\s+(\d+)\b\s*[:.)\-–—]?\s*(.*)$/i;
const CRITERIA_HEADING = /^(automated|manual)\s+verification\b/i;

export function isNotApplicable(text: string): boolean {
  return text.slice(0, 3).toUpperCase() === 'N/A';
}

interface Scope {
  phase: { value: Phase; depth: number } | null;
  criteria: { kind: CriterionKind; depth: number } | null;
  headingTask: { value: Task; depth: number } | null;
}

/** Items seen outside any phase: before the first phase, or after a non-phase heading closed the last one. */
interface Loose {
  tasks: Task[];
  automated: CheckItem[];
  manual: CheckItem[];
  other: CheckItem[];
}

function newPhase(number: number | null, title: string, line: number, column: number): Phase {
  return { number, title, line, column, tasks: [], automated: [], manual: [], other: [] };
}

export function readPlanText(path: string, text: string): Plan {
  const root = parseMarkdown(text);
  const fm = readFrontmatter(root);
  const problems: ReadProblem[] = [...fm.problems];
  const phases: Phase[] = [];
  const preamble: Loose = { tasks: [], automated: [], manual: [], other: [] };
  let closedPhase: Phase | null = null;
  let title: string | null = null;
  const scope: Scope = { phase: null, criteria: null, headingTask: null };

  const target = (): Loose => scope.phase?.value ?? closedPhase ?? preamble;

  const onHeading = (h: Heading): void => {
    const text = textOf(h);
    const { line, column } = lineOf(h);
    if (h.depth === 1 && title === null) title = text;
    const phaseMatch = h.depth >= 2 && h.depth <= 3 ? PHASE_HEADING.exec(text) : null;
    if (phaseMatch) {
      const phase = newPhase(Number(phaseMatch[1]), phaseMatch[2]!.trim(), line, column);
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
      const task: Task = { number: Number(taskMatch[1]), title: taskMatch[2]!.trim(), checked: false, source: 'heading', steps: [], line, column };
      target().tasks.push(task);
      scope.headingTask = { value: task, depth: h.depth };
      scope.criteria = null;
      return;
    }
    const criteriaMatch = h.depth >= 3 && h.depth <= 5 ? CRITERIA_HEADING.exec(text) : null;
    if (criteriaMatch) {
      scope.criteria = { kind: criteriaMatch[1]!.toLowerCase() as CriterionKind, depth: h.depth };
      scope.headingTask = null;
    }
  };

  const onItem = (item: ListItem): void => {
    if (item.checked !== null && item.checked !== undefined) {
      const text = itemText(item);
      const { line, column } = lineOf(item);
      const check: CheckItem = { text, checked: item.checked, na: isNotApplicable(text), line, column };
      const taskMatch = scope.criteria ? null : TASK_TEXT.exec(text);
      if (scope.criteria) target()[scope.criteria.kind].push(check);
      else if (taskMatch) {
        target().tasks.push({ number: Number(taskMatch[1]), title: taskMatch[2]!.trim(), checked: item.checked, source: 'item', steps: [], line, column });
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
      else if (node.type === 'blockquote') walk(node.children);
    }
  };
  walk(root.children);

  if (phases.length === 0) phases.push(newPhase(null, '', 1, 1));
  const first = phases[0]!;
  const last = phases[phases.length - 1]!;
  // Plan-level tasks before any phase belong to the first phase; plan-level criteria apply to the last one.
  first.tasks.unshift(...preamble.tasks);
  first.other.unshift(...preamble.other);
  last.automated.push(...preamble.automated);
  last.manual.push(...preamble.manual);
  for (const phase of phases) {
    for (const task of phase.tasks) {
      if (task.source === 'heading') task.checked = task.steps.length > 0 && task.steps.every((s) => s.checked || s.na);
    }
  }

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
      title: p.title,
      tasks: p.tasks.map((t) => ({ number: t.number, title: t.title, checked: t.checked })),
      automated: p.automated.length,
      manual: p.manual.length,
    })),
  };

  return {
    kind: 'plan',
    path,
    readable: true,
    problems,
    disables: markdownDisables(root),
    positions,
    frontmatter: fm.data,
    title,
    phases,
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

