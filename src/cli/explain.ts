// `validate-workflow explain <rule-id>`: the rule's docs page for a terminal. The page is the one source of truth
// (its examples are run by the docs test), so this renders it rather than keeping a second text in the code.
import { readFileSync } from 'node:fs';
import type { BlockContent, DefinitionContent, List, ListItem, PhrasingContent, Root, RootContent, Table } from 'mdast';
import { parseMarkdown } from '../read/markdown.js';
import { RULES, ruleById } from '../engine/catalog.js';
import { closest } from '../shared/text.js';
import type { Rule } from '../rules/types.js';
import { EXIT } from './io.js';
import { UsageError } from '../shared/errors.js';
import { defineCommand } from './command.js';

const CODE_INDENT = '    ';

type Block = RootContent | BlockContent | DefinitionContent;

function inline(nodes: PhrasingContent[]): string {
  return nodes.map(phrase).join('');
}

function phrase(node: PhrasingContent): string {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'inlineCode':
      // Backticks stay: without colour they are what tells code from prose.
      return `\`${node.value}\``;
    case 'emphasis':
    case 'strong':
    case 'delete':
      return inline(node.children);
    case 'link': {
      const text = inline(node.children);
      // A relative link points into the package, which a terminal reader cannot follow: the text is enough.
      return /^https?:/.test(node.url) && node.url !== text ? `${text} (${node.url})` : text;
    }
    case 'image':
      return node.alt ?? '';
    case 'break':
      return '\n';
    case 'html':
      return node.value.startsWith('<!--') ? '' : node.value;
    default:
      return '';
  }
}

function indent(text: string, first: string, rest: string = ' '.repeat(first.length)): string {
  return text
    .split('\n')
    .map((line, i) => (line === '' ? '' : (i === 0 ? first : rest) + line))
    .join('\n');
}

function heading(text: string, depth: number): string {
  if (depth === 1) return `${text.toUpperCase()}\n${'='.repeat(text.length)}`;
  if (depth === 2) return `${text}\n${'-'.repeat(text.length)}`;
  return text.toUpperCase();
}

/**
 * The docs examples are scripts the docs test plays (`markdown file=<path>` writes a file, `file=<path> delete`
 * removes it, `commit` commits, `run` sets how the tool is run): the caption says which step a block is.
 */
function codeCaption(lang: string | null | undefined, meta: string | null | undefined): string | null {
  const words = meta?.split(/\s+/) ?? [];
  const file = words.find((w) => w.startsWith('file='))?.slice('file='.length);
  if (file) return words.includes('delete') ? `delete ${file}` : `${file}:`;
  if (lang === 'commit') return 'commit:';
  if (lang === 'run') return 'run with:';
  return null;
}

function list(node: List): string {
  const start = node.start ?? 1;
  return node.children
    .map((item, i) => listItem(item, node.ordered ? `${start + i}. ` : '- '))
    .join(node.spread ? '\n\n' : '\n');
}

function listItem(item: ListItem, marker: string): string {
  const box = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
  const body = blocks(item.children, item.spread ? '\n\n' : '\n');
  return indent(`${box}${body}`, marker);
}

