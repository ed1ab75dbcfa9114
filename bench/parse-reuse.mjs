// Section-level parse reuse (issue 13), measured alone: the distinct workflow Markdown blobs of a repository's
// history, in commit order (`git log --reverse --raw`), parsed single-threaded (1) whole with the bare remark
// processor and (2) through parseMarkdown's sectioned parse with its bounded section cache (read/sections.ts). Prints
// the ratio sectioned / whole (wall clock, and CPU time of this process, which a loaded machine disturbs less), the
// section cache hit rate (sections and characters), how many documents were cut, and the parser calls made. Each
// timing runs `--runs` times (default 2; the machine is shared) and every run is printed.
//
//   npm run build && node bench/parse-reuse.mjs <repo> [--runs N] [--verify] [--limit N] [--budget BYTES] [--sectioned-only]
//
// --verify also checks every sectioned tree against the whole-file tree (deep equality, positions included).
// --budget sets the section cache's size in bytes of JSON (VALIDATE_WORKFLOW_SECTION_CACHE_BYTES).
// --sectioned-only skips the whole-file baseline (to compare cache budgets).
import { distinctBlobs } from './blobs.mjs';
import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? process.env.BENCH_REPO;
if (!dir) {
  console.error(
    'usage: node bench/parse-reuse.mjs <repo> [--runs N] [--verify] [--limit N] [--budget BYTES] [--sectioned-only]',
  );
  process.exit(2);
}
const runs = Number(opt('--runs', 2));
const limit = Number(opt('--limit', Infinity));
const verify = args.includes('--verify');
const sectionedOnly = args.includes('--sectioned-only');
if (opt('--budget')) process.env.VALIDATE_WORKFLOW_SECTION_CACHE_BYTES = opt('--budget');
const { parseMarkdown } = await import('../dist/read/markdown.js');
await (await import('../dist/read/lazy.js')).loadParsers();
const { resetSectionCache, sectionCacheSize, sectionStats } = await import('../dist/read/sections.js');

// Distinct Markdown blobs under thoughts/, in the order the history first shows them.
const texts = distinctBlobs(dir, { match: /\.md$/, reverse: true }).slice(0, limit);
const chars = texts.reduce((n, t) => n + t.length, 0);
const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm);

const s = (ms) => `${(ms / 1000).toFixed(2).padStart(7)} s`;
console.log(
  `parse-reuse bench: ${texts.length} distinct Markdown blobs, ${(chars / 1e6).toFixed(1)} MB, largest ${(Math.max(...texts.map((t) => t.length)) / 1000).toFixed(0)} KB, in ${dir}`,
);
const peak = () => Math.round(process.resourceUsage().maxRSS / 1024);
/** Wall and CPU time of fn (CPU: this process's user + system time, less disturbed by a loaded machine). */
function timed(fn) {
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  const cpu = process.cpuUsage(c);
  return { wall: performance.now() - t, cpu: (cpu.user + cpu.system) / 1000 };
}
for (let run = 1; run <= runs; run++) {
  const whole = sectionedOnly
    ? { wall: NaN, cpu: NaN }
    : timed(() => {
        for (const text of texts) processor.parse(text);
      });
  resetSectionCache();
  const sectioned = timed(() => {
    for (const text of texts) parseMarkdown(text);
  });
  const st = { ...sectionStats };
  const hitRate = st.hits / Math.max(1, st.hits + st.misses);
  const charRate = st.hitChars / Math.max(1, st.hitChars + st.missChars);
  const size = sectionCacheSize();
  console.log(
    `run ${run}: whole ${s(whole.wall)} (cpu ${s(whole.cpu)})   sectioned ${s(sectioned.wall)} (cpu ${s(sectioned.cpu)})   ` +
      `ratio ${(sectioned.wall / whole.wall).toFixed(3)} (cpu ${(sectioned.cpu / whole.cpu).toFixed(3)})`,
  );
  console.log(
    `       section hits ${(hitRate * 100).toFixed(1)}% (${(charRate * 100).toFixed(1)}% of characters)   ` +
      `${st.documents}/${texts.length} documents cut (${st.sections} sections; ${st.seeded} new enough to parse whole)   ` +
      `${st.parses} parser calls   cache ${size.entries} entries, ${(size.bytes / 1e6).toFixed(1)} MB of JSON   peak rss ${peak()} MB`,
  );
}
if (verify) {
  resetSectionCache();
  let bad = 0;
  for (const [i, text] of texts.entries()) {
    if (!isDeepStrictEqual(parseMarkdown(text), processor.parse(text))) {
      bad++;
      if (bad <= 3) console.log(`MISMATCH in blob #${i}`);
    }
  }
  console.log(`verify: ${texts.length - bad}/${texts.length} sectioned trees equal the whole-file trees`);
}
