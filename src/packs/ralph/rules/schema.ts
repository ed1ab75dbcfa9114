import type { Rule, RawFinding } from '../../../rules/types.js';
import { validate } from '../../../schemas/validate.js';
import { sessionOf } from './session.js';
import { PACK_ID } from '../model.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/schema',
    short: 'status.json parses and matches the Ralph session schema.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'E010',
    description:
      'status.json parses as JSON and matches the session schema of the seed (schemas/ralph-status.schema.json): required fields, types and the enumerations of status, step status, completion_status, quality_mode, planning_mode, scope_verdict and command_scope.',
    fix: 'Repair the field the finding names (`ralph check` shows the broken fields), or restore status.json from git.',
    messages: {
      unreadable: '{{problem}}',
      notObject: 'E010: status.json must be a JSON object.',
      invalid: 'E010: {{error}}.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const file of packs.get(PACK_ID) ?? []) {
      if (!file.path.endsWith('/status.json')) continue;
      if (file.problems.length) {
        for (const p of file.problems)
          out.push({
            file: file.path,
            line: p.line,
            column: p.column,
            messageId: 'unreadable',
            data: { problem: p.message },
          });
        continue;
      }
      const s = sessionOf(file);
      if (!s) {
        out.push({ file: file.path, line: 1, column: 1, messageId: 'notObject' });
        continue;
      }
      for (const e of validate('ralph-status', s.data)) {
        const p = s.at(e.pointer);
        out.push({ file: file.path, line: p.line, column: p.column, messageId: 'invalid', data: { error: e.message } });
      }
    }
    return out;
  },
};
