// Handoff text -> Handoff model. Fields come from frontmatter keys first, then from sections of the body
// (Continuous-Claude implement_task: `## Files Modified`, `## TDD Verification`, ...), then from body markers
// (`**Status:** Done`, `## Status: COMPLETE`). Continuous-Claude v3 YAML handoffs are two YAML documents.
import type { List, Paragraph, Root, RootContent } from 'mdast';
import type { Handoff, HandoffDialect, HandoffStatus, PositionMap, ReadProblem } from '../model/types.js';
import { lineOf, parseMarkdown, sections, textOf } from './markdown.js';
import { isRecord, readFrontmatter } from './frontmatter.js';
import { markdownDisables, yamlDisables } from './disables.js';
import { readYaml } from './yaml.js';
import { handoffLocation, type HandoffLocation } from './paths.js';

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
};

export function normalizeStatus(raw: unknown): HandoffStatus | null {
  if (typeof raw !== 'string') return null;
  const key = raw.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return STATUS_WORDS[key] ?? null;
}

/** Frontmatter key -> normalized field; the first key present wins. */
const KEY_ALIASES: [field: string, keys: string[]][] = [
  ['status', ['status', 'outcome']],
  ['task', ['task', 'task_number']],
  ['task_total', ['task_total', 'total_tasks']],
  ['task_desc', ['task_desc', 'task_description', 'title', 'goal']],
  ['plan', ['plan', 'plan_file']],
  ['previous', ['previous', 'previous_handoff']],
  ['files_modified', ['files_modified']],
  ['verification_results', ['verification_results', 'verification']],
  ['context_for_next', ['context_for_next', 'next_task_context', 'next']],
  ['blocker', ['blocker', 'blockers']],
  ['resolution', ['resolution']],
  ['decisions', ['decisions']],
  ['open_questions', ['open_questions', 'questions']],
];

/** Section title (lower case, without a trailing colon) -> normalized field. */
const SECTION_FIELDS: Record<string, string> = {
  'task summary': 'task_desc',
  'files modified': 'files_modified',
  'files changed': 'files_modified',
  verification: 'verification_results',
  'verification results': 'verification_results',
  'tdd verification': 'verification_results',
  'next task context': 'context_for_next',
  'context for next': 'context_for_next',
  'issues encountered': 'blocker',
  blocker: 'blocker',
  'decisions made': 'decisions',
  decisions: 'decisions',
  'open questions': 'open_questions',
  resolution: 'resolution',
};

const LIST_FIELDS = new Set(['files_modified', 'verification_results', 'decisions', 'open_questions']);

function dialectOf(fileName: string): HandoffDialect {
  if (/\.ya?ml$/i.test(fileName)) return 'yaml-session';
  if (/^task-\d+/i.test(fileName)) return 'task';
  if (fileName.startsWith('validation-')) return 'validation';
  if (fileName.startsWith('auto-handoff-')) return 'auto';
  if (fileName.startsWith('plan-')) return 'plan';
  if (/^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_/.test(fileName)) return 'humanlayer';
  return 'other';
}

interface Fields {
  values: Record<string, unknown>;
  positions: PositionMap;
}

function fromKeys(data: Record<string, unknown>, positions: PositionMap, into: Fields): void {
  for (const [field, keys] of KEY_ALIASES) {
    if (field in into.values) continue;
    const key = keys.find((k) => k in data);
    if (!key) continue;
    into.values[field] = data[key];
    for (const [pointer, pos] of Object.entries(positions)) {
      if (pointer === `/${key}` || pointer.startsWith(`/${key}/`)) into.positions[`/${field}${pointer.slice(key.length + 1)}`] = pos;
    }
  }
}

function listItems(nodes: RootContent[]): { text: string; code: string | null; checked: boolean | null }[] {
  const lists = nodes.filter((n): n is List => n.type === 'list');
  return lists.flatMap((list) =>
    list.children.map((item) => {
      const para = item.children.find((c): c is Paragraph => c.type === 'paragraph');
      const first = para?.children[0];
      return { text: para ? textOf(para) : '', code: first?.type === 'inlineCode' ? first.value : null, checked: item.checked ?? null };
    }),
  );
}

