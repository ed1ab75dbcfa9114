// Every schema check goes through ajv against the JSON Schema files in schemas/, so the files users see in their
// editor (config `$schema`) are the same ones the tool enforces.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020 as Ajv, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { closest } from '../shared/text.js';

export type SchemaName = 'plan' | 'handoff' | 'ledger' | 'config' | 'memory-unit' | 'ralph-status';

export interface SchemaError {
  /** JSON pointer of the offending value (for `required`, the missing property itself). */
  pointer: string;
  message: string;
  /** An unknown key or a value not allowed: the key or value it most likely meant ("did you mean"). */
  suggestion?: string;
}

const compiled = new Map<SchemaName, ValidateFunction>();

export function schemaPath(name: SchemaName): URL {
  return new URL(`../../schemas/${name}.schema.json`, import.meta.url);
}

const requireHere = createRequire(import.meta.url);

// ajv itself only where no validator was built (from src/, the tests): required on first use, so the bundle, which
// always has them, neither holds nor loads its ~300 KB (every command, --version included, loaded it at start-up).
let ajv: Ajv | undefined;
function compile(name: SchemaName): ValidateFunction {
  // verbose: the error carries its schema, so an anyOf can be reported once with the schema's own description.
  ajv ??= new (requireHere('ajv/dist/2020.js') as { Ajv2020: typeof Ajv }).Ajv2020({
    allErrors: true,
    strict: false,
    verbose: true,
  });
  return ajv.compile(JSON.parse(readFileSync(schemaPath(name), 'utf8')));
}

function validator(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    // The build compiles each schema ahead of time (scripts/build-schemas.mjs); from src/ there is none.
    const built = fileURLToPath(new URL(`./${name}.validate.cjs`, import.meta.url));
    fn = existsSync(built) ? (requireHere(built) as { default: ValidateFunction }).default : compile(name);
    compiled.set(name, fn);
  }
  return fn;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${String(value)}`;
}

function valueAt(data: unknown, pointer: string): unknown {
  let cur: unknown = data;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
  }
  return cur;
}

/**
 * A JSON pointer as a reader writes the path: `rules["plan/mode"]`, `paths.plans[0]`, never the pointer's `~1`
 * escapes. A key that is no plain name (a rule id, say) is quoted in brackets.
 */
export function readablePath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(key)) out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += out ? `[${JSON.stringify(key)}]` : JSON.stringify(key);
  }
  return out;
}

function fieldName(pointer: string): string {
  return pointer ? `\`${readablePath(pointer)}\`` : 'the document';
}

function toSchemaError(err: ErrorObject, data: unknown): SchemaError | null {
  const at = err.instancePath;
  switch (err.keyword) {
    case 'required': {
      const missing = (err.params as { missingProperty: string }).missingProperty;
      return { pointer: `${at}/${missing}`, message: `missing required field ${fieldName(`${at}/${missing}`)}` };
    }
    case 'type':
      return { pointer: at, message: `${fieldName(at)} must be ${String((err.params as { type: string | string[] }).type).replace(/,/g, ' or ')}, not ${describe(valueAt(data, at))}` };
    case 'enum':
    case 'const': {
      const allowed = (err.params as { allowedValues?: unknown[]; allowedValue?: unknown }).allowedValues ?? [(err.params as { allowedValue?: unknown }).allowedValue];
      const value = valueAt(data, at);
      const near = typeof value === 'string' ? closest(value, allowed.filter((a): a is string => typeof a === 'string')) : null;
      return { pointer: at, message: `${fieldName(at)} must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, not ${describe(value)}`, ...(near ? { suggestion: JSON.stringify(near) } : {}) };
    }
    case 'additionalProperties': {
      const extra = (err.params as { additionalProperty: string }).additionalProperty;
      const pointer = `${at}/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const keys = Object.keys((err.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const near = closest(extra, keys);
      return { pointer, message: `unknown key ${fieldName(pointer)}`, ...(near ? { suggestion: `\`${readablePath(`${at}/${near}`)}\`` } : {}) };
    }
    case 'anyOf': {
      const description = (err.parentSchema as { description?: string } | undefined)?.description;
      return { pointer: at, message: `${fieldName(at)} must be ${description ?? 'one of the allowed shapes'}, not ${describe(valueAt(data, at))}` };
    }
    case 'if':
      // The branch's own errors say what is wrong; this summary adds nothing.
      return null;
    default:
      return { pointer: at, message: `${fieldName(at)} ${err.message ?? 'is invalid'}` };
  }
}

export function validate(name: SchemaName, data: unknown): SchemaError[] {
  const fn = validator(name);
  if (fn(data)) return [];
  const out: SchemaError[] = [];
  const seen = new Set<string>();
  // The branches of a failed anyOf each report their own mismatch; the anyOf error itself says it once.
  const failedAnyOf = (fn.errors ?? []).filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  for (const err of fn.errors ?? []) {
    if (failedAnyOf.some((prefix) => err.schemaPath.startsWith(prefix))) continue;
    const e = toSchemaError(err, data);
    if (!e || seen.has(`${e.pointer}\0${e.message}`)) continue;
    seen.add(`${e.pointer}\0${e.message}`);
    out.push(e);
  }
  return out;
}
