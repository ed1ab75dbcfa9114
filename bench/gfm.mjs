// What leaving autolink literals out of the parser saves, and that it changes nothing the readers see: every
// Markdown file under the given folders (default: this repository's thoughts/ and docs/, and the corpus clones when
// present) parsed with remark-gfm and with the project's processor (src/read/markdown.ts), CPU time of each, and the
// text of the two trees compared (an autolink literal is a link node in one and text in the other: same string).
//   node bench/gfm.mjs [folder...]
import { readFileSync, existsSync } from 'node:fs';
import fg from 'fast-glob';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { toString } from 'mdast-util-to-string';
import { parseWhole } from '../dist/read/markdown.js';
import { loadParsers } from '../dist/read/lazy.js';

await loadParsers();

const folders = process.argv.slice(2);
if (folders.length === 0)
  folders.push('thoughts', 'docs', ...(existsSync('/tmp/vw-corpus/repos') ? ['/tmp/vw-corpus/repos'] : []));
const files = folders.flatMap((d) => fg.sync(`${d}/**/*.md`, { ignore: ['**/node_modules/**'] }));
const texts = files.map((f) => readFileSync(f, 'utf8'));
const full = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm);

/** Block structure and text, which is all a reader uses: node types other than inline links, and the text. */
function shape(tree) {
  const out = [];
  const walk = (n) => {
    if (n.type !== 'link' && n.type !== 'text') out.push(`${n.type}@${n.position?.start.line}:${n.checked ?? ''}`);
    if (n.type !== 'link' && n.children) n.children.forEach(walk);
  };
  walk(tree);
  return `${out.join(' ')}|${toString(tree)}`;
}

const cpu = (fn) => {
  const t = process.cpuUsage();
  fn();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1e6;
};
let differ = 0;
texts.forEach((t, i) => {
  if (shape(full.parse(t)) !== shape(parseWhole(t))) {
    differ++;
    if (differ <= 5) console.log(`trees differ: ${files[i]}`);
  }
});
const mb = texts.reduce((a, t) => a + Buffer.byteLength(t), 0) / 1e6;
// Alternated, three rounds each after the warm-up above; the least of each.
let a = Infinity;
let b = Infinity;
for (let round = 0; round < 3; round++) {
  a = Math.min(
    a,
    cpu(() => texts.forEach((t) => full.parse(t))),
  );
  b = Math.min(
    b,
    cpu(() => texts.forEach((t) => parseWhole(t))),
  );
}
console.log(`${files.length} files, ${mb.toFixed(1)} MB; trees that differ beyond autolinks: ${differ}`);
console.log(
  `remark-gfm ${a.toFixed(2)} s CPU; without autolink literals ${b.toFixed(2)} s CPU: ${(b / a).toFixed(2)}x`,
);