function table(node: Table): string {
  const rows = node.children.map((row) => row.children.map((c) => inline(c.children).replace(/\n/g, ' ')));
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  if (!head) return '';
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

function block(node: Block): string | null {
  switch (node.type) {
    case 'heading':
      return heading(inline(node.children), node.depth);
    case 'paragraph':
      return inline(node.children);
    case 'list':
      return list(node);
    case 'code': {
      const caption = codeCaption(node.lang, node.meta);
      if (caption && node.value === '') return `  ${caption}`;
      const code = node.value
        .split('\n')
        .map((l) => (l === '' ? '' : CODE_INDENT + l))
        .join('\n');
      return caption ? `  ${caption}\n${code}` : code;
    }
    case 'blockquote':
      return blocks(node.children, '\n\n')
        .split('\n')
        .map((l) => `| ${l}`.trimEnd())
        .join('\n');
    case 'table':
      return table(node);
    case 'thematicBreak':
      return '-'.repeat(40);
    case 'html':
      return node.value.startsWith('<!--') ? null : node.value;
    case 'yaml':
    case 'definition':
      return null;
    default:
      return 'children' in node ? blocks(node.children as Block[], '\n\n') : null;
  }
}

function blocks(nodes: Block[], gap: string): string {
  return nodes
    .map(block)
    .filter((t): t is string => t !== null && t !== '')
    .join(gap);
}

/** The page as terminal text: headings underlined or upper-cased, lists indented, code indented under a caption. */
export function renderForTerminal(root: Root): string {
  return `${blocks(root.children, '\n\n').trimEnd()}\n`;
}

/** When the docs are not installed alongside (a trimmed package), the catalog still says what a rule is about. */
function fromMeta(rule: Rule): string {
  const { meta } = rule;
  return [
    heading(meta.id, 1),
    '',
    meta.description,
    '',
    `- Severity: \`${meta.severities.recommended}\` in \`recommended\`, \`${meta.severities.strict}\` in \`strict\``,
    `- The rule in one line: \`${meta.formula}\``,
    '',
    heading('How to fix', 2),
    '',
    meta.fix,
    '',
  ].join('\n');
}

/** What a rule checks, in one line: its short description, else the first sentence of the long one. */
export function shortOf(rule: Rule): string {
  return rule.meta.short ?? /^.*?\.(?=\s|$)/.exec(rule.meta.description)?.[0] ?? rule.meta.description;
}

/** The docs page of a rule for the terminal, or null when no rule has that id. */
export function explain(ruleId: string): string | null {
  // Only a catalog id reaches the file system, so `../` in the argument cannot name another file.
  const rule = ruleById(ruleId);
  if (!rule) return null;
  let text: string;
  try {
    text = readFileSync(new URL(`../../docs/rules/${rule.meta.id}.md`, import.meta.url), 'utf8');
  } catch {
    return fromMeta(rule);
  }
  return renderForTerminal(parseMarkdown(text));
}

/** Every rule on one line each: its id, its severities in recommended and strict, and what it checks in brief. */
export function ruleList(): string {
  const width = Math.max(...RULES.map((r) => r.meta.id.length));
  const levels = (r: Rule) => `${r.meta.severities.recommended}/${r.meta.severities.strict}`;
  const level = Math.max(...RULES.map((r) => levels(r).length));
  return [
    'Rules (severity in recommended/strict); `validate-workflow explain <rule-id>` prints one in full:',
    '',
    ...RULES.map((r) => `${r.meta.id.padEnd(width)}  ${levels(r).padEnd(level)}  ${shortOf(r)}`.trimEnd()),
    '',
  ].join('\n');
}

/** The rule ids a mistyped one most likely meant: a near miss, or every rule whose id ends with the word. */
export function suggestRules(word: string): string[] {
  const ids = RULES.map((r) => r.meta.id);
  const tails = ids.filter((id) => id.endsWith(`/${word}`));
  if (tails.length) return tails;
  const near = closest(word, ids);
  return near ? [near] : [];
}

export const command = defineCommand({
  name: 'explain',
  summary: "print a rule's page: what it checks, why, and how to fix it",
  usage: `Usage: validate-workflow explain [rule-id]

Prints the documentation page of a rule (docs/rules/<rule-id>.md) for the terminal, e.g.
validate-workflow explain plan/phase-order
Without a rule id, lists every rule with its severities and what it checks.

Options:
  -h, --help  show this help
`,
  options: {},
  action: ({ positionals }, io) => {
    const id = positionals[0];
    if (!id) {
      io.stdout(ruleList());
      return EXIT.ok;
    }
    const page = explain(id);
    if (page === null) {
      const near = suggestRules(id);
      const hint = near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
      throw new UsageError(`unknown rule id: ${id}${hint} (\`validate-workflow explain\` lists them all)`);
    }
    io.stdout(page.endsWith('\n') ? page : `${page}\n`);
    return EXIT.ok;
  },
});
