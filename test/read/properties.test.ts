// Property-based tests of the readers (fast-check): plans, handoffs and ledgers are generated as models, rendered in
// every dialect with random but legal variation (heading levels, sub-numbered labels, criteria headings and bold
// labels, checkbox spellings, CRLF line ends, code fences holding Markdown with its own fences, section titles of the
// same meaning, status markers), and must read back to the model they were generated from. Random bytes never throw.
//
// Seeds: the normal suite runs with a fixed seed (SEED below), so a failure reproduces exactly. When
// `process.env.CI` is set, every property runs a second time with a seed taken from the date (YYYYMMDD), so CI
// explores new cases each day while a failure stays reproducible on that day: fast-check prints the seed and the
// path of the counterexample; rerun with `fc.assert(..., { seed, path })`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPlanText } from '../../src/read/plan.js';
import { readHandoffText } from '../../src/read/handoff.js';
import { readLedgerText } from '../../src/read/ledger.js';
import { readBytes } from '../../src/read/workspace.js';
import type { LedgerItemState } from '../../src/model/types.js';
import { propertyRuns } from '../helpers/runs.js';

const SEED = 20260311;
const today = new Date();
const DATE_SEED = today.getUTCFullYear() * 10000 + (today.getUTCMonth() + 1) * 100 + today.getUTCDate();
const SEEDS = process.env.CI ? [SEED, DATE_SEED] : [SEED];

function check<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => void, deep = 150): void {
  for (const seed of SEEDS) fc.assert(fc.property(arb, predicate), { seed, numRuns: propertyRuns(deep) });
}

const WORDS = [
  'cache',
  'tiles',
  'route',
  'index',
  'retry',
  'webhook',
  'ledger',
  'token',
  'queue',
  'export',
  'render',
  'zoom',
  'budget',
  'alert',
  'schema',
  'users',
];
const word = fc.constantFrom(...WORDS);
const title = fc
  .array(word, { minLength: 1, maxLength: 4 })
  .map((w) => w.join(' ').replace(/^./, (c) => c.toUpperCase()));
const command = fc
  .tuple(fc.constantFrom('npm test', 'cargo test', 'go test ./...', 'make check'), word)
  .map(([c, w]) => `\`${c} ${w}\` passes`);
const checked = fc.boolean();

// ---------------------------------------------------------------------------------------------------------------
// Plans

interface GenCheck {
  text: string;
  checked: boolean;
}
interface GenTask {
  label: string;
  title: string;
  steps: GenCheck[] | null; // null: a `- [ ] Task N:` item; a list: a `### Task N:` heading with its steps
  checked: boolean;
}
interface GenPhase {
  label: string;
  title: string;
  tasks: GenTask[];
  automated: GenCheck[];
  manual: GenCheck[];
}

const checks = (min: number) => fc.array(fc.record({ text: command, checked }), { minLength: min, maxLength: 3 });
const manualChecks = fc.array(fc.record({ text: title.map((t) => `${t} looks right`), checked }), {
  minLength: 1,
  maxLength: 2,
});

