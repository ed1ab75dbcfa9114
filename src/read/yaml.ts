// YAML (frontmatter, YAML handoffs) -> plain data plus a JSON-pointer -> line map, so schema errors point at lines.
import {
  parseAllDocuments,
  LineCounter,
  Parser,
  Scalar,
  isMap,
  isSeq,
  isScalar,
  isPair,
  visit,
  type Document,
  type Node as YamlNode,
} from 'yaml';
import type { PositionMap, ReadProblem } from '../model/types.js';

export interface YamlRead {
  /** One entry per YAML document in the text. */
  documents: unknown[];
  problems: ReadProblem[];
  positions: PositionMap;
  comments: { text: string; line: number; column: number }[];
  /** Per document, where its content starts (null for an empty document): where a wrong shape is reported. */
  starts: ({ line: number; column: number } | null)[];
  /**
   * A list item that YAML read as a one-pair map because of an unquoted `: ` inside (`- Run the suite: it is slow`),
   * by pointer, with the item's text as written on its one line: readers that expect text read it back as text.
   */
  itemText: Record<string, string>;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * @param lineOffset lines before the YAML text in its file (frontmatter starts after the `---` line)
 */
export function readYaml(text: string, lineOffset = 0, opts: { comments?: boolean } = {}): YamlRead {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const positions: PositionMap = {};
  const itemText: Record<string, string> = {};
  const problems: ReadProblem[] = [];
  const at = (offset: number) => {
    const p = counter.linePos(offset);
    return { line: p.line + lineOffset, column: p.col };
  };

  // yaml reports a repeated key as "Map keys must be unique" at the second key; this says which key and where the
  // first one is, keyed by the offset yaml reports.
  const duplicates = new Map<number, { key: string; first: number }>();

  const walk = (node: unknown, pointer: string): void => {
    if (isMap(node)) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const child = `${pointer}/${escapePointer(key)}`;
        const range = (pair.key as YamlNode | null)?.range;
        if (range) {
          // Offsets, not lines: a line is only worth computing for the rare duplicate.
          const first = seen.get(key);
          if (first !== undefined) duplicates.set(range[0], { key, first });
          else seen.set(key, range[0]);
        }
        if (range && !positions[child]) positions[child] = at(range[0]);
        walk(pair.value, child);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const child = `${pointer}/${i}`;
        const range = (item as YamlNode | null)?.range;
        if (range && !positions[child]) positions[child] = at(range[0]);
        if (range && isMap(item) && !item.flow && item.items.length === 1 && !(child in itemText)) {
          const pair = item.items[0]!;
          const source = text.slice(range[0], (pair.value as YamlNode | null)?.range?.[1] ?? range[1]).trimEnd();
          if (isScalar(pair.key) && (pair.value === null || isScalar(pair.value)) && !source.includes('\n'))
            itemText[child] = source;
        }
        walk(item, child);
      });
    }
  };

  const documents: unknown[] = [];
  const starts: YamlRead['starts'] = [];
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    walk(doc.contents, '');
    for (const err of doc.errors) {
      const dup = err.code === 'DUPLICATE_KEY' ? duplicates.get(err.pos[0]) : undefined;
      // `task_desc: Fix: the parser` is the mistake behind most of these; yaml's own words do not say so.
      const hint = err.code === 'BLOCK_AS_IMPLICIT_KEY' ? ' (a value that contains ": " must be quoted)' : '';
      const message = dup
        ? `duplicate key \`${dup.key}\` (first set on line ${at(dup.first).line})`
        : firstLine(err.message) + hint;
      problems.push({ ...at(unclosedStart(doc, text, err.pos[0]) ?? err.pos[0]), message: `Invalid YAML: ${message}` });
    }
    const range = (doc.contents as YamlNode | null)?.range;
    starts.push(range ? at(range[0]) : null);
    if (doc.errors.length) {
      documents.push(null);
      continue;
    }
    // Parsing succeeds for a dangling alias or an alias bomb; turning them into data throws, so that is where a
    // document can still fail, and it must become a located problem like any other bad YAML.
    try {
      documents.push(doc.toJS({ maxAliasCount: 100 }));
    } catch (err) {
      problems.push(aliasProblem(doc, err, at));
      documents.push(null);
    }
  }

  // Only YAML files carry disables in `#` comments (Markdown uses HTML comments), and the CST walk is not free.
  return { documents, problems, positions, comments: opts.comments ? yamlComments(text, at) : [], starts, itemText };
}

/**
 * yaml reports an unclosed quoted value or flow collection (`"abc`, `[a, b`) where the text runs out, often lines
 * later; the user has to look where it opens. Returns that offset, or null when the error is not of that kind.
 */
function unclosedStart(doc: Document.Parsed, text: string, offset: number): number | null {
  let best: number | null = null;
  visit(doc, (_key, node) => {
    // visit also passes the null of an empty value (`key:` with nothing after it).
    const n = node as YamlNode | null;
    if (!n || !n.range || n.range[1] !== offset || (best !== null && n.range[0] <= best)) return;
    const closer =
      isScalar(n) && n.type === Scalar.QUOTE_DOUBLE
        ? '"'
        : isScalar(n) && n.type === Scalar.QUOTE_SINGLE
          ? "'"
          : isSeq(n) && n.flow
            ? ']'
            : isMap(n) && n.flow
              ? '}'
              : null;
    if (closer && text[n.range[1] - 1] !== closer) best = n.range[0];
  });
  return best;
}

function aliasProblem(
  doc: Document.Parsed,
  err: unknown,
  at: (offset: number) => { line: number; column: number },
): ReadProblem {
  const aliases: { source: string; offset: number; resolved: boolean }[] = [];
  visit(doc, {
    Alias: (_key, node) => {
      aliases.push({ source: node.source, offset: node.range?.[0] ?? 0, resolved: node.resolve(doc) !== undefined });
    },
  });
  const dangling = aliases.find((a) => !a.resolved);
  if (dangling) {
    return {
      ...at(dangling.offset),
      message: `Invalid YAML: alias \`*${dangling.source}\` refers to no anchor \`&${dangling.source}\` set before it`,
    };
  }
  const first = aliases[0];
  const why = err instanceof Error ? err.message : String(err);
  return first
    ? { ...at(first.offset), message: `Invalid YAML: aliases expand to too many values (${why}); write the values out` }
    : { ...at(doc.range[0]), message: `Invalid YAML: ${firstLine(why)}` };
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/** Every `# ...` comment in the text, found through yaml's own CST rather than by scanning lines. */
function yamlComments(text: string, at: (offset: number) => { line: number; column: number }) {
  const out: { text: string; line: number; column: number }[] = [];
  const seen = new Set<unknown>();
  const visit = (token: unknown): void => {
    if (!token || typeof token !== 'object' || seen.has(token)) return;
    seen.add(token);
    const t = token as { type?: string; source?: string; offset?: number };
    if (t.type === 'comment' && typeof t.source === 'string' && typeof t.offset === 'number') {
      out.push({ text: t.source.replace(/^#\s?/, ''), ...at(t.offset) });
      return;
    }
    for (const value of Object.values(token)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') visit(value);
    }
  };
  for (const token of new Parser().parse(text)) visit(token);
  return out;
}
