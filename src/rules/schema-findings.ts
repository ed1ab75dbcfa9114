// Shared by plan/schema, handoff/schema and ledger/schema: read problems first (a file that did not parse has
// nothing trustworthy to validate), then each ajv error at the line of the offending field.
import type { Handoff, Ledger, Plan } from '../model/types.js';
import { positionOf } from '../model/queries.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import type { RawFinding } from './types.js';

/**
 * The messages every schema rule can say. The texts of read problems and schema errors are written by the reader
 * and by schemas/validate.ts (one sentence per problem), so they come through as data.
 */
export const SCHEMA_MESSAGES = {
  /** The file could not be read or parsed (bad YAML, binary, not UTF-8, too large). */
  unreadable: '{{problem}}',
  /** The reader's own fix for a file that is no text it can read (binary, UTF-16, too large, empty). */
  unreadableFix: '{{fix}}',
  /** A schema error other than a missing field (a wrong type, an unknown key, a value not allowed). */
  invalid: '{{error}}',
  missingField: 'missing required field `{{field}}`',
} as const;

/** Which message a missing required field gets: rules word it for their kind of file. */
export type MissingField = (field: string) => Pick<RawFinding, 'messageId' | 'data'>;

const missingField: MissingField = (field) => ({ messageId: 'missingField', data: { field } });

export function schemaFindings(
  file: Plan | Handoff | Ledger,
  schema: SchemaName,
  describeMissing: MissingField = missingField,
): RawFinding[] {
  if (file.problems.length) {
    // One finding per unreadable file (the README's promise): the first place reading failed, with a count of the
    // rest. A YAML error early in a file makes the parser stumble on every later line; those are not news.
    const [p, ...more] = file.problems;
    const problem =
      more.length === 0
        ? p!.message
        : `${p!.message} (and ${more.length} more read ${more.length === 1 ? 'problem' : 'problems'} further down)`;
    const at = { file: file.path, line: p!.line, column: p!.column, messageId: 'unreadable' };
    return [p!.fix ? { ...at, fixId: 'unreadableFix', data: { problem, fix: p!.fix } } : { ...at, data: { problem } }];
  }
  return validate(schema, file.normalized).map((e) => {
    // A missing field has no line of its own: it is reported at the nearest heading (the file's anchor), not 1:1.
    const pos = positionOf(file.positions, e.pointer, file.anchor);
    const missing = e.message.startsWith('missing required field')
      ? e.pointer.slice(e.pointer.lastIndexOf('/') + 1)
      : null;
    const said = missing ? describeMissing(missing) : { messageId: 'invalid', data: { error: e.message } };
    return { file: file.path, line: pos.line, column: pos.column, ...said };
  });
}
