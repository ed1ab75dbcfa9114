import type { Rule, RawFinding } from '../../../rules/types.js';
import { memoryFiles } from '../model.js';

export const rule: Rule = {
  meta: {
    id: 'memory/jsonl',
    short: 'Every line of a JSONL truth source is valid JSON.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](line(l) in truth_source -> valid_json(l))',
    description:
      'Every non-blank line of a JSONL truth source (`memory/deltas.jsonl`, `memory/cold/*.jsonl`, `memory/hot_context_versions.jsonl`) is one valid JSON value.',
    fix: 'Make each line one complete JSON value (one object per line, no pretty-printing, no trailing commas).',
    messages: {
      invalid: 'Line {{line}} is not valid JSON: {{error}}',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const { path, model } of memoryFiles(packs)) {
      for (const l of model.lines) {
        if (l.error !== undefined)
          out.push({ file: path, line: l.line, messageId: 'invalid', data: { line: l.line, error: l.error } });
      }
    }
    return out;
  },
};
