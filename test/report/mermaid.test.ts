// The timeline picture of `--format markdown`: the Mermaid text the CLI writes for real git histories is parsed by
// mermaid's own parser (the grammar GitHub renders with), and what a reviewer would see is read back from the parsed
// diagram: boxes in plan order, the commit that completed each task, who confirmed a manual item, violations marked
// with their rule, large plans folded per phase, hostile task text kept as text.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Code, Root } from 'mdast';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import fc from 'fast-check';
import DOMPurify from 'dompurify';
import { runCliHere } from '../helpers/repo.js';
import { ANA, AUTO, CLAUDE, MANUAL, PLAN, Repo, handoffPath, md, planDoc, taskHandoff } from '../history/helpers.js';
import { INIT, LARGE_PLAN_TASKS, mermaidText } from '../../src/report/mermaid.js';
import { propertyRuns } from '../helpers/runs.js';

// mermaid sanitizes labels with DOMPurify while it parses, and DOMPurify needs a browser DOM that Node lacks (it
// loads without its methods). Sanitizing is rendering's business, not the grammar's: with DOMPurify passing text
// through, `mermaid.parse` runs the real flowchart grammar in Node, no jsdom needed. Set before mermaid loads.
Object.assign(DOMPurify as object, {
  sanitize: (text: unknown) => String(text),
  addHook: () => {},
  removeHook: () => {},
  removeAllHooks: () => {},
});
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

interface Vertex {
  id: string;
  text: string;
  classes: string[];
}

interface Parsed {
  vertices: Vertex[];
  edges: { start: string; end: string; stroke: string }[];
  subgraphs: { id: string; title: string; nodes: string[]; classes: string[] }[];
  /** Names of the classDefs the text declares. */
  classDefs: string[];
  config: object;
}

/**
 * Mermaid keeps the `#NN;` codes of a label as placeholders until the browser draws it; turned back into the
 * characters they stand for, the label reads as on GitHub. Any other leftover would be a named entity we never write.
 */
function decode(text: string): string {
  const out = text.replace(/ﬂ°°(\d+)¶ß/g, (_, n: string) => String.fromCodePoint(Number(n)));
  expect(out).not.toMatch(/ﬂ°|¶ß/);
  return out;
}

/** Parse with mermaid (throws on a grammar error) and read the diagram's boxes, edges and phases. */
async function parseDiagram(text: string): Promise<Parsed> {
  const { config } = (await mermaid.parse(text)) as { config: object };
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
  const db = diagram.db as unknown as {
    getVertices(): Map<string, Vertex>;
    getEdges(): Parsed['edges'];
    getSubGraphs(): Parsed['subgraphs'];
    getClasses(): Map<string, unknown>;
  };
  return {
    vertices: [...db.getVertices().values()].map((v) => ({ id: v.id, text: decode(v.text), classes: v.classes })),
    edges: db.getEdges().map((e) => ({ start: e.start, end: e.end, stroke: e.stroke })),
    subgraphs: db.getSubGraphs().map((s) => ({ ...s, title: decode(s.title) })),
    classDefs: [...db.getClasses().keys()],
    config,
  };
}

const parseMd = (text: string): Root => unified().use(remarkParse).use(remarkGfm).parse(text) as Root;

/** The ```mermaid blocks of a Markdown report, as remark (and so GitHub) sees them. */
function mermaidBlocks(report: string): string[] {
  return parseMd(report)
    .children.filter((n): n is Code => n.type === 'code' && n.lang === 'mermaid')
    .map((n) => n.value);
}

async function reportOf(repo: Repo): Promise<string> {
  const res = await runCliHere(repo.dir, ['--format', 'markdown']);
  expect(res.stderr).toBe('');
  expect([0, 1]).toContain(res.code);
  return res.stdout;
}

const vertex = (p: Parsed, id: string) => {
  const v = p.vertices.find((x) => x.id === id);
  expect(v, `box ${id}`).toBeDefined();
  return v!;
};
const lines = (v: Vertex) => v.text.split('<br>');

