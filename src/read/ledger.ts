// Ledger text -> Ledger model. Continuity ledgers keep the session's state as checklist items that GFM does not
// all know: `[x]` and `[ ]` are GFM tasks, `[→]`, `[->]` and `[>]` (in progress) are plain text the parser leaves
// at the start of the item; Done/Now/Next/Remaining labels set the state of the items under them.
import type { List, ListItem } from 'mdast';
import type { Heading, Paragraph, RootContent } from 'mdast';
import type { Ledger, LedgerItem, LedgerItemState, LedgerLabel, PositionMap } from '../model/types.js';
import { itemText, lineOf, parseMarkdown, sections, textOf } from './markdown.js';
import { readFrontmatter } from './frontmatter.js';
import { markdownDisables } from './disables.js';
import { ledgerSessionFromName } from './paths.js';

const MARKERS: [prefix: string, state: LedgerItemState][] = [
  ['[x]', 'done'],
  ['[X]', 'done'],
  ['[ ]', 'pending'],
  ['[→]', 'in-progress'],
  ['[->]', 'in-progress'],
  ['[>]', 'in-progress'],
];

const LABELS: Record<string, LedgerItemState> = {
  done: 'done',
  completed: 'done',
  now: 'in-progress',
  current: 'in-progress',
  'in progress': 'in-progress',
  next: 'pending',
  remaining: 'pending',
  todo: 'pending',
};

/** `Task 3` (not `Task 3.1` or `Task 3A`, which are sub-tasks of no plan task number): the task a ledger item tracks. */
const TASK_TEXT = /^task\s+(\d+)(?![\w.-]*\d|[A-Za-z])/i;
/** What an item is known by: `Task 3`, `Phase 2A`, `Step 4.1` (the label as written), else its text. */
const ITEM_LABEL = /^(task|phase|step)\s+(\d+[A-Za-z]?(?:[.-]\d+[A-Za-z]?)*|[A-Za-z](?:[.-]\d+)+)(?![\w])/i;

export function itemLabel(text: string): string {
  const m = ITEM_LABEL.exec(text);
  if (!m) return text.replace(/\s+/g, ' ').trim().toLowerCase();
  return `${m[1]![0]!.toUpperCase()}${m[1]!.slice(1).toLowerCase()} ${m[2]!.toUpperCase()}`;
}

/**
 * A section title as the reader compares it: `## State — COMPLETE (2026-07-11)` -> `state`, `## Open Questions:` ->
 * `open questions`. What follows a dash, a colon or a parenthesis is a note on the section, not its name.
 */
