// Skimming a Markdown document: parse only the sections a reader needs, and of the others only their heading line.
// A reader that looks at a handful of sections (the handoff reader: its frontmatter, its headings, the sections its
// keys do not already give) spends most of a full parse on prose it never reads: 3,000 handoffs were half of a cold
// snapshot pass. The document is cut where read/sections.ts cuts it (a column-0 ATX heading that nothing before it can
// swallow: the text before a cut cannot change how the text after it parses), and each section the reader does not
// need keeps its heading line and its line endings only. One parse of that text gives the needed sections' nodes and
// every cut heading exactly as the whole file's parse does, at the same lines and columns (offsets differ: no reader
// of a skimmed tree uses them). The parse is checked against the cuts, and anything unexpected parses the whole file.
// The frontmatter's node is made as remark-frontmatter makes it, and a skipped section's heading whose text is plain
// is the parser's node for that line, parsed once per distinct line: with nothing else to read, a handoff costs no
// parser call of its own.
// `VALIDATE_WORKFLOW_NO_SKIM=1` reads every file whole (the tests compare the two).
import type { Heading, Root, RootContent, Yaml } from 'mdast';
import { parseWhole } from './markdown.js';
import { shiftInPlace, splitSections, type Section } from './sections.js';

export interface Skim {
  sections: Section[];
  /** Each section's first line (1-based), and one past the last for the end of the document. */
  starts: number[];
  /** Sections whose own text says they must be read (skimOf's mustRead, or a heading the cut did not see: unseen). */
  fixed: boolean[];
  /** Each heading section's heading, from the parser's node for its line when its text is plain (headingNode). */
  heads: (Heading | null)[];
  text: string;
}

export function skimOff(): boolean {
  return process.env.VALIDATE_WORKFLOW_NO_SKIM === '1';
}

/**
 * The sections of `text` and which of them its own text says must be read; null when the document must be parsed
 * whole (read/sections.ts splitSections: too small, definitions, an unclosed frontmatter fence; or a byte-order
 * mark, which the parser drops and would shift the cut offsets).
 * `mustRead(section)` names what else a reader looks for in any section (for the handoff reader: `**Status:**`
 * markers and disable comments). Without `madeHeadings`, every cut heading is parsed in place: headings that rarely
 * recur (a plan's) would each cost a parser call of their own.
 */
export function skimOf(
  text: string,
  mustRead: (s: Section) => boolean,
  minChars?: number,
  madeHeadings = true,
): Skim | null {
  if (skimOff() || text.charCodeAt(0) === 0xfeff) return null;
  const sections = splitSections(text, minChars);
  if (!sections) return null;
  const starts = sections.map((s) => s.line + 1);
  starts.push(Number.POSITIVE_INFINITY);
  // A section that may hold a top-level heading the cut did not see (indented, a setext underline, an ATX line where
  // the cut was unsure) is read whole, so that every top-level heading is in the tree.
  const fixed = sections.map((s) => s.kind !== 'frontmatter' && (s.unseen || mustRead(s)));
  const heads = sections.map((s) => (madeHeadings && s.kind === 'heading' ? headingNode(s) : null));
  return { sections, starts, fixed, heads, text };
}

