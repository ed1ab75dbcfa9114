// The config schema's `packs` property is the registered packs' fragments: adding a pack without its fragment (or
// changing a fragment without the schema file) fails here. schemas/config.schema.json stays the one source file the
// build compiles and users' editors read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PACKS } from '../../src/packs/registry.js';
import { defaultConfig } from '../../src/config/config.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as {
  properties: { packs: { type: string; additionalProperties: boolean; properties: Record<string, unknown> } };
};

describe('config schema: packs', () => {
  it('properties.packs.properties equals the fragments of the registered packs, in registry order', () => {
    const fragments = Object.fromEntries(PACKS.map((p) => [p.id, p.configSchema]));
    expect(schema.properties.packs.properties).toEqual(fragments);
    expect(Object.keys(schema.properties.packs.properties)).toEqual(PACKS.map((p) => p.id));
  });

  it('an unknown pack key is refused', () => {
    expect(schema.properties.packs.type).toBe('object');
    expect(schema.properties.packs.additionalProperties).toBe(false);
  });

  it.each(PACKS.map((p) => [p.id, p] as const))('%s: false switches it off, and its fragment is a valid schema', (_id, pack) => {
    const ajv = new Ajv2020({ strict: true });
    const validate = ajv.compile(pack.configSchema);
    expect(validate(false)).toBe(true);
    expect(pack.globs({ ...defaultConfig(), packs: { [pack.id]: false } })).toEqual([]);
  });
});
