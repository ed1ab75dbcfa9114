// The review report (`--format markdown`) over real git histories: an agent's commits, a human's confirmation relayed
// by an agent co-author, a manual item the agent checked itself, a partial handoff. The report is parsed back with
// remark (GFM) and rendered to HTML, so a broken table or a stray pipe fails here, not on a pull request.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Code, Heading, List, ListItem, Paragraph, Root, RootContent, Table } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import rehypeStringify from 'rehype-stringify';
import { defaultConfig } from '../../src/config/config.js';
import type { Finding } from '../../src/model/finding.js';
import { lintRepository } from '../../src/engine/lint.js';
import { judgeHistory } from '../../src/engine/history.js';
import type { TimelineEntry } from '../../src/model/history.js';
import type { Workspace } from '../../src/model/types.js';
import {
  DEFAULT_MAX_BYTES,
  SUMMARY_LIMIT,
  cell,
  codeSpan,
  escapeProse,
  escapeText,
  formatMarkdown,
} from '../../src/report/markdown.js';
import { summarize, type Summary } from '../../src/engine/summary.js';
import { RULES, ruleById } from '../../src/engine/catalog.js';
import {
  ANA,
  AUTO,
  CLAUDE,
  MANUAL,
  MANUAL2,
  PLAN,
  Repo,
  TASK,
  handoffPath,
  md,
  planDoc,
  taskHandoff,
} from '../history/helpers.js';
import { violations } from './fixtures.js';
import { runCliHere } from '../helpers/repo.js';

const DOCS = 'https://github.com/example/validate-workflow/blob/main';

interface Judged {
  findings: Finding[];
  summary: Summary;
  workspace: Workspace;
  timeline: TimelineEntry[];
}

/** What the CLI gathers for the report: the working tree's workspace and findings, then history's. */
async function judgeAll(dir: string): Promise<Judged> {
  const config = defaultConfig();
  const lint = lintRepository(dir, config, true);
  const hist = await judgeHistory(dir, { config });
  const findings = [...lint.findings, ...hist.findings];
  return {
    findings,
    summary: summarize(findings, lint.discovered.length, hist.commits),
    workspace: lint.workspace,
    timeline: hist.timeline ?? [],
  };
}

function report(j: Judged, maxBytes?: number): string {
  return formatMarkdown({ ...j, rules: RULES, docsBase: DOCS, maxBytes });
}

const parse = (text: string): Root => unified().use(remarkParse).use(remarkGfm).parse(text) as Root;
// Raw HTML passes through as on GitHub, which keeps `<br>` (the only HTML the report writes) after sanitizing.
const html = (text: string): string =>
  String(
    unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkRehype, { allowDangerousHtml: true })
      .use(rehypeStringify, { allowDangerousHtml: true })
      .processSync(text),
  );

function tables(root: Root): Table[] {
  return root.children.filter((n): n is Table => n.type === 'table');
}

function rows(table: Table): string[][] {
  return table.children.map((r) => r.children.map((c) => toString(c)));
}

/** The list that follows the bold paragraph `title` (the report's manual-item blocks). */
function listAfter(root: Root, title: string): string[] {
  const at = root.children.findIndex((n) => n.type === 'paragraph' && toString(n) === title);
  if (at < 0) return [];
  const list = root.children[at + 1] as List;
  expect(list.type).toBe('list');
  return list.children.map((i) => toString(i));
}

/**
 * Findings section: each rule heading (depth 4) with the list items under it (one line per finding), and the text of
 * its `<details>` (the rule's description and the fixes).
 */
function findingGroups(root: Root): { heading: Heading; items: ListItem[]; details: string }[] {
  const out: { heading: Heading; items: ListItem[]; details: string }[] = [];
  let current: (typeof out)[number] | null = null;
  let inDetails = false;
  for (const node of root.children as RootContent[]) {
    if (node.type === 'heading' && node.depth <= 3) current = null;
    if (node.type === 'heading' && node.depth === 4) {
      current = { heading: node, items: [], details: '' };
      out.push(current);
    } else if (current && node.type === 'html' && node.value.startsWith('<details')) inDetails = true;
    else if (current && node.type === 'html' && node.value.startsWith('</details')) inDetails = false;
    else if (current && inDetails) current.details += `${toString(node)}\n`;
    else if (current && node.type === 'list') current.items.push(...node.children);
  }
  return out;
}

