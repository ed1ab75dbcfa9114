// What an automated item claims, read from its plan's text at the commit that ticked it: the item as written
// (backticks kept, for the message) and its commands (every code span of its own paragraph). And which of them the
// repository allows to run (`verify.allow`).
import type { ListItem, Paragraph, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { itemParagraph, parseMarkdown, textOf } from '../read/markdown.js';

export interface ItemSource {
  /** The item's own paragraph as the plan writes it, on one line: `Tests pass: \`npm test\``. */
  written: string;
  /** The code spans of that paragraph, in order, each on one line. */
  commands: string[];
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A plan's checkbox items, parsed once: `find(line, text)` gives the item at `line` (where the history's event puts
 * it), else the one whose text is `text` (the model's text, backticks dropped), with its source and commands; null
 * when neither is found. One commit often ticks several items of one plan.
 */
export function planItems(markdown: string): { find(line: number, text: string): ItemSource | null } {
  const root: Root = parseMarkdown(markdown);
  const items: { item: ListItem; para: Paragraph }[] = [];
  visit(root, 'listItem', (item: ListItem) => {
    const para = itemParagraph(item);
    if (para?.position && typeof item.checked === 'boolean') items.push({ item, para });
  });
  return {
    find(line, text) {
      const found =
        items.find(({ item, para }) => item.position?.start.line === line || para.position!.start.line === line) ??
        items.find(({ para }) => oneLine(textOf(para)) === oneLine(text));
      if (!found) return null;
      const { para } = found;
      const commands: string[] = [];
      visit(para, 'inlineCode', (code) => {
        const command = oneLine(code.value);
        if (command && !commands.includes(command)) commands.push(command);
      });
      const written = oneLine(markdown.slice(para.position!.start.offset, para.position!.end.offset));
      return { written, commands };
    },
  };
}

/**
 * Shell operators a wildcard never matches: `npm run *` allows `npm run build`, not `npm run build; curl ...` nor
 * `npm run $(...)`. The commands run through a shell (they are written for one: `npm test -- --grep login`), so
 * what a pattern's `*` stands for must not be able to start a second command.
 */
const OPERATORS = /[;&|<>$`\\()\n\r]/;

/** Whether `command` matches `pattern`: whitespace runs are one space; `*` stands for any text without an operator. */
export function allowedBy(pattern: string, command: string): boolean {
  const parts = oneLine(pattern).split('*');
  const target = oneLine(command);
  if (parts.length === 1) return target === parts[0];
  const regex = new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('(.*?)')}$`, 's');
  const m = regex.exec(target);
  if (!m) return false;
  return m.slice(1).every((wild) => !OPERATORS.test(wild));
}

/** The pattern of `allow` that lets `command` run, or null. */
export function allowingPattern(allow: readonly string[], command: string): string | null {
  return allow.find((p) => allowedBy(p, command)) ?? null;
}
