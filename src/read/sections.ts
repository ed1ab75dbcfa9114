// Section-level parse reuse (issue 13): most versions of a workflow file repeat most of the previous version, and
// remark reads only ~350 KB/s here. A document is cut at top-level boundaries where CommonMark guarantees that the
// text before cannot change how the text after parses (an ATX heading at column 0, outside fenced code, HTML blocks
// and frontmatter; the frontmatter is a section of its own). Each section's tree is cached once, keyed by a hash of
// its text; a version is assembled from the cached sections plus the new ones, parsed alone, with positions shifted
// to the file's lines and offsets (columns never change). A mostly new version is parsed whole instead (one parser
// call costs less than many) and its sections are cached from that tree. Whenever a cut could make the result differ
// from a whole-file parse (definitions, an unclosed frontmatter fence, a section that does not start the way the cut
// promised), the caller parses the whole file. test/read/sections.test.ts holds the assembled tree equal to the
// whole-file tree, positions included, for random documents and random edits.
import { createHash } from 'node:crypto';
import type { Root, RootContent } from 'mdast';

export interface Section {
  /** The section's text, line endings included (every section but the last ends with one). */
  text: string;
  /** Offset of its first character in the document. */
  offset: number;
  /** Line endings before it in the document: its first line is line `line + 1`. */
  line: number;
  kind: 'frontmatter' | 'preamble' | 'heading';
  /**
   * A line of it other than its cut heading may be a top-level heading (indented, a setext underline, or an ATX line
   * the cut could not take) in some reading of the scanner: read/skim.ts reads such a section, so that every top-level
   * heading is in the tree. A line every reading puts in fenced code or an HTML block is none.
   */
  unseen: boolean;
}

/**
 * Below this size a whole parse costs about as much as the bookkeeping, and tiny texts would only churn the cache.
 * `VALIDATE_WORKFLOW_SECTION_MIN_CHARS` overrides it (0 cuts every document: the test suite can run that way).
 */
export const MIN_SECTIONED_CHARS = minCharsFromEnv();

function minCharsFromEnv(): number {
  const raw = process.env.VALIDATE_WORKFLOW_SECTION_MIN_CHARS;
  const asked = Number(raw);
  return raw && Number.isInteger(asked) && asked >= 0 ? asked : 1024;
}

const ATX = /^#{1,6}(?:[ \t]|$)/;
const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const FM_FENCE = /^---[ \t]*$/;
const BLANK = /^[ \t]*$/;
const HTML1 = /^<(?:pre|script|style|textarea)(?:[ \t>]|$)/i;
const HTML1_END = /<\/(?:pre|script|style|textarea)>/i;
const HTML_TAG = /^<\/?[A-Za-z]/;
/** A line that may be an ATX heading at top level (indented up to three spaces). */
const MAYBE_ATX = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** A setext underline, which makes a heading of the paragraph line just above it (never of a blank line). */
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;

/*
 * What may be open at top level before a line, for the heading test. The scanner keeps the SET of states the real
 * parse could be in: when a line's meaning depends on context it cannot see (an indented fence may sit in a list
 * item; `<span>` may continue a paragraph), it keeps every reading. A cut is made only where every reading is 'n'.
 *   'n'          nothing that could swallow a column-0 ATX heading (paragraphs, lists, quotes, indented code and
 *                tables all end at one: an ATX heading interrupts a paragraph, so it is never a lazy continuation)
 *   'f' + ch + n  a top-level fenced code block opened by n of ch (` or ~)
 *   'h1'..'h5'   an HTML block of CommonMark types 1-5, waiting for its end marker
 *   'hb'         an HTML block of type 6 or 7, waiting for a blank line
 */
type State = string;

const HTML_END: Record<string, (line: string) => boolean> = {
  h1: (l) => HTML1_END.test(l),
  h2: (l) => l.includes('-->'),
  h3: (l) => l.includes('?>'),
  h4: (l) => l.includes('>'),
  h5: (l) => l.includes(']]>'),
};

