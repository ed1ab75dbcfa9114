// The Markdown helpers every reader shares; the parse itself is the one remark processor of read/parsers.ts, loaded on
// demand (read/lazy.ts).
import type { Root, RootContent, Heading, ListItem, Html, Paragraph, PhrasingContent, Yaml } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { Node } from 'unist';
import { parseSectioned } from './sections.js';
import { noteMarkdownParse, parsers } from './lazy.js';

/** One whole-file parse, nothing reused. */
export function parseWhole(text: string): Root {
  noteMarkdownParse();
  return parsers().parseMarkdownText(text);
}

/**
 * Parse Markdown. Large documents are parsed section by section through a small cache of unchanged sections
 * (read/sections.ts), which yields the same tree as a whole-file parse; `VALIDATE_WORKFLOW_WHOLE_PARSE=1` turns the
 * reuse off. Every call returns a fresh tree that the caller may change.
 */
export function parseMarkdown(text: string): Root {
  if (process.env.VALIDATE_WORKFLOW_WHOLE_PARSE === '1') return parseWhole(text);
  let sectioned: Root | null;
  try {
    sectioned = parseSectioned(text, parseWhole);
  } catch (err) {
    // Assembling walks each section's tree recursively, the parser does not: a tree nested thousands deep can
    // overflow the one and not the other. The whole parse decides, as it would without the reuse.
    if (!(err instanceof RangeError)) throw err;
    sectioned = null;
  }
  return sectioned ?? parseWhole(text);
}

export function frontmatterNode(root: Root): Yaml | null {
  const first = root.children[0];
  return first && first.type === 'yaml' ? first : null;
}

export function textOf(node: Node): string {
  return toString(node).trim();
}

export function lineOf(node: { position?: { start: { line: number; column: number } } }): {
  line: number;
  column: number;
} {
  return { line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 };
}

/** A list item's own first paragraph (not its nested lists), if it has one. */
export function itemParagraph(item: ListItem): Paragraph | undefined {
  return item.children.find((c): c is Paragraph => c.type === 'paragraph');
}

/** The text of a list item's own first paragraph (not of its nested lists). */
export function itemText(item: ListItem): string {
  const para = itemParagraph(item);
  return para ? textOf(para) : '';
}

export function isHeading(node: RootContent): node is Heading {
  return node.type === 'heading';
}

export function htmlComments(root: Root): Html[] {
  const out: Html[] = [];
  const walk = (nodes: RootContent[]): void => {
    for (const node of nodes) {
      if (node.type === 'html') out.push(node);
      if ('children' in node) walk(node.children as RootContent[]);
    }
  };
  walk(root.children);
  return out;
}

/** Top-level sections: each heading with the nodes up to the next heading of the same or a higher level. */
export interface Section {
  heading: Heading;
  title: string;
  nodes: RootContent[];
}

export function sections(root: Root, depth: number): Section[] {
  const out: Section[] = [];
  let current: Section | null = null;
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth <= depth) {
      current = node.depth === depth ? { heading: node, title: textOf(node), nodes: [] } : null;
      if (current) out.push(current);
      continue;
    }
    current?.nodes.push(node);
  }
  return out;
}

/** Whether the `i`th of a paragraph's inline nodes starts a source line (the first, or after a break or a newline). */
export function startsLine(nodes: PhrasingContent[], i: number): boolean {
  const prev = nodes[i - 1];
  return i === 0 || prev?.type === 'break' || (prev?.type === 'text' && /\n\s*$/.test(prev.value));
}

/**
 * The text after a bold label up to the end of its source line, without a leading colon: the label's value. A label
 * alone on its line (`**Status:**` with the value on the next line) has an empty value; the next line is prose.
 */
export function restOfLine(nodes: PhrasingContent[]): string {
  let text = '';
  for (const n of nodes) {
    if (n.type === 'break') break;
    // Untrimmed: a text node that starts with the line break ends the label's line at once.
    const t = toString(n);
    const nl = t.indexOf('\n');
    if (nl >= 0) {
      text += t.slice(0, nl);
      break;
    }
    text += t;
  }
  return text.replace(/^\s*:?\s*/, '').trim();
}
