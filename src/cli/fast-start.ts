#!/usr/bin/env node
// The hooks' start (hooks/pre-commit, commit-msg, pre-push run `node dist/bundle/fast-start.cjs`): the same command
// line as the bin (entry.ts), loaded from one CommonJS file (dist/bundle/cli.cjs, scripts/bundle.mjs) through V8's
// code cache. Node 20 caches no compiled code of its own (module.enableCompileCache came in Node 22), and a hook
// compiled ~1.4 MB of the bundle's ES modules on every commit: on the bench's history shape, loading cost ~95 ms of
// a ~410 ms pre-commit, compiling and the ES module loader most of it. A script compiled with the cache of a
// previous run of the same command skips both.
//
// The cache is V8's, kept beside the bundle (.code-cache/). V8 on Node 20 checks a cache only against its own version,
// its flags and the source's length, not against the source's text nor its own bytes: taken for another build of the
// same length, old code would run, and a damaged one kills the process. So each file is named by the command, the
// source's hash and what decides V8's flags, and holds the SHA-1 of its data, checked before V8 sees it; anything
// else is no cache. A missing or refused cache is written again after the run, from what that run compiled; one made
// by a run that parsed no Markdown is replaced by the first run that does.
// A cache that cannot be read or written costs speed, never the verdict. Where the CommonJS file is not there, or
// does not compile (an unbundled build, a file cut short), the bin's ES modules run instead.
//
// This file is itself built as CommonJS (scripts/bundle.mjs): an ES module as node's main script starts the ES module
// loader first, ~10 ms of every hook (measured interleaved on the wide bench shape, 40 rounds). So no top-level await,
// and the bin is reached by a URL esbuild leaves alone: a CommonJS file's `import()` has the loader.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { timing } from '../shared/timing.js';
import { lendImport } from './import-outside.js';

timing('node start, fast-start.js loaded', performance.now());

type Main = (argv: string[]) => Promise<number>;
/** cli.cjs's exports that fast-start uses (entry.ts). */
type Cli = { main?: Main; parsedMarkdown?: () => boolean };

/** The SHA-1 of the data, ahead of it in the file. */
const SUM = 20;

/** The hook commands that get a cache of their own (what one compiles, another may never run); null: none. */
function cacheWord(argv: string[]): string | null {
  const word = argv[0];
  return word === 'pre-commit' || word === 'commit-msg' || word === '--staged' || word === '--range'
    ? word.replace(/^-+/, '')
    : null;
}

/** The cache's name: the command, the source it compiled, and the node and flags V8 checks it against. */
function cacheName(word: string, source: Buffer): string {
  // NODE_OPTIONS' flags are V8's too, and not in execArgv: an editor's node with --max-old-space-size and a
  // terminal's without would otherwise take turns refusing and rewriting one file.
  const flags = createHash('sha1')
    .update(JSON.stringify([process.execArgv, process.env.NODE_OPTIONS ?? '']))
    .digest('hex')
    .slice(0, 8);
  // By the source's bytes (2 ms), not the build's id: a file patched in place (patch-package) keeps its BUILD_ID.
  const built = createHash('sha1').update(source).digest('hex').slice(0, 16);
  return `${word}-${built}-${process.version}-${process.arch}-${flags}.bin`;
}

/** The cached data, when the file holds what was written: its SHA-1, then the data. */
function readCache(file: string): Buffer | undefined {
  try {
    const bytes = readFileSync(file);
    const data = bytes.subarray(SUM);
    return bytes.length > SUM && createHash('sha1').update(data).digest().equals(bytes.subarray(0, SUM))
      ? data
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Written whole or not at all: two hooks may write the same cache at once, and a reader never sees half of one. The
 * caches of other builds, flags or nodes for the same command go: nothing reads them again.
 */
function writeCache(dir: string, word: string, name: string, data: () => Buffer): void {
  const temp = join(dir, `${name}.${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    // A package folder this user cannot write (a global install): not even the cache's data is made.
    accessSync(dir, constants.W_OK);
    const bytes = data();
    // `wx`: never through a file (or a link) someone left under that name.
    writeFileSync(temp, Buffer.concat([createHash('sha1').update(bytes).digest(), bytes]), { flag: 'wx' });
    renameSync(temp, join(dir, name));
    for (const old of readdirSync(dir))
      if (old !== name && old.startsWith(`${word}-`) && old.endsWith('.bin')) rmSync(join(dir, old), { force: true });
  } catch {
    rmSync(temp, { force: true });
  }
}

/** The command line of cli.cjs, compiled with the cache when there is one; null where the file cannot give it. */
function compiled(
  bundle: string,
  source: string,
  cached: Buffer | undefined,
): { main: Main; parsed: () => boolean; script: vm.Script } | null {
  try {
    // CommonJS's own wrapper, so the file runs as `require` would run it (its `require` resolves beside it).
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: bundle,
      ...(cached ? { cachedData: cached } : {}),
    });
    const module = { exports: {} as Cli };
    (script.runInThisContext() as (...args: unknown[]) => void)(
      module.exports,
      createRequire(bundle),
      module,
      bundle,
      dirname(bundle),
    );
    const { main, parsedMarkdown } = module.exports;
    if (typeof main !== 'function') return null;
    return { main, parsed: typeof parsedMarkdown === 'function' ? parsedMarkdown : () => true, script };
  } catch {
    return null;
  }
}

async function start(argv: string[]): Promise<number | null> {
  const bundle = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  let source: Buffer | null = null;
  try {
    if (process.env.VALIDATE_WORKFLOW_CODE_CACHE !== '0') source = readFileSync(bundle);
  } catch {
    source = null;
  }
  const dir = join(dirname(bundle), '.code-cache');
  const word = cacheWord(argv);
  const name = source !== null && word ? cacheName(word, source) : null;
  // A cache made by a run that parsed no Markdown (a commit of no workflow file) lacks the parser's functions, which
  // every later commit of a plan then compiles (~20 ms): it is kept under a name of its own, and the first run that
  // parses replaces it.
  const lean = name?.replace(/\.bin$/, '.lean.bin') ?? null;
  let cached = name ? readCache(join(dir, name)) : undefined;
  const leanTaken = cached === undefined && lean !== null && (cached = readCache(join(dir, lean))) !== undefined;
  // The script's own `import()` has no loader (import-outside.ts): this module's is lent to it.
  lendImport((url) => import(url));
  // The build writes the file in ASCII (scripts/bundle.mjs): read as Latin-1, the same text without a UTF-8 decode of
  // 1.7 MB into a two-byte string (8 ms of every hook). A file that is not ASCII (patched by hand) is UTF-8.
  const cli = source !== null ? compiled(bundle, source.toString(isAscii(source) ? 'latin1' : 'utf8'), cached) : null;
  if (!cli) {
    // The bin runs the same arguments (this process's) and sets the exit code itself.
    await import(new URL('./main.js', import.meta.url).href);
    return null;
  }
  const { main, parsed, script } = cli;
  const state = cached === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'taken';
  timing(`cli.cjs loaded (code cache ${state}${leanTaken && state === 'taken' ? ', lean' : ''})`, performance.now());
  const code = await main(argv);
  // After the run, so the cache holds the functions this command compiled, not only the file's top level.
  const full = parsed();
  if (word && name && lean && (state !== 'taken' || (leanTaken && full)))
    writeCache(dir, word, full ? name : lean, () => script.createCachedData());
  return code;
}

void start(process.argv.slice(2)).then((code) => {
  if (code !== null) process.exitCode = code;
});
