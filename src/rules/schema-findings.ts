// Shared by plan/schema, handoff/schema and ledger/schema: read problems first (a file that did not parse has
// nothing trustworthy to validate), then each ajv error at the line of the offending field.
import type { WorkflowFile } from '../model/types.js';
import { positionOf } from '../model/queries.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import type { RawFinding } from './types.js';

export function schemaFindings(file: WorkflowFile, schema: SchemaName, describeMissing: (field: string) => string = (f) => `missing required field \`${f}\``): RawFinding[] {
  if (file.problems.length) {
    return file.problems.map((p) => ({ file: file.path, line: p.line, column: p.column, message: p.message }));
  }
  return validate(schema, file.normalized).map((e) => {
    const pos = positionOf(file.positions, e.pointer);
    const missing = e.message.startsWith('missing required field') ? e.pointer.slice(e.pointer.lastIndexOf('/') + 1) : null;
    return { file: file.path, line: pos.line, column: pos.column, message: missing ? describeMissing(missing) : e.message };
  });
}