/** Add the states `line` may leave behind when read in state 'n'. */
function stepNone(line: string, out: Set<State>): void {
  const first = line.charCodeAt(0);
  // Fast path: most lines start with a letter, `-`, `#`, `|`, `>` or a digit and open nothing at top level.
  if (first !== 0x20 && first !== 0x09 && first !== 0x60 && first !== 0x7e && first !== 0x3c) {
    out.add('n');
    return;
  }
  const fence = FENCE_OPEN.exec(line);
  if (fence) {
    const [, ws, seq, rest] = fence as unknown as [string, string, string, string];
    out.add(`f${seq[0]}${seq.length}`);
    // Definite only at column 0 (an indented one may sit in a list item) and when it is a fence at all (a backtick
    // fence's info string holds no backtick).
    if (ws !== '' || (seq[0] === '`' && rest.includes('`'))) out.add('n');
    return;
  }
  const ws = /^[ \t]*/.exec(line)![0];
  const rest = line.slice(ws.length);
  if (rest.charCodeAt(0) !== 0x3c) {
    out.add('n');
    return;
  }
  // An indented start may sit in a container (or be indented code): keep the plain reading as well.
  if (ws !== '') out.add('n');
  // Types 1-5 end at a marker, which may be on the start line itself. Searched strictly (after the opener) and
  // loosely (anywhere): where the two disagree, both readings stay.
  const typed = (state: string, opener: number, end: (s: string) => number) => {
    const strict = end(rest.slice(opener)) >= 0;
    const loose = end(rest.slice(1)) >= 0;
    if (strict) out.add('n');
    else if (loose) {
      out.add('n');
      out.add(state);
    } else out.add(state);
  };
  if (HTML1.test(rest)) typed('h1', 1, (s) => s.search(HTML1_END));
  else if (rest.startsWith('<!--')) typed('h2', 4, (s) => s.indexOf('-->'));
  else if (rest.startsWith('<?')) typed('h3', 2, (s) => s.indexOf('?>'));
  else if (rest.startsWith('<![CDATA[')) typed('h5', 9, (s) => s.indexOf(']]>'));
  else if (/^<![A-Za-z]/.test(rest)) typed('h4', 2, (s) => s.indexOf('>'));
  else if (HTML_TAG.test(rest)) {
    // Type 6 (a block tag, which interrupts a paragraph) or 7 (any complete tag alone on its line, which does not):
    // both end at a blank line. Keep the plain reading too; a blank line settles it.
    out.add('hb');
    out.add('n');
  } else out.add('n');
}

function step(state: State, line: string, out: Set<State>): void {
  if (state === 'n') return stepNone(line, out);
  if (state.charCodeAt(0) === 0x66 /* f */) {
    const close = FENCE_CLOSE.exec(line);
    const ch = state[1]!;
    const len = Number(state.slice(2));
    out.add(close && close[1]![0] === ch && close[1]!.length >= len ? 'n' : state);
    return;
  }
  if (state === 'hb') {
    out.add(BLANK.test(line) ? 'n' : state);
    return;
  }
  out.add(HTML_END[state]!(line) ? 'n' : state);
}

/** The scanner's readings of what is open at top level, fed a line at a time. */
class Readings {
  private states = new Set<State>(['n']);
  private next = new Set<State>();

  /** Nothing is open in any reading: a column-0 ATX heading here starts a top-level block. */
  get closed(): boolean {
    return this.states.size === 1 && this.states.has('n');
  }

  /** Some reading has nothing open. */
  get mayBeClosed(): boolean {
    return this.states.has('n');
  }

  feed(line: string): void {
    this.next.clear();
    for (const s of this.states) step(s, line, this.next);
    [this.states, this.next] = [this.next, this.states];
  }
}

