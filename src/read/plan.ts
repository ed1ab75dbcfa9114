// Plan text -> Plan model. Reads three dialects into one shape:
//  - HumanLayer create_plan: `## Phase N:` with `#### Automated/Manual Verification:` per phase;
//  - Continuous-Claude plan-agent: `### Task N:` headings whose checkboxes are steps, criteria once per plan;
//  - canonical micro-spec: `- [ ] Task N:` items under `## Phase N:`.
// Labels are read as written (`Phase 2A`, `Phase 3.1`, `Task 3.2`, `Phase R.1`); criteria come under headings
// (`Automated Verification`, `Automated:`, `Automated Testing`), under bold labels (`**Automated verification:**`),
// or undivided under `### Success Criteria` (criteria of unknown kind).
import type { Code, Heading, List, ListItem, Paragraph, Root, RootContent } from 'mdast';
import type { CheckItem, Phase, Plan, PlanDialect, PositionMap, Position, ReadProblem, Task } from '../model/types.js';
import {
  isHeading,
  itemParagraph,
  itemText,
  lineOf,
  parseMarkdown,
  restOfLine,
  startsLine,
  textOf,
} from './markdown.js';
import { markdownDisables } from './disables.js';
import { readFrontmatter } from './frontmatter.js';
import { holdsNothing } from '../model/queries.js';
import { CRITERIA_LABEL_STARTS, criteriaKindOf, type CriteriaKind } from './criteria.js';
import { parseSkimmed, skimOf } from './skim.js';
import type { Section } from './sections.js';
import { LABEL, isPhaseHeadingText, phaseHeadingOf, planDialectOf } from './dialects/index.js';

const TASK_TEXT = new RegExp(String.raw`^task\s+${LABEL}(?![\w])\s*[:.)\-–—]?\s*(.*)$`, 'is');

/**
 * An item that says its own kind (`Automated: ...`, `Manual: ...`, `[manual] ...`, `(manual) ...`) takes it under
 * any criteria heading: the author said which it is, item by item.
 */
export function itemKindPrefix(text: string): { kind: 'automated' | 'manual'; rest: string } | null {
  const m =
    /^(?:\[(automated|automatic|manual|human)\]|\((automated|automatic|manual|human)\)|\*{0,2}(automated|automatic|manual|human)\*{0,2}\s*:)\s*/i.exec(
      text,
    );
  if (!m) return null;
  const word = (m[1] ?? m[2] ?? m[3]!).toLowerCase();
  return { kind: word === 'manual' || word === 'human' ? 'manual' : 'automated', rest: text.slice(m[0].length) };
}

/**
 * `N/A ...`, or an item that says there is nothing to check (`None`, `None required for this phase`, `Nothing to
 * verify`, `No manual steps`): it counts neither as verified nor as pending, checked or not.
 */
export function isNotApplicable(text: string): boolean {
  const t = (itemKindPrefix(text)?.rest ?? text).trim().toLowerCase();
  if (t.slice(0, 3) === 'n/a') return true;
  return /^(?:none\b(?![- ]of\b)|nothing (?:to|needed|required)\b|not applicable\b|no (?:manual|automated|human) (?:steps?|verification|checks?|testing|tests)\b)/.test(
    t,
  );
}

/**
 * A declared deviation: an item that carries its own reason for staying open (`(skipped: flaky on CI)`,
 * `(pre-existing failure)`, `deferred to Phase 5`, `- Future enhancement`, `(not required)`, `(requires API keys)`,
 * `(...; not run.)`). Like N/A it counts
 * neither as verified nor as pending, so it holds no later phase; unlike N/A it stays visible as the author's
 * decision, and writing one is no loosening (convention section 6, round 3).
 */
