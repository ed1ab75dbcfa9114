// Skimming a Markdown document: parse only the sections a reader needs, and of the others only their heading line.
// A reader that looks at a handful of sections (the handoff reader: its frontmatter, its headings, the sections its
// keys do not already give) spends most of a full parse on prose it never reads: 3,000 handoffs were half of a cold
// snapshot pass. The document is cut where read/sections.ts cuts it (a column-0 ATX heading that nothing before it can
// swallow: the text before a cut cannot change how the text after it parses), and each section the reader does not
// need keeps its heading line and its line endings only. One parse of that text gives the needed sections' nodes and
// every cut heading exactly as the whole file's parse does, at the same lines and columns (offsets differ: no reader
// of a skimmed tree uses them). The parse is checked against the cuts, and anything unexpected parses the whole file.
// `VALIDATE_WORKFLOW_NO_SKIM=1` reads every file whole (the tests compare the two).
import type { Root, Yaml } from 'mdast';
import { splitSections, type Section } from './sections.js';

export interface Skim {
  sections: Section[];
  /** Each section's first line (1-based), and one past the last for the end of the document. */
  starts: number[];
  /** Sections whose own text says they must be read (Skim.mustRead). */
  fixed: boolean[];
  text: string;
}

/**
 * A top-level heading the cut did not see (indented, after an HTML line, or a setext underline, which a thematic
 * break also matches): the section holding one is read whole, so that every top-level heading is in the tree.
 */
const MAYBE_HEADING = /[\n\r] {0,3}(?:#{1,6}(?:[ \t]|$)|=+[ \t]*(?:$|[\n\r])|-+[ \t]*(?:$|[\n\r]))/;

export function skimOff(): boolean {
  return process.env.VALIDATE_WORKFLOW_NO_SKIM === '1';
}

/**
 * The sections of `text` and which of them its own text says must be read; null when the document must be parsed
 * whole (read/sections.ts splitSections: too small, definitions, an unclosed frontmatter fence; or a byte-order
 * mark, which the parser drops and would shift the cut offsets).
 * `mustRead(section)` names what else a reader looks for in any section (for the handoff reader: `**Status:**`
 * markers and disable comments).
 */
export function skimOf(text: string, mustRead: (s: Section) => boolean, minChars?: number): Skim | null {
  if (skimOff() || text.charCodeAt(0) === 0xfeff) return null;
  const sections = splitSections(text, minChars);
  if (!sections) return null;
  const starts = sections.map((s) => s.line + 1);
  starts.push(Number.POSITIVE_INFINITY);
  // A heading section's first line is its cut heading; a preamble's first line may be a heading the cut did not see.
  const fixed = sections.map(
    (s) =>
      s.kind !== 'frontmatter' && (MAYBE_HEADING.test(s.kind === 'heading' ? s.text : `\n${s.text}`) || mustRead(s)),
  );
  return { sections, starts, fixed, text };
}

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
    if (s.kind !== 'heading') {
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
  const tree = parse(skimmedText(skim, keep));
  const kids = tree.children;
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
    const head = kids[from];
    if (s.kind === 'frontmatter' && k !== from) return null;
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
  }
  if (k !== kids.length) return null;
  if (skim.sections[0]!.kind === 'frontmatter') kids.unshift(frontmatterNode(skim.sections[0]!.text));
  return tree;
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