describe('the picture of a small plan', () => {
  const repo = Repo.create();
  const P = { phases: [2, 1, 1] };
  const sha: Record<string, string> = {};
  let report: string;
  let picture: Parsed;

  beforeAll(async () => {
    repo.commit('Plan the auth flow', { [PLAN]: planDoc(P) }, { author: ANA });
    sha.t1 = repo.commit(
      'Task 1: step 1',
      { [PLAN]: planDoc({ ...P, tasks: [1] }), [handoffPath(1)]: taskHandoff(1) },
      { author: CLAUDE },
    );
    sha.t2 = repo.commit(
      'Task 2: step 2',
      { [PLAN]: planDoc({ ...P, tasks: [1, 2], auto: [1] }), [handoffPath(2)]: taskHandoff(2) },
      { author: CLAUDE },
    );
    sha.confirm = repo.commit(
      'Confirm phase 1',
      { [PLAN]: planDoc({ ...P, tasks: [1, 2], auto: [1], manual: [1] }) },
      { author: ANA, confirmedBy: [ANA] },
    );
    // Claude checks phase 2's manual item itself: history/manual-confirmation.
    sha.t3 = repo.commit(
      'Task 3 and phase 2',
      { [PLAN]: planDoc({ ...P, tasks: [1, 2, 3], auto: [1, 2], manual: [1, 2] }), [handoffPath(3)]: taskHandoff(3) },
      { author: CLAUDE },
    );
    // Task 4 is stuck: its handoff says blocked.
    repo.commit(
      'Task 4 is blocked',
      { [handoffPath(4)]: taskHandoff(4, { status: 'blocked', blocker: 'The OAuth sandbox is down' }) },
      { author: CLAUDE },
    );
    report = await reportOf(repo);
    const blocks = mermaidBlocks(report);
    expect(blocks).toHaveLength(1);
    picture = await parseDiagram(blocks[0]!);
  });

  it("is a flowchart mermaid parses, placed above the plan's table", () => {
    expect(mermaidBlocks(report)[0]!.split('\n').slice(0, 2)).toEqual([INIT, 'flowchart TB']);
    expect(report.indexOf('```mermaid')).toBeLessThan(report.indexOf('| Phase | Task |'));
    expect(report.indexOf('```mermaid')).toBeGreaterThan(report.indexOf('### 📋 Auth flow Implementation Plan'));
    // Not folded: the only <details> are the findings' (their rule text and fixes).
    expect(report.slice(0, report.indexOf('### Findings'))).not.toContain('<details');
    // Every class a box uses is defined, and only those: each block carries its own styles, no more.
    const used = new Set([...picture.vertices, ...picture.subgraphs].flatMap((v) => v.classes));
    expect(picture.classDefs.sort()).toEqual([...used].sort());
    expect([...used].sort()).toEqual(['blocked', 'done', 'human', 'open', 'violation']);
  });

  it('has a column per phase, tasks in plan order then the manual items, phases linked in order', () => {
    expect(picture.subgraphs.map((s) => s.title)).toEqual(['Phase 1: Part 1', 'Phase 2: Part 2', 'Phase 3: Part 3']);
    // Boxes in the order the text declares them (the subgraphs' own lists are in no stable order).
    const byPhase = [1, 2, 3].map((n) =>
      picture.vertices.filter((v) => v.id.startsWith(`p${n}`) && v.id !== `p${n}`).map((v) => lines(v)[0]),
    );
    expect(byPhase).toEqual([
      ['✅ Task 1: Do step 1', '✅ Task 2: Do step 2', `👤 ✅ ${MANUAL(1)}`],
      ['✅ Task 3: Do step 3', `👤 ❌ ${MANUAL(2)}`],
      ['⬜ Task 4: Do step 4', `👤 ⏳ ${MANUAL(3)}`],
    ]);
    const edges = picture.edges.map((e) => `${e.start} ${e.stroke === 'dotted' ? '-.->' : '-->'} ${e.end}`);
    expect(edges).toEqual([
      'p1t1 --> p1t2',
      'p1t2 -.-> p1m1',
      'p2t1 -.-> p2m1',
      'p3t1 -.-> p3m1',
      'p1 --> p2',
      'p2 --> p3',
    ]);
  });

  it("names the commit that completed each task and who made it, and the handoff's status", () => {
    expect(lines(vertex(picture, 'p1t1'))).toEqual([
      '✅ Task 1: Do step 1',
      `${sha.t1!.slice(0, 7)} · Claude`,
      '📄 handoff ✅ complete',
    ]);
    expect(lines(vertex(picture, 'p1t2'))[1]).toBe(`${sha.t2!.slice(0, 7)} · Claude`);
    expect(vertex(picture, 'p1t1').classes).toEqual(['done']);
  });

  it('names the human who confirmed a manual item, and the commit', () => {
    const m = vertex(picture, 'p1m1');
    expect(lines(m)).toEqual([`👤 ✅ ${MANUAL(1)}`, `confirmed by Ana Human · ${sha.confirm!.slice(0, 7)}`]);
    expect(m.classes).toEqual(['human']);
    // Phase 3's automated checks are open: its manual item is not due yet (as `status` counts it).
    expect(lines(vertex(picture, 'p3m1'))).toEqual([`👤 ⏳ ${MANUAL(3)}`, 'after the automated checks']);
  });

  it('marks the manual item the agent checked itself as a violation, with the rule', () => {
    const m = vertex(picture, 'p2m1');
    expect(m.classes).toEqual(['violation']);
    expect(lines(m)).toEqual([
      `👤 ❌ ${MANUAL(2)}`,
      `checked by Claude · ${sha.t3!.slice(0, 7)}, no confirmation`,
      '❌ history/manual-confirmation',
    ]);
    // The same rule is among the report's findings: the picture marks what the findings say, no more.
    expect(report).toContain('history/manual-confirmation');
    expect(report).toMatch(/^#### ❌ \[`history\/manual-confirmation`\]/m);
  });

  it('shows a blocked task apart', () => {
    const t4 = vertex(picture, 'p3t1');
    expect(lines(t4)).toContain('📄 handoff ⛔ blocked');
    expect(t4.classes).toEqual(['blocked']);
  });
});

describe('a finding about the plan as a whole', () => {
  it('is a box of its own before the first phase', async () => {
    const repo = Repo.create();
    // `mode: direct` on four tasks without the user's say: plan/mode, at the frontmatter.
    repo.commit('Plan it', { [PLAN]: planDoc({ frontmatter: ['mode: direct'], naManual: [2] }) }, { author: ANA });
    const p = await parseDiagram(mermaidBlocks(await reportOf(repo))[0]!);
    const box = vertex(p, 'plan');
    expect(lines(box)).toEqual(['📋 Plan', '❌ plan/mode']);
    expect(box.classes).toEqual(['violation']);
    expect(p.edges).toContainEqual(expect.objectContaining({ start: 'plan', end: 'p1' }));
    // Phase 2's manual item is N/A: left out, as in the report's lists.
    expect(p.vertices.map((v) => v.id).filter((id) => !/^p\d$/.test(id))).toEqual([
      'plan',
      'p1t1',
      'p1t2',
      'p1m1',
      'p2t1',
      'p2t2',
    ]);
    // Nothing in the phases is marked for it.
    expect(p.vertices.filter((v) => v.classes.includes('violation')).map((v) => v.id)).toEqual(['plan']);
  });
});

describe('the picture of a plan of 30 tasks', () => {
  const repo = Repo.create();
  const P = { phases: [6, 6, 6, 6, 6] };
  let report: string;

  beforeAll(async () => {
    repo.commit('Plan the big one', { [PLAN]: planDoc(P) }, { author: ANA });
    for (let n = 1; n <= 6; n++)
      repo.commit(
        `Task ${n}`,
        { [PLAN]: planDoc({ ...P, tasks: [1, 2, 3, 4, 5, 6].slice(0, n) }), [handoffPath(n)]: taskHandoff(n) },
        { author: CLAUDE },
      );
    // Task 7 checked without its handoff: handoff/missing in phase 2 only.
    repo.commit('Task 7', { [PLAN]: planDoc({ ...P, tasks: [1, 2, 3, 4, 5, 6, 7] }) }, { author: CLAUDE });
    report = await reportOf(repo);
  });

  it('is folded into one diagram per phase, each in a <details> whose summary says how far the phase is', () => {
    expect(30).toBeGreaterThan(LARGE_PLAN_TASKS);
    const plans = report.slice(0, report.indexOf('### Findings'));
    const summaries = [...plans.matchAll(/^<details( open)?><summary>(.*)<\/summary>$/gm)].map(
      (m) => `${m[1] ? 'open ' : ''}${m[2]}`,
    );
    expect(summaries).toEqual([
      'Phase 1: Part 1 · 6 of 6 tasks done',
      'open Phase 2: Part 2 · 1 of 6 tasks done · ❌ 1 violation',
      'Phase 3: Part 3 · 0 of 6 tasks done',
      'Phase 4: Part 4 · 0 of 6 tasks done',
      'Phase 5: Part 5 · 0 of 6 tasks done',
    ]);
    expect(plans.match(/^<\/details>$/gm)).toHaveLength(5);
  });

  it("has five diagrams mermaid parses, each with its phase's six tasks in order", async () => {
    const blocks = mermaidBlocks(report);
    expect(blocks).toHaveLength(5);
    for (const [i, block] of blocks.entries()) {
      const p = await parseDiagram(block);
      const tasks = p.vertices.filter((v) => /^p\d+t\d+$/.test(v.id)).map((v) => lines(v)[0]!.replace(/^\S+ /, ''));
      expect(tasks).toEqual([1, 2, 3, 4, 5, 6].map((k) => `Task ${i * 6 + k}: Do step ${i * 6 + k}`));
    }
    const phase2 = await parseDiagram(blocks[1]!);
    const t7 = vertex(phase2, 'p2t1');
    expect(t7.classes).toEqual(['violation']);
    expect(lines(t7)).toContain('❌ handoff/missing');
  });

  it('puts a blank line around each diagram so GitHub reads the Markdown inside <details>', () => {
    expect(report).toMatch(/<\/summary>\n\n```mermaid\n/);
    expect(report).toMatch(/\n```\n\n<\/details>\n/);
  });
});

describe('hostile task text', () => {
  const titles = [
    'Quote "x" and \'y\' then ]"] end',
    'Brackets [a] (b) {c} <d> |e| ;f',
    'A fence ``` and `code` inside',
    '%%{init: {"theme":"forest"}}%% x',
    'Emoji 🎉👩‍💻 and #35; #quot; & #x41; codes',
    '<script>alert(1)</script> & <b>bold</b>',
    'click p1t1 call alert()',
  ];
  let report: string;

  beforeAll(async () => {
    const repo = Repo.create();
    const plan = (done: boolean) =>
      md(
        // Orchestration declared: the plan promises a handoff per task, so the missing one is a violation.
        '---',
        'mode: orchestration',
        '---',
        '# Hostile Implementation Plan',
        '',
        '## Phase 1: Names "with" <angles> & %%{init}%%',
        '',
        ...titles.map(
          (t, i) => `- [${done && i === 0 ? 'x' : ' '}] Task ${i + 1}: ${t.replace(/[\\`*_[\]<>]/g, '\\$&')}`,
        ),
        // Enough tasks to fold the phase, so its title goes through the <summary> too.
        ...Array.from(
          { length: LARGE_PLAN_TASKS + 1 - titles.length },
          (_, k) => `- [ ] Task ${titles.length + k + 1}: Plain`,
        ),
        '',
        '### Success Criteria:',
        '',
        '#### Automated Verification:',
        '',
        `- [ ] ${AUTO(1)}: \`npm test\``,
        '',
        '#### Manual Verification:',
        '',
        '- [ ] Looks "right" in <Safari> `ok` 🎉',
      );
    repo.commit('Plan it', { [PLAN]: plan(false) }, { author: ANA });
    repo.commit('Task 1', { [PLAN]: plan(true) }, { author: ANA });
    report = await reportOf(repo);
  });

  it("keeps the report's Markdown whole: one folded diagram with the title as text, then the table", () => {
    expect(mermaidBlocks(report)).toHaveLength(1);
    // Open: task 1 is done without a handoff (handoff/missing).
    expect(report).toContain(
      `<details open><summary>Phase 1: Names &#34;with&#34; &#60;angles&#62; &#38; %%{init}%% · 1 of ${LARGE_PLAN_TASKS + 1} tasks done · ❌ 1 violation</summary>\n`,
    );
    expect(parseMd(report).children.some((n) => n.type === 'table')).toBe(true);
  });

  it('parses, ignores the directive in a title, and reads back every title as written', async () => {
    const p = await parseDiagram(mermaidBlocks(report)[0]!);
    // Only the report's own settings: nothing from the title's directive.
    expect(p.config).toEqual({ flowchart: { wrappingWidth: 320, rankSpacing: 28, nodeSpacing: 28 } });
    const shown = p.vertices
      .filter((v) => /^p1t\d+$/.test(v.id))
      .map((v) => lines(v)[0]!.replace(/^\S+ Task \d+: /, ''))
      .slice(0, titles.length);
    expect(shown).toEqual(titles);
    // The plan reader keeps a code span's text without its backticks.
    expect(lines(vertex(p, 'p1m1'))[0]).toBe('👤 ⏳ Looks "right" in <Safari> ok 🎉');
    expect(p.subgraphs[0]!.title).toBe('Phase 1: Names "with" <angles> & %%{init}%%');
  });
});

describe('mermaidText', () => {
  const label = (text: string, max?: number) => `flowchart LR\n  a["${mermaidText(text, max)}"]`;

  it('is checked by a parser that can fail', async () => {
    const raw = 'x "y" z';
    await expect(mermaid.parse(`flowchart LR\n  a["${raw}"]`)).rejects.toThrow(/Parse error/);
    expect((await parseDiagram(label(raw))).vertices[0]!.text).toBe(raw);
  });

  it('keeps any text as the text of one box (property, fixed seed)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), async (s) => {
        const p = await parseDiagram(label(`<${s}>`, 1000));
        expect(p.vertices).toHaveLength(1);
        expect(p.vertices[0]!.text).toBe(`<${s}>`.replace(/\r\n|\r|\n|\t/g, ' ').replace(/\p{Cc}/gu, ''));
      }),
      { seed: 14, numRuns: propertyRuns(200) },
    );
  });

  it('cuts long text with an ellipsis without splitting an emoji', async () => {
    const p = await parseDiagram(label(`${'a'.repeat(9)}🎉🎉🎉`, 11));
    expect(p.vertices[0]!.text).toBe(`${'a'.repeat(9)}🎉…`);
  });
});
