// Handoff text -> Handoff model. Fields come from frontmatter keys first, then from sections of the body, matched by
// meaning (`## Files Modified`, `## Files Created`, `## 1. Test Results Summary`, `### Next Steps`, ...), then from
// body markers (`**Status:** Done`, `## Status: COMPLETE`). Continuous-Claude v3 YAML handoffs are two YAML documents.
import type { Heading, List, Paragraph, Root, RootContent, Table } from 'mdast';
import { visit } from 'unist-util-visit';
import type {
  Handoff,
  HandoffDialect,
  HandoffStatus,
  OrchestrationState,
  Position,
  PositionMap,
  ReadProblem,
  StatusClaim,
} from '../model/types.js';
import { itemParagraph, lineOf, parseMarkdown, parseWhole, restOfLine, startsLine, textOf } from './markdown.js';
import { parseSkimmed, skimOf, type Skim } from './skim.js';
import type { Section } from './sections.js';
import { isRecord, readFrontmatter, type Frontmatter } from './frontmatter.js';
import { markdownDisables, yamlDisables } from './disables.js';
import type { YamlRead } from './yaml.js';
import { readYaml } from './lazy.js';
import { handoffLocation, isStateFileName, type HandoffLocation } from './paths.js';
import { mentionsOf } from './ledger.js';
import { handoffDialectOf } from './dialects/index.js';
import { toString } from 'mdast-util-to-string';

const STATUS_WORDS: Record<string, HandoffStatus> = {
  success: 'complete',
  succeeded: 'complete',
  complete: 'complete',
  completed: 'complete',
  done: 'complete',
  validated: 'complete',
  partial: 'partial',
  partial_plus: 'partial',
  partial_minus: 'partial',
  blocked: 'blocked',
  needs_review: 'blocked',
  failed: 'failed',
  failure: 'failed',
};

