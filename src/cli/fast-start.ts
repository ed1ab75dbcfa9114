#!/usr/bin/env node
// The hooks' start (hooks/pre-commit, commit-msg, pre-push run `node dist/bundle/fast-start.js`): the same command
// line as the bin (entry.ts), loaded from one CommonJS file (dist/bundle/cli.cjs, scripts/bundle.mjs) through V8's
// code cache. Node 20 caches no compiled code of its own (module.enableCompileCache came in Node 22), and a hook
// compiled ~1.4 MB of the bundle's ES modules on every commit: on the bench's history shape, loading cost ~95 ms of
// a ~410 ms pre-commit, compiling and the ES module loader most of it. A script compiled with the cache of a
// previous run of the same command skips both.
//
// The cache is V8's, kept beside the bundle (.code-cache/, one file per hook command and node version). V8 checks it
// against the source, its own version and flags, and rejects one that does not fit; a rejected or missing cache is
// written again after the run, from what that run compiled. A cache that cannot be read or written costs speed,
// never the verdict. Where the CommonJS file is not there (an unbundled build) the bin's ES modules run instead.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { timing } from '../shared/timing.js';
import { lendImport } from './import-outside.js';

timing('node start, fast-start.js loaded', performance.now());

type Main = (argv: string[]) => Promise<number>;

/** The hook commands that get a cache of their own (what one compiles, another may never run); null: none. */
function cacheWord(argv: string[]): string | null {
  const word = argv[0];
  return word === 'pre-commit' || word === 'commit-msg' || word === '--staged' || word === '--range'
    ? word.replace(/^-+/, '')
    : null;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all: two hooks may write the same cache at once, and a reader never sees half of one. */
function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch {
    // A package folder this user cannot write (a global install): the next run compiles again.
    rmSync(temp, { force: true });
  }
}

async function start(argv: string[]): Promise<number> {
  const bundle = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  let source: string | null = null;
  try {
    if (process.env.VALIDATE_WORKFLOW_CODE_CACHE !== '0') source = readFileSync(bundle, 'utf8');
  } catch {
    source = null;
  }
  if (source === null) return (await import('./entry.js')).main(argv);
  const word = cacheWord(argv);
  const cacheFile = word && join(dirname(bundle), '.code-cache', `${word}-${process.version}-${process.arch}.bin`);
  const cached = cacheFile ? readCache(cacheFile) : undefined;
  // CommonJS's own wrapper, so the file runs as `require` would run it (its `require` resolves beside it).
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cached ? { cachedData: cached } : {}),
  });
  // The script's own `import()` has no loader (import-outside.ts): this module's is lent to it.
  lendImport((url) => import(url));
  const module = { exports: {} as { main?: Main } };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    dirname(bundle),
  );
  // Not the command line (a file emptied or cut short on disk): the bin's modules judge, as without the file.
  if (typeof module.exports.main !== 'function') return (await import('./entry.js')).main(argv);
  timing(
    `cli.cjs loaded (code cache ${cached === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'taken'})`,
    performance.now(),
  );
  const code = await module.exports.main(argv);
  // After the run, so the cache holds the functions this command compiled, not only the file's top level.
  if (cacheFile && (cached === undefined || script.cachedDataRejected))
    writeCache(cacheFile, script.createCachedData());
  return code;
}

process.exitCode = await start(process.argv.slice(2));
