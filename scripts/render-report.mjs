// The review report as a reviewer sees it on GitHub, without GitHub: runs `--format markdown` on a repository, turns
// the Markdown into one HTML page (GFM through remark-rehype, ```mermaid blocks as `<pre class="mermaid">` drawn by
// mermaid's browser bundle from node_modules) and screenshots it with headless Chromium. For looking at the timeline
// picture by eye; no test needs it (nor Chromium).
//
//   node scripts/render-report.mjs [repo] [--png /tmp/vw-report.png] [--html /tmp/vw-report.html] [--width 1400]
//                                  [--height 2400] [--closed]
//
// repo defaults to this repository; the CLI is this repository's build (`npm run build` first). Folded phases are
// opened before drawing (mermaid cannot measure text inside a closed <details>), unless --closed.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import rehypeStringify from 'rehype-stringify';
import { visit } from 'unist-util-visit';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const CLI = join(ROOT, 'dist/bundle/main.js');
const MERMAID = join(ROOT, 'node_modules/mermaid/dist/mermaid.min.js');

function fail(message) {
  process.stderr.write(`render-report: ${message}\n`);
  process.exit(2);
}

/** rehype: `<pre><code class="language-mermaid">` becomes `<pre class="mermaid">`, the element mermaid looks for. */
function mermaidBlocks() {
  return (tree) => {
    visit(tree, 'element', (node) => {
      if (node.tagName !== 'pre') return;
      const code = node.children.find((c) => c.type === 'element' && c.tagName === 'code');
      const classes = code?.properties?.className ?? [];
      if (!code || !classes.includes('language-mermaid')) return;
      node.properties = { className: ['mermaid'] };
      node.children = code.children;
    });
  };
}

const STYLE = `
body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif, "Noto Color Emoji"; color: #1f2328;
  max-width: 1280px; margin: 24px auto; padding: 0 24px; }
table { border-collapse: collapse; margin: 12px 0; } th, td { border: 1px solid #d1d9e0; padding: 4px 10px; vertical-align: top; }
code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; font-size: 85%; }
pre.mermaid { background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; padding: 12px; text-align: center; }
details { border: 1px solid #d1d9e0; border-radius: 6px; padding: 4px 12px; margin: 8px 0; } summary { cursor: pointer; font-weight: 600; }
h2 { border-bottom: 1px solid #d1d9e0; padding-bottom: 4px; }`;

function page(body, openDetails) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>validate-workflow review</title><style>${STYLE}</style></head>
<body>
${body}
<script src="${pathToFileURL(MERMAID)}"></script>
<script>
${openDetails ? "document.querySelectorAll('details').forEach((d) => { d.open = true; });" : ''}
mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' });
mermaid.run({ querySelector: 'pre.mermaid' }).catch((e) => { document.body.insertAdjacentHTML('afterbegin', '<p id="mermaid-error">' + String(e.message || e).replace(/</g, '&lt;') + '</p>'); });
</script>
</body></html>
`;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    png: { type: 'string', default: '/tmp/vw-report.png' },
    html: { type: 'string', default: '/tmp/vw-report.html' },
    width: { type: 'string', default: '1400' },
    height: { type: 'string', default: '2400' },
    closed: { type: 'boolean', default: false },
  },
});
const repo = resolve(positionals[0] ?? ROOT);
if (!existsSync(CLI)) fail(`${CLI} is missing: run \`npm run build\` first`);
if (!existsSync(MERMAID)) fail(`${MERMAID} is missing: run \`npm install\` (mermaid is a devDependency)`);

const run = spawnSync(process.execPath, [CLI, '--format', 'markdown'], {
  cwd: repo,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
// 1 means findings, which the report shows; 2 is a usage error or a tool failure.
if (run.status !== 0 && run.status !== 1) fail(`validate-workflow exited ${run.status} in ${repo}:\n${run.stderr}`);

const body = String(
  await unified()
    .use(remarkParse)
    .use(remarkGfm)
    // The report's own HTML (<details>, <summary>, <br>) passes through, as GitHub keeps it.
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(mermaidBlocks)
    .use(rehypeStringify, { allowDangerousHtml: true })
    .process(run.stdout),
);
writeFileSync(values.html, page(body, !values.closed));
process.stdout.write(`${values.html}\n`);

const browser = ['chromium', 'chromium-browser', 'google-chrome'].find((b) => spawnSync('which', [b]).status === 0);
if (!browser) fail('no chromium on PATH (`apt-get install -y chromium`); the HTML page is written');
const shot = spawnSync(
  browser,
  [
    '--headless',
    // Root in a container has no user namespace for the sandbox.
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    // Local files only: the page loads mermaid from node_modules by file URL.
    '--allow-file-access-from-files',
    `--screenshot=${values.png}`,
    `--window-size=${values.width},${values.height}`,
    '--virtual-time-budget=5000',
    pathToFileURL(values.html).href,
  ],
  { encoding: 'utf8' },
);
if (shot.status !== 0 || !existsSync(values.png)) fail(`${browser} failed (exit ${shot.status}):\n${shot.stderr}`);
process.stdout.write(`${values.png}\n`);
