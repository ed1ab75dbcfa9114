// The config schema's `packs` property is written by the build from the registered packs' own schemas
// (scripts/build-schemas.mjs): the committed schemas/config.schema.json, which users' editors read, must be what the
// build writes, and a pack added to the registry must reach it with no hand edit.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PACKS } from '../../src/packs/registry.js';
import type { Pack } from '../../src/packs/types.js';
import { configFromObject, defaultConfig } from '../../src/config/config.js';
import { RULE_IDS } from '../../src/engine/catalog.js';
// @ts-expect-error: a plain ES module script, without type declarations
import { configSchemaText, printJson, withPacks } from '../../scripts/build-schemas.mjs';

const FILE = new URL('../../schemas/config.schema.json', import.meta.url);
const text = readFileSync(FILE, 'utf8');
const schema = JSON.parse(text) as {
  properties: Record<string, unknown> & {
    packs: { additionalProperties: boolean; properties: Record<string, unknown> };
  };
};
const generate = configSchemaText as (current: string, packs: readonly Pack[]) => string;
const combine = withPacks as (schema: unknown, packs: readonly Pack[]) => typeof schema;

/** A pack as a contributor would add it: its own config schema, nothing else. */
const LOGBOOK: Pack = {
  id: 'logbook',
  description: 'a made-up pack',
  globs: () => [],
  read: (path) => ({ pack: 'logbook', path, model: null, problems: [] }),
  rules: [],
  configSchema: {
    description: 'false, or a mapping with `dir`',
    anyOf: [{ const: false }, { type: 'object', additionalProperties: false, properties: { dir: { type: 'string' } } }],
  },
};

describe('config schema: packs', () => {
  it('schemas/config.schema.json is what the build writes from the registered packs', () => {
    expect(text, 'schemas/config.schema.json is stale: run `npm run build` and commit it').toBe(generate(text, PACKS));
    expect(Object.keys(schema.properties.packs.properties)).toEqual(PACKS.map((p) => p.id));
    expect(schema.properties.packs.properties).toEqual(Object.fromEntries(PACKS.map((p) => [p.id, p.configSchema])));
  });

  it('notices a hand edit of the packs part, and leaves the hand-written part as it is', () => {
    const edited = text.replace('"ralph": {', '"ralph": { "default": true,');
    expect(edited).not.toBe(text);
    expect(generate(edited, PACKS)).toBe(generate(text, PACKS));
    const core = text.replace('"Rule id -> off | warn | error."', '"Rule id -> off, warn or error."');
    expect(core).not.toBe(text);
    expect(generate(core, PACKS)).toBe(
      generate(text, PACKS).replace('"Rule id -> off | warn | error."', '"Rule id -> off, warn or error."'),
    );
  });

  it('a new pack in the registry reaches the schema: its key is accepted, its shapes enforced, unknown keys refused', () => {
    const next = JSON.parse(generate(text, [...PACKS, LOGBOOK])) as typeof schema;
    expect(Object.keys(next.properties.packs.properties)).toEqual([...PACKS.map((p) => p.id), 'logbook']);
    const validate = new Ajv2020({ strict: false }).compile(next);
    expect(validate({ packs: { logbook: { dir: 'log' } } })).toBe(true);
    expect(validate({ packs: { logbook: true } })).toBe(false);
    expect(validate({ packs: { ledgerbook: false } })).toBe(false);
    expect(new Ajv2020({ strict: false }).compile(schema)({ packs: { logbook: false } })).toBe(false);
  });

  it("a wrong value is told the pack's own description of its shapes", () => {
    const load = (packs: unknown) => () => configFromObject({ packs }, 'validate-workflow.config.json', RULE_IDS);
    expect(load({ memory: true })).toThrow(
      "invalid configuration in validate-workflow.config.json:\n  - `packs.memory` must be false, or a mapping with `root` (the store's root folder: the pack is on only when it is named), not boolean true",
    );
    expect(load({ 'soong-plans': { maxNameLength: 'long' } })).toThrow(
      /`packs.soong-plans` must be a boolean \(on when \.soong-agent\/plans\/ holds files; false switches it off\), or a mapping with `maxNameLength`/,
    );
    expect(load({ ralph: 'yes' })).toThrow('  - `packs.ralph` must be boolean, not the string "yes"');
    expect(load({ logbook: false })).toThrow('  - unknown key `packs.logbook`');
  });

  it('prints JSON as the schemas are written: on one line when it fits in 120 columns', () => {
    const print = printJson as (value: unknown) => string;
    expect(print({ a: [1, 2], b: { c: 'd' } })).toBe('{ "a": [1, 2], "b": { "c": "d" } }');
    const long = { description: 'x'.repeat(100), type: 'string' };
    expect(print({ long })).toBe(
      `{\n  "long": {\n    "description": "${'x'.repeat(100)}",\n    "type": "string"\n  }\n}`,
    );
    expect(`${print(combine(schema, PACKS))}\n`).toBe(generate(text, PACKS));
  });

  it.each(PACKS.map((p) => [p.id, p] as const))(
    '%s: false switches it off, and its schema is a valid schema',
    (_id, pack) => {
      const ajv = new Ajv2020({ strict: true });
      const validate = ajv.compile(pack.configSchema);
      expect(validate(false)).toBe(true);
      expect(pack.globs({ ...defaultConfig(), packs: { [pack.id]: false } })).toEqual([]);
    },
  );
});
