// Build step: the CLI as one bundle in dist/bundle/, for the hooks and every run of the installed tool. Loading
// ~300 ES modules (ours and unified's, micromark's, ajv's) costs more than the work of a small commit; one file per
// command (esbuild's code splitting keeps `import('./check.js')` lazy, so --help and the hooks load only what they
// run) is read and compiled in one go. The workers are entry points of their own, beside the chunks, because
// src/read/parallel.ts and src/history/store.ts start them by a URL relative to the module. The ajv validators that
// scripts/build-schemas.mjs compiled are copied beside them for the same reason. Paths like `../../templates` keep
// working because dist/bundle/ is as deep as dist/cli/. The programmatic API (package.json `exports`) is an entry
// too, sharing the chunks: importing it costs ~150 ms instead of ~400 ms for the unbundled dist/api/.
//
// The package ships this folder and nothing else of dist/ but the API's declarations: every runtime dependency is in
// the bundle (package.json lists them as devDependencies), so an install adds no package. Two more outputs make that
// true: dist/types/ (the declarations the API's index reaches, and only those; the build fails if one of them imports
// a package's types, which a consumer would not have), and THIRD_PARTY_LICENSES (the licence of every package whose
// code the bundle holds, read from esbuild's list of the files it bundled).
import { isAscii } from 'node:buffer';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

