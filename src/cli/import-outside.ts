// `import()` of an ES module outside the bundle (lint-staged's API, installed in the user's repository). The hooks'
// CommonJS build runs as a vm script (fast-start.ts), where Node 20 gives `import()` no loader without an
// experimental flag or warning; fast-start, a file node loads itself, lends its own `import()` under this key.
const LENT = Symbol.for('validate-workflow.import');

type Importer = (url: string) => Promise<unknown>;

export function lendImport(importer: Importer): void {
  (globalThis as { [LENT]?: Importer })[LENT] = importer;
}

export function importOutside(url: string): Promise<unknown> {
  const lent = (globalThis as { [LENT]?: Importer })[LENT];
  return lent ? lent(url) : import(url);
}
