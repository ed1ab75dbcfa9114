// Build step, after tsc: write the config schema's `packs` property from the registered packs, then compile every
// schema in schemas/ to a standalone ajv validator in dist/schemas/, so a run (a git hook above all) does not pay
// ajv's schema compilation at start-up. src/schemas/validate.ts falls back to compiling at run time when the built
// validator is absent (tests run from src/).
//
// Each pack declares the JSON Schema of its config key next to its code (`Pack.configSchema`, src/packs/<id>/); the
// rest of schemas/config.schema.json is written by hand. The file stays committed, because users' editors read it
// through the config's `$schema`: test/packs/config-schema.test.ts fails when it differs from what this writes.
//
// The functions below are pure (text and packs in, text out): that test calls them with the registry from src/.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

export const CONFIG_SCHEMA = 'schemas/config.schema.json';
const WIDTH = 120;

/** The config schema with `properties.packs` made of these packs' fragments, in their order. */
export function withPacks(schema, packs) {
  const list = packs.map((p) => `${p.id} (${p.description})`).join(', ');
  const packsProperty = {
    type: 'object',
    additionalProperties: false,
    description: `Rule packs for other systems, one key per pack: ${list}. Each key's description says when its pack is on; false switches a pack off.`,
    properties: Object.fromEntries(packs.map((p) => [p.id, p.configSchema])),
  };
  return { ...schema, properties: { ...schema.properties, packs: packsProperty } };
}

/**
 * JSON as the schemas are written: an object or array on one line when it fits in 120 columns, otherwise one
 * member per line, two spaces deep. Deterministic, so a build that changes nothing rewrites nothing.
 */
export function printJson(value, indent = '', prefix = '') {
  const inline = (v) => {
    if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
    if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      return entries.length === 0
        ? '{}'
        : `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')} }`;
    }
    return JSON.stringify(v);
  };
  const flat = inline(value);
  // The trailing comma a member may carry counts too.
  if (!value || typeof value !== 'object' || indent.length + prefix.length + flat.length + 1 <= WIDTH) return flat;
  const inner = `${indent}  `;
  const members = Array.isArray(value)
    ? value.map((v) => `${inner}${printJson(v, inner)}`)
    : Object.entries(value).map(
        ([k, v]) => `${inner}${JSON.stringify(k)}: ${printJson(v, inner, `${JSON.stringify(k)}: `)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${members.join(',\n')}\n${indent}${close}`;
}

/** The text schemas/config.schema.json must have, given its current text (the hand-written part) and the packs. */
export function configSchemaText(current, packs) {
  return `${printJson(withPacks(JSON.parse(current), packs))}\n`;
}

async function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const registry = join(root, 'dist/packs/registry.js');
  if (!existsSync(registry)) throw new Error('dist/ is missing: build-schemas runs after tsc (`npm run build`)');
  const { PACKS } = await import(pathToFileURL(registry).href);
  const current = readFileSync(join(root, CONFIG_SCHEMA), 'utf8');
  const expected = configSchemaText(current, PACKS);
  if (expected !== current) {
    writeFileSync(join(root, CONFIG_SCHEMA), expected);
    console.log(`wrote ${CONFIG_SCHEMA} (the packs' config schemas changed): commit it`);
  }
  mkdirSync(join(root, 'dist/schemas'), { recursive: true });
  for (const file of readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.schema.json'))) {
    const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, code: { source: true } });
    const validate = ajv.compile(JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8')));
    const name = file.replace('.schema.json', '');
    writeFileSync(join(root, `dist/schemas/${name}.validate.cjs`), standaloneCode.default(ajv, validate));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
