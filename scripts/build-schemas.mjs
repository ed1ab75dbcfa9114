// Build step: compile every schema in schemas/ to a standalone ajv validator in dist/schemas/, so a run (a git hook
// above all) does not pay ajv's schema compilation at start-up. src/schemas/validate.ts falls back to compiling at
// run time when the built validator is absent (tests run from src/).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

mkdirSync('dist/schemas', { recursive: true });
for (const file of readdirSync('schemas').filter((f) => f.endsWith('.schema.json'))) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, code: { source: true } });
  const validate = ajv.compile(JSON.parse(readFileSync(`schemas/${file}`, 'utf8')));
  const name = file.replace('.schema.json', '');
  writeFileSync(`dist/schemas/${name}.validate.cjs`, standaloneCode.default(ajv, validate));
}
