// The parts of the docs that say what a rule's meta says, generated from the catalog so they cannot drift: the rule
// tables of README.md (section "## Rules": the core rules, then the packs' rules) and the severity line of each
// rule's page (docs/rules/<id>.md). Everything else in those files is written by hand and left as it is.
//
//   node scripts/rule-docs.mjs           rewrite README.md and the pages from dist/ (`npm run docs` builds first)
//   node scripts/rule-docs.mjs --check   only say what differs; exit 1 when anything does
//
// The functions below are pure (text and rules in, text out): test/docs-generated.test.ts calls them with the
// catalog from src/.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TABLE_HEAD = ['| rule | recommended / strict |', '| --- | --- |'];
const SEVERITY_LINE = /^- Severity: .*$/m;

/** `error / warn`: a rule's level in `recommended` and in `strict`. */
function levels(rule) {
  return `${rule.meta.severities.recommended} / ${rule.meta.severities.strict}`;
}

export function tableRows(rules) {
  return rules.map((r) => `| \`${r.meta.id}\` | ${levels(r)} |`);
}

export function severityLine(rule) {
  const { recommended, strict } = rule.meta.severities;
  return `- Severity: \`${recommended}\` in \`recommended\`, \`${strict}\` in \`strict\``;
}

/** Where a rule's page lives. */
export function pagePath(ruleId) {
  return `docs/rules/${ruleId}.md`;
}

/**
 * README.md with the two rule tables of its "## Rules" section rewritten: the first lists the core rules, the
 * second the packs' rules, each in catalog order.
 */
export function renderReadme(readme, coreRules, packRules) {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Rules');
  if (start < 0) throw new Error('README.md has no "## Rules" section');
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end < 0) end = lines.length;
  const tables = [];
  for (let i = start; i < end - 1; i++) {
    if (lines[i].trim() === TABLE_HEAD[0] && lines[i + 1].trim() === TABLE_HEAD[1]) {
      let j = i + 2;
      while (j < end && lines[j].startsWith('|')) j++;
      tables.push({ from: i + 2, to: j });
      i = j;
    }
  }
  if (tables.length !== 2)
    throw new Error(`README.md "## Rules" should hold 2 rule tables (core, packs), found ${tables.length}`);
  const [core, packs] = tables;
  return [
    ...lines.slice(0, core.from),
    ...tableRows(coreRules),
    ...lines.slice(core.to, packs.from),
    ...tableRows(packRules),
    ...lines.slice(packs.to),
  ].join('\n');
}

/** A rule's page with its severity line said as the meta says it. */
export function renderPage(page, rule) {
  if (!SEVERITY_LINE.test(page)) throw new Error(`${pagePath(rule.meta.id)} has no "- Severity: ..." line`);
  return page.replace(SEVERITY_LINE, severityLine(rule));
}

/**
 * Every generated file as it is and as it should be. `read(path)` returns a file's text (null when it is missing);
 * a missing page is an error, because every rule has one (`validate-workflow explain` prints it).
 */
export function generate(read, coreRules, packRules) {
  const out = [];
  const readme = read('README.md');
  if (readme === null) throw new Error('README.md is missing');
  out.push({ path: 'README.md', current: readme, expected: renderReadme(readme, coreRules, packRules) });
  for (const rule of [...coreRules, ...packRules]) {
    const path = pagePath(rule.meta.id);
    const page = read(path);
    if (page === null) throw new Error(`${path} is missing: every rule has a page`);
    out.push({ path, current: page, expected: renderPage(page, rule) });
  }
  return out;
}

/** The catalog split as the README shows it: core rules, then each registered pack's, in catalog order. */
export function splitCatalog(rules, packs) {
  const packIds = new Set(packs.flatMap((p) => p.rules.map((r) => r.meta.id)));
  return { core: rules.filter((r) => !packIds.has(r.meta.id)), packs: rules.filter((r) => packIds.has(r.meta.id)) };
}

async function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const check = process.argv.includes('--check');
  const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
  if (!existsSync(join(root, 'dist/engine/catalog.js')))
    throw new Error('dist/ is missing: run `npm run build` (or `npm run docs`)');
  const { RULES } = await import(dist('engine/catalog.js'));
  const { PACKS } = await import(dist('packs/registry.js'));
  const { core, packs } = splitCatalog(RULES, PACKS);
  const read = (p) => (existsSync(join(root, p)) ? readFileSync(join(root, p), 'utf8') : null);
  const stale = generate(read, core, packs).filter((f) => f.current !== f.expected);
  for (const f of stale) {
    if (check) console.log(`${f.path} differs from the rule catalog`);
    else {
      writeFileSync(join(root, f.path), f.expected);
      console.log(`wrote ${f.path}`);
    }
  }
  if (check && stale.length > 0) {
    console.log('run `npm run docs` to regenerate');
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 2;
  });
}
