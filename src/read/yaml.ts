// YAML (frontmatter, YAML handoffs) -> plain data plus a JSON-pointer -> line map, so schema errors point at lines.
import { parseAllDocuments, LineCounter, Parser, isMap, isSeq, isScalar, isPair, type Node as YamlNode } from 'yaml';
import type { PositionMap, ReadProblem } from '../model/types.js';

export interface YamlRead {
  /** One entry per YAML document in the text. */
  documents: unknown[];
  problems: ReadProblem[];
  positions: PositionMap;
  comments: { text: string; line: number; column: number }[];
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * @param lineOffset lines before the YAML text in its file (frontmatter starts after the `---` line)
 */
export function readYaml(text: string, lineOffset = 0): YamlRead {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const positions: PositionMap = {};
  const problems: ReadProblem[] = [];
  const at = (offset: number) => {
    const p = counter.linePos(offset);
    return { line: p.line + lineOffset, column: p.col };
  };

  const walk = (node: unknown, pointer: string): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const child = `${pointer}/${escapePointer(key)}`;
        const range = (pair.key as YamlNode | null)?.range;
        if (range && !positions[child]) positions[child] = at(range[0]);
        walk(pair.value, child);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const child = `${pointer}/${i}`;
        const range = (item as YamlNode | null)?.range;
        if (range && !positions[child]) positions[child] = at(range[0]);
        walk(item, child);
      });
    }
  };

  const documents: unknown[] = [];
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    for (const err of doc.errors) {
      const pos = at(err.pos[0]);
      problems.push({ ...pos, message: `Invalid YAML: ${firstLine(err.message)}` });
    }
    walk(doc.contents, '');
    documents.push(doc.errors.length ? null : doc.toJS({ maxAliasCount: 100 }));
  }

  return { documents, problems, positions, comments: yamlComments(text, at) };
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
