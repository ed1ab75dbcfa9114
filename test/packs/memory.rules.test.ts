// The memory pack's rules in memory (the rule tester): every message each rule can say, with its exact words.
// memory.test.ts keeps the doors: the config file as users write it, git-ignored and tracked indexes, real commits.
import { ruleTester } from '../helpers/rule-tester.js';
import { memory } from '../../src/packs/memory/index.js';
import type { Rule } from '../../src/rules/types.js';

const ROOT = 'chats/design-review';
const M = `${ROOT}/memory`;
/** Snapshot cases: the pack's config key (it is off without one). */
const ON = { packs: { memory: { root: ROOT } } };

const unit = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    type: 'decision',
    content: `fact ${id}`,
    scope: 'combat',
    priority: 'soft',
    confidence: 0.5,
    provenance: 'meeting 2026-01-15',
    ...extra,
  });
const lines = (...ids: string[]) => ids.map((id) => `${unit(id)}\n`).join('');

function rule(id: string): Rule {
  const found = memory.rules.find((r) => r.meta.id === id);
  if (!found) throw new Error(`no rule ${id} in the memory pack`);
  return found;
}

ruleTester(rule('memory/jsonl'), {
  valid: [
    {
      name: 'units, one per line, blank lines allowed',
      files: { [`${M}/deltas.jsonl`]: `${unit('u-1')}\n\n${unit('u-2')}\n` },
      config: ON,
    },
    { name: 'off without config', files: { [`${M}/deltas.jsonl`]: 'not json\n' } },
  ],
  invalid: [
    {
      files: {
        [`${M}/deltas.jsonl`]: `${unit('u-1')}\n{"id": "u-2",\n`,
        [`${M}/cold/facts.jsonl`]: `${unit('u-3')}\n`,
      },
      config: ON,
      errors: [{ messageId: 'invalid', file: `${M}/deltas.jsonl`, line: 2, message: /^Line 2 is not valid JSON: / }],
    },
  ],
});

ruleTester(rule('memory/unit-schema'), {
  valid: [
    {
      files: {
        [`${M}/deltas.jsonl`]: lines('u-1', 'u-2'),
        [`${M}/hot_context_versions.jsonl`]: '{"version":"combat@v20260115-01"}\n',
      },
      config: ON,
    },
  ],
  invalid: [
    {
      files: { [`${M}/cold/facts.jsonl`]: `${unit('u-1', { confidence: 2 })}\n` },
      config: ON,
      errors: [{ messageId: 'invalid', line: 1, message: 'Memory unit at line 1: `confidence` must be <= 1.' }],
    },
  ],
});

ruleTester(rule('memory/stage-version'), {
  valid: [
    {
      name: 'a stage version',
      files: { [`${M}/hot_context_versions.jsonl`]: '{"version":"combat@v20260115-02","scope":"combat"}\n' },
      config: ON,
    },
    {
      name: 'a validity range is not a stage version',
      files: { [`${M}/deltas.jsonl`]: `${unit('u-1', { version: '2026-01..2026-03' })}\n` },
      config: ON,
    },
  ],
  invalid: [
    {
      files: {
        [`${M}/hot_context_versions.jsonl`]:
          '{"version":"combat@20260115-01"}\n{"stage_version":"level@v20260115-01","scope":"combat"}\n{"version":"combat@v20260230-01"}\n',
      },
      config: ON,
      errors: [
        {
          messageId: 'malformed',
          line: 1,
          message: 'Stage version `version` at line 1: "combat@20260115-01" does not match scope@vYYYYMMDD-NN.',
        },
        {
          messageId: 'malformed',
          line: 2,
          message:
            'Stage version `stage_version` at line 2: "level@v20260115-01" names scope "level" but the unit\'s scope is "combat".',
        },
        {
          messageId: 'malformed',
          line: 3,
          message: 'Stage version `version` at line 3: "combat@v20260230-01" names no real date (2026-02-30).',
        },
      ],
    },
  ],
});

ruleTester(rule('memory/index-committed'), {
  valid: [{ files: { [`${M}/deltas.jsonl`]: lines('u-1') }, config: ON }],
  invalid: [
    {
      files: { [`${ROOT}/global/index/inverted.sqlite`]: 'SQLite format 3\n' },
      config: ON,
      errors: [
        {
          messageId: 'committed',
          line: null,
          message: `Derived index "${ROOT}/global/index/inverted.sqlite" is in the repository (tracked or not ignored); it is rebuilt from the JSONL truth sources.`,
        },
      ],
    },
  ],
});

const file = `${M}/deltas.jsonl`;
ruleTester(rule('memory/append-only'), {
  valid: [
    { name: 'lines appended', before: { [file]: lines('u-1') }, after: { [file]: lines('u-1', 'u-2') }, config: ON },
    { name: 'off without config', before: { [file]: lines('u-1', 'u-2') }, after: { [file]: lines('u-2') } },
  ],
  invalid: [
    {
      name: 'a line edited',
      before: { [file]: lines('u-1', 'u-2') },
      after: { [file]: `${unit('u-1', { confidence: 0.9 })}\n${unit('u-2')}\n` },
      config: ON,
      errors: [
        {
          messageId: 'edited',
          line: 1,
          message: `The commit edited line 1 of the append-only "${file}" (lines may only be added at the end).`,
        },
      ],
    },
    {
      name: 'the last line removed',
      before: { [file]: lines('u-1', 'u-2') },
      after: { [file]: lines('u-1') },
      config: ON,
      errors: [
        { messageId: 'removedLine', line: 1, message: `The commit removed line 2 of the append-only "${file}".` },
      ],
    },
    {
      name: 'lines removed',
      before: { [file]: lines('u-1', 'u-2', 'u-3') },
      after: { [file]: lines('u-1') },
      config: ON,
      errors: [
        { messageId: 'removedLines', line: 1, message: `The commit removed lines 2-3 of the append-only "${file}".` },
      ],
    },
    {
      name: 'the file deleted',
      before: { [file]: lines('u-1') },
      after: {},
      config: ON,
      errors: [
        { messageId: 'deleted', line: null, message: `The commit deleted the append-only truth source "${file}".` },
      ],
    },
  ],
});
