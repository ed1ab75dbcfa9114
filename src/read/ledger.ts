// Ledger text -> Ledger model. Continuity ledgers keep the session's state as checklist items that GFM does not
// all know: `[x]` and `[ ]` are GFM tasks, `[→]`, `[->]` and `[>]` (in progress) are plain text the parser leaves
// at the start of the item; Done/Now/Next/Remaining labels set the state of the items under them.
import type { List, ListItem } from 'mdast';
import type { Ledger, LedgerItem, LedgerItemState, PositionMap } from '../model/types.js';
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

const TASK_TEXT = /^task\s+(\d+)\b/i;

function splitLabel(text: string): { label: LedgerItemState | null; rest: string } {
  const colon = text.indexOf(':');
  if (colon > 0) {
    const label = LABELS[text.slice(0, colon).trim().toLowerCase()];
    if (label) return { label, rest: text.slice(colon + 1).trim() };
  }
  return { label: null, rest: text };
}

function splitMarker(text: string): { marker: LedgerItemState | null; rest: string } {
  for (const [prefix, state] of MARKERS) if (text.startsWith(prefix)) return { marker: state, rest: text.slice(prefix.length).trim() };
  return { marker: null, rest: text };
}

export function readLedgerText(path: string, text: string): Ledger {
  const root = parseMarkdown(text);
  const fm = readFrontmatter(root);
  const data = fm.data ?? {};
  const items: LedgerItem[] = [];
  const positions: PositionMap = { ...fm.positions };
  const found: Record<string, string> = {};

  const onItem = (item: ListItem, inherited: LedgerItemState | null): void => {
    const { label, rest } = splitLabel(itemText(item));
    const { marker, rest: body } = splitMarker(rest);
    const gfm: LedgerItemState | null = item.checked === true ? 'done' : item.checked === false ? 'pending' : null;
    const state = gfm ?? marker ?? label ?? inherited;
    if (state && body) {
      const m = TASK_TEXT.exec(body);
      items.push({ text: body, state, task: m ? Number(m[1]) : null, ...lineOf(item) });
    }
    for (const child of item.children) if (child.type === 'list') onList(child, label ?? inherited);
  };
  const onList = (list: List, inherited: LedgerItemState | null): void => {
    for (const item of list.children) onItem(item, inherited);
  };

  for (const section of sections(root, 2)) {
    const title = section.title.replace(/:$/, '').trim().toLowerCase();
    found[title] = section.nodes.map((n) => textOf(n)).join('\n');
    positions[`/${title.replace(/\s+/g, '_')}`] = lineOf(section.heading);
    if (title !== 'state') continue;
    for (const node of section.nodes) if (node.type === 'list') onList(node, null);
  }
  items.forEach((item, i) => (positions[`/state/${i}`] = { line: item.line, column: item.column }));

  const normalized: Record<string, unknown> = {
    ...pickDefined({ session: data.session, plan: data.plan, status: data.status }),
  };
  if ('goal' in found) normalized.goal = found.goal;
  if ('state' in found) normalized.state = items.map((i) => ({ text: i.text, state: i.state, task: i.task }));

  return {
    kind: 'ledger',
    path,
    readable: true,
    problems: [...fm.problems],
    disables: markdownDisables(root),
    positions,
    session: typeof data.session === 'string' ? data.session : ledgerSessionFromName(path),
    planRef: typeof data.plan === 'string' ? data.plan : null,
    status: typeof data.status === 'string' ? data.status : null,
    items,
    normalized,
  };
}

function pickDefined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
