// The one remark processor every Markdown reader shares: parse only, nothing is serialized.
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import type { Processor } from 'unified';
import type { Root, RootContent, Heading, ListItem, Html, Paragraph, Yaml } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { Node } from 'unist';
import { parseSectioned } from './sections.js';

/**
 * remark-gfm's extensions without autolink literals: no reader uses link nodes, and the autolink tokenizer, which
 * tries every `www.`, `http` and `@` in the text, costs 12% to 38% of a parse's CPU time (`node bench/gfm.mjs`:
 * three corpus repositories' plans, this repository's own files). An autolink literal stays text, whose string
 * value is the same. Task list items, tables, strike-through and footnotes are parsed as remark-gfm parses them.
 */
function gfmWithoutAutolinks(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(gfmTaskListItem(), gfmTable(), gfmStrikethrough(), gfmFootnote());
  (data.fromMarkdownExtensions ??= []).push(
    gfmTaskListItemFromMarkdown(),
    gfmTableFromMarkdown(),
    gfmStrikethroughFromMarkdown(),
    gfmFootnoteFromMarkdown(),
  );
}

const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(gfmWithoutAutolinks);

/** One whole-file parse, nothing reused. */
export function parseWhole(text: string): Root {
  return processor.parse(text) as Root;
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