rmSync('dist/bundle', { recursive: true, force: true });
mkdirSync('dist/bundle', { recursive: true });
const main = await build({
  entryPoints: {
    main: 'dist/cli/main.js',
    api: 'dist/api/index.js',
    'read-worker': 'dist/read/read-worker.js',
    'blob-worker': 'dist/history/blob-worker.js',
  },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: 'dist/bundle',
  chunkNames: 'chunk-[hash]',
  // ajv's standalone validators `require` its runtime: keep require() working inside an ES module bundle.
  banner: {
    js: "import { createRequire as __vwCreateRequire } from 'node:module'; const require = __vwCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});
// The same command line once more as one CommonJS file, for the hooks: fast-start.cjs compiles it with V8's code
// cache, which Node 20 offers for scripts and not for ES modules. No splitting (CommonJS has none): its dynamic
// imports are inlined, and V8 compiles a function only when it first runs, so the file's size is not its load cost.
// `import.meta.url` is the file's own URL, as in the ES module bundle beside it: the workers, the validators and the
// package's files are found relative to it alike.
/** A CommonJS file per entry, `.cjs` beside the ES module bundle. */
const commonJs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: 'dist/bundle',
  outExtension: { '.js': '.cjs' },
  logLevel: 'warning',
  metafile: true,
};
const cli = await build({
  ...commonJs,
  entryPoints: { cli: 'dist/cli/entry.js' },
  inject: ['scripts/cjs-import-meta.js'],
  define: { 'import.meta.url': 'import_meta_url' },
});
// esbuild writes code in ASCII (its `charset` default) but keeps comments as the packages wrote them (a `’`, an emoji
// in a JSDoc): the whole file then decoded as UTF-8 into a two-byte string, 8 ms of every hook of 1.7 MB, where
// ASCII read as Latin-1 is 1.5 ms (fast-start.ts). Escaped as esbuild escapes code (`\uXXXX`, the same value in a
// string, a regular expression or a name); in a comment it changes nothing.
{
  const file = 'dist/bundle/cli.cjs';
  const source = readFileSync(file, 'utf8');
  // After a backslash the escape would read otherwise (`\✖` is `✖` in a string, `\\u2716` is not). A template read
  // raw (String.raw) would too; none holds such a character as text today (checked against a build without this).
  const escaped = /\\[^\p{ASCII}]/u.exec(source);
  if (escaped) throw new Error(`${file}: a backslash before a character this pass would escape: ${escaped[0]}`);
  const text = source.replace(
    /[^\p{ASCII}]/gu,
    // A character beyond the first plane is two UTF-16 units: each escaped, as a string writes it.
    (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
  writeFileSync(file, text);
  if (!isAscii(readFileSync(file))) throw new Error(`${file} is not ASCII after escaping`);
}
// The hooks' start itself (src/cli/fast-start.ts), CommonJS too: an ES module as node's main script costs every hook
// the ES module loader's start. It reaches the bin (main.js) only by a URL, which esbuild leaves to run time.
const fastStart = await build({
  ...commonJs,
  entryPoints: { 'fast-start': 'dist/cli/fast-start.js' },
  inject: ['scripts/cjs-import-meta.js'],
  define: { 'import.meta.url': 'import_meta_url' },
});
// The validators `require` ajv's runtime helpers: bundled one by one, each stays a CommonJS file that needs no ajv.
const validators = await build({
  ...commonJs,
  entryPoints: readdirSync('dist/schemas')
    .filter((f) => f.endsWith('.validate.cjs'))
    .map((f) => `dist/schemas/${f}`),
  entryNames: '[name]',
});

// --- the licences of the bundled packages ---------------------------------------------------------------------------
/** The folder of the package a bundled file comes from (the last node_modules/<name> or node_modules/@scope/<name>). */
function packageDir(input) {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m ? m[1] : null;
}
const packages = new Map();
for (const input of [main, cli, fastStart, validators].flatMap((b) => Object.keys(b.metafile.inputs))) {
  const dir = packageDir(input);
  if (!dir || packages.has(dir)) continue;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  // `licenses: [{ type, url }]` is the field's old form (the `format` package still uses it).
  const license =
    pkg.license ??
    (Array.isArray(pkg.licenses)
      ? pkg.licenses.map((l) => [l.type, l.url].filter(Boolean).join(' ')).join(', ')
      : null);
  packages.set(dir, {
    name: pkg.name,
    version: pkg.version,
    license,
    text: file ? readFileSync(join(dir, file), 'utf8').trim() : null,
  });
}
const entries = [...packages.values()].sort(
  (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
);
const missing = entries.filter((e) => e.text === null && !e.license);
if (missing.length) throw new Error(`bundled packages without a licence: ${missing.map((e) => e.name).join(', ')}`);
writeFileSync(
  'dist/bundle/THIRD_PARTY_LICENSES',
  [
    `validate-workflow's bundle (dist/bundle/) holds code of the ${entries.length} packages below, under their licences.\n`,
    ...entries.map(
      (e) =>
        `${'-'.repeat(80)}\n${e.name}@${e.version} (${e.license ?? 'see below'})\n\n${e.text ?? `License: ${e.license} (the package ships no licence file)`}\n`,
    ),
  ].join('\n'),
);

// --- the declarations of the API --------------------------------------------------------------------------------------
rmSync('dist/types', { recursive: true, force: true });
const declarations = new Set();
const todo = [resolve('dist/api/index.d.ts')];
while (todo.length) {
  const file = todo.pop();
  if (declarations.has(file)) continue;
  declarations.add(file);
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s+|\bimport\(\s*)['"]([^'"]+)['"]/g)) {
    if (!spec.startsWith('.'))
      throw new Error(`${relative('.', file)} imports types from '${spec}', which a consumer does not install`);
    const next = resolve(dirname(file), spec.replace(/\.js$/, '.d.ts'));
    if (!existsSync(next)) throw new Error(`${relative('.', file)} imports ${spec}: no ${relative('.', next)}`);
    todo.push(next);
  }
}
for (const file of declarations) {
  const to = join('dist/types', relative(resolve('dist'), file));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(file, to);
}

// The build's identity for the cache under .git/ (src/history/cache.ts): cached models and findings are only as good
// as the readers, rules and engine that made them, and any of them lives in any chunk. One hash of every file built,
// read once per run instead of hashing 2 MB of chunks.
const id = createHash('sha1');
for (const file of readdirSync('dist/bundle')
  .filter((f) => f !== 'THIRD_PARTY_LICENSES')
  .sort())
  id.update(file).update(readFileSync(`dist/bundle/${file}`));
writeFileSync('dist/bundle/BUILD_ID', `${id.digest('hex')}\n`);

// The readers' identity, for the models of that cache alone: a model is a pure function of a version's bytes, its
// path's kind and the code that reads, classifies and encodes it. That code is what the modules below import, as
// esbuild resolved it (packages included), as this esbuild emits it for this target: a release that changes only
// rules, messages or doors keeps its models, and its first commit parses its change rather than every workflow file
// at HEAD. Every module under dist/read/ must be among them (checked below): a reader the roots do not reach would
// change models without changing the id. What decides a model's key outside them (engine/lint.ts keys the working
// tree's files, history/fold.ts follows links) is not hashed: a change there that alters what a cached key holds
// bumps FORMAT in src/history/cache.ts, which is hashed.
const READER_ROOTS = [
  'dist/history/blob-worker.js',
  'dist/read/read-worker.js',
  'dist/history/store.js',
  'dist/read/workspace.js',
  'dist/read/classify.js',
  'dist/history/sight.js',
  'dist/history/cache.js',
];
const inputs = main.metafile.inputs;
const reached = new Set();
const toReach = [...READER_ROOTS];
while (toReach.length) {
  const file = toReach.pop();
  if (reached.has(file)) continue;
  if (!inputs[file]) throw new Error(`the readers' identity: ${file} is not in the bundle`);
  reached.add(file);
  for (const i of inputs[file].imports) if (!i.external) toReach.push(i.path);
}
/** Modules under dist/read/ that make no model, with why. */
const NOT_MODELS = {
  // The signals of the agent's instructions (the promise): rules read them, the cache holds no model of them.
  'dist/read/profile.js': 'instructions',
};
const unreached = Object.keys(inputs).filter(
  (f) => f.startsWith('dist/read/') && !reached.has(f) && !(f in NOT_MODELS),
);
if (unreached.length)
  throw new Error(
    `the readers' identity: ${unreached.join(', ')} not reached from READER_ROOTS (add the module that uses it)`,
  );
const { version: esbuildVersion } = JSON.parse(readFileSync('node_modules/esbuild/package.json', 'utf8'));
const readers = createHash('sha1').update(JSON.stringify({ esbuild: esbuildVersion, target: 'node20', format: 'esm' }));
for (const file of [...reached].sort()) readers.update(file).update(readFileSync(file));
writeFileSync('dist/bundle/READERS_ID', `${readers.digest('hex')}\n`);