function sectionValue(field: string, nodes: RootContent[]): unknown {
  if (!LIST_FIELDS.has(field)) {
    const text = nodes.map((n) => textOf(n)).filter(Boolean).join('\n');
    if (field === 'blocker' && /^(none|n\/a|-)?\.?$/i.test(text)) return null;
    return text;
  }
  const items = listItems(nodes);
  // implement_task writes `path/to/file.ts:45-67`: the line range says where in the file, not which file.
  if (field === 'files_modified') return items.map((i) => (i.code === null ? i.text : i.code.replace(/:\d+(?:-\d+)?$/, '')));
  if (field === 'verification_results') {
    return items.map((i) => ({ check: i.text, result: i.checked === null ? 'reported' : i.checked ? 'pass' : 'not run' }));
  }
  return items.map((i) => i.text);
}

function fromBody(root: Root, into: Fields): void {
  for (const section of sections(root, 2)) {
    const title = section.title.replace(/:$/, '').trim().toLowerCase();
    const pos = lineOf(section.heading);
    // `## Status: COMPLETE` carries the value in the heading itself.
    if (title.startsWith('status')) {
      const value = section.title.slice('status'.length).replace(/^\s*:\s*/, '').trim() || (section.nodes[0] ? textOf(section.nodes[0]) : '');
      if (!('status' in into.values) && value) {
        into.values.status = value;
        into.positions['/status'] = pos;
      }
      continue;
    }
    const field = SECTION_FIELDS[title];
    if (!field || field in into.values) continue;
    into.values[field] = sectionValue(field, section.nodes);
    into.positions[`/${field}`] = pos;
  }
  const h1 = root.children.find((n) => n.type === 'heading' && n.depth === 1);
  if (h1 && !('task_desc' in into.values)) {
    into.values.task_desc = textOf(h1).replace(/^(task\s+)?handoff\s*:\s*/i, '');
    into.positions['/task_desc'] = lineOf(h1);
  }
  // `**Status:** Done` marker: a paragraph that opens with a bold "Status" label.
  if (!('status' in into.values)) {
    for (const node of root.children) {
      if (node.type !== 'paragraph') continue;
      const first = node.children[0];
      if (first?.type !== 'strong' || !/^status:?$/i.test(textOf(first))) continue;
      into.values.status = textOf(node).slice(textOf(first).length).replace(/^\s*:?\s*/, '').trim();
      into.positions['/status'] = lineOf(node);
      break;
    }
  }
}

/** Fields the schema holds as one text, which some dialects write as a list of lines (v3 YAML `next:`). */
const TEXT_FIELDS = ['task_desc', 'context_for_next'];

function asText(value: unknown): unknown {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join('\n') : value;
}

function build(loc: HandoffLocation, fields: Fields, problems: ReadProblem[], disables: Handoff['disables'], frontmatter: Record<string, unknown> | null): Handoff {
  const v = { ...fields.values };
  for (const field of TEXT_FIELDS) if (field in v) v[field] = asText(v[field]);
  const dialect = dialectOf(loc.fileName);
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
    verification: Array.isArray(v.verification_results) ? v.verification_results : [],
    resolution: v.resolution ?? null,
    normalized,
    frontmatter,
  };
}

export function readHandoffText(path: string, root: string, text: string): Handoff {
  const loc = handoffLocation(path, root);
  const fields: Fields = { values: {}, positions: {} };
  if (/\.ya?ml$/i.test(path)) {
    const yaml = readYaml(text, 0, { comments: true });
    const problems = [...yaml.problems];
    const docs = yaml.documents.filter((d) => d !== null && d !== undefined);
    // Point at the document with the wrong shape (often the body after the frontmatter), not at the top of the file.
    const bad = yaml.documents.findIndex((d) => d !== null && d !== undefined && !isRecord(d));
    if (problems.length === 0 && bad >= 0) problems.push({ ...(yaml.starts[bad] ?? { line: 1, column: 1 }), message: 'A YAML handoff must be one or two YAML mappings.' });
    // v3 handoffs: the first document is frontmatter, the second the body; the frontmatter wins on a shared key.
    const merged = Object.assign({}, ...docs.filter(isRecord).reverse()) as Record<string, unknown>;
    if (isRecord(merged.files) && !('files_modified' in merged)) {
      const files = merged.files as Record<string, unknown>;
      merged.files_modified = [...asArray(files.modified), ...asArray(files.created)];
    }
    fromKeys(merged, yaml.positions, fields);
    // The first YAML document is the v3 handoff's frontmatter; history judges rewrites of it.
    const first = docs[0];
    return build(loc, fields, problems, yamlDisables(yaml.comments), isRecord(first) ? first : null);
  }
  const tree = parseMarkdown(text);
  const fm = readFrontmatter(tree);
  if (fm.data) fromKeys(fm.data, fm.positions, fields);
  fromBody(tree, fields);
  return build(loc, fields, [...fm.problems], markdownDisables(tree), fm.data);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