const linkOf = (h: Heading) => h.children.find((c) => c.type === 'link');

describe('markdown report of a history with violations', () => {
  const repo = Repo.create();
  const P = { phases: [2, 1, 1], secondManual: [1] };
  const sha: Record<string, string> = {};
  let j: Judged;
  let out: string;
  let root: Root;

  beforeAll(async () => {
    sha.plan = repo.commit('Add the auth flow plan', { [PLAN]: planDoc(P) }, { author: ANA });
    sha.t1 = repo.commit(
      'Task 1: step 1',
      { [PLAN]: planDoc({ ...P, tasks: [1] }), [handoffPath(1)]: taskHandoff(1) },
      { author: CLAUDE },
    );
    sha.t2 = repo.commit(
      'Task 2: step 2',
      {
        [PLAN]: planDoc({ ...P, tasks: [1, 2], auto: [1] }),
        [handoffPath(2)]: taskHandoff(2, { files_modified: ['a.ts', 'b.ts', 'c|d.ts', 'e.ts'] }),
      },
      { author: CLAUDE },
    );
    // Ana's word, with Claude as co-author: it counts in recommended, and the report must say it was relayed.
    sha.confirm = repo.commit(
      'Confirm Phase 1 manual verification',
      { [PLAN]: planDoc({ ...P, tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: ANA, coAuthors: [CLAUDE], confirmedBy: [ANA] },
    );
    // Claude checks phase 2's manual item itself, and task 3 with a partial handoff.
    sha.t3 = repo.commit(
      'Task 3 and phase 2 checks',
      {
        [PLAN]: planDoc({ ...P, tasks: [1, 2, 3], auto: [1, 2], manual: [1, 2] }),
        [handoffPath(3)]: taskHandoff(3, { status: 'partial' }),
      },
      { author: CLAUDE },
    );
    j = await judgeAll(repo.dir);
    out = report(j);
    root = parse(out);
  });

  it('has the findings the scenario was built for', () => {
    const problems = j.findings.filter((f) => f.severity !== 'info').map((f) => f.ruleId);
    expect(problems.sort()).toEqual(['handoff/validated', 'history/manual-confirmation']);
  });

  it('opens with the verdict line', () => {
    const lines = out.split('\n');
    expect(lines[0]).toBe('## validate-workflow review');
    expect(lines[2]).toBe(
      `❌ **2 errors** in ${j.summary.files} workflow files and 5 commits (${j.summary.infos} note${j.summary.infos === 1 ? '' : 's'})`,
    );
    expect(j.summary.commits).toBe(5);
  });

  it('shows the plan as one GFM table, a row per task with the commit that completed it', () => {
    const [table, ...more] = tables(root);
    expect(more).toHaveLength(0);
    const r = rows(table!);
    expect(r[0]).toEqual(['Phase', 'Task', 'State', 'Completed in', 'Handoff', 'Files modified', 'Verification']);
    expect(r).toHaveLength(5);
    for (const row of r) expect(row).toHaveLength(7);
    const [, t1, t2, t3, t4] = r as [string[], string[], string[], string[], string[]];
    expect(t1.slice(0, 4)).toEqual(['1: Part 1', TASK(1), '✅ done', `${sha.t1!.slice(0, 7)} Task 1: step 1`]);
    expect(t1.slice(4)).toEqual(['✅ complete · task-01-step-1.md', 'src/step-1.ts', '✅ npm test']);
    expect(t2[0]).toBe('');
    expect(t2[3]).toBe(`${sha.t2!.slice(0, 7)} Task 2: step 2`);
    // The pipe in a file name stays inside its cell.
    expect(t2[5]).toBe('4 files: a.ts, b.ts, c|d.ts, +1 more');
    expect(t3.slice(0, 5)).toEqual([
      '2: Part 2',
      TASK(3),
      '✅ done',
      `${sha.t3!.slice(0, 7)} Task 3 and phase 2 checks`,
      '🟡 partial · task-03-step-3.md',
    ]);
    expect(t4).toEqual(['3: Part 3', TASK(4), '⬜ open', '—', '—', '—', '—']);
  });

  it('names the plan with its path, mode and progress', () => {
    const h = root.children.find(
      (n): n is Heading => n.type === 'heading' && n.depth === 3 && toString(n).includes('Auth flow'),
    );
    expect(toString(h!)).toBe('📋 Auth flow Implementation Plan');
    expect(out).toContain(`\`${PLAN}\` · orchestration mode · 3 of 4 tasks done`);
  });

  it('lists the manual items confirmed (relayed), checked without confirmation, and due later', () => {
    const short = (s: string) => s.slice(0, 7);
    expect(listAfter(root, 'Manual items confirmed')).toEqual([
      `✅ Phase 1: ${MANUAL(1)}: confirmed by Ana Human (ana@example.com) in ${short(sha.confirm!)} (Confirm Phase 1 manual verification), relayed by an agent co-author of the commit`,
      `✅ Phase 1: ${MANUAL2(1)}: confirmed by Ana Human (ana@example.com) in ${short(sha.confirm!)} (Confirm Phase 1 manual verification), relayed by an agent co-author of the commit`,
    ]);
    expect(listAfter(root, 'Manual items checked without a confirmation')).toEqual([
      `❌ Phase 2: ${MANUAL(2)}: checked by Claude (noreply@anthropic.com) in ${short(sha.t3!)} (Task 3 and phase 2 checks) without a human's confirmation`,
    ]);
    // Phase 3's automated checks are open: its manual item is not a human's to do yet (as `status` counts it).
    expect(listAfter(root, 'Manual items waiting for a human')).toEqual([]);
    expect(listAfter(root, "Manual items due after their phase's automated checks")).toEqual([
      `⏳ Phase 3: ${MANUAL(3)}`,
    ]);
    // The chart says the same of that item's box.
    expect(out).toContain(`👤 ⏳ ${MANUAL(3)}<br>after the automated checks`);
  });

  it('groups the findings by rule, errors first: a heading with the docs link and one line, a line per finding, the rest folded', () => {
    const groups = findingGroups(root);
    const short = (id: string) => ruleById(id)!.meta.short!.replace(/`/g, '');
    // One note per commit and plan since issue 10 (it used to be one per confirmed item). Issue 24: the heading says
    // what the rule checks in one line; the long description and the fixes are behind <details>.
    expect(groups.map((g) => toString(g.heading))).toEqual([
      `❌ handoff/validated · 1 error · ${short('handoff/validated')}`,
      `❌ history/manual-confirmation · 1 error, 1 note · ${short('history/manual-confirmation')}`,
    ]);
    const [validated, confirmation] = groups as [(typeof groups)[number], (typeof groups)[number]];
    expect(linkOf(validated.heading)?.url).toBe(`${DOCS}/docs/rules/handoff/validated.md`);
    expect(linkOf(confirmation.heading)?.url).toBe(`${DOCS}/docs/rules/history/manual-confirmation.md`);

    const v = j.findings.find((f) => f.ruleId === 'handoff/validated')!;
    expect(validated.items).toHaveLength(1);
    const vText = toString(validated.items[0]!);
    expect(vText).toBe(`❌ ${v.file}:${v.line}: ${v.message.replace(/`/g, '')}`);
    expect(validated.details).toBe(
      `${ruleById('handoff/validated')!.meta.description.replace(/`/g, '')}\nFix: ${v.fix!.replace(/`/g, '')}\n`,
    );

    // The error comes before the notes of the same rule, and carries the commit that did it; one line each.
    const [first, ...notes] = confirmation.items.map((i) => toString(i));
    expect(first).toMatch(/^❌ /);
    expect(first).toContain(`commit ${sha.t3!.slice(0, 7)} (Task 3 and phase 2 checks)`);
    expect(first).not.toContain('Fix: ');
    expect(confirmation.details).toContain('Fix: ');
    expect(notes).toHaveLength(1);
    for (const n of notes) expect(n).toContain(`commit ${sha.confirm!.slice(0, 7)}`);
  });

  it('keeps the code the messages and fixes mark with backticks', () => {
    const fix = ruleById('history/manual-confirmation')!.meta.fix;
    const code = /`([^`]+)`/.exec(fix)?.[1];
    expect(code).toBeTruthy();
    expect(html(out)).toContain(`<code>${code!.replace(/</g, '&#x3C;')}</code>`);
  });

  it('renders to HTML with one table and no leftover Markdown pipes', () => {
    const page = html(out);
    expect(page.match(/<table>/g)).toHaveLength(1);
    expect(page).toContain('<td>4 files: <code>a.ts</code>, <code>b.ts</code>, <code>c|d.ts</code>, +1 more</td>');
    expect(page).toContain(`<a href="${DOCS}/docs/rules/handoff/validated.md"><code>handoff/validated</code></a>`);
    expect(page).not.toMatch(/<p>\s*\|/);
  });

  it('stays under a small maxBytes by leaving findings out, and says how many', () => {
    // Many copies of the real findings, so the findings section alone is far larger than the limit.
    const many: Finding[] = [];
    for (let k = 0; k < 200; k++) for (const f of j.findings) many.push({ ...f, line: (f.line ?? 0) + k });
    const maxBytes = 6000;
    const small = formatMarkdown({
      ...j,
      findings: many,
      summary: summarize(many, j.summary.files, j.summary.commits),
      rules: RULES,
      docsBase: DOCS,
      maxBytes,
    });
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(maxBytes);
    const tree = parse(small);
    const shown = findingGroups(tree).reduce((n, g) => n + g.items.length, 0);
    expect(shown).toBeGreaterThan(0);
    const last = small.trimEnd().split('\n').at(-1)!;
    expect(last).toBe(
      `> ⚠️ ${many.length - shown} findings of ${many.length} left out to keep this report under 5 KiB. Run \`npx validate-workflow --format json\` for all of them.`,
    );
    // Every rule heading that made it has at least one finding under it.
    for (const g of findingGroups(tree)) expect(g.items.length).toBeGreaterThan(0);
    // The plan still comes first, whole.
    expect(tables(tree)).toHaveLength(1);
  });

  it("shows the plan's timeline picture above its table", () => {
    const code = root.children.filter((n): n is Code => n.type === 'code');
    expect(code.map((c) => c.lang)).toEqual(['mermaid']);
    expect(out.indexOf('```mermaid')).toBeLessThan(out.indexOf('| Phase | Task |'));
  });

  it("gives up the picture before the plan when the plans' half of the budget is tight", () => {
    const plans = out.slice(0, out.indexOf('### Findings'));
    const picture = plans.slice(plans.indexOf('```mermaid'), plans.lastIndexOf('```') + 4);
    // Room for the plan without its picture, not with it.
    const maxBytes = 2 * (Buffer.byteLength(plans) - Buffer.byteLength(picture) + 40);
    expect(Buffer.byteLength(plans)).toBeGreaterThan(maxBytes / 2);
    const lean = report(j, maxBytes);
    expect(lean).not.toContain('```mermaid');
    expect(lean).not.toContain('about plans left out');
    expect(rows(tables(parse(lean))[0]!)).toEqual(rows(tables(root)[0]!));
  });

  it('leaves plans out too when even they do not fit, and still reports the verdict', () => {
    const tiny = report(j, 900);
    expect(Buffer.byteLength(tiny)).toBeLessThanOrEqual(900);
    expect(tiny.split('\n')[2]).toMatch(/^❌ \*\*2 errors\*\*/);
    expect(tiny).toContain('1 more section about plans left out to keep this report under 900 bytes.');
    expect(tiny).toMatch(/findings of \d+ left out/);
  });

  it("is not truncated under the default limit, which stays below GitHub's", () => {
    expect(SUMMARY_LIMIT).toBe(1024 * 1024);
    expect(DEFAULT_MAX_BYTES).toBeLessThan(SUMMARY_LIMIT);
    expect(out).not.toContain('left out');
  });

  it('without a workspace, still tells what the commits did from the timeline', () => {
    const text = formatMarkdown({ ...j, workspace: null, rules: RULES, docsBase: DOCS });
    const items = parse(text)
      .children.filter((n): n is List => n.type === 'list')[0]!
      .children.map((i) => toString(i));
    expect(items[0]).toBe(
      `✅ Phase 1, Task 1 completed in ${sha.t1!.slice(0, 7)} (Task 1: step 1) by Claude (noreply@anthropic.com)`,
    );
    expect(items).toContain(
      `❌ Phase 2: ${MANUAL(2)}: checked by Claude (noreply@anthropic.com) in ${sha.t3!.slice(0, 7)} (Task 3 and phase 2 checks) without a human's confirmation`,
    );
  });
});

describe('markdown report of two plans under a tight budget', () => {
  it("keeps every plan's table before any plan's picture", async () => {
    const { repo } = await violations();
    const j = await judgeAll(repo.dir);
    const full = report(j);
    const blocks = full.split('```mermaid').length - 1;
    expect(blocks).toBe(2);
    // Room for both plans without their pictures, plus `spare`: enough for the first plan with its picture, then not
    // for the second plan at all. Too little to give the first plan its picture back once both tables are in; the
    // second plan, without handoffs, has a lean table and a small picture, which does come back.
    const plans = full.slice(0, full.indexOf('### Findings'));
    const [first, second] = [...plans.matchAll(/```mermaid\n[\s\S]*?\n```\n\n/g)].map((m) => Buffer.byteLength(m[0]));
    const secondPlan = Buffer.byteLength(plans.slice(plans.lastIndexOf('### 📋'))) - second!;
    const spare = first! - secondPlan + 20;
    expect(spare).toBeLessThan(first!);
    expect(spare).toBeGreaterThanOrEqual(second!);
    const maxBytes = 2 * (Buffer.byteLength(plans) - first! - second! + spare);
    const tight = report(j, maxBytes);
    expect(tight).not.toContain('about plans left out');
    expect(tight.split('```mermaid')).toHaveLength(2);
    expect(tight.indexOf('```mermaid')).toBeGreaterThan(tight.lastIndexOf('### 📋'));
    expect(tables(parse(tight))).toHaveLength(2);
  });
});

describe('markdown report of a clean history', () => {
  it('says there are no violations and shows a confirmation that was not relayed', async () => {
    const repo = Repo.create();
    const title = 'Parse a|b *and* <tags> `x`';
    const plan = (done: boolean, auto: boolean, manual: boolean) =>
      md(
        '# Parser Implementation Plan',
        '',
        '## Phase 1: Parser',
        '',
        `- [${done ? 'x' : ' '}] Task 1: ${title}`,
        '',
        '### Success Criteria:',
        '',
        '#### Automated Verification:',
        '',
        `- [${auto ? 'x' : ' '}] ${AUTO(1)}: \`npm test\``,
        '',
        '#### Manual Verification:',
        '',
        `- [${manual ? 'x' : ' '}] Output | looks right`,
      );
    repo.commit('Plan the parser', { [PLAN]: plan(false, false, false) }, { author: ANA });
    // Completed, reopened, completed again: the table names the completion that stands.
    repo.commit('Task 1: first try', { [PLAN]: plan(true, false, false) }, { author: CLAUDE });
    repo.commit('Reopen task 1', { [PLAN]: plan(false, false, false) }, { author: ANA });
    const t1 = repo.commit('Task 1: parser', { [PLAN]: plan(true, true, false) }, { author: CLAUDE });
    const confirm = repo.commit(
      'Confirm the parser',
      { [PLAN]: plan(true, true, true) },
      { author: ANA, confirmedBy: [ANA] },
    );
    const j = await judgeAll(repo.dir);
    expect(j.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const text = report(j);
    expect(text.split('\n')[2]).toBe(
      `✅ **No protocol violations** in 1 workflow file and 5 commits${j.summary.infos ? ` (${j.summary.infos} note${j.summary.infos === 1 ? '' : 's'})` : ''}`,
    );
    const tree = parse(text);
    const r = rows(tables(tree)[0]!);
    const task = j.workspace.plans[0]!.phases[0]!.tasks[0]!;
    // A plan without handoffs has no handoff columns: seven columns, three of them dashes, wrap every title in a
    // 900 px comment.
    expect(r[0]).toEqual(['Phase', 'Task', 'State', 'Completed in']);
    // Pipes, emphasis, angle brackets and backticks of a title survive as text in one cell.
    expect(r[1]).toEqual(['1: Parser', `Task 1: ${task.title}`, '✅ done', `${t1.slice(0, 7)} Task 1: parser`]);
    expect(listAfter(tree, 'Manual items confirmed')).toEqual([
      `✅ Phase 1: Output | looks right: confirmed by Ana Human (ana@example.com) in ${confirm.slice(0, 7)} (Confirm the parser)`,
    ]);
    expect(text).not.toContain('relayed');
    expect(text).not.toContain('Manual items waiting');
    expect(tree.children.some((n) => n.type === 'heading' && toString(n) === 'Findings')).toBe(j.findings.length > 0);
  });
});

describe('markdown review of a pull request after a phase confirmed on main', () => {
  it('shows the confirmation made before the range as confirmed, by whom and in which commit', async () => {
    const repo = Repo.create();
    const P = { phases: [2, 1] };
    repo.commit('Add the auth flow plan', { [PLAN]: planDoc(P) }, { author: ANA });
    const t1 = repo.commit(
      'Task 1',
      { [PLAN]: planDoc({ ...P, tasks: [1] }), [handoffPath(1)]: taskHandoff(1) },
      { author: CLAUDE },
    );
    repo.commit(
      'Task 2',
      { [PLAN]: planDoc({ ...P, tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2) },
      { author: CLAUDE },
    );
    const confirm = repo.commit(
      'Confirm phase 1',
      { [PLAN]: planDoc({ ...P, tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: ANA, confirmedBy: [ANA] },
    );
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit(
      'Task 3',
      { [PLAN]: planDoc({ ...P, tasks: [1, 2, 3], auto: [1], manual: [1] }), [handoffPath(3)]: taskHandoff(3) },
      { author: CLAUDE },
    );
    const res = await runCliHere(repo.dir, ['--range', 'main..feature', '--format', 'markdown']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const tree = parse(res.stdout);
    expect(res.stdout.split('\n')[2]).toMatch(/^✅ \*\*No protocol violations\*\* in .* and 1 commit\b/);
    expect(listAfter(tree, 'Manual items confirmed')).toEqual([
      `✅ Phase 1: ${MANUAL(1)}: confirmed by Ana Human (ana@example.com) in ${confirm.slice(0, 7)} (Confirm phase 1), before this pull request`,
    ]);
    expect(res.stdout).not.toContain('Manual items checked without a confirmation');
    expect(res.stdout).not.toContain('no judged commit');
    // The tasks completed on main name their commit too.
    expect(rows(tables(tree)[0]!)[1]!.slice(1, 4)).toEqual([TASK(1), '✅ done', `${t1.slice(0, 7)} Task 1`]);
  });
});

describe('escaping', () => {
  const inlineOf = (markdown: string) => (parse(markdown).children[0] as Paragraph).children;

  it('keeps plain text plain', () => {
    const text = 'a *b* _c_ [d](e) <f> `g` ~h~ &amp; # $x$ !i \\j';
    expect(toString(parse(escapeText(text)))).toBe(text);
    expect(inlineOf(escapeText(text)).every((n) => n.type === 'text')).toBe(true);
  });

  it('fences code spans past the backticks inside them', () => {
    for (const text of ['a`b', '``x``', '`lead', 'trail`', ' both ']) {
      const [node, ...rest] = inlineOf(`x ${codeSpan(text)}`).slice(1);
      expect(rest).toEqual([]);
      expect(node).toMatchObject({ type: 'inlineCode', value: text });
    }
  });

  it("keeps the tool's own code spans in prose and escapes the rest", () => {
    const nodes = inlineOf(escapeProse('Run `a | b` on <file> with *care*, then ``x`y``.'));
    expect(nodes.filter((n) => n.type === 'inlineCode').map((n) => (n as { value: string }).value)).toEqual([
      'a | b',
      'x`y',
    ]);
    expect(toString({ type: 'paragraph', children: nodes } as Paragraph)).toBe(
      'Run a | b on <file> with *care*, then x`y.',
    );
  });

  it('escapes pipes and newlines in table cells', () => {
    const tree = parse(['| a | b |', '| --- | --- |', `| ${cell('x|y\nz')} | ${cell(codeSpan('p|q'))} |`].join('\n'));
    expect(rows(tables(tree)[0]!)[1]).toEqual(['x|y<br>z', 'p|q']);
    expect(html(`| a |\n| --- |\n| ${cell('x\ny')} |`)).toContain('<td>x<br>y</td>');
  });
});
