// Injected into dist/bundle/cli.cjs (scripts/bundle.mjs): what `import.meta.url` is in the ES module bundle, the
// file's own URL, for a CommonJS file.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file has no import.meta
export const import_meta_url = require('node:url').pathToFileURL(__filename).href;
