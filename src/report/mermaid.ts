// The timeline picture of `--format markdown`: a Mermaid flowchart per plan, which GitHub renders in pull-request
// comments and job summaries. A flowchart rather than a gitGraph or a timeline diagram: tasks are not commits (one
// commit may complete three tasks, a task may have none yet), a timeline diagram has no classes to mark a violation,
// and only the flowchart has both subgraphs (one per phase) and classDef styling in every Mermaid GitHub has shipped.
// Phases are stacked top to bottom, tasks in plan order inside each, then the phase's manual items: each box names
// the commit that completed it, its handoff and what a rule said about it. Top-down rather than a board of columns:
// a comment column on GitHub is about 900 px, and three phases side by side were 1,356 px wide (issue 24).
import type { Finding } from '../model/finding.js';
import type { TimelineEntry } from '../model/history.js';
import type { CheckItem, Handoff, Phase, Plan, Task } from '../model/types.js';
import { plural } from '../shared/text.js';
import { manualDue } from '../model/queries.js';

export const shortSha = (sha: string) => sha.slice(0, 7);

export const STATUS_MARK: Record<NonNullable<Handoff['status']> | 'none', string> = {
  complete: '✅',
  partial: '🟡',
  blocked: '⛔',
  failed: '❌',
  none: '❔',
};

/** What the report knows about one plan, gathered once by the markdown formatter. */
export interface PlanFacts {
  plan: Plan;
  /** Task handoffs linked to the plan, by the task number they report on. */
  handoffs: Map<number, Handoff[]>;
  /** The completion that stands for each task number (the last one in history). */
  completions: Map<number, TimelineEntry>;
  /** The last check-off of a manual item, by the phase's number and the item's text. */
  checkoff(phase: number, text: string): TimelineEntry | undefined;
  /** All findings of the report; those about this plan, its handoffs or its commits are placed in the picture. */
  findings: readonly Finding[];
}

/** Above this many tasks one picture gets too wide to read in a comment: each phase gets its own, folded. */
export const LARGE_PLAN_TASKS = 12;
/** Labels longer than this (in characters as a reader counts them) are cut with an ellipsis. */
const LABEL_CHARS = 48;
/** A phase's title does not wrap: longer than this, it overflows a column of 320-pixel boxes. */
const PHASE_CHARS = 44;

// --- Escaping ---------------------------------------------------------------------------------------------------

/**
 * Made on first use: constructing a Segmenter loads ICU's break rules, 40 to 160 ms, and this module is loaded by
 * every run that reports (the check command, the hooks), whereas only the markdown review draws a diagram.
 */
let graphemes: Intl.Segmenter | undefined;

/**
 * Plain text as the inside of a quoted Mermaid label. Mermaid decodes `#NN;` entity codes in labels, so every
 * character that could end the quote (`"`), start an entity or directive (`#`, `%%{init}%%` is honoured anywhere in
 * the text), open HTML (`<`, `>`, `&`) or a Markdown string (a backtick) is written as its numeric code; the text
 * of a Markdown fence cannot contain three backticks after this either. Line breaks become spaces, control
 * characters go. Long text is cut between graphemes, so an emoji (even a joined one) is never split.
 */