/**
 * Whether a line at column 0 after `text` starts a new top-level block whatever `text` holds: `text` ends with a blank
 * line, and in every reading of the scanner no frontmatter, fenced code or HTML block is open there (a list item, a
 * quote, a table and a paragraph all end at a blank line followed by an unindented line). read/derive.ts takes
 * lines appended after such an end as parsing exactly as they would alone.
 */
export function closedAtEnd(text: string): boolean {
  if (text.charCodeAt(0) === 0xfeff) return false;
  const lines = text.split(/\r\n|\r|\n/);
  // The text ends with a line ending (split leaves '' after it), and the line before that is blank.
  if (lines.length < 2 || lines.pop() !== '' || !BLANK.test(lines[lines.length - 1]!)) return false;
  let i = 0;
  if (FM_FENCE.test(lines[0]!)) {
    // remark-frontmatter: closed by `---` alone on a later line; unclosed, it is no frontmatter, rare enough to refuse.
    i = lines.findIndex((l, k) => k > 0 && FM_FENCE.test(l)) + 1;
    if (i === 0) return false;
  }
  const readings = new Readings();
  for (; i < lines.length; i++) readings.feed(lines[i]!);
  return readings.closed;
}

/**
 * Cut a document into sections, or null when it must be parsed whole. Every section but the first starts with an
 * ATX heading that a whole-file parse also reads as a top-level heading starting a new block.
 */
export function splitSections(text: string, minChars = MIN_SECTIONED_CHARS): Section[] | null {
  if (text.length < minChars) return null;
  // Link reference and footnote definitions resolve across the whole document (`[label]:` is their only spelling).
  if (text.includes(']:')) return null;
  const sections: Section[] = [];
  const readings = new Readings();
  let sectionStart = 0;
  let sectionLine = 0;
  let kind: Section['kind'] = 'preamble';
  let unseen = false;
  let afterBlank = false;
  let inFrontmatter = false;
  let lineNo = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let end = pos;
    while (end < n) {
      const c = text.charCodeAt(end);
      if (c === 0x0a || c === 0x0d) break;
      end++;
    }
    const line = text.slice(pos, end);
    let after = end;
    if (after < n) after += text.charCodeAt(after) === 0x0d && text.charCodeAt(after + 1) === 0x0a ? 2 : 1;
    if (lineNo === 0 && FM_FENCE.test(line) && after > end) {
      // YAML frontmatter (remark-frontmatter: `---` alone on line 1, closed by `---` alone at column 1).
      inFrontmatter = true;
      kind = 'frontmatter';
    } else if (inFrontmatter) {
      if (FM_FENCE.test(line)) {
        inFrontmatter = false;
        if (after > sectionStart)
          sections.push({
            text: text.slice(sectionStart, after),
            offset: sectionStart,
            line: sectionLine,
            kind,
            unseen,
          });
        sectionStart = after;
        sectionLine = lineNo + 1;
        kind = 'preamble';
      }
    } else {
      if (readings.closed && ATX.test(line) && pos > sectionStart) {
        sections.push({ text: text.slice(sectionStart, pos), offset: sectionStart, line: sectionLine, kind, unseen });
        sectionStart = pos;
        sectionLine = lineNo;
        kind = 'heading';
        unseen = false;
      } else if (pos === sectionStart && ATX.test(line) && readings.closed) {
        kind = 'heading';
      } else if (!unseen && readings.mayBeClosed && (MAYBE_ATX.test(line) || (!afterBlank && SETEXT.test(line)))) {
        unseen = true;
      }
      readings.feed(line);
    }
    afterBlank = BLANK.test(line);
    lineNo++;
    pos = after;
  }
  // An unclosed frontmatter fence is no frontmatter: the document is plain Markdown, rare enough to parse whole.
  if (inFrontmatter) return null;
  if (sectionStart < n)
    sections.push({ text: text.slice(sectionStart), offset: sectionStart, line: sectionLine, kind, unseen });
  // A section after the frontmatter that itself starts like frontmatter would be read as frontmatter on its own, and
  // one that starts with U+FEFF would lose it (the parser drops a byte-order mark at the start of its text).
  if (
    sections.some(
      (s) => s.kind === 'preamble' && s.offset > 0 && (s.text.startsWith('---') || s.text.charCodeAt(0) === 0xfeff),
    )
  )
    return null;
  return sections.length > 1 ? sections : null;
}

