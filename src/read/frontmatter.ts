// YAML frontmatter of a Markdown file, with positions in the file's own line numbers.
import type { Root } from 'mdast';
import type { PositionMap, ReadProblem } from '../model/types.js';
import { frontmatterNode } from './markdown.js';
import { readYaml } from './lazy.js';

export interface Frontmatter {
  /** null when the file has no frontmatter or it could not be read. */
  data: Record<string, unknown> | null;
  problems: ReadProblem[];
  positions: PositionMap;
  line: number;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readFrontmatter(root: Root): Frontmatter {
  const node = frontmatterNode(root);
  if (!node) return { data: null, problems: [], positions: {}, line: 1 };
  const start = node.position?.start.line ?? 1;
  // The YAML text starts on the line after the opening `---`.
  const yaml = readYaml(node.value, start);
  const problems = [...yaml.problems];
  const doc = yaml.documents[0];
  let data: Record<string, unknown> | null = null;
  if (problems.length === 0) {
    if (isRecord(doc)) data = doc;
    else if (doc === null || doc === undefined) data = {};
    else {
      // Point at the content that has the wrong shape (a list item, a bare word), not at the `---` above it.
      const at = yaml.starts[0] ?? { line: start, column: 1 };
      const shape = Array.isArray(doc) ? 'a YAML list' : `a single ${typeof doc} value`;
      problems.push({
        ...at,
        message: `Frontmatter must be a YAML mapping of keys to values (\`key: value\` lines), not ${shape}.`,
      });
    }
  }
  return { data, problems, positions: yaml.positions, line: start };
}