export function mermaidText(text: string, max = LABEL_CHARS): string {
  const flat = text.replace(/\r\n|\r|\n|\t/g, ' ').replace(/\p{Cc}/gu, '');
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  const chars = Array.from(graphemes.segment(flat), (g) => g.segment);
  const cut = chars.length > max ? [...chars.slice(0, max - 1), '…'] : chars;
  return cut.join('').replace(/["#%<>&`]/g, (c) => `#${c.codePointAt(0)};`);
}

/** Text inside raw HTML (the `<summary>` of a folded phase). */
function htmlText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.codePointAt(0)};`).replace(/\r\n|\r|\n/g, ' ');
}

// --- Findings placed on the picture ------------------------------------------------------------------------------

/** Rule ids (errors and warnings; notes are not violations) placed on each box of one plan's picture. */
interface Placed {
  tasks: Map<Task, Set<string>>;
  manual: Map<CheckItem, Set<string>>;
  phases: Map<Phase, Set<string>>;
  plan: Set<string>;
}

type Box = { kind: 'task'; task: Task } | { kind: 'manual'; item: CheckItem } | { kind: 'phase'; phase: Phase };

function mark<K>(map: Map<K, Set<string>>, key: K, ruleId: string): void {
  map.set(key, (map.get(key) ?? new Set()).add(ruleId));
}

function markBox(out: Placed, box: Box, ruleId: string): void {
  if (box.kind === 'task') mark(out.tasks, box.task, ruleId);
  else if (box.kind === 'manual') mark(out.manual, box.item, ruleId);
  else mark(out.phases, box.phase, ruleId);
}

const sameBox = (a: Box, b: Box) =>
  (a.kind === 'task' && b.kind === 'task' && a.task === b.task) ||
  (a.kind === 'manual' && b.kind === 'manual' && a.item === b.item);

/** The task at a line (its own or one of its steps'), else the manual item, else the phase the line is in. */
function boxAt(plan: Plan, line: number | null): Box | null {
  if (line === null) return null;
  for (const phase of plan.phases) {
    const task = phase.tasks.find((t) => t.line === line || t.steps.some((s) => s.line === line));
    if (task) return { kind: 'task', task };
    const item = phase.manual.find((m) => m.line === line);
    if (item) return { kind: 'manual', item };
  }
  // Phases are in file order: the last one that starts at or before the line holds it.
  const phase = [...plan.phases].reverse().find((p) => p.line <= line);
  return phase ? { kind: 'phase', phase } : null;
}

/** The tasks a commit completed and the manual items it checked, as history tells (the completion that stands). */
function boxesOf(facts: PlanFacts, commit: string): Box[] {
  return facts.plan.phases.flatMap((phase, i) => [
    ...phase.tasks
      .filter((task) => facts.completions.get(task.number)?.commit === commit)
      .map((task): Box => ({ kind: 'task', task })),
    ...phase.manual
      .filter((item) => facts.checkoff(phase.number ?? i + 1, item.text)?.commit === commit)
      .map((item): Box => ({ kind: 'manual', item })),
  ]);
}

function place(facts: PlanFacts): Placed {
  const { plan } = facts;
  const out: Placed = { tasks: new Map(), manual: new Map(), phases: new Map(), plan: new Set() };
  const taskByNumber = new Map(plan.phases.flatMap((p) => p.tasks.map((t) => [t.number, t] as const)));
  const taskOfHandoff = new Map<string, Task>();
  for (const [n, list] of facts.handoffs) {
    const task = taskByNumber.get(n);
    if (task) for (const h of list) taskOfHandoff.set(h.path, task);
  }
  for (const f of facts.findings) {
    if (f.severity === 'info' || f.file === null) continue;
    const task = taskOfHandoff.get(f.file);
    if (task) {
      mark(out.tasks, task, f.ruleId);
      continue;
    }
    if (f.file !== plan.path) continue;
    const atLine = boxAt(plan, f.line);
    // A history finding's line is in the version it judged and may have moved since: the boxes its commit changed
    // say which it is about, and its line picks one of them when it still points at one.
    const touched = f.commit ? boxesOf(facts, f.commit) : [];
    const chosen =
      atLine && touched.some((b) => sameBox(b, atLine)) ? [atLine] : touched.length ? touched : atLine ? [atLine] : [];
    if (chosen.length === 0) out.plan.add(f.ruleId);
    for (const box of chosen) markBox(out, box, f.ruleId);
  }
  return out;
}

// --- Boxes --------------------------------------------------------------------------------------------------------

const CLASSES = [
  // Dark text on every fill: GitHub's dark theme would otherwise draw light text on these light fills.
  { name: 'done', style: 'fill:#dafbe1,stroke:#1a7f37,color:#1f2328' },
  { name: 'open', style: 'fill:#f6f8fa,stroke:#8c959f,color:#1f2328' },
  { name: 'progress', style: 'fill:#fff8c5,stroke:#9a6700,color:#1f2328' },
  { name: 'blocked', style: 'fill:#ffd8b5,stroke:#bc4c00,stroke-width:2px,color:#1f2328' },
  { name: 'human', style: 'fill:#ddf4ff,stroke:#0969da,color:#1f2328' },
  { name: 'violation', style: 'fill:#ffebe9,stroke:#cf222e,stroke-width:3px,color:#1f2328' },
];

const ruleLines = (ids: Set<string> | undefined) => [...(ids ?? [])].sort().map((id) => `❌ ${mermaidText(id)}`);

const label = (lines: string[]) => `["${lines.join('<br>')}"]`;

function taskBox(
  id: string,
  task: Task,
  facts: PlanFacts,
  rules: Set<string> | undefined,
): { line: string; cls: string } {
  const handoffs = facts.handoffs.get(task.number) ?? [];
  const done = task.checked;
  const stepsDone = task.steps.filter((s) => s.checked).length;
  const mark = done ? '✅' : stepsDone ? '🔄' : '⬜';
  const lines = [`${mark} ${mermaidText(`Task ${task.label}${task.title ? `: ${task.title}` : ''}`)}`];
  const completion = facts.completions.get(task.number);
  if (done && completion) lines.push(`${shortSha(completion.commit)} · ${mermaidText(completion.author.name, 24)}`);
  else if (done) lines.push('no judged commit');
  else if (stepsDone) lines.push(`${stepsDone}/${task.steps.length} steps`);
  // The file name matters only when a task has several handoffs (a retry, or a finding of its own); the table has it.
  for (const h of handoffs) {
    const name = handoffs.length > 1 ? ` · ${mermaidText(h.path.slice(h.path.lastIndexOf('/') + 1), 32)}` : '';
    lines.push(`📄 handoff ${STATUS_MARK[h.status ?? 'none']} ${mermaidText(h.status ?? 'no status')}${name}`);
  }
  lines.push(...ruleLines(rules));
  const stuck = handoffs.some((h) => h.status === 'blocked' || h.status === 'failed');
  const cls = rules?.size
    ? 'violation'
    : stuck
      ? 'blocked'
      : done
        ? 'done'
        : stepsDone || handoffs.length
          ? 'progress'
          : 'open';
  return { line: `${id}${label(lines)}:::${cls}`, cls };
}

function manualBox(
  id: string,
  item: CheckItem,
  entry: TimelineEntry | undefined,
  rules: Set<string> | undefined,
  due: boolean,
): string {
  const text = mermaidText(item.text);
  const lines: string[] = [];
  let cls: string;
  if (!item.checked) {
    // Due for a human by the test `status` uses (manualDue); before that the agent has work left.
    lines.push(`👤 ⏳ ${text}`, due ? 'waiting for a human' : 'after the automated checks');
    cls = 'open';
  } else if (!entry) {
    lines.push(`👤 ☑️ ${text}`, 'checked, no judged commit');
    cls = 'progress';
  } else if (entry.confirmedBy) {
    lines.push(
      `👤 ✅ ${text}`,
      `confirmed by ${mermaidText(entry.confirmedBy.name, 24)} · ${shortSha(entry.commit)}${entry.before ? ', before this PR' : ''}`,
    );
    cls = 'human';
  } else {
    lines.push(
      `👤 ❌ ${text}`,
      `checked by ${mermaidText(entry.author.name, 24)} · ${shortSha(entry.commit)}, no confirmation`,
    );
    cls = 'violation';
  }
  lines.push(...ruleLines(rules));
  if (rules?.size) cls = 'violation';
  return `${id}${label(lines)}:::${cls}`;
}

function phaseTitle(phase: Phase): string {
  if (phase.label === null && phase.number === null) return phase.title || 'Plan';
  return `Phase ${phase.label ?? phase.number}${phase.title ? `: ${phase.title}` : ''}`;
}

/** The lines of one phase's subgraph (indented), and whether anything in it is marked as a violation. */
function phaseGraph(
  phase: Phase,
  index: number,
  facts: PlanFacts,
  placed: Placed,
): { lines: string[]; violations: number } {
  const pid = `p${index + 1}`;
  const rules = placed.phases.get(phase);
  const title = [mermaidText(phaseTitle(phase), PHASE_CHARS), ...ruleLines(rules)].join(' · ');
  const lines = [`  subgraph ${pid}["${title}"]`, '    direction TB'];
  const chain: string[] = [];
  let violations = rules?.size ? 1 : 0;
  phase.tasks.forEach((task, k) => {
    const box = taskBox(`${pid}t${k + 1}`, task, facts, placed.tasks.get(task));
    if (box.cls === 'violation') violations++;
    lines.push(`    ${box.line}`);
    chain.push(`${pid}t${k + 1}`);
  });
  // N/A items are neither verified nor pending: like the report's lists, the picture leaves them out.
  const manual = phase.manual
    .filter((item) => !item.na)
    .map((item, k) => {
      const box = manualBox(
        `${pid}m${k + 1}`,
        item,
        facts.checkoff(phase.number ?? index + 1, item.text),
        placed.manual.get(item),
        manualDue(phase),
      );
      if (box.endsWith(':::violation')) violations++;
      lines.push(`    ${box}`);
      return `${pid}m${k + 1}`;
    });
  // An empty subgraph renders as a bare title with no frame: a box says why it is empty.
  if (chain.length === 0 && manual.length === 0) lines.push(`    ${pid}e["no tasks"]:::open`);
  for (let k = 1; k < chain.length; k++) lines.push(`    ${chain[k - 1]} --> ${chain[k]}`);
  // Manual items follow the phase's work with a dotted edge: a human's check, not the next task.
  const all = [...chain, ...manual];
  for (let k = chain.length; k < all.length; k++) if (k > 0) lines.push(`    ${all[k - 1]} -.-> ${all[k]}`);
  lines.push('  end');
  if (rules?.size) lines.push(`  class ${pid} violation`);
  return { lines, violations };
}

/**
 * Wider labels and tighter ranks than Mermaid's defaults (200 px, 50 px): a task's box then takes two or three lines
 * instead of five, and a phase of seven tasks fits a screen. An init directive rather than front matter: GitHub has
 * honoured it in every Mermaid it shipped.
 */
export const INIT = '%%{init: {"flowchart": {"wrappingWidth": 320, "rankSpacing": 28, "nodeSpacing": 28}}}%%';

/** The block, with the definitions of only the classes its boxes use. */
function fence(body: string[]): string[] {
  const used = CLASSES.filter((c) => body.some((line) => line.endsWith(`:::${c.name}`) || line.endsWith(` ${c.name}`)));
  return ['```mermaid', INIT, ...body, ...used.map((c) => `  classDef ${c.name} ${c.style}`), '```'];
}

/**
 * The picture of one plan as Markdown lines: one Mermaid block, or for a plan of more than LARGE_PLAN_TASKS tasks
 * one block per phase, each folded in a `<details>` (opened when something in it is marked as a violation).
 */
export function planTimeline(facts: PlanFacts): string[] {
  const { plan } = facts;
  if (plan.phases.length === 0) return [];
  const placed = place(facts);
  const graphs = plan.phases.map((phase, i) => phaseGraph(phase, i, facts, placed));
  const head = placed.plan.size ? [`  plan["${['📋 Plan', ...ruleLines(placed.plan)].join('<br>')}"]:::violation`] : [];
  const taskCount = plan.phases.reduce((n, p) => n + p.tasks.length, 0);
  if (taskCount <= LARGE_PLAN_TASKS) {
    const links = plan.phases.slice(1).map((_, i) => `  p${i + 1} --> p${i + 2}`);
    if (head.length) links.unshift('  plan --> p1');
    return fence(['flowchart TB', ...head, ...graphs.flatMap((g) => g.lines), ...links]);
  }
  const out: string[] = [];
  if (head.length) out.push(...fence(['flowchart TB', ...head]), '');
  plan.phases.forEach((phase, i) => {
    const g = graphs[i]!;
    const done = phase.tasks.filter((t) => t.checked).length;
    const facts = [
      phase.tasks.length ? `${done} of ${plural(phase.tasks.length, 'task')} done` : 'no tasks',
      g.violations ? `❌ ${plural(g.violations, 'violation')}` : '',
    ];
    const summary = `${htmlText(phaseTitle(phase))} · ${facts.filter(Boolean).join(' · ')}`;
    // GitHub parses the Markdown inside <details> only after a blank line.
    out.push(
      `<details${g.violations ? ' open' : ''}><summary>${summary}</summary>`,
      '',
      ...fence(['flowchart TB', ...g.lines]),
      '',
      '</details>',
      '',
    );
  });
  return out;
}