// ---------------------------------------------------------------------------------------------------------------
// The cache: hash of a section's text (+ '#' when another section follows it) -> its top-level nodes as JSON, with
// the line and offset their positions are relative to. A string costs about 4 bytes per source character where a
// tree of objects costs about 30 (and the collector never walks a string); JSON.parse hands out fresh nodes, so a
// cached tree can never be changed by a consumer. Bounded by the summed length of the JSON (LRU).

type Point = { line: number; column: number; offset?: number };

interface Entry {
  json: string;
  /** Line endings and characters before the section in the text its positions were taken from. */
  line: number;
  offset: number;
  /** Root start and (for a section that ends its text) end, relative to the section: the assembled root's position. */
  start: Point;
  end: Point | null;
}

/** 4 MB of JSON: the trees of about a million characters of sections, per thread. */
const DEFAULT_BUDGET = 4 * 1024 * 1024;
/** A parse call costs about as much as reading this many characters, whatever its size (extension set-up). */
const PARSE_CALL_CHARS = 150;
/** Parse the whole file (and cache its sections from that tree) when the sections to parse are this much of it. */
const WHOLE_FROM = 0.6;
/**
 * Above this many characters a whole parse costs more than parsing the sections one by one, whatever the fixed cost
 * of each call: micromark's splices grow faster than the text (measured on a plan of 70,000 items in 860 KB: 16.7 s
 * whole, 5.8 s by its 3,000 sections; at 100 KB the two are even).
 */
const WHOLE_UP_TO = 100_000;
/** The cached JSON of a document's sections is about this many times its text (36x measured on that plan). */
const JSON_PER_CHAR = 40;
/** The cache grows to hold the largest document's sections, so its next version reuses them, up to this. */
const MAX_BUDGET = 64 * 1024 * 1024;

/** A budget set by the environment or by the caller (tests) stays as set. */
let budgetFixed = process.env.VALIDATE_WORKFLOW_SECTION_CACHE_BYTES !== undefined;
let budget = budgetFromEnv();
let used = 0;
const cache = new Map<string, Entry>();

function budgetFromEnv(): number {
  const raw = process.env.VALIDATE_WORKFLOW_SECTION_CACHE_BYTES;
  const asked = Number(raw);
  return raw && Number.isFinite(asked) && asked >= 0 ? asked : DEFAULT_BUDGET;
}

/** documents: cut; seeded: of those, parsed whole (their sections cached from that tree); parses: parser calls. */
export const sectionStats = {
  documents: 0,
  seeded: 0,
  sections: 0,
  hits: 0,
  misses: 0,
  hitChars: 0,
  missChars: 0,
  parses: 0,
};

/** Entries in the cache, the length of their JSON, and its limit. */
export function sectionCacheSize(): { entries: number; bytes: number; budget: number } {
  return { entries: cache.size, bytes: used, budget };
}