export function ledgerSectionKey(title: string): string {
  return title
    .split(/\s+-\s+|\s*[:(—–]/)[0]!
    .replace(/[\s:.]+$/, '')
    .trim()
    .toLowerCase();
}

/** The state a group label (`- Done:`) hands down; `labelledOnly` below an item with its own box (see onItem). */
interface Inherited {
  state: LedgerItemState;
  word: string;
  labelledOnly?: boolean;
}

function splitLabel(text: string): { label: LedgerItemState | null; word: string | null; rest: string } {
  const colon = text.indexOf(':');
  if (colon > 0) {
    const word = text.slice(0, colon).trim();
    const label = LABELS[word.toLowerCase()];
    if (label) return { label, word, rest: text.slice(colon + 1).trim() };
  }
  return { label: null, word: null, rest: text };
}

function splitMarker(text: string): { marker: LedgerItemState | null; rest: string } {
  for (const [prefix, state] of MARKERS)
    if (text.startsWith(prefix)) return { marker: state, rest: text.slice(prefix.length).trim() };
  return { marker: null, rest: text };
}

export function readLedgerText(path: string, text: string): Ledger {
  const root = parseMarkdown(text);
  const fm = readFrontmatter(root);
  const data = fm.data ?? {};
  const items: LedgerItem[] = [];
  const positions: PositionMap = { ...fm.positions };
  const found: Record<string, string> = {};

  const labels: LedgerLabel[] = [];
  let sectionTitle = '';

  const onItem = (item: ListItem, inherited: Inherited | null): void => {
    const { label, word, rest } = splitLabel(itemText(item));
    const { marker, rest: body } = splitMarker(rest);
    const gfm: LedgerItemState | null = item.checked === true ? 'done' : item.checked === false ? 'pending' : null;
    // Under an item with its own box, only a bullet that names a task, phase or step is an item of the group.
    const group = inherited && (!inherited.labelledOnly || ITEM_LABEL.test(body)) ? inherited : null;
    const state = gfm ?? marker ?? label ?? group?.state ?? null;
    if (label && word) labels.push({ label: word, section: sectionTitle, ...lineOf(item) });
    if (state && body) {
      const m = TASK_TEXT.exec(body);
      items.push({
        text: body,
        state,
        task: m ? Number(m[1]) : null,
        label: itemLabel(body),
        group: word ?? group?.word ?? null,
        ...lineOf(item),
      });
    }
    // Plain bullets under an item that carries its own box or marker are notes on that item (what was done, how),
    // not items of the group's label: under `Now:`, the notes of a `[x]` item are not items in progress. A bullet
    // that names a task, phase or step (`- Task 2: Wire it`) is still the group's item.
    const pass =
      label && word
        ? { state: label, word }
        : (gfm ?? marker) && inherited
          ? { ...inherited, labelledOnly: true }
          : inherited;
    for (const child of item.children) if (child.type === 'list') onList(child, pass);
  };
  const onList = (list: List, inherited: Inherited | null): void => {
    for (const item of list.children) onItem(item, inherited);
  };

  for (const section of sections(root, 2)) {
    const title = ledgerSectionKey(section.title);
    found[title] = section.nodes.map((n) => textOf(n)).join('\n');
    positions[`/${title.replace(/\s+/g, '_')}`] = lineOf(section.heading);
    if (title !== 'state') continue;
    sectionTitle = section.title;
    // `### Done` / `### Remaining` sub-headings inside State label the lists under them, like `- Done:` items.
    let under: { state: LedgerItemState; word: string } | null = null;
    for (const node of section.nodes as RootContent[]) {
      if (node.type === 'heading') {
        const word = ledgerSectionKey(textOf(node as Heading));
        const s = LABELS[word];
        under = s ? { state: s, word: textOf(node as Heading) } : null;
        sectionTitle = textOf(node as Heading);
      } else if (node.type === 'list') onList(node, under);
      else if (node.type === 'paragraph' && isBoldTitle(node)) sectionTitle = textOf(node).trim();
    }
  }
  items.forEach((item, i) => (positions[`/state/${i}`] = { line: item.line, column: item.column }));

  const normalized: Record<string, unknown> = {
    ...pickDefined({ session: data.session, plan: data.plan, status: data.status }),
  };
  if ('goal' in found) normalized.goal = found.goal;
  if ('state' in found) normalized.state = items.map((i) => ({ text: i.text, state: i.state, task: i.task }));
  const heading =
    root.children.find((n) => n.type === 'heading' && n.depth === 1) ?? root.children.find((n) => n.type === 'heading');

  return {
    kind: 'ledger',
    path,
    readable: true,
    problems: [...fm.problems],
    disables: markdownDisables(root),
    positions,
    anchor: heading ? lineOf(heading) : { line: fm.data ? fm.line : 1, column: 1 },
    session: typeof data.session === 'string' ? data.session : ledgerSessionFromName(path),
    planRef: typeof data.plan === 'string' ? data.plan : null,
    status: typeof data.status === 'string' ? data.status : null,
    items,
    labels,
    mentions: mentionsOf(text),
    normalized,
  };
}

/**
 * A paragraph that is nothing but bold text, with at most an emoji or a mark beside it (`📋 **v1.1 planned**`): a
 * heading in all but syntax (markdownlint's MD036 names the habit), so the lists under it are a block of their own.
 */
function isBoldTitle(p: Paragraph): boolean {
  const strong = p.children.filter((c) => c.type === 'strong');
  const rest = p.children.filter((c) => c.type !== 'strong');
  return strong.length === 1 && rest.every((c) => c.type === 'text' && !/[\p{L}\p{N}]/u.test(c.value));
}

/** Lower-case text kept for link inference; a cap keeps the history cache small. */
export function mentionsOf(text: string): string {
  return text.slice(0, 16384).toLowerCase();
}

function pickDefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
