// Frontmatter keys edited through yaml's Document API: the pair's node gives the offsets, and only the value's
// bytes (or one new line) change, so comments, quoting and key order stay as the author wrote them. Every edit is
// read back: the frontmatter must then hold exactly the data before plus the one key changed.
import { isDeepStrictEqual } from 'node:util';
import { isMap, isPair, isScalar, parseAllDocuments, parseDocument, stringify, type Pair, type Scalar } from 'yaml';
import { frontmatterNode } from '../read/markdown.js';
import { readFrontmatter } from '../read/frontmatter.js';
import { applyEdits, lineStart, offsetAt, parseForEdit } from './text.js';
import type { TextEdit } from './types.js';

interface Located {
  /** Offset of the YAML text in the file. */
  at: number;
  yaml: string;
  pairs: Pair[];
  data: Record<string, unknown>;
}

function locate(text: string): Located | null {
  const root = parseForEdit(text);
  const node = frontmatterNode(root);
  const fm = readFrontmatter(root);
  if (!node?.position || !fm.data || fm.problems.length > 0) return null;
  // The YAML text starts on the line after the opening `---`; a file whose bytes differ there (CRLF) is not edited.
  const at = offsetAt(text, node.position.start.line + 1);
  if (text.slice(at, at + node.value.length) !== node.value) return null;
  const doc = parseDocument(node.value);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
  return { at, yaml: node.value, pairs: doc.contents.items.filter(isPair) as Pair[], data: fm.data };
}

function keyOf(pair: Pair): string | null {
  return isScalar(pair.key) ? String(pair.key.value) : null;
}

/** A value as YAML writes it on one line (quoted when it has to be). */
function scalarText(value: string | number): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

/** The edit, if the frontmatter it yields holds exactly `expected`. */
function checked(text: string, edit: TextEdit, expected: Record<string, unknown>): TextEdit | null {
  const after = readFrontmatter(parseForEdit(applyEdits(text, [edit])));
  return after.problems.length === 0 && isDeepStrictEqual(after.data, expected) ? edit : null;
}

/** Replace the value of an existing key whose value is a one-line scalar; null when that cannot be done safely. */
export function setKey(text: string, key: string, value: string | number): TextEdit | null {
  const fm = locate(text);
  const pair = fm?.pairs.find((p) => keyOf(p) === key);
  if (!fm || !pair || !isScalar(pair.value) || !(pair.value as Scalar).range) return null;
  const [start, end] = (pair.value as Scalar).range!;
  if (fm.yaml.slice(start, end).includes('\n')) return null;
  return checked(
    text,
    { start: fm.at + start, end: fm.at + end, text: scalarText(value) },
    { ...fm.data, [key]: value },
  );
}

/**
 * setKey for a YAML handoff (`task-01-x.yaml`: the whole file is YAML, its first document the fields): the value's
 * bytes only, read back as the same documents with the one key changed; null when that cannot be done safely.
 */
export function setYamlKey(text: string, key: string, value: string | number): TextEdit | null {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.length === 0 || docs.some((d) => d.errors.length > 0)) return null;
  const first = docs[0]!;
  if (!isMap(first.contents)) return null;
  const pair = (first.contents.items.filter(isPair) as Pair[]).find((p) => keyOf(p) === key);
  if (!pair || !isScalar(pair.value) || !(pair.value as Scalar).range) return null;
  const [start, end] = (pair.value as Scalar).range!;
  if (text.slice(start, end).includes('\n')) return null;
  const edit = { start, end, text: scalarText(value) };
  const after = parseAllDocuments(applyEdits(text, [edit]));
  if (!Array.isArray(after) || after.length !== docs.length || after.some((d) => d.errors.length > 0)) return null;
  const expected = docs.map((d, i) => (i === 0 ? { ...(d.toJS() as object), [key]: value } : d.toJS()));
  return isDeepStrictEqual(
    after.map((d) => d.toJS()),
    expected,
  )
    ? edit
    : null;
}

/**
 * Add a key on its own line after the first of `after` that the frontmatter has with a one-line value (the
 * canonical order of section 3), else at the end of the frontmatter. null when the key is there already or the
 * frontmatter cannot be edited safely.
 */
export function addKey(text: string, key: string, value: string | number, after: readonly string[]): TextEdit | null {
  const fm = locate(text);
  if (!fm || fm.pairs.some((p) => keyOf(p) === key)) return null;
  const line = `${key}: ${scalarText(value)}`;
  const expected = { ...fm.data, [key]: value };
  for (const name of after) {
    const pair = fm.pairs.find((p) => keyOf(p) === name);
    const range = pair && isScalar(pair.value) ? (pair.value as Scalar).range : undefined;
    const keyRange = pair && isScalar(pair.key) ? (pair.key as Scalar).range : undefined;
    if (!range || !keyRange || fm.yaml.slice(range[0], range[1]).includes('\n')) continue;
    const indent = fm.yaml.slice(lineStart(fm.yaml, keyRange[0]), keyRange[0]);
    const nl = fm.yaml.indexOf('\n', range[1]);
    // The last pair's line has no newline of its own inside the YAML text: the closing `---` follows it.
    const edit =
      nl < 0
        ? { start: fm.at + fm.yaml.length, end: fm.at + fm.yaml.length, text: `\n${indent}${line}` }
        : { start: fm.at + nl + 1, end: fm.at + nl + 1, text: `${indent}${line}\n` };
    return checked(text, edit, expected);
  }
  const end = fm.at + fm.yaml.length;
  return checked(text, { start: end, end, text: fm.yaml.length > 0 ? `\n${line}` : line }, expected);
}
