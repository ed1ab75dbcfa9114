// The parsers themselves: remark (with micromark and its extensions) and yaml, about 40% of the code a check loads.
// Only read/lazy.ts imports this module, by a dynamic import: a warm run that parses nothing never loads it.
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
import type { Root } from 'mdast';

export { readYaml } from './yaml.js';
export { LineCounter, parseDocument } from 'yaml';

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

/** One whole-file parse with the one processor every Markdown reader shares (read/markdown.ts parseWhole). */
export function parseMarkdownText(text: string): Root {
  return processor.parse(text) as Root;
}
