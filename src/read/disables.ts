// Inline disables: `<!-- validate-workflow-disable rule-id[, rule-id] -- reason -->` in Markdown,
// `# validate-workflow-disable rule-id -- reason` in YAML. The directive is our own tiny grammar inside a comment
// the parser already isolated, so reading it is string work, not Markdown parsing.
import type { Root } from 'mdast';
import type { Disable } from '../model/types.js';
import { htmlComments, lineOf } from './markdown.js';

const KEYWORD = 'validate-workflow-disable';

export function parseDirective(comment: string, line: number, column: number): Disable | null {
  const body = comment.trim();
  if (!body.startsWith(KEYWORD)) return null;
  const rest = body.slice(KEYWORD.length);
  if (rest && !/^\s/.test(rest)) return null;
  const sep = rest.indexOf(' -- ');
  const idsPart = sep >= 0 ? rest.slice(0, sep) : rest.replace(/\s--\s*$/, '');
  const reason = sep >= 0 ? rest.slice(sep + 4).trim() : '';
  const ruleIds = idsPart
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return { ruleIds, reason: reason || null, line, column };
}

export function markdownDisables(root: Root): Disable[] {
  const out: Disable[] = [];
  for (const node of htmlComments(root)) {
    const value = node.value.trim();
    if (!value.startsWith('<!--') || !value.endsWith('-->')) continue;
    const { line, column } = lineOf(node);
    const d = parseDirective(value.slice(4, -3), line, column);
    if (d) out.push(d);
  }
  return out;
}

export function yamlDisables(comments: { text: string; line: number; column: number }[]): Disable[] {
  return comments.flatMap((c) => parseDirective(c.text, c.line, c.column) ?? []);
}