/** Characters that may start or end an inline construct (or change a column, as a tab does): not plain text. */
const NOT_PLAIN = /[*_`[\]!<>&\\~\p{Cc}]/u;

/**
 * A cut heading's node, when its text is plain (nothing inline but text, so its node cannot depend on the rest of
 * the document): the parser's node for that line alone, moved to where the line is. A skimmed handoff is mostly
 * heading lines, each costing the parser as much as a paragraph of prose, and the same few headings (`## Context for
 * Next Task`, `## Decisions`) recur in every handoff of a repository: each distinct line is parsed once per run.
 * Null for anything else: the parser reads that line in place.
 */
export function headingNode(s: Section): Heading | null {
  const eol = /[\n\r]/.exec(s.text);
  const line = eol ? s.text.slice(0, eol.index) : s.text;
  if (NOT_PLAIN.test(line)) return null;
  let json = headingLines.get(line);
  if (json === undefined) {
    const only = parseWhole(line).children;
    json = only.length === 1 && only[0]!.type === 'heading' ? JSON.stringify(only[0]) : null;
    if (headingLines.size >= HEADING_LINES_KEPT) headingLines.clear();
    headingLines.set(line, json);
  }
  if (json === null) return null;
  // Kept as JSON, as read/sections.ts keeps its sections: each use gets fresh nodes to move into place.
  const node = JSON.parse(json) as Heading;
  shiftInPlace([node], s.line, s.offset);
  return node;
}

/** Heading lines parsed, by their text (null: not a heading alone); bounded, since a run may meet many. */
const headingLines = new Map<string, string | null>();
const HEADING_LINES_KEPT = 4096;

/** The line endings of a text, in order (a skipped section keeps them, so every later line keeps its number). */
function lineEndings(text: string): string {
  return text.replace(/[^\n\r]+/g, '');
}

/**
 * The text with each section not kept reduced to its heading line (a preamble to nothing) and its line endings. The
 * frontmatter is always reduced to its line endings: parseSkimmed makes its node (frontmatterNode).
 */
export function skimmedText(skim: Skim, keep: readonly boolean[]): string {
  let out = '';
  skim.sections.forEach((s, i) => {
    if (keep[i] && s.kind !== 'frontmatter') {
      out += s.text;
      return;
    }
    if (s.kind !== 'heading' || skim.heads[i]) {
      out += lineEndings(s.text);
      return;
    }
    const m = /[\n\r]/.exec(s.text);
    out += m ? s.text.slice(0, m.index) + lineEndings(s.text.slice(m.index)) : s.text;
  });
  return out;
}

/**
 * Parse the skimmed text; null when its tree does not keep to the cuts (a node across one, a section that does not
 * start with its heading or frontmatter), and the whole file must be parsed instead.
 */
export function parseSkimmed(skim: Skim, keep: readonly boolean[], parse: (text: string) => Root): Root | null {
  const text = skimmedText(skim, keep);
  // Nothing left to parse (the frontmatter made, plain headings parsed once per distinct line): no parser call, whose
  // set-up alone costs.
  const tree: Root = /[^\n\r]/.test(text)
    ? parse(text)
    : { type: 'root', children: [], position: { start: { line: 1, column: 1, offset: 0 }, end: endOf(text) } };
  const kids = tree.children;
  const children: RootContent[] = [];
  let k = 0;
  for (let i = 0; i < skim.sections.length; i++) {
    const s = skim.sections[i]!;
    const first = skim.starts[i]!;
    const next = skim.starts[i + 1]!;
    const from = k;
    while (k < kids.length && kids[k]!.position!.start.line < next) {
      const p = kids[k]!.position!;
      if (p.start.line < first || p.end.line >= next) return null;
      k++;
    }
    const made = s.kind === 'frontmatter' ? frontmatterNode(s.text) : keep[i] ? null : skim.heads[i];
    if (made) {
      // Its lines were left blank: nothing else may have come of them.
      if (k !== from) return null;
      children.push(made);
      continue;
    }
    const head = kids[from];
    if (
      s.kind === 'heading' &&
      (k === from ||
        head!.type !== 'heading' ||
        head!.position!.start.line !== first ||
        head!.position!.start.column !== 1)
    )
      return null;
    // A section not kept is its heading alone (a preamble nothing).
    if (!keep[i] && k - from !== (s.kind === 'heading' ? 1 : 0)) return null;
    for (let n = from; n < k; n++) children.push(kids[n]!);
  }
  if (k !== kids.length) return null;
  tree.children = children;
  return tree;
}

/** Where a text ends, as the parser gives a root's end. */
function endOf(text: string): { line: number; column: number; offset: number } {
  const lines = text.split(/\r\n|\n|\r/);
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1, offset: text.length };
}

/**
 * The frontmatter's node as remark-frontmatter makes it, without running micromark over it (a third of what a skimmed
 * handoff cost to parse): splitSections cut it where micromark ends it (`---` and blanks alone on the first line, up to
 * the next such line; BOM-less text, as skimOf asks), and mdast-util-frontmatter's value is the text between the two
 * fence lines less its last line ending. test/read/skim.test.ts holds it equal to the parser's node.
 */
export function frontmatterNode(text: string): Yaml {
  const opened = /\r\n|\n|\r/.exec(text)!;
  const bodyStart = opened.index + opened[0].length;
  // The closing fence is the section's last line; the section ends with its line ending unless the document ends there.
  const fenced = text.replace(/(?:\r\n|\n|\r)$/, '');
  const closeStart = Math.max(fenced.lastIndexOf('\n'), fenced.lastIndexOf('\r')) + 1;
  const value = closeStart > bodyStart ? text.slice(bodyStart, closeStart).replace(/(?:\r\n|\n|\r)$/, '') : '';
  const line = fenced.split(/\r\n|\n|\r/).length;
  return {
    type: 'yaml',
    value,
    position: {
      start: { line: 1, column: 1, offset: 0 },
      end: { line, column: fenced.length - closeStart + 1, offset: fenced.length },
    },
  };
}