/** A plan: phases with top-level numbers from 0 or 1, some sub-numbered (`2A`, `3.1`); tasks numbered across it. */
const planModel: fc.Arbitrary<GenPhase[]> = fc
  .record({
    start: fc.constantFrom(0, 1),
    phases: fc.array(
      fc.record({
        sub: fc.constantFrom(null, 'A', '.1', '.2'),
        title,
        tasks: fc.array(
          fc.record({
            title,
            heading: fc.boolean(),
            steps: fc.array(fc.record({ text: title, checked }), { minLength: 1, maxLength: 3 }),
            checked,
          }),
          { maxLength: 3 },
        ),
        automated: checks(1),
        manual: manualChecks,
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ start, phases }) => {
    let task = 1;
    return phases.map((p, i) => ({
      label: `${start + i}${p.sub ?? ''}`,
      title: p.title,
      tasks: p.tasks.map((t) => {
        const steps = t.heading ? t.steps : null;
        return {
          label: String(task++),
          title: t.title,
          steps,
          checked: steps ? steps.every((s) => s.checked) : t.checked,
        };
      }),
      automated: p.automated,
      manual: p.manual,
    }));
  });

interface PlanStyle {
  phaseDepth: number;
  criteria: 'verification' | 'short' | 'testing' | 'bold';
  criteriaDepth: number;
  successHeading: boolean;
  crlf: boolean;
  fence: boolean;
  separator: string;
}

const planStyle: fc.Arbitrary<PlanStyle> = fc.record({
  phaseDepth: fc.constantFrom(2, 3),
  criteria: fc.constantFrom('verification', 'short', 'testing', 'bold'),
  criteriaDepth: fc.constantFrom(3, 4, 5),
  successHeading: fc.boolean(),
  crlf: fc.boolean(),
  fence: fc.boolean(),
  separator: fc.constantFrom(':', '.', ' -', ' —'),
});

function renderPlan(phases: GenPhase[], s: PlanStyle, boxes: () => string[]): string {
  const out: string[] = ['# Generated Implementation Plan', ''];
  let b = 0;
  const mark = (on: boolean) => (on ? (boxes()[b++ % 2] ?? '[x]') : '[ ]');
  for (const p of phases) {
    out.push(`${'#'.repeat(s.phaseDepth)} Phase ${p.label}${s.separator} ${p.title}`, '');
    for (const t of p.tasks) {
      if (t.steps === null) out.push(`- ${mark(t.checked)} Task ${t.label}: ${t.title}`);
      else {
        out.push('', `${'#'.repeat(Math.max(s.phaseDepth + 1, 3))} Task ${t.label}: ${t.title}`, '');
        for (const st of t.steps) out.push(`- ${mark(st.checked)} ${st.text}`);
        out.push('');
      }
    }
    if (s.fence) {
      // A Markdown example holding its own fence and checkboxes: code, never read as the plan's items.
      out.push(
        '',
        '```markdown',
        '## Phase 99: Example',
        '- [x] Task 99: not a task',
        '```rust',
        'fn main() {}',
        '```',
        '- [ ] not a criterion',
        '```',
        '',
      );
    }
    // Criteria sit below the phase's tasks; a heading task's scope would otherwise hold bold-label criteria.
    const depth = Math.max(s.criteriaDepth, s.phaseDepth + 1);
    if (s.successHeading && s.criteria !== 'bold')
      out.push('', `${'#'.repeat(Math.max(s.phaseDepth + 1, 3))} Success Criteria:`, '');
    const heading = (kind: 'Automated' | 'Manual'): string => {
      switch (s.criteria) {
        case 'verification':
          return `${'#'.repeat(depth)} ${kind} Verification:`;
        case 'short':
          return `${'#'.repeat(depth)} ${kind}:`;
        case 'testing':
          return `${'#'.repeat(depth)} ${kind} Testing`;
        default:
          return `**${kind} verification:**`;
      }
    };
    if (s.criteria === 'bold') out.push('', `${'#'.repeat(Math.max(s.phaseDepth + 1, 3))} Success Criteria`, '');
    out.push('', heading('Automated'), '');
    for (const c of p.automated) out.push(`- ${mark(c.checked)} ${c.text}`);
    out.push('', heading('Manual'), '');
    for (const c of p.manual) out.push(`- ${mark(c.checked)} ${c.text}`);
    out.push('');
  }
  return out.join(s.crlf ? '\r\n' : '\n');
}

describe('plans read back to the model they were rendered from', () => {
  it('phases, labels, tasks, steps and criteria, in every rendering', () => {
    check(
      fc.tuple(planModel, planStyle, fc.array(fc.constantFrom('[x]', '[X]'), { minLength: 2, maxLength: 2 })),
      ([phases, style, spellings]) => {
        const plan = readPlanText(
          'thoughts/shared/plans/p.md',
          renderPlan(phases, style, () => spellings),
        );
        expect(plan.notAPlan).toBe(false);
        expect(plan.problems).toEqual([]);
        expect(
          plan.phases.map((p) => ({
            label: p.label,
            title: p.title,
            tasks: p.tasks.map((t) => ({
              label: t.label,
              title: t.title,
              checked: t.checked,
              steps: t.source === 'heading' ? t.steps.map((x) => ({ text: x.text, checked: x.checked })) : null,
            })),
            automated: p.automated.map((c) => ({ text: c.text.replace(/`/g, ''), checked: c.checked })),
            manual: p.manual.map((c) => ({ text: c.text, checked: c.checked })),
            unknown: p.unknown.length,
            other: p.other.length,
          })),
        ).toEqual(
          phases.map((p) => ({
            label: p.label,
            title: p.title,
            tasks: p.tasks.map((t) => ({ label: t.label, title: t.title, checked: t.checked, steps: t.steps })),
            automated: p.automated.map((c) => ({ text: c.text.replace(/`/g, ''), checked: c.checked })),
            manual: p.manual,
            unknown: 0,
            other: 0,
          })),
        );
      },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Handoffs

interface GenHandoff {
  task: number;
  status: 'complete' | 'partial' | 'blocked' | 'failed';
  desc: string;
  files: string[];
  checks: GenCheck[];
  next: string;
}

const handoffModel: fc.Arbitrary<GenHandoff> = fc.record({
  task: fc.integer({ min: 1, max: 30 }),
  status: fc.constantFrom('complete', 'partial', 'blocked', 'failed'),
  desc: title,
  files: fc.array(
    fc.tuple(word, word).map(([a, b]) => `src/${a}/${b}.ts`),
    { minLength: 1, maxLength: 3 },
  ),
  checks: fc.array(fc.record({ text: command, checked }), { minLength: 1, maxLength: 3 }),
  next: title.map((t) => `${t} is next.`),
});

const STATUS_WORDS: Record<GenHandoff['status'], string[]> = {
  complete: ['complete', 'Complete', 'COMPLETE', 'done', 'Done', 'success', 'validated'],
  partial: ['partial', 'PARTIAL_PLUS', 'partial-minus'],
  blocked: ['blocked', 'BLOCKED', 'needs review'],
  failed: ['failed', 'FAILED'],
};

const handoffStyle = fc.record({
  frontmatter: fc.boolean(),
  statusAs: fc.constantFrom('key', 'bold', 'bold-agent', 'heading', 'later'),
  statusWord: fc.nat(),
  files: fc.constantFrom('Files Modified', 'Files Created', 'Files Changed', 'Files Touched'),
  verification: fc.constantFrom(
    'Verification',
    'TDD Verification',
    'Test Results',
    'Testing',
    'Validation',
    'TDD Summary',
    'Test Coverage',
    'Test Results Summary',
  ),
  next: fc.constantFrom(
    'Next Task Context',
    'Next Task',
    'Next Steps',
    'Notes for Next Task',
    'Dependencies for Next Tasks',
  ),
  numbered: fc.boolean(),
  depth: fc.constantFrom(2, 3),
  crlf: fc.boolean(),
});

function renderHandoff(h: GenHandoff, s: typeof handoffStyle extends fc.Arbitrary<infer R> ? R : never): string {
  const words = STATUS_WORDS[h.status];
  const status = words[s.statusWord % words.length]!;
  const out: string[] = [];
  if (s.frontmatter || s.statusAs === 'key') {
    out.push('---', `task: ${h.task}`);
    if (s.statusAs === 'key') out.push(`status: ${status}`);
    out.push('---', '');
  }
  out.push(`# Task Handoff: ${h.desc}`, '');
  if (s.statusAs === 'bold') out.push(`**Status:** ${status}`, '');
  if (s.statusAs === 'bold-agent') out.push(`**Status:** ${status}`, '**Agent:** kraken', '');
  if (s.statusAs === 'heading') out.push(`## Status: ${status}`, '');
  if (s.statusAs === 'later')
    out.push('Picked up where the last agent stopped.', '', `**Agent:** kraken`, `**Status:** ${status}`, '');
  const h2 = (n: number, t: string) => `${'#'.repeat(s.depth)} ${s.numbered ? `${n}. ` : ''}${t}`;
  out.push(h2(1, s.files), '', ...h.files.map((f) => `- \`${f}\``), '');
  out.push(h2(2, s.verification), '', ...h.checks.map((c) => `- ${c.checked ? '[x]' : '[ ]'} ${c.text}`), '');
  out.push(h2(3, s.next), '', h.next, '');
  return out.join(s.crlf ? '\r\n' : '\n');
}

describe('handoffs read back to the model they were rendered from', () => {
  it('fields from keys, sections of the same meaning and status markers', () => {
    check(fc.tuple(handoffModel, handoffStyle), ([h, style]) => {
      const path = `thoughts/handoffs/s/task-${String(h.task).padStart(2, '0')}-x.md`;
      const read = readHandoffText(path, 'thoughts/handoffs', renderHandoff(h, style));
      expect(read.problems).toEqual([]);
      expect({
        status: read.status,
        task: read.normalized.task,
        desc: read.taskDesc,
        files: read.normalized.files_modified,
        next: read.normalized.context_for_next,
      }).toEqual({
        status: h.status,
        task: h.task,
        desc: h.desc,
        files: h.files,
        next: h.next,
      });
      expect(read.verification).toEqual(
        h.checks.map((c) => ({ check: c.text.replace(/`/g, ''), result: c.checked ? 'pass' : 'not run' })),
      );
      expect(read.claims).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Ledgers

const ledgerModel = fc.uniqueArray(
  fc.record({
    kind: fc.constantFrom('Task', 'Phase', 'Step'),
    n: fc.integer({ min: 0, max: 20 }),
    sub: fc.constantFrom('', 'A', '.1'),
    title,
    state: fc.constantFrom<LedgerItemState>('done', 'in-progress', 'pending'),
  }),
  { minLength: 1, maxLength: 6, selector: (i) => `${i.kind} ${i.n}${i.sub}`.toUpperCase() },
);

const ledgerStyle = fc.record({
  suffix: fc.constantFrom('', ' — COMPLETE (2026-07-11)', ' - in progress', ':', ' (2026-03-04)'),
  progress: fc.constantFrom('[→]', '[->]', '[>]'),
  done: fc.constantFrom('[x]', '[X]'),
  grouped: fc.boolean(),
  crlf: fc.boolean(),
});

describe('ledgers read back to the model they were rendered from', () => {
  it('items, states and labels, under any State heading suffix and marker spelling', () => {
    check(fc.tuple(ledgerModel, ledgerStyle), ([items, s]) => {
      const mark = (st: LedgerItemState) => (st === 'done' ? s.done : st === 'pending' ? '[ ]' : s.progress);
      const line = (i: (typeof items)[number]) => `${i.kind} ${i.n}${i.sub}: ${i.title}`;
      const body = s.grouped
        ? (['done', 'in-progress', 'pending'] as const).flatMap((st) => {
            const mine = items.filter((i) => i.state === st);
            return mine.length
              ? [
                  `- ${st === 'done' ? 'Done' : st === 'pending' ? 'Remaining' : 'Now'}:`,
                  ...mine.map((i) => `  - ${line(i)}`),
                ]
              : [];
          })
        : items.map((i) => `- ${mark(i.state)} ${line(i)}`);
      const text = [
        '---',
        'session: s',
        'status: active',
        '---',
        '# Session: s',
        '',
        '## Goal',
        'Ship it.',
        '',
        `## State${s.suffix}`,
        ...body,
        '',
        '## Working Set',
        '- `src/`',
        '',
      ].join(s.crlf ? '\r\n' : '\n');
      const ledger = readLedgerText('thoughts/ledgers/CONTINUITY_CLAUDE-s.md', text);
      const expected = s.grouped
        ? (['done', 'in-progress', 'pending'] as const).flatMap((st) => items.filter((i) => i.state === st))
        : items;
      expect(ledger.items.map((i) => ({ label: i.label, state: i.state, task: i.task }))).toEqual(
        expected.map((i) => ({
          label: `${i.kind} ${i.n}${i.sub.toUpperCase()}`,
          state: i.state,
          task: i.kind === 'Task' && i.sub === '' ? i.n : null,
        })),
      );
      expect(ledger.normalized).toHaveProperty('state');
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Random bytes

describe('random bytes never throw', () => {
  const kinds = [
    { path: 'thoughts/shared/plans/p.md', kind: 'plan', root: 'thoughts/shared/plans' },
    { path: 'thoughts/handoffs/s/task-01-x.md', kind: 'handoff', root: 'thoughts/handoffs' },
    { path: 'thoughts/handoffs/s/2026-01-01_10-00_x.yaml', kind: 'handoff', root: 'thoughts/handoffs' },
    { path: 'thoughts/handoffs/s/orchestration.yaml', kind: 'orchestration', root: 'thoughts/handoffs' },
    { path: 'thoughts/ledgers/CONTINUITY_CLAUDE-s.md', kind: 'ledger', root: 'thoughts/ledgers' },
  ] as const;
  // Bytes, and text made of the characters that matter to Markdown and YAML, which random bytes rarely hit.
  const syntax = fc
    .array(
      fc.constantFrom(
        '#',
        '-',
        '[',
        ']',
        'x',
        ' ',
        '\n',
        '\r\n',
        ':',
        '```',
        '~~~',
        '*',
        '>',
        '|',
        '?',
        '&a',
        '*a',
        '"',
        "'",
        '---',
        'Phase 1',
        'Task 2',
        '**Status:**',
        '{',
        '}',
        '\t',
        '→',
      ),
      { maxLength: 60 },
    )
    .map((p) => new TextEncoder().encode(p.join('')));
  const bytes = fc.oneof(fc.uint8Array({ maxLength: 300 }), syntax);

  it('every reader returns a model, problems as findings, and no JavaScript error text', () => {
    check(
      fc.tuple(fc.constantFrom(...kinds), bytes),
      ([item, data]) => {
        const model = readBytes({ ...item }, data, 1 << 20);
        for (const p of model.problems)
          expect(p.message).not.toMatch(/Cannot read properties|is not a function|undefined \(reading|TypeError/);
      },
      400,
    );
  });
});
