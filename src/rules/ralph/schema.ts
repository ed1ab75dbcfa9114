import type { Rule, RawFinding } from '../types.js';
import { validate } from '../../schemas/validate.js';
import { sessionOf } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/schema',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'E010',
    description: 'status.json parses as JSON and matches the session schema of the seed (schemas/ralph-status.schema.json): required fields, types and the enumerations of status, step status, completion_status, quality_mode, planning_mode, scope_verdict and command_scope.',
    fix: 'Repair the field the finding names (`ralph check` shows the broken fields), or restore status.json from git.',
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const file of packs.get('ralph') ?? []) {
      if (!file.path.endsWith('/status.json')) continue;
      if (file.problems.length) {
        for (const p of file.problems) out.push({ file: file.path, line: p.line, column: p.column, message: p.message });
        continue;
      }
      const s = sessionOf(file);
      if (!s) {
        out.push({ file: file.path, line: 1, column: 1, message: 'E010: status.json must be a JSON object.' });
        continue;
      }
      for (const e of validate('ralph-status', s.data)) {
        const p = s.at(e.pointer);
        out.push({ file: file.path, line: p.line, column: p.column, message: `E010: ${e.message}.` });
      }
    }
    return out;
  },
};