/** Empty the cache and zero the counters; `budgetBytes` (else the environment, else 4 MB) bounds it. */
export function resetSectionCache(budgetBytes?: number): void {
  cache.clear();
  used = 0;
  budget = budgetBytes ?? budgetFromEnv();
  budgetFixed = budgetBytes !== undefined || process.env.VALIDATE_WORKFLOW_SECTION_CACHE_BYTES !== undefined;
  for (const k of Object.keys(sectionStats) as (keyof typeof sectionStats)[]) sectionStats[k] = 0;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

function store(
  key: string,
  nodes: RootContent[],
  base: { line: number; offset: number },
  start: Point,
  end: Point | null,
): void {
  let json: string;
  try {
    json = JSON.stringify(nodes);
  } catch (err) {
    if (err instanceof RangeError) return; // too deep to serialize: not worth keeping
    throw err;
  }
  if (json.length > budget) return;
  cache.set(key, { json, line: base.line, offset: base.offset, start, end });
  used += json.length;
  while (used > budget) {
    // A Map iterates in insertion order and a hit re-inserts its key: the first key is the least recently used.
    const oldest = cache.keys().next().value as string;
    used -= cache.get(oldest)!.json.length;
    cache.delete(oldest);
  }
}

interface Part {
  nodes: RootContent[];
  /** What the nodes' positions are relative to. */
  line: number;
  offset: number;
  start: Point;
  end: Point | null;
}

/**
 * Parse one section. A section that another follows is parsed with a bare `#` line after it, the one thing a
 * whole-file parse sees there (a column-0 ATX heading): open blocks then end exactly as they do in the file (at the
 * end of the text, an unclosed fence in a list item would take the last line ending too). That heading is dropped
 * again; null when it is not where it must be, or the section does not start as cut.
 */
function parseSection(s: Section, followed: boolean, parse: (text: string) => Root): Part | null {
  const root = parse(followed ? `${s.text}#` : s.text);
  sectionStats.parses++;
  if (followed) {
    const sentinel = root.children.pop();
    const at = sentinel?.position;
    if (
      sentinel?.type !== 'heading' ||
      sentinel.depth !== 1 ||
      sentinel.children.length !== 0 ||
      at?.start.column !== 1 ||
      at.start.offset !== s.text.length
    )
      return null;
  }
  if (!startsAsCut(s, root.children)) return null;
  return {
    nodes: root.children,
    line: 0,
    offset: 0,
    start: root.position!.start,
    end: followed ? null : root.position!.end,
  };
}

/** Whether a section's nodes start the way its cut promised (a heading at its first character; frontmatter alone). */
function startsAsCut(s: Section, nodes: RootContent[], offset = 0): boolean {
  const first = nodes[0];
  if (s.kind === 'frontmatter') return nodes.length === 1 && first?.type === 'yaml';
  if (s.kind === 'heading')
    return first?.type === 'heading' && first.position?.start.offset === offset && first.position.start.column === 1;
  return true;
}

function shiftPoint(p: Point, dl: number, doff: number): Point {
  return { line: p.line + dl, column: p.column, offset: (p.offset ?? 0) + doff };
}

/** Shift the positions of nodes the caller owns (fresh from the parser or from JSON.parse); columns never change. */
export function shiftInPlace(nodes: RootContent[], dl: number, doff: number): void {
  for (const node of nodes) {
    const p = node.position;
    if (p) {
      p.start.line += dl;
      p.end.line += dl;
      p.start.offset = (p.start.offset ?? 0) + doff;
      p.end.offset = (p.end.offset ?? 0) + doff;
    }
    if ('children' in node) shiftInPlace(node.children as RootContent[], dl, doff);
  }
}

/**
 * Cache the sections of a whole-file tree: each section's nodes are the top-level nodes that start in it, kept with
 * the file's positions. Nothing is cached when a node straddles a cut or a section does not start as cut.
 */
function seed(sections: Section[], keys: string[], whole: Root): void {
  const kids = whole.children;
  const groups: RootContent[][] = [];
  let k = 0;
  for (const s of sections) {
    const end = s.offset + s.text.length;
    const group: RootContent[] = [];
    while (k < kids.length && kids[k]!.position!.start.offset! < end) {
      if (kids[k]!.position!.end.offset! > end) return;
      group.push(kids[k++]!);
    }
    if (!startsAsCut(s, group, s.offset)) return;
    groups.push(group);
  }
  if (k !== kids.length) return;
  const last = sections.length - 1;
  sections.forEach((s, i) => {
    if (cache.has(keys[i]!)) return;
    const end = i === last ? shiftPoint(whole.position!.end, -s.line, -s.offset) : null;
    store(keys[i]!, groups[i]!, s, { line: 1, column: 1, offset: 0 }, end);
  });
  sectionStats.seeded++;
}

export interface SectionedOptions {
  /** Documents shorter than this are parsed whole (default MIN_SECTIONED_CHARS). */
  minChars?: number;
  /** When most of a document is new, parse it whole and cache its sections from that tree (default true). */
  seedFromWhole?: boolean;
}

/**
 * Parse `text` section by section through the cache, or return null when it must be parsed whole. `parse` is the
 * whole-file parser, applied to each new section; what it throws (a section nested too deep for the parser, which the
 * whole file is too) is thrown.
 */
export function parseSectioned(
  text: string,
  parse: (text: string) => Root,
  options: SectionedOptions = {},
): Root | null {
  // The parser drops a leading byte-order mark and counts no offset for it: so do the sections.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sections = splitSections(body, options.minChars ?? MIN_SECTIONED_CHARS);
  if (!sections) return null;
  const last = sections.length - 1;
  const keys = sections.map((s, i) => hashOf(s.text) + (i < last ? '#' : ''));
  const entries: (Entry | undefined)[] = keys.map((k) => cache.get(k));
  let missing = 0;
  let missingChars = 0;
  entries.forEach((e, i) => {
    if (!e) {
      missing++;
      missingChars += sections[i]!.text.length;
    }
  });
  sectionStats.documents++;
  sectionStats.sections += sections.length;
  // Mostly new: one whole parse costs less than many section parses (each call has a fixed cost). The caller gets the
  // whole tree itself; the cache gets its JSON.
  // A large document's next version (the staged one, the next commit's) reuses its sections only if they all fit.
  if (!budgetFixed) budget = Math.max(budget, Math.min(MAX_BUDGET, body.length * JSON_PER_CHAR));
  if (
    options.seedFromWhole !== false &&
    body.length <= WHOLE_UP_TO &&
    missing > 1 &&
    missingChars + PARSE_CALL_CHARS * (missing - 1) >= WHOLE_FROM * body.length
  ) {
    const whole = parse(text);
    sectionStats.parses++;
    sectionStats.misses += sections.length;
    sectionStats.missChars += body.length;
    seed(sections, keys, whole);
    return whole;
  }
  sectionStats.hits += sections.length - missing;
  sectionStats.misses += missing;
  sectionStats.missChars += missingChars;
  sectionStats.hitChars += body.length - missingChars;
  const parts: Part[] = [];
  for (let i = 0; i <= last; i++) {
    const e = entries[i];
    if (e) {
      cache.delete(keys[i]!);
      cache.set(keys[i]!, e);
      parts.push({
        nodes: JSON.parse(e.json) as RootContent[],
        line: e.line,
        offset: e.offset,
        start: e.start,
        end: e.end,
      });
      continue;
    }
    const part = parseSection(sections[i]!, i < last, parse);
    // A section that does not start as cut: the cut was wrong, and the whole file is parsed instead.
    if (!part) return null;
    store(keys[i]!, part.nodes, part, part.start, part.end);
    parts.push(part);
  }
  const children: RootContent[] = [];
  try {
    parts.forEach((part, i) => {
      const s = sections[i]!;
      if (s.line !== part.line || s.offset !== part.offset)
        shiftInPlace(part.nodes, s.line - part.line, s.offset - part.offset);
      for (const node of part.nodes) children.push(node);
    });
  } catch (err) {
    // A tree too deep to walk recursively: the whole parse, which built it without recursing, decides.
    if (err instanceof RangeError) return null;
    throw err;
  }
  const end = shiftPoint(parts[last]!.end!, sections[last]!.line, sections[last]!.offset);
  return {
    type: 'root',
    children,
    position: { start: { ...parts[0]!.start } as Required<Point>, end: end as Required<Point> },
  };
}