export function isDeclaredDeviation(text: string): boolean {
  return /(?:^|[([\s:;,—–-])(?:skipped|skip(?:ping)?:|deferred|postponed|pre-existing|preexisting|not (?:required|needed|applicable)|out of scope|won'?t (?:do|fix)|will (?:be )?test(?:ed)? manually|requires? (?:an? )?(?:api|access|credentials?|keys?|secrets?)\b|waived|moved to|future (?:enhancements?|work|improvements?|iterations?)\b|if available|optional\)|not run[.)]|(?:by|for) the user\b|user will\b)/i.test(
    text,
  );
}

/** An item whose own words hold a command in backticks (`make test`, `pytest tests/api`): something an agent runs. */
function runsACommand(item: ListItem): boolean {
  return (
    itemParagraph(item)?.children.some((c) => c.type === 'inlineCode' && /^[\w./-]+(?:\s|$)/.test(c.value.trim())) ??
    false
  );
}

/**
 * The text of an item marked set aside with a box GFM does not know (`- [~] build skipped: typecheck suffices`,
 * `- [-] ...`), without the mark; null for any other item. The author kept the item and marked it as not to be done,
 * which is a declared deviation, not a deleted item.
 */
function setAsideText(item: ListItem): string | null {
  const first = itemParagraph(item)?.children[0];
  if (first?.type !== 'text') return null;
  const m = /^\[[~-]\]\s+/.exec(first.value);
  return m ? itemText(item).slice(m[0].length) : null;
}

/** A list item struck through whole (`- [ ] ~~Add the cache~~`): set aside by its author. */
function struckThrough(item: ListItem): boolean {
  const parts = itemParagraph(item)?.children.filter((c) => !(c.type === 'text' && c.value.trim() === '')) ?? [];
  return parts.length > 0 && parts[0]!.type === 'delete';
}

/**
 * The status words of a phase, one list each, whether a title, a lead marker or the skim reads them: set aside, done,
 * and the work moved into another phase (the label of that phase captured).
 */
const SET_ASIDE_WORDS = [
  'deferred',
  'postponed',
  'skipped',
  'on hold',
  'out of scope',
  "won't do",
  'wont do',
  'cancelled',
  'canceled',
  'dropped',
];
const DONE_WORDS = ['complete', 'completed', 'done', 'finished', 'implemented'];
const MOVED_WORDS = ['absorbed into', 'merged into', 'folded into', 'superseded by'];
const SET_ASIDE = SET_ASIDE_WORDS.join('|');
const DONE = DONE_WORDS.join('|');
const MOVED_INTO = String.raw`(?:${MOVED_WORDS.join('|')}) phase\s+([0-9]+(?:\.[0-9]+)*[a-z]?)`;

/** A phase the plan sets aside: `[DEFERRED]`, `(skipped)`, `- Deferred`, `Deferred:` in its title. */
const SET_ASIDE_TITLE = new RegExp(String.raw`(?:^|[\s[(\-–—:])(?:${SET_ASIDE})(?:$|[\s\])])`, 'i');
export function isDeferredTitle(title: string): boolean {
  return SET_ASIDE_TITLE.test(title);
}

/**
 * A phase whose work moved into another phase (`Absorbed into Phase 4`, `merged into Phase 2`, `superseded by Phase
 * 7`): set aside like a deferred one, since it holds nothing up; the label of the phase its work went to (`4`), or
 * null. Asked after isDoneTitle, so `[DONE — partially superseded by Phase 3.5]` stays done.
 */
const MOVED_TITLE = new RegExp(String.raw`\b${MOVED_INTO}\b`, 'i');
function movedInto(title: string): string | null {
  return MOVED_TITLE.exec(title)?.[1] ?? null;
}

/** Reads a phase's title or lead marker: deferred, done, or moved into another phase (set aside). */
function markPhase(phase: Phase, said: string): void {
  if (isDeferredTitle(said)) phase.deferred = true;
  else if (isDoneTitle(said)) phase.declaredDone = true;
  else {
    const into = movedInto(said);
    if (into !== null) {
      phase.deferred = true;
      phase.movedInto = into;
    }
  }
}

// A marker, not a verb: `Complete the migration` is a title, `[COMPLETE]`, `(done)`, `- Completed`, `DONE` are not.
const DONE_MARK = new RegExp(String.raw`[[(]\s*(?:${DONE})\s*[\])]|[-–—:]\s*(?:${DONE})\s*$`, 'i');
const DONE_CAPS = new RegExp(String.raw`\b(?:${DONE.toUpperCase()})\b`);

/** A phase whose title says it is done (`[COMPLETED]`, `- DONE`, `✅`): the author's word, whatever its boxes say. */
export function isDoneTitle(title: string): boolean {
  return /✅/u.test(title) || DONE_MARK.test(title) || DONE_CAPS.test(title);
}

/** Words that name verification as a phase's whole subject, and the words that may qualify them. */
const VERIFICATION_WORD = String.raw`(?:testing|tests?|verification|validation|qa|quality assurance)`;
const VERIFICATION_KIND = String.raw`(?:final|full|comprehensive|integration|end-to-end|e2e|functional|system|unit|regression|acceptance|smoke|manual|automated|user|visual|build)`;
const VERIFICATION_PART = String.raw`(?:${VERIFICATION_KIND}\s+)*${VERIFICATION_WORD}`;
const VERIFICATION_TITLE = new RegExp(
  String.raw`^${VERIFICATION_PART}(?:\s*(?:,\s*and|,|&|\+|/|\band\b)\s*${VERIFICATION_PART})*$`,
  'i',
);

/**
 * An aside in brackets that only marks the phase's state (`[DONE]`, `(deferred)`, `(WIP)`, `[✅]`): it says nothing of
 * the phase's subject. Any other aside does (`Testing (plus the release script)` names work besides testing).
 */
const STATUS_ASIDE =
  /\(\s*(?:[^\p{L}]*|(?:done|complete|completed|finished|implemented|deferred|postponed|skipped|optional|wip|in progress|pending|todo|not started|blocked|partial|ongoing|on hold|n\/a)[^\p{L}]*)\)|\[\s*(?:[^\p{L}]*|(?:done|complete|completed|finished|implemented|deferred|postponed|skipped|optional|wip|in progress|pending|todo|not started|blocked|partial|ongoing|on hold|n\/a)[^\p{L}]*)\]/giu;

/**
 * A phase whose title says it is the plan's testing phase and nothing else (`Testing & Validation`, `Testing and
 * Validation`, `Final Verification`, `QA`, `End-to-end tests`), status markers around it aside (`[DONE]`, `(WIP)`,
 * an emoji). A title that names work besides (`Integration & Testing`, `Testing infrastructure`, `Write the tests and
 * docs`, `Testing (plus the release script)`) is not: its boxes may be work of any kind.
 */
export function isVerificationTitle(title: string): boolean {
  const bare = title
    .replace(STATUS_ASIDE, ' ')
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
    .replace(/\s+/g, ' ');
  return VERIFICATION_TITLE.test(bare);
}

/**
 * What a phase is about, its status aside: `Arcjet + Nosecone GA [DONE]`, `✅ Arcjet + Nosecone GA` and `Arcjet +
 * Nosecone GA - Complete` are one subject. A plan renumbered as it is worked (a phase inserted before) keeps its
 * phases' subjects while their labels move, so history knows a phase by its subject first.
 */
export function phaseSubject(title: string): string {
  return title
    .replace(STATUS_ASIDE, ' ')
    .replace(STATUS_BRACKET, ' ')
    .replace(STATUS_TAIL, ' ')
    .replace(MOVED_TITLE_G, ' ')
    .replace(/\p{Extended_Pictographic}/gu, ' ')
    .replace(DONE_CAPS_G, ' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}
/** A bracketed aside that says the phase's status, with words after it (`(deferred to Phase 4)`, `[DONE — shipped]`). */
const STATUS_BRACKET = new RegExp(
  String.raw`\((?:[^()]*\b)?(?:${SET_ASIDE}|${DONE})\b[^()]*\)|\[(?:[^[\]]*\b)?(?:${SET_ASIDE}|${DONE})\b[^[\]]*\]`,
  'gi',
);
/** A status said after a dash or colon, to the end of the title (`— Deferred until Q3`, `: complete`). */
const STATUS_TAIL = new RegExp(String.raw`(?:\s[-–—]|:)\s*(?:${SET_ASIDE}|${DONE})\b.*$`, 'i');
const MOVED_TITLE_G = new RegExp(MOVED_TITLE.source, 'gi');
const DONE_CAPS_G = new RegExp(DONE_CAPS.source, 'g');

/**
 * Whether a phase holds a plain checkbox that no criteria heading or prefix gave a kind (an N/A item says nothing).
 * A task (`- [ ] Task 2: Add zod schemas`) or a task's step is work, whatever the phase's title: a feature phase
 * named `Validation` or `Tests` holds its tasks, not the plan's verification, and is no testing phase.
 */
function kindlessBoxes(phase: Phase): boolean {
  return [...phase.unknown, ...phase.other].some((b) => !b.na);
}

/** The top-level number of a label: 3 for `3.1`, 2 for `2A`, null for `R.1`. */
export function topNumber(label: string): number | null {
  const digits = /^\d+/.exec(label);
  return digits ? Number(digits[0]) : null;
}

/**
 * Sections whose `Phase N` headings are not the plan's phases (a rollout plan, an end-of-plan checklist, a summary,
 * future work), and whose checkboxes repeat or look past the phases rather than belong to the last one.
 */
const OUTSIDE_SECTION =
  /\b(?:rollout|roll-out|deployment plan|checklist|summary|overview|future|enhancements?|roadmap|appendix|timeline|out of scope|not doing|follow[- ]?ups?|later|backlog|estimates?|milestones?|changelog|history|progress log|status log|references?|next steps|what'?s next|open questions|rollback|rollback plan)\b/i;

/**
 * Sections that state the plan's end state or aim (`## Desired End State`, `## Goals`, `## Overview`): a list there
 * says what done looks like, not who checks it. The whole title, so that `## Manual QA summary` or `## Rollout
 * overview` is not one.
 */
const END_STATE_SECTION = /^(?:(?:desired|target|expected)\s+)?end[- ]state$|^goals?$|^overview$/i;
/**
 * In a plan without phases only a title that names the end state itself: its `## Overview` or `## Goals` runs on
 * over every `###` section below it (the criteria and the human checks of the work among them).
 */
const END_STATE_ONLY = /^(?:(?:desired|target|expected)\s+)?end[- ]state$/i;
const sectionTitle = (title: string) => title.replace(/[:.\s]+$/, '').trim();

interface HeadingPlan {
  /** Headings that open a phase of the sequence (depth d0) or a sub-phase within one. */
  phases: Map<Heading, { label: string; title: string; sub: boolean }>;
  /** `### Phase N Success Criteria`: criteria of phase N, by the heading. */
  criteria: Map<Heading, { label: string; kind: CriteriaKind }>;
  /** Phase headings that are not the plan's (rollout, future work, a second level): openers of outside sections. */
  foreign: Set<Heading>;
  unstructured: (Position & { reason: string }) | null;
  /** The dialect that read each phase heading (convention section 4: one module per dialect). */
  by: Map<Heading, PlanDialect>;
}

/**
 * The phase sequence: the run of phase headings at one level (the shallowest that has any) in the plan's body,
 * outside summary, rollout, checklist and future-work sections; deeper phase headings inside a phase of the
 * sequence are its sub-phases. The reader never guesses: a label repeated in the sequence makes the plan
 * unstructured (one info, and the structure rules stay silent on it).
 */
function planHeadings(root: Root): HeadingPlan {
  const out: HeadingPlan = {
    phases: new Map(),
    criteria: new Map(),
    foreign: new Set(),
    unstructured: null,
    by: new Map(),
  };
  const candidates: { h: Heading; label: string; title: string; excluded: boolean }[] = [];
  const stack: { node: Heading; depth: number; excluded: boolean }[] = [];
  const headingAt = (s: { node: Heading }) => s.node;
  for (const node of root.children) {
    if (node.type !== 'heading') continue;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= node.depth) stack.pop();
    const inExcluded = stack.some((s) => s.excluded);
    const text = textOf(node);
    const parent = stack.length > 0 ? textOf(headingAt(stack[stack.length - 1]!)) : null;
    const found = node.depth >= 2 && node.depth <= 4 ? phaseHeadingOf(text, parent) : null;
    const role = found?.role ?? { role: 'none' as const };
    if (found?.role.role === 'phase') out.by.set(node, found.dialect);
    if (role.role === 'phase' && node.depth <= 3)
      candidates.push({ h: node, label: role.label, title: role.title, excluded: inExcluded });
    else if (role.role === 'criteria' && !inExcluded) out.criteria.set(node, { label: role.label, kind: role.kind });
    // The title (`# Code Review Checklist: ...`) names the document, never a section outside its phases.
    stack.push({
      node,
      depth: node.depth,
      excluded:
        inExcluded ||
        (node.depth >= 2 && role.role === 'none' && OUTSIDE_SECTION.test(text) && criteriaKindOf(text) === null),
    });
  }
  const inside = new Map(candidates.filter((c) => !c.excluded).map((c) => [c.h, c]));
  const d0 = Math.min(...[...inside.keys()].map((h) => h.depth));
  let current: Heading | null = null;
  const within = new Set<Heading>();
  const seen = new Map<string, number>();
  for (const node of root.children) {
    if (node.type !== 'heading') continue;
    const c = inside.get(node);
    if (c && node.depth === d0) {
      current = node;
      out.phases.set(node, { label: c.label, title: c.title, sub: false });
      const key = c.label.toUpperCase();
      const first = seen.get(key);
      if (first !== undefined && out.unstructured === null) {
        const { line, column } = lineOf(node);
        out.unstructured = {
          line,
          column,
          reason: `Phase ${c.label} appears at line ${first} and again at line ${line}`,
        };
      }
      if (first === undefined) seen.set(key, lineOf(node).line);
    } else if (node.depth <= d0) current = null;
    else if (c && current) {
      // Inside Phase N a deeper `Phase` heading that names N itself or a phase the sequence already had
      // (`### Phase 3 Testing Strategy` under Phase 3, `### Phase 3 + 4 outcome` under Phase 4) is a section of the
      // phase it sits in, whatever its words: a phase does not hold itself or an earlier phase. A label that extends
      // N's (`1.2`, `2A` under `2`), or a new one (a phase written a level too deep), is a sub-phase.
      const named = c.label.toUpperCase();
      if (!extendsLabel(c.label, out.phases.get(current)!.label) && seen.has(named)) within.add(node);
      else out.phases.set(node, { label: c.label, title: c.title, sub: true });
    }
  }
  // Every phase heading that did not make the sequence or a sub-phase opens a section outside it, but for those
  // that are sections of the phase they sit in.
  for (const c of candidates) if (!out.phases.has(c.h) && !within.has(c.h)) out.foreign.add(c.h);
  for (const h of within) out.by.delete(h);
  return out;
}

/** Whether a sub-phase label extends its phase's: `1.2` or `1b` under `1`, `2A.1` under `2A`; not `10` under `1`. */
function extendsLabel(child: string, parent: string): boolean {
  const c = child.toUpperCase();
  const p = parent.toUpperCase();
  if (c.length <= p.length || !c.startsWith(p)) return false;
  const rest = c.slice(p.length);
  return /^[.\-_]?[A-Z0-9]/.test(rest) && !(/^\d/.test(rest) && /\d$/.test(p));
}

interface Scope {
  /** The open phase of the sequence, and the open sub-phase within it. */
  phase: { value: Phase; depth: number } | null;
  sub: { value: Phase; depth: number } | null;
  /** depth 7: opened by a bold label, closed by any heading or another bold label. */
  criteria: { kind: CriteriaKind; depth: number } | null;
  headingTask: { value: Task; depth: number } | null;
  /** A section outside the sequence that holds checkboxes (created when its first item arrives). */
  outside: { title: string; line: number; column: number; value: Phase | null } | null;
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

/** The kinds named by bold labels that start a line and have text after them on that line. */
function criteriaLines(p: Paragraph): CriteriaKind[] {
  const out: CriteriaKind[] = [];
  const kids = p.children;
  kids.forEach((node, i) => {
    if (node.type !== 'strong' || !startsLine(kids, i)) return;
    const kind = criteriaKindOf(textOf(node));
    if (kind === null) return;
    // A label alone on its line, with prose on the next, is no criterion written on the line.
    if (restOfLine(kids.slice(i + 1)) !== '') out.push(kind);
  });
  return out;
}

/** A bold label that opens a paragraph (`**Automated verification:**`), with its text. */
function boldLabel(p: Paragraph): string | null {
  const first = p.children[0];
  if (first?.type !== 'strong') return null;
  const label = textOf(first);
  // The label is the whole paragraph, or the paragraph's first line: `**Manual:** (a human runs these)`.
  const rest = textOf(p).slice(label.length).trim();
  return rest === '' || rest.startsWith(':') || /^\(.*\)$/.test(rest)
    ? `${label} ${rest}`.trim()
    : label.endsWith(':')
      ? label
      : null;
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
    // Only an example of Markdown nests fences by intent; an `rst` or `python` block whose content happens to hold
    // a stray fence is left as the parser reads it (lengthening it swallowed whole phases on a real plan).
    if (!/^(?:markdown|md|mdx)$/i.test(outer.lang ?? '')) continue;
    if (!hasUnclosedFence(outer.value)) continue;
    const opener = lines[outer.position.start.line - 1] ?? '';
    const fence = /^\s*(`{3,}|~{3,})/.exec(opener)?.[1];
    if (!fence) continue;
    // The intended closing line: the next code node without an info string, opened by a bare fence of the same kind.
    const closer = nodes
      .slice(i + 1)
      .find(
        (n): n is Code =>
          n.type === 'code' && !n.lang && (lines[(n.position?.start.line ?? 0) - 1] ?? '').trim().startsWith(fence),
      );
    if (!closer?.position) continue;
    return [outer.position.start.line - 1, closer.position.start.line - 1];
  }
  return null;
}

/**
 * A ```` ```markdown ```` example whose inner block opens with a bare fence: CommonMark closes the outer fence there,
 * the intended closing line of the outer fence opens a new info-less block, and that block swallows the rest of the
 * phase and the next phase's heading, up to a line that was meant to close some later ```` ```bash ```` block. The
 * tree shows it: an info-less code node that holds both a phase heading and an opening fence with an info string (a
 * combination no intended code block has), after a Markdown example. Returns the lines (0-based) of the example's
 * opening fence and of the swallowing node's opening line, the example's intended end.
 */
function swallowedPhase(root: Root, lines: string[]): [number, number] | null {
  let example: Code | null = null;
  for (const node of root.children) {
    if (node.type !== 'code' || !node.position) continue;
    if (/^(?:markdown|md|mdx)$/i.test(node.lang ?? '')) {
      example = node;
      continue;
    }
    if (node.lang || !example?.position) continue;
    const body = node.value.split('\n');
    const phase = body.some((l) => /^#{2,4}\s+phase\s+\d/i.test(l));
    const opener = body.some((l) => /^\s*(?:`{3,}|~{3,})\s*[\w-]+/.test(l));
    const fence = /^\s*(`{3,}|~{3,})/.exec(lines[example.position.start.line - 1] ?? '')?.[1];
    const start = lines[node.position.start.line - 1] ?? '';
    if (phase && opener && fence && start.trim() === fence)
      return [example.position.start.line - 1, node.position.start.line - 1];
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
  return !(
    last.position.end.line > last.position.start.line &&
    endLine.startsWith(open[0]!) &&
    /^(`+|~+)$/.test(endLine)
  );
}

/** A `### Task N:` heading task is checked when it has steps and every one is checked or N/A. */
export function stepsDone(task: Task): boolean {
  return task.steps.length > 0 && task.steps.every((s) => s.checked || s.na);
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
    const hit = earlyClosedFence(root, lines) ?? swallowedPhase(root, lines);
    if (!hit) break;
    const longest = Math.max(...lines.map((l) => /^\s*(`+|~+)/.exec(l)?.[1]!.length ?? 0));
    lines = lines.map((l, i) =>
      i === hit[0] || i === hit[1]
        ? l.replace(/^(\s*)(`+|~+)/, (_m, sp: string, f: string) => sp + f[0]!.repeat(longest + 1))
        : l,
    );
    root = parseMarkdown(lines.join(eol));
  }
  return root;
}

/**
 * A fence whose info string may name Markdown (`md`, `markdown`, `mdx`, or a word spelled through an escape or an
 * entity): parsePlanMarkdown may relengthen it and the fences after it, reading the whole tree, so the plan is not
 * skimmed.
 */
const MARKDOWN_EXAMPLE = /(?:`{3,}|~{3,})[ \t]*[mM&\\]/;

/** Characters without which a section can hold no checkbox, set-aside box, disable comment or entity. */
const BOX_OR_COMMENT = /\[|<!--|&/;

/** Anything after a section's first line but blanks. */
const HAS_BODY = /[\n\r][^]*\S/;

/** A line that may open a top-level block quote, which the reader walks like the plan's body. */
const QUOTE = /(?:^|[\n\r])[ \t]*>/;

/**
 * The letters a phase's lead marker starts with (readLead: `**DEFERRED**`, `**ABSORBED into Phase 4**`, `**✅ DONE**`):
 * the words isDeferredTitle, isDoneTitle and movedInto act on, so the skim keeps the paragraph that says them.
 */
const LEAD_MARKER_STARTS = [...SET_ASIDE_WORDS, ...DONE_WORDS, ...MOVED_WORDS.map((w) => w.split(' ')[0]!)].map((w) =>
  w.replace(/[^a-z]/g, ''),
);

/**
 * The whole of a lead marker's bold words: a status (`DEFERRED`, `STATUS: DONE`, `✅ Complete`, `ABSORBED into Phase
 * 4`) with nothing but marks around it.
 */
const LEAD_MARKER = new RegExp(
  String.raw`^(?:status\s*:\s*)?[^\p{L}\p{N}]*(?:${SET_ASIDE}|${DONE}|${MOVED_INTO})[^\p{L}\p{N}]*$`,
  'iu',
);

/** A line that opens with bold (a label the reader may read, `**Automated:**`, `**Status**:`). */
const BOLD_LINE = /(?:^|[\n\r])[ \t]*(?:\*\*|__)/g;

/**
 * The letters a bold label the reader acts on starts with: criteria labels (read/criteria.ts CRITERIA_LABEL_STARTS)
 * and the plan's status (`**Status**`, `**Implementation Status**`).
 */
const LABEL_STARTS = [...CRITERIA_LABEL_STARTS, 'status', 'implementationstatus', ...LEAD_MARKER_STARTS];

/** How much text after a bold line's start is looked at: more than any label start, with markup between letters. */
const LABEL_WINDOW = 200;

/**
 * Whether a section's own text says the plan reader may need its nodes (read/skim.ts skimOf's mustRead). Of a section
 * that is none of these, the reader (readPlanTree's walk) sees only lists without boxes, code, tables and paragraphs
 * whose bold is no label it knows, and does nothing with them unless a criteria scope is open at the section's
 * heading: readPlanText reads those sections too, by the reader's own scope. A bold label's text holds the source's
 * letters in order (markup between them holds none: emphasis, code spans, escapes, breaks; an entity or a link is
 * caught above), so it starts with a known label only if the letters after its line's start do.
 */
export function planMayMatter(s: Section): boolean {
  const eol = s.kind === 'heading' ? /[\n\r]/.exec(s.text) : null;
  // A cut heading is read from its own line whatever the section holds; its body is what may be skipped.
  const body = s.kind === 'heading' ? (eol ? s.text.slice(eol.index) : '') : s.text;
  if (BOX_OR_COMMENT.test(body) || QUOTE.test(body)) return true;
  BOLD_LINE.lastIndex = 0;
  for (let m = BOLD_LINE.exec(body); m; m = BOLD_LINE.exec(body)) {
    const letters = body
      .slice(m.index, m.index + LABEL_WINDOW)
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    if (LABEL_STARTS.some((w) => letters.startsWith(w) || w.startsWith(letters))) return true;
  }
  return false;
}

/**
 * The plan read from as much of its tree as the reader needs: a skim (read/skim.ts) that parses the sections
 * planMayMatter names and the heading lines of the others, then, when the reader's own walk of that tree found a
 * criteria scope open at a skipped section's heading (where plain lists and code count), those sections as well. A
 * plan with a Markdown example, or whose skim does not keep to its cuts, is parsed whole.
 * `VALIDATE_WORKFLOW_NO_SKIM=1` parses every plan whole (the tests compare the two).
 */
export function readPlanText(path: string, text: string): Plan {
  const skim = MARKDOWN_EXAMPLE.test(text) ? null : skimOf(text, planMayMatter, 0, false);
  const first = skim && parseSkimmed(skim, skim.fixed, parseMarkdown);
  if (!skim || !first) return readPlanTree(path, parsePlanMarkdown(text));
  const inCriteria = new Set<number>();
  const plan = readPlanTree(path, first, (h, open) => {
    if (open) inCriteria.add(h.position!.start.line);
  });
  // A section that is its heading alone (`### Success Criteria:` over its sub-headings) has nothing more to read.
  const keep = skim.fixed.map(
    (f, i) => f || (inCriteria.has(skim.starts[i]!) && HAS_BODY.test(skim.sections[i]!.text)),
  );
  if (keep.every((k, i) => k === skim.fixed[i])) return plan;
  const second = parseSkimmed(skim, keep, parseMarkdown);
  return readPlanTree(path, second ?? parsePlanMarkdown(text));
}

/**
 * The plan a tree says. `afterHeading` hears, after each heading the walk meets, whether a criteria scope is open
 * (readPlanText: the sections below such a heading are read).
 */
function readPlanTree(path: string, root: Root, afterHeading?: (h: Heading, criteriaOpen: boolean) => void): Plan {
  const fm = readFrontmatter(root);
  const problems: ReadProblem[] = [...fm.problems];
  const headings = planHeadings(root);
  const sequenced = headings.phases.size > 0;
  const phases: Phase[] = [];
  const outside: Phase[] = [];
  const byLabel = new Map<string, Phase>();
  // Without a phase sequence, everything belongs to the plan's one implicit phase (plan-agent dialect).
  const implicit = sequenced ? null : newPhase(null, null, '', 1, 1);
  const preamble: Loose = { tasks: [], automated: [], manual: [], unknown: [], other: [] };
  let title: string | null = null;
  let firstHeading: Position | null = null;
  let undivided: Position | null = null;
  let boxes = 0;
  let criteriaHeadings = 0;
  let claim: Plan['claimsComplete'] = null;
  /** A `##` heading was seen: a `**Status**` line below it is a section's, not the plan's. */
  let sectionSeen = false;
  /** Plan-wide criteria written without checkboxes (a `## Success Criteria` list of plain bullets). */
  const planListed = new Set<'automated' | 'manual' | 'unknown'>();
  /**
   * Items made a human's only because their verification heading named no kind (the safe side); in a plan without
   * phases, with the end-state section their list sits directly in (null elsewhere): such a plan has no other way to
   * say where its end state is. A plan with phases finds its end state among the sections outside them.
   */
  const guessedManual = new Map<CheckItem, string | null>();
  /**
   * A phaseless plan's end-state heading read last, with the tasks it had then: a verification list is its end state
   * only when its heading (or bold label) comes right under it, no task or other heading between.
   */
  let endStateOpen: { depth: number; title: string; tasks: number } | null = null;
  /** The end-state section the verification list being read sits directly in (phaseless plans); null elsewhere. */
  let endStateList: string | null = null;
  // The phase whose heading was the last block read: its first paragraph may carry its lead marker (readLead).
  let leadOf: Phase | null = null;
  const directlyUnder = (depth: number): string | null =>
    implicit && endStateOpen && depth > endStateOpen.depth && implicit.tasks.length === endStateOpen.tasks
      ? endStateOpen.title
      : null;
  const scope: Scope = { phase: null, sub: null, criteria: null, headingTask: null, outside: null };

  /** Where a checkbox seen now belongs. */
  const target = (): Loose => {
    if (implicit) return implicit;
    const open = scope.sub?.value ?? scope.phase?.value;
    if (open) return open;
    if (scope.outside) {
      if (!scope.outside.value) {
        scope.outside.value = {
          ...newPhase(null, null, scope.outside.title, scope.outside.line, scope.outside.column),
          outside: true,
        };
        outside.push(scope.outside.value);
      }
      return scope.outside.value;
    }
    return preamble;
  };

  /** Tasks before the first phase belong to it (a task list above the phases), not to a section of their own. */
  const taskTarget = (): Loose => (!implicit && phases.length === 0 ? preamble : target());

  const openOutside = (heading: string, at: Position): void => {
    scope.outside = { title: heading, line: at.line, column: at.column, value: null };
  };

  const onHeading = (h: Heading): void => {
    const above = directlyUnder(h.depth);
    endStateList = null;
    readHeading(h, above);
    const text = sectionTitle(textOf(h));
    endStateOpen =
      implicit && END_STATE_ONLY.test(text) ? { depth: h.depth, title: text, tasks: implicit.tasks.length } : null;
  };

  /** `endState`: the end-state section the heading comes right under in a phaseless plan, or null. */
  const readHeading = (h: Heading, endState: string | null): void => {
    const text = textOf(h);
    if (h.depth >= 2) sectionSeen = true;
    const { line, column } = lineOf(h);
    firstHeading ??= { line, column };
    if (h.depth === 1 && title === null) title = text;
    const asPhase = headings.phases.get(h);
    if (asPhase) {
      const phase = newPhase(topNumber(asPhase.label), asPhase.label, asPhase.title, line, column);
      markPhase(phase, asPhase.title);
      leadOf = phase;
      phases.push(phase);
      if (asPhase.sub && scope.phase) {
        scope.phase.value.group = true;
        scope.sub = { value: phase, depth: h.depth };
      } else {
        scope.phase = { value: phase, depth: h.depth };
        scope.sub = null;
        byLabel.set(asPhase.label.toUpperCase(), phase);
      }
      scope.outside = null;
      scope.criteria = null;
      scope.headingTask = null;
      return;
    }
    if (scope.criteria && h.depth <= scope.criteria.depth) scope.criteria = null;
    if (scope.headingTask && h.depth <= scope.headingTask.depth) scope.headingTask = null;
    if (scope.sub && h.depth <= scope.sub.depth) scope.sub = null;
    if (scope.phase && h.depth <= scope.phase.depth) scope.phase = null;
    declareStatus(statusSaid(text));
    const ofPhase = headings.criteria.get(h);
    if (ofPhase) {
      // `### Phase 2 Success Criteria`: the criteria of phase 2, wherever the section stands.
      const phase = byLabel.get(ofPhase.label.toUpperCase());
      criteriaHeadings++;
      if (phase && !implicit) {
        scope.phase = { value: phase, depth: h.depth - 1 };
        scope.sub = null;
      } else if (!scope.phase) openOutside(text, { line, column });
      scope.criteria = { kind: ofPhase.kind, depth: h.depth };
      if (ofPhase.kind === 'unknown') undivided ??= { line, column };
      return;
    }
    if (!scope.phase && (headings.foreign.has(h) || h.depth >= 2)) {
      // A heading outside the sequence (or one that closed its last phase) opens a section of its own.
      if (!scope.outside || headings.foreign.has(h) || h.depth <= 2) openOutside(text, { line, column });
    }
    const taskMatch = h.depth >= 2 && h.depth <= 4 ? TASK_TEXT.exec(text) : null;
    if (taskMatch) {
      const label = taskMatch[1]!;
      const number = topNumber(label);
      if (number !== null) {
        const task: Task = {
          number,
          label,
          title: taskMatch[2]!.trim(),
          checked: false,
          source: 'heading',
          steps: [],
          line,
          column,
        };
        taskTarget().tasks.push(task);
        scope.headingTask = { value: task, depth: h.depth };
        scope.criteria = null;
        return;
      }
    }
    const found = h.depth >= 2 && h.depth <= 5 ? criteriaKindOf(text) : null;
    // `Automated`/`Manual` headings count at levels 3 to 5; an undivided `## Success Criteria` or `## Final
    // Verification` also at level 2.
    const kind = found === 'unknown' || found === 'unknown-verify' || h.depth >= 3 ? found : null;
    if (kind) {
      criteriaHeadings++;
      scope.criteria = { kind, depth: h.depth };
      scope.headingTask = null;
      if (kind === 'unknown') undivided ??= { line, column };
      if (kind === 'unknown-verify') endStateList = endState;
    }
  };

  /**
   * A phase's own status line or heading that says it is done, directly in the phase (not a task's or a criteria
   * section's), and nothing but done (`Complete (branch x)`, not `Done with the writer; wiring next`).
   */
  const declareStatus = (said: string | null): void => {
    const phase = scope.sub?.value ?? scope.phase?.value;
    if (said === null || !phase || phase.deferred || scope.headingTask || scope.criteria) return;
    if (PHASE_DONE.test(said)) phase.statusDone = true;
  };

  /**
   * A phase's lead marker: the bold words that open the first paragraph under its heading (`**DEFERRED**: waiting for
   * the API`, `> **ABSORBED into Phase 4** — nothing left here`, `**✅ DONE**`) say what its title would, and are read
   * as its title is. Only the bold words, never the sentence after them: `**Goal**: defer the export` sets nothing
   * aside.
   */
  const readLead = (p: Paragraph): void => {
    const phase = leadOf;
    leadOf = null;
    const first = p.children[0];
    if (!phase || phase.deferred || phase.declaredDone || first?.type !== 'strong') return;
    // A marker is a status and nothing else: `**Deferred migrations** are handled here` is prose about the phase.
    if (!LEAD_MARKER.test(textOf(first).trim())) return;
    markPhase(phase, textOf(first));
  };

  const onParagraph = (p: Paragraph): void => {
    // `**Status**: Implementation Complete` (a body marker of the plan's own state), before the first phase.
    const first = p.children[0];
    if (first?.type === 'strong' && /^(?:implementation )?status:?$/i.test(textOf(first))) {
      const said = textOf(p)
        .slice(textOf(first).length)
        .replace(/^\s*:\s*/, '')
        .trim();
      if (!sectionSeen && !claim && COMPLETE.test(said)) claim = { ...lineOf(p), source: 'body', said };
      else declareStatus(said);
    }
    // Criteria written as lines (`**Automated:** \`make test\` passes` over `**Manual:** the page loads`): each
    // says its phase has criteria of that kind, though no list follows.
    for (const kind of criteriaLines(p)) noteListed(kind);
    const label = boldLabel(p);
    if (label === null) return;
    const kind = criteriaKindOf(label);
    if (kind) {
      criteriaHeadings++;
      endStateList = kind === 'unknown-verify' ? directlyUnder(7) : null;
      // Under an undivided `### Success Criteria`, a bold label divides it from here on, until that heading's scope ends.
      scope.criteria = { kind, depth: scope.criteria && scope.criteria.depth < 7 ? scope.criteria.depth : 7 };
      scope.headingTask = null;
      if (kind === 'unknown') undivided ??= lineOf(p);
    } else if (scope.criteria?.depth === 7) scope.criteria = null;
  };

  /** A checkbox item (or one marked set aside, `- [~]`), put where it belongs: criteria, task, step or other. */
  const onBox = (item: ListItem): void => {
    const unboxed = item.checked === null || item.checked === undefined;
    const setAside = unboxed ? setAsideText(item) : null;
    if (unboxed && setAside === null) return;
    const text = setAside ?? itemText(item);
    const said = scope.headingTask && !scope.criteria ? null : itemKindPrefix(text);
    const taskMatch = scope.criteria || said ? null : TASK_TEXT.exec(text);
    // A task marked set aside stays out of the tasks (it is no box GFM knows, and no task is done by a mark).
    if (setAside !== null && taskMatch) return;
    boxes++;
    const checked = item.checked === true;
    const { line, column } = lineOf(item);
    const na = isNotApplicable(text);
    const deviation = !na && !checked && (setAside !== null || isDeclaredDeviation(text) || struckThrough(item));
    const check: CheckItem = { text, checked, na, line, column, ...(deviation ? { deviation } : {}) };
    const number = taskMatch ? topNumber(taskMatch[1]!) : null;
    if (said) target()[said.kind].push(check);
    else if (scope.criteria?.kind === 'unknown-verify') {
      check.guessed = true;
      if (runsACommand(item)) target().automated.push(check);
      else {
        target().manual.push(check);
        // A phaseless plan's sections run on under its last `##` (scope.outside): only the end state it is right under.
        guessedManual.set(check, implicit ? endStateList : null);
      }
    } else if (scope.criteria) target()[scope.criteria.kind].push(check);
    else if (taskMatch && number !== null) {
      taskTarget().tasks.push({
        number,
        label: taskMatch[1]!,
        title: taskMatch[2]!.trim(),
        checked,
        source: 'item',
        steps: [],
        line,
        column,
      });
    } else if (scope.headingTask) scope.headingTask.value.steps.push(check);
    else target().other.push(check);
  };

  const onItem = (item: ListItem): void => {
    onBox(item);
    for (const child of item.children) if (child.type === 'list') onList(child);
  };

  const onList = (list: List): void => {
    // Criteria written as plain bullets (no checkbox) still say the phase has criteria of that kind; bullets that all
    // say there is nothing to check (`- N/A`, `- None for this phase`) say so too, and the fold tells the two apart.
    const plain = scope.criteria ? list.children.filter((i) => i.checked === null || i.checked === undefined) : [];
    if (scope.criteria && plain.length > 0)
      noteListed(
        scope.criteria.kind,
        plain.every((i) => isNotApplicable(itemText(i))),
      );
    for (const item of list.children) onItem(item);
  };

  const noteListed = (kind: CriteriaKind, onlyNa = false): void => {
    // Only a phase's own criteria: a plain list outside the sequence (a testing strategy) says nothing of a phase.
    const at = implicit ?? scope.sub?.value ?? scope.phase?.value;
    const k = kind === 'unknown-verify' ? 'unknown' : kind;
    if (!at) {
      planListed.add(k);
      return;
    }
    // A kind is N/A-only while every list of it so far said nothing to check; one real bullet ends that for good.
    const was = at.listed ?? [];
    const na = new Set(at.listedNa ?? []);
    if (!onlyNa) na.delete(k);
    else if (!was.includes(k)) na.add(k);
    at.listed = [...new Set([...was, k])];
    if (na.size > 0) at.listedNa = [...na];
    else delete at.listedNa;
  };

  const walk = (nodes: RootContent[]): void => {
    for (const node of nodes) {
      // Only the first block under a phase heading (or the first paragraph of a quote there) is its lead.
      if (node.type === 'paragraph') readLead(node);
      if (node.type !== 'blockquote') leadOf = null;
      if (isHeading(node)) {
        onHeading(node);
        afterHeading?.(node, scope.criteria !== null);
      } else if (node.type === 'list') onList(node);
      else if (node.type === 'paragraph') onParagraph(node);
      else if (node.type === 'blockquote') walk(node.children);
      else if (node.type === 'code' && scope.criteria) noteListed(scope.criteria.kind);
    }
  };
  walk(root.children);

  const structured =
    boxes > 0 || criteriaHeadings > 0 || preamble.tasks.length > 0 || (implicit?.tasks.length ?? 0) > 0;
  if (implicit) phases.push(implicit);
  // Plan-level tasks before the first phase belong to it; plan-wide criteria and boxes above the phases stay the
  // plan's own (a section outside the sequence), never the last phase's.
  phases[0]!.tasks.unshift(...preamble.tasks);
  if (preamble.automated.length + preamble.manual.length + preamble.unknown.length + preamble.other.length > 0) {
    outside.unshift({
      ...newPhase(null, null, 'the plan', 1, 1),
      outside: true,
      automated: preamble.automated,
      manual: preamble.manual,
      unknown: preamble.unknown,
      other: preamble.other,
    });
  }
  const all = [...phases, ...outside];
  for (const phase of all) {
    for (const task of phase.tasks) {
      if (task.source === 'heading') task.checked = stepsDone(task);
    }
  }
  // A phase given to the plan's testing (`## Phase 4: Testing & Validation` with its test steps as checkboxes) is
  // where the plan keeps its verification, though no heading says which boxes are automated and which manual. Its
  // boxes stay what they were read as (tasks, steps, other boxes): the mark says where the plan's verification is,
  // and leaves its kind unsaid rather than guessed.
  for (const phase of phases) if (isVerificationTitle(phase.title) && kindlessBoxes(phase)) phase.verification = true;
  // A list under `### Success Criteria` that sub-headings or bold labels divided entirely is not undivided.
  const undividedCriteria = all.some((p) => p.unknown.length > 0) ? undivided : null;
  // The safe side (convention section 4, round 3) makes a kindless verification list a human's. A plan each of whose
  // phases names a manual check of its own (a checkbox a human ticks, not N/A) has placed its gate; its end state
  // written as a bare `### Verification` list, outside the phases, then states outcomes (what done looks like): those
  // items are no criteria at all (`other`: neither a human's check nor plan-wide criteria that would stand in for a
  // phase's). One phase without a manual check of its own, and the end state may be where its human check lives: the
  // safe side holds.
  const ownManual = (p: Phase) => p.manual.some((m) => !m.na && !guessedManual.has(m));
  const endState = (title: string | null | undefined) => !!title && END_STATE_SECTION.test(sectionTitle(title));
  const judged = phases.filter((p) => !p.group && !p.deferred);
  if (judged.length > 0 && judged.every(ownManual)) {
    for (const section of outside) {
      if (!endState(section.title)) continue;
      section.other.push(...section.manual.filter((m) => guessedManual.has(m)));
      section.manual = section.manual.filter((m) => !guessedManual.has(m));
    }
    // A plan without phases holds everything in its one implicit phase, end state included: the same reading, item
    // by item, once the plan names a manual check of its own elsewhere (a `Manual:` item, a manual heading).
    if (implicit) {
      const outcomes = new Set(implicit.manual.filter((m) => !!guessedManual.get(m)));
      implicit.other.push(...outcomes);
      implicit.manual = implicit.manual.filter((m) => !outcomes.has(m));
    }
  }

  const positions: PositionMap = { ...fm.positions };
  all.forEach((phase, i) => {
    positions[`/phases/${i}`] = { line: phase.line, column: phase.column };
    phase.tasks.forEach((task, j) => (positions[`/phases/${i}/tasks/${j}`] = { line: task.line, column: task.column }));
  });
  const data = fm.data ?? {};
  const normalized: Record<string, unknown> = {
    title,
    ...pick(data, ['mode', 'mode_set_by', 'context_critical']),
    phases: all.map((p) => ({
      number: p.number,
      label: p.label,
      title: p.title,
      tasks: p.tasks.map((t) => ({ number: t.number, label: t.label, title: t.title, checked: t.checked })),
      automated: p.automated.length,
      manual: p.manual.length,
      unknown: p.unknown.length,
    })),
  };

  // Phases described in one section (`## Proposed API Contracts` / `### Phase 1`) and checked off in another
  // (`## Implementation Checklist` / `### Phase 1`): two lists of phases, and the reader does not guess which is the
  // plan's. Only when the sequence holds no box at all, so a plan that works its phases is never set aside.
  const split =
    headings.unstructured === null && sequenced && phases.every(holdsNothing)
      ? outside.find((p) => !holdsNothing(p) && isPhaseHeadingText(p.title))
      : undefined;
  const unstructured =
    headings.unstructured ??
    (split
      ? {
          line: split.line,
          column: split.column,
          reason: `its phases have no checkboxes; the checkboxes are under a second list of phases ("${split.title}", line ${split.line})`,
        }
      : null);

  const notAPlan =
    !structured &&
    problems.length === 0 &&
    data.type !== 'plan' &&
    !['mode', 'mode_set_by', 'context_critical'].some((k) => k in data);
  const dialect = planDialectOf({
    notAPlan,
    unstructured: unstructured !== null,
    sequenceBy: new Set([...headings.phases.keys()].map((h) => headings.by.get(h)!)),
    headingTasks: phases.some((p) => p.tasks.some((t) => t.source === 'heading')),
  });
  return {
    kind: 'plan',
    path,
    readable: true,
    dialect,
    problems,
    disables: markdownDisables(root),
    positions,
    anchor: firstHeading ?? { line: fm.data ? fm.line : 1, column: 1 },
    frontmatter: fm.data,
    title,
    phases: all,
    notAPlan,
    undividedCriteria,
    unstructured,
    claimsComplete: completionClaim(path, fm, claim),
    ...(planListed.size > 0 ? { listed: [...planListed] } : {}),
    normalized,
  };
}

/** Words that say work is done, for the plan's status and a phase's alike. */
const DONE_WORD = String.raw`^\W*(?:implementation\s+)?(?:complete|completed|done|implemented|finished|shipped)`;

/** Words that say the work of a plan is done. */
const COMPLETE = new RegExp(String.raw`${DONE_WORD}\b`, 'i');

/** A phase's status that says done and nothing more: `✅ Complete`, `Done (branch x)`, `Implemented.` */
const PHASE_DONE = new RegExp(String.raw`${DONE_WORD}\W*(?:\(.*\))?\W*$`, 'i');

/** `Implementation Status: Complete (branch x)` -> `Complete (branch x)`: what a status heading says, else null. */
function statusSaid(heading: string): string | null {
  return /^(?:implementation\s+)?status\s*[:\-–—]\s*(.+)$/i.exec(heading.trim())?.[1] ?? null;
}

/**
 * Where the plan says its work is done: `status: complete` in its frontmatter, a `**Status**: Complete` line above
 * its phases, or a folder of finished plans (`implemented/`, `completed/`, `done/`).
 */
function completionClaim(
  path: string,
  fm: ReturnType<typeof readFrontmatter>,
  body: Plan['claimsComplete'],
): Plan['claimsComplete'] {
  const status = fm.data?.status;
  if (typeof status === 'string' && COMPLETE.test(status.trim()))
    return { ...(fm.positions['/status'] ?? { line: fm.line, column: 1 }), source: 'status', said: status };
  if (body) return body;
  const folder = path
    .split('/')
    .slice(0, -1)
    .find((seg) => /^(?:implemented|completed|complete|done|finished)$/i.test(seg));
  return folder ? { line: 1, column: 1, source: 'folder', said: `${folder}/` } : null;
}

function pick(data: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in data) out[key] = data[key];
  return out;
}

export function allTasks(plan: Plan): Task[] {
  return plan.phases.flatMap((p) => p.tasks);
}