/** A status word as a key: `Partial-Plus ` -> `partial_plus`. */
export function statusKey(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Status words a handoff gives itself while it is still being written: it is no record yet. */
const IN_PROGRESS = new Set(['in_progress', 'inprogress', 'wip', 'work_in_progress', 'ongoing', 'active', 'draft']);

/** The handoff's status as written when it is in no handoff's words (`in_progress`, `filed — upstream#8551`). */
export function statusInOtherWords(h: Handoff): string | null {
  const raw = h.normalized['status'];
  return h.status === null && typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
}

/**
 * Whether the handoff says, in its own status, that it is still being written: `status: in_progress`, or a share
 * short of the whole (`**Status:** ~50% Complete (8/17 phases done)`).
 */
export function saysInProgress(h: Handoff): boolean {
  const raw = statusInOtherWords(h);
  if (raw === null) return false;
  // The word before an explanation (`draft — paste into the tracker`, `wip: tests left`); the whole status without one.
  const word = raw.split(/\s+[—–-]\s+|\s*[:;,(]/)[0]!;
  return IN_PROGRESS.has(statusKey(word)) || /^~?\s*\d{1,2}(?:\.\d+)?\s*%/.test(raw);
}

export function normalizeStatus(raw: unknown): HandoffStatus | null {
  if (typeof raw !== 'string') return null;
  return STATUS_WORDS[statusKey(raw)] ?? null;
}

/** Frontmatter key -> normalized field; the first key present wins. */
const KEY_ALIASES: [field: string, keys: string[]][] = [
  ['status', ['status', 'outcome']],
  ['task', ['task', 'task_number']],
  ['task_total', ['task_total', 'total_tasks']],
  ['task_desc', ['task_desc', 'task_description', 'title', 'goal']],
  ['plan', ['plan', 'plan_file']],
  ['previous', ['previous', 'previous_handoff']],
  ['retry_of', ['retry_of']],
  ['files_modified', ['files_modified']],
  ['verification_results', ['verification_results', 'verification']],
  ['context_for_next', ['context_for_next', 'next_task_context', 'next']],
  ['blocker', ['blocker', 'blockers']],
  ['resolution', ['resolution']],
  ['decisions', ['decisions']],
  ['open_questions', ['open_questions', 'questions']],
];

/**
 * Section titles by meaning: a title (lower case, without numbering, emphasis or a trailing colon) is read as a field
 * when it is one of these or starts with one of them followed by a space (`Test Results Summary`).
 */
const SECTION_TITLES: [field: string, titles: string[]][] = [
  ['task_desc', ['task summary']],
  [
    'files_modified',
    [
      'files modified',
      'files created',
      'files changed',
      'files touched',
      'files updated',
      'files edited',
      'files added',
      'modified files',
      'changed files',
      'created files',
      'file changes',
    ],
  ],
  [
    'verification_results',
    [
      'verification',
      'verification results',
      'tdd verification',
      'tdd summary',
      'test results',
      'test coverage',
      'test summary',
      'testing',
      'tests',
      'validation',
    ],
  ],
  [
    'context_for_next',
    [
      'next task context',
      'context for next',
      'context for the next',
      'next task',
      'next steps',
      'notes for next',
      'notes for the next',
      'dependencies for next',
      'handoff to next',
    ],
  ],
  ['blocker', ['issues encountered', 'blocker', 'blockers']],
  ['decisions', ['decisions made', 'decisions', 'key decisions']],
  ['open_questions', ['open questions', 'questions']],
  ['resolution', ['resolution']],
];

/**
 * Where each field of the task-handoff schema can come from, for messages that say what would satisfy a missing
 * field: the keys the reader accepts and the section titles it matches.
 */
export function fieldSources(field: string): { keys: string[]; sections: string[] } {
  const keys = KEY_ALIASES.find(([f]) => f === field)?.[1] ?? [field];
  return { keys, sections: SECTION_NAMES[field] ?? [] };
}

/** The section titles a message names for a field (the matcher accepts more: see SECTION_TITLES). */
const SECTION_NAMES: Record<string, string[]> = {
  task_desc: ['Task Summary'],
  files_modified: ['Files Modified', 'Files Created', 'Files Changed', 'Files Touched'],
  verification_results: [
    'Verification',
    'TDD Verification',
    'Test Results',
    'Testing',
    'Validation',
    'TDD Summary',
    'Test Coverage',
  ],
  context_for_next: [
    'Next Task Context',
    'Next Task',
    'Next Steps',
    'Notes for Next Task',
    'Dependencies for Next Tasks',
  ],
  blocker: ['Issues Encountered', 'Blockers'],
  decisions: ['Decisions Made'],
  open_questions: ['Open Questions'],
};

const LIST_FIELDS = new Set(['files_modified', 'verification_results', 'decisions', 'open_questions']);

/** Fields whose list items are text: an item YAML read as a one-pair map (an unquoted `: `) is read back as its text. */
const TEXT_ITEM_FIELDS = new Set(['task_desc', 'context_for_next', 'files_modified', 'open_questions', 'blocker']);

/** A section title as the matcher compares it: `## 1. Test Results Summary:` -> `test results summary`. */
export function sectionKey(title: string): string {
  return title
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/^\d+(?:\.\d+)*[.)]?\s+/, '')
    .replace(/[\s:.]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

export function sectionField(title: string): string | null {
  const key = sectionKey(title);
  for (const [field, titles] of SECTION_TITLES)
    if (titles.some((t) => key === t || key.startsWith(`${t} `) || key.startsWith(`${t}/`))) return field;
  return null;
}

interface Fields {
  values: Record<string, unknown>;
  positions: PositionMap;
  claims: StatusClaim[];
  sources: Record<string, string>;
}

function fromKeys(
  data: Record<string, unknown>,
  positions: PositionMap,
  into: Fields,
  itemText: YamlRead['itemText'] = {},
): void {
  // The pointers under each top-level key, in their order: one pass, where matching every pointer against every
  // field's key was a measurable part of reading 3,000 handoffs. The alias keys hold no `/` or `~`, so a key is its own
  // pointer segment.
  const under = new Map<string, [string, PositionMap[string]][]>();
  for (const [pointer, pos] of Object.entries(positions)) {
    const slash = pointer.indexOf('/', 1);
    const top = slash < 0 ? pointer.slice(1) : pointer.slice(1, slash);
    let list = under.get(top);
    if (!list) under.set(top, (list = []));
    list.push([pointer, pos]);
  }
  for (const [field, keys] of KEY_ALIASES) {
    if (field in into.values) continue;
    const key = keys.find((k) => k in data);
    if (!key) continue;
    let value = data[key];
    if (TEXT_ITEM_FIELDS.has(field) && Array.isArray(value))
      value = value.map((item, i) => (isRecord(item) ? (itemText[`/${key}/${i}`] ?? item) : item));
    into.values[field] = value;
    into.sources[field] = key;
    for (const [pointer, pos] of under.get(key) ?? [])
      into.positions[`/${field}${pointer.slice(key.length + 1)}`] = pos;
  }
  // The words next to the status: `outcome: PARTIAL_MINUS` under `status: complete` (handoff/outcome).
  for (const key of ['outcome', 'result']) {
    const raw = data[key];
    if (typeof raw !== 'string' || (key === 'outcome' && !('status' in data))) continue;
    into.claims.push({
      source: key,
      raw,
      status: normalizeStatus(raw),
      ...(positions[`/${key}`] ?? { line: 1, column: 1 }),
    });
  }
}

function listItems(nodes: RootContent[]): { text: string; code: string | null; checked: boolean | null }[] {
  const lists = nodes.filter((n): n is List => n.type === 'list');
  return lists.flatMap((list) =>
    list.children.map((item) => {
      const para = itemParagraph(item);
      const first = para?.children[0];
      return {
        text: para ? textOf(para) : '',
        code: first?.type === 'inlineCode' ? first.value : null,
        checked: item.checked ?? null,
      };
    }),
  );
}

/** The first column of a table's body rows: `| src/a.ts | added |`. */
function tableCells(nodes: RootContent[]): { text: string; code: string | null }[] {
  return nodes
    .filter((n): n is Table => n.type === 'table')
    .flatMap((t) =>
      t.children.slice(1).map((row) => {
        const cell = row.children[0];
        const first = cell?.children[0];
        return { text: cell ? textOf(cell) : '', code: first?.type === 'inlineCode' ? first.value : null };
      }),
    )
    .filter((c) => c.text !== '');
}

function sectionValue(field: string, nodes: RootContent[]): unknown {
  if (!LIST_FIELDS.has(field)) {
    const text = nodes
      .map((n) => textOf(n))
      .filter(Boolean)
      .join('\n');
    if (field === 'blocker' && /^(none|n\/a|-)?\.?$/i.test(text)) return null;
    return text;
  }
  const items = listItems(nodes);
  // implement_task writes `path/to/file.ts:45-67`: the line range says where in the file, not which file.
  if (field === 'files_modified')
    return [...items, ...tableCells(nodes)].map((i) =>
      i.code === null ? i.text : i.code.replace(/:\d+(?:-\d+)?$/, ''),
    );
  if (field === 'verification_results') {
    if (items.length === 0) {
      // A results section written as prose or a code block (`42 passed`) reports what was run, as one result.
      const text = nodes
        .map((n) => textOf(n))
        .filter(Boolean)
        .join('\n')
        .trim();
      if (!text || /^(none|n\/a|not run|no tests?|nothing|-)\b/i.test(text)) return [];
      return [{ check: text.split('\n')[0]!, result: 'reported' }];
    }
    return items.map((i) => ({
      check: i.text,
      result: i.checked === null ? 'reported' : i.checked ? 'pass' : 'not run',
    }));
  }
  return items.map((i) => i.text);
}

/** Every heading at levels 2 to 4 with the nodes up to the next heading of the same or a higher level. */
function headingSections(root: Root): { heading: Heading; title: string; nodes: RootContent[] }[] {
  const out: { heading: Heading; title: string; nodes: RootContent[] }[] = [];
  const open: { heading: Heading; title: string; nodes: RootContent[] }[] = [];
  for (const node of root.children) {
    if (node.type === 'heading') {
      while (open.length && open[open.length - 1]!.heading.depth >= node.depth) open.pop();
      if (node.depth >= 2 && node.depth <= 4) {
        const s = { heading: node, title: textOf(node), nodes: [] as RootContent[] };
        out.push(s);
        open.push(s);
      }
      continue;
    }
    for (const s of open) s.nodes.push(node);
  }
  return out;
}

/** The title of a checkpoint block's section (`### Phase Status`). */
const PHASE_STATUS = /^phase status(?:es)?$/i;

/**
 * The status a checkpoint block gives (`### Phase Status` over `- Phase 1 (Tests written): VALIDATED (25 failing)`):
 * complete when every phase says a complete word, else the first phase's word that is not; null without a list of
 * phase states.
 */
function phaseStatus(sections: ReturnType<typeof headingSections>): { value: string; at: Position } | null {
  const section = sections.find((s) => PHASE_STATUS.test(s.title.trim()));
  const list = section?.nodes.find((n): n is List => n.type === 'list');
  if (!section || !list) return null;
  const words = list.children.map(
    (item) => /^phase\b[^:]*:\s*([\p{L}_ -]+?)\s*(?:\(|$)/iu.exec(toString(item).trim())?.[1] ?? null,
  );
  if (words.length === 0 || words.some((w) => w === null || normalizeStatus(w) === null)) return null;
  const open = words.find((w) => normalizeStatus(w) !== 'complete');
  return { value: open ?? words[0]!, at: lineOf(section.heading) };
}

/** `Status`, maybe with a date in brackets beside it (`## Status (2026-02-01): Done`). */
const STATUS_DATED = String.raw`status\s*(?:\([^)]*\)\s*)?`;
/** A heading's key that is the label and a mark, its word after it. */
const STATUS_THEN_MARK = new RegExp(`^${STATUS_DATED}[:—–-]`);
/** The label at the start of a title, with what may stand before it and the mark after it. */
const STATUS_LABEL = new RegExp(String.raw`^[^\p{L}]*${STATUS_DATED}[:—–-]?\s*`, 'iu');

/** A status heading: `## Status: COMPLETE`, `## Status — Done`, or `## Status` with the word on the line below. */
function headingStatus(section: { title: string; nodes: RootContent[] }): string | null {
  const key = sectionKey(section.title);
  if (key !== 'status' && !STATUS_THEN_MARK.test(key)) return null;
  const inline = section.title.replace(STATUS_LABEL, '').trim();
  if (inline) return inline;
  const first = section.nodes[0];
  return first ? (textOf(first).split('\n')[0] ?? '').trim() : '';
}

/**
 * `**Status:** Done` markers anywhere in the body (a later paragraph, a list item): a bold "Status" label at the start
 * of a line of a paragraph. The value is the rest of that line only: `**Agent:** kraken` on the next line is not
 * part of it.
 */
function statusMarkers(root: Root): { value: string; at: Position }[] {
  const out: { value: string; at: Position }[] = [];
  visit(root, 'paragraph', (p: Paragraph) => {
    const kids = p.children;
    for (let i = 0; i < kids.length; i++) {
      const node = kids[i]!;
      if (node.type !== 'strong' || !/^status\s*:?$/i.test(textOf(node)) || !startsLine(kids, i)) continue;
      out.push({ value: restOfLine(kids.slice(i + 1)), at: lineOf(i === 0 ? p : node) });
    }
  });
  return out;
}

/** `## Completed: 2026-01-02`, `## Done — 2026-01-02`: a heading that dates the task's end. */
const DATED_DONE = /^(?:completed?|done|finished)\s*(?:[:—–-]|on)?\s*\d{4}-\d{2}-\d{2}\b/i;

/** A status word that ends the title as a marker (`- COMPLETED`, `[DONE]`, `(partial)`, `✅`), when it is one. */
function titleStatus(title: string): string | null {
  if (/✅\s*$/u.test(title)) return 'complete';
  const word = /(?:[-–—:|]\s*|[[(]\s*)([\p{L}_ ]+?)\s*[\])]?\s*$/u.exec(title)?.[1];
  return word && normalizeStatus(word) !== null ? word : null;
}

function fromBody(root: Root, into: Fields): void {
  const bodyStatus: { value: string; at: Position }[] = [];
  const fromSections = new Set<string>();
  const sections = headingSections(root);
  for (const section of sections) {
    const pos = lineOf(section.heading);
    const status = headingStatus(section);
    if (status !== null) {
      if (status) bodyStatus.push({ value: status, at: pos });
      continue;
    }
    const field = sectionField(section.title);
    if (!field) continue;
    const value = sectionValue(field, section.nodes);
    if (field in into.values) {
      // `## Files Created` and `## Files Modified`: both lists are the files the task touched (a key still wins).
      const had = into.values[field];
      if (fromSections.has(field) && LIST_FIELDS.has(field) && Array.isArray(had) && Array.isArray(value))
        into.values[field] = [...had, ...value];
      continue;
    }
    fromSections.add(field);
    into.values[field] = value;
    into.sources[field] = `## ${section.title}`;
    into.positions[`/${field}`] = pos;
  }
  const h1 = root.children.find((n) => n.type === 'heading' && n.depth === 1);
  if (h1 && !('task_desc' in into.values)) {
    into.values.task_desc = textOf(h1).replace(/^(task\s+)?handoff\s*:\s*/i, '');
    into.positions['/task_desc'] = lineOf(h1);
  }
  bodyStatus.push(...statusMarkers(root));
  // A checkpoint block's phase states (the kraken agent's `### Phase Status`) stand in only when nothing else says.
  if (!bodyStatus.some((s) => s.value)) {
    const checkpoint = phaseStatus(sections);
    if (checkpoint) bodyStatus.push(checkpoint);
  }
  // The title's marker (`# Task 03: Chat types - COMPLETED`) or a dated heading (`## Completed: 2026-01-02`) stands
  // in only when nothing else says: the author's word for the task, written where a reader looks first.
  if (!bodyStatus.some((s) => s.value)) {
    const titled = h1 ? titleStatus(textOf(h1)) : null;
    const dated = sections.find((x) => DATED_DONE.test(x.title.trim()));
    if (titled && h1) bodyStatus.push({ value: titled, at: lineOf(h1) });
    else if (dated) bodyStatus.push({ value: 'complete', at: lineOf(dated.heading) });
  }
  bodyStatus.sort((a, b) => a.at.line - b.at.line);
  let rest = bodyStatus;
  const first = bodyStatus.find((s) => s.value);
  if (!('status' in into.values) && first) {
    into.values.status = first.value;
    into.sources.status = 'Status';
    into.positions['/status'] = first.at;
    rest = bodyStatus.filter((s) => s !== first);
  }
  for (const s of rest) into.claims.push({ source: 'body', raw: s.value, status: normalizeStatus(s.value), ...s.at });
}

/** Fields the schema holds as one text, which some dialects write as a list of lines (v3 YAML `next:`). */
const TEXT_FIELDS = ['task_desc', 'context_for_next'];

function asText(value: unknown): unknown {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join('\n') : value;
}

function build(
  loc: HandoffLocation,
  fields: Fields,
  problems: ReadProblem[],
  disables: Handoff['disables'],
  frontmatter: Record<string, unknown> | null,
  anchor: Position,
  text: string,
  dialect: HandoffDialect,
): Handoff {
  const v = { ...fields.values };
  for (const field of TEXT_FIELDS) if (field in v) v[field] = asText(v[field]);
  const isTask = loc.fileTask !== null || 'task' in v;
  const status = normalizeStatus(v.status);
  const normalized: Record<string, unknown> = { kind: isTask ? 'task' : 'session', dialect };
  for (const [field, value] of Object.entries(v)) if (value !== undefined) normalized[field] = value;
  // Hand-written and body-marker handoffs carry their number only in the `task-NN` file name.
  if (!('task' in v) && loc.fileTask !== null) normalized.task = loc.fileTask;
  if (status) normalized.status = status;
  return {
    kind: 'handoff',
    path: loc.path,
    readable: true,
    problems,
    disables,
    positions: fields.positions,
    anchor,
    dialect,
    isTask,
    session: loc.session,
    root: loc.root,
    fileTask: loc.fileTask,
    status,
    task: Number.isInteger(v.task) ? (v.task as number) : null,
    taskDesc: typeof v.task_desc === 'string' ? v.task_desc : null,
    planRef: typeof v.plan === 'string' ? v.plan : null,
    previous: typeof v.previous === 'string' ? v.previous : null,
    retryOf: typeof v.retry_of === 'string' ? v.retry_of : null,
    verification: Array.isArray(v.verification_results) ? v.verification_results : [],
    resolution: v.resolution ?? null,
    claims: fields.claims,
    mentions: mentionsOf(text),
    sources: fields.sources,
    normalized,
    frontmatter,
  };
}

/** The content of an orchestration state file: a phase pointer or a list of phases, and none of a handoff's keys. */
function looksLikeState(data: Record<string, unknown>): boolean {
  const handoffKeys = [
    'task',
    'task_number',
    'task_desc',
    'files_modified',
    'context_for_next',
    'next',
    'goal',
    'done_this_session',
    'verification_results',
  ];
  return (
    ('current_phase' in data || (Array.isArray(data.phases) && ('mode' in data || 'session' in data))) &&
    !handoffKeys.some((k) => k in data)
  );
}

/**
 * An orchestration state file in a handoff session folder, or null when the file is a handoff. Decided by name for a
 * file that does not parse (so its removal is never a "deleted handoff"), by content otherwise.
 */
export function readOrchestrationState(
  path: string,
  root: string,
  text: string,
  known = false,
): OrchestrationState | null {
  if (!known && !/\.ya?ml$/i.test(path)) return null;
  const loc = handoffLocation(path, root);
  const yaml = readYaml(text, 0, { comments: true });
  const first = yaml.documents[0];
  const byName = known || isStateFileName(path);
  if (!byName && !(yaml.documents.length === 1 && isRecord(first) && looksLikeState(first))) return null;
  return {
    kind: 'orchestration',
    path,
    readable: true,
    problems: yaml.problems,
    disables: yamlDisables(yaml.comments),
    positions: yaml.positions,
    session: loc.session,
    data: isRecord(first) ? first : null,
  };
}

/** A handoff in YAML: one document, or the v3 pair of a frontmatter document and a body document. */
function fromYaml(loc: HandoffLocation, text: string, fields: Fields, dialect: HandoffDialect): Handoff {
  const yaml = readYaml(text, 0, { comments: true });
  const problems = [...yaml.problems];
  const docs = yaml.documents.filter((d) => d !== null && d !== undefined);
  // Point at the document with the wrong shape (often the body after the frontmatter), not at the top of the file.
  const bad = yaml.documents.findIndex((d) => d !== null && d !== undefined && !isRecord(d));
  if (problems.length === 0 && bad >= 0)
    problems.push({
      ...(yaml.starts[bad] ?? { line: 1, column: 1 }),
      message: 'A YAML handoff must be one or two YAML mappings.',
    });
  // v3 handoffs: the first document is frontmatter, the second the body; the frontmatter wins on a shared key.
  const merged = Object.assign({}, ...docs.filter(isRecord).reverse()) as Record<string, unknown>;
  if (isRecord(merged.files) && !('files_modified' in merged)) {
    const files = merged.files as Record<string, unknown>;
    merged.files_modified = [...asArray(files.modified), ...asArray(files.created)];
  }
  fromKeys(merged, yaml.positions, fields, yaml.itemText);
  // The first YAML document is the v3 handoff's frontmatter; history judges rewrites of it.
  const first = docs[0];
  const anchor = yaml.starts.find((s) => s !== null) ?? { line: 1, column: 1 };
  const fm = isRecord(first) ? first : null;
  return build(loc, fields, problems, yamlDisables(yaml.comments), fm, anchor, text, dialect);
}

/**
 * What the handoff reader may find in any section, whatever its title: a `**Status:**` marker (statusMarkers) or a
 * disable comment. A strong node's text is its letters in order; an entity (`&#115;`) or a link's destination
 * (`[Sta](x)tus`) could make letters the source does not show together, so those read the section too.
 */
function mayMatter(s: Section): boolean {
  const t = s.text;
  return t.includes('<!--') || t.includes('&') || t.includes('](') || STATUS_LETTERS.test(t);
}

/** `status` in letters with anything but letters between them: the text's letters alone hold the word. */
const STATUS_LETTERS = /s[^a-z]*t[^a-z]*a[^a-z]*t[^a-z]*u[^a-z]*s/i;

/**
 * The sections whose nodes fromBody reads, given the first tree (every top-level heading, the frontmatter): a status
 * heading with its word on the next line, a field's section when no frontmatter key gives the field, a phase status
 * block, each with the sections under it (its nodes run to the next heading of its level or higher).
 */
function sectionsRead(skim: Skim, tree: Root, keyed: ReadonlySet<string>): boolean[] {
  const keep = [...skim.fixed];
  const headings = tree.children.filter((n): n is Heading => n.type === 'heading');
  headings.forEach((h, i) => {
    if (h.depth < 2 || h.depth > 4) return;
    const title = textOf(h);
    const status = headingStatus({ title, nodes: [] });
    const field = status === null ? sectionField(title) : null;
    const read = status === '' || (field !== null && !keyed.has(field)) || PHASE_STATUS.test(title.trim());
    if (!read) return;
    const from = h.position!.start.line;
    const end = headings.slice(i + 1).find((x) => x.depth <= h.depth)?.position!.start.line ?? Infinity;
    skim.sections.forEach((_, j) => {
      // The heading's own section, and every section that starts under it.
      if (skim.starts[j]! <= from ? skim.starts[j + 1]! > from : skim.starts[j]! < end) keep[j] = true;
    });
  });
  return keep;
}

/**
 * The tree fromMarkdown reads and the frontmatter: a skim (read/skim.ts) that parses the sections the reader needs
 * and the heading lines of the others, or the whole file.
 */
function handoffTree(text: string): { tree: Root; fm: Frontmatter } {
  const skim = skimOf(text, mayMatter, 0);
  const first = skim && parseSkimmed(skim, skim.fixed, parseWhole);
  if (!skim || !first) {
    const tree = parseMarkdown(text);
    return { tree, fm: readFrontmatter(tree) };
  }
  // The frontmatter is a section of its own, always read: the first tree's is the file's.
  const fm = readFrontmatter(first);
  const keyed = new Set(
    fm.data ? KEY_ALIASES.filter(([, keys]) => keys.some((k) => k in fm.data!)).map(([field]) => field) : [],
  );
  const keep = sectionsRead(skim, first, keyed);
  if (keep.every((k, i) => k === skim.fixed[i])) return { tree: first, fm };
  return { tree: parseSkimmed(skim, keep, parseWhole) ?? parseMarkdown(text), fm };
}

/** A handoff in Markdown: frontmatter keys first, then sections matched by meaning, then body markers. */
function fromMarkdown(loc: HandoffLocation, text: string, fields: Fields, dialect: HandoffDialect): Handoff {
  const { tree, fm } = handoffTree(text);
  if (fm.data) fromKeys(fm.data, fm.positions, fields);
  fromBody(tree, fields);
  const heading =
    tree.children.find((n) => n.type === 'heading' && n.depth === 1) ?? tree.children.find((n) => n.type === 'heading');
  const anchor = heading ? lineOf(heading) : { line: fm.data ? fm.line : 1, column: 1 };
  return build(loc, fields, [...fm.problems], markdownDisables(tree), fm.data, anchor, text, dialect);
}

const READERS = { yaml: fromYaml, markdown: fromMarkdown } as const;

export function readHandoffText(path: string, root: string, text: string): Handoff {
  const loc = handoffLocation(path, root);
  const dialect = handoffDialectOf(loc.fileName);
  return READERS[dialect.format](loc, text, { values: {}, positions: {}, claims: [], sources: {} }, dialect.name);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
