// Build step: the CLI as one bundle in dist/bundle/, for the hooks and every run of the installed tool. Loading
// ~300 ES modules (ours and unified's, micromark's, ajv's) costs more than the work of a small commit; one file per
// command (esbuild's code splitting keeps `import('./check.js')` lazy, so --help and the hooks load only what they
// run) is read and compiled in one go. The workers are entry points of their own, beside the chunks, because
// src/read/parallel.ts and src/history/store.ts start them by a URL relative to the module. The ajv validators that
// scripts/build-schemas.mjs compiled are copied beside them for the same reason. Paths like `../../templates` keep
// working because dist/bundle/ is as deep as dist/cli/. The programmatic API (package.json `exports`) is an entry
// too, sharing the chunks: importing it costs ~150 ms instead of ~400 ms for the unbundled dist/api/.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

rmSync('dist/bundle', { recursive: true, force: true });
mkdirSync('dist/bundle', { recursive: true });
await build({
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
});
for (const file of readdirSync('dist/schemas').filter((f) => f.endsWith('.validate.cjs')))
  copyFileSync(`dist/schemas/${file}`, `dist/bundle/${file}`);
// The build's identity for the cache under .git/ (src/history/cache.ts): cached models and findings are only as good
// as the readers, rules and engine that made them, and any of them lives in any chunk. One hash of every file built,
// read once per run instead of hashing 2 MB of chunks.
const id = createHash('sha1');
for (const file of readdirSync('dist/bundle').sort()) id.update(file).update(readFileSync(`dist/bundle/${file}`));
writeFileSync('dist/bundle/BUILD_ID', `${id.digest('hex')}\n`);
