import type { Rule, RawFinding } from '../../../rules/types.js';
import { memoryFiles } from '../model.js';
import { validate } from '../../../schemas/validate.js';

export const rule: Rule = {
  meta: {
    id: 'memory/unit-schema',
    short: 'Every memory line is a MemoryUnit with the required fields.',
    severities: { recommended: 'error', strict: 'error' },
    formula:
      'unit = {id, type ∈ {constitution,decision,semantic,episodic,snippet}, content, scope, version?, priority ∈ {hard,soft,ref}, confidence ∈ [0,1], provenance, tags?}',
    description:
      "Every line of `memory/deltas.jsonl` and `memory/cold/*.jsonl` is a MemoryUnit with the seed's fields: `id`, `type` (constitution, decision, semantic, episodic, snippet), `content`, `scope`, `priority` (hard, soft, ref), `confidence` in 0..1, `provenance`, and optionally `version` and `tags` (schemas/memory-unit.schema.json).",
    fix: "Write the unit with every required field and the seed's values for `type`, `priority` and `confidence`.",
    messages: {
      invalid: 'Memory unit at line {{line}}: {{error}}.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const { path, model } of memoryFiles(packs)) {
      if (model.source !== 'deltas' && model.source !== 'cold') continue;
      for (const l of model.lines) {
        if (l.error !== undefined) continue; // memory/jsonl reports it
        for (const e of validate('memory-unit', l.value))
          out.push({ file: path, line: l.line, messageId: 'invalid', data: { line: l.line, error: e.message } });
      }
    }
    return out;
  },
};
