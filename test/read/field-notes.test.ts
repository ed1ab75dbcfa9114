// Issue 11, read side: each shape real repositories write, read into the model as written. The texts come from the
// `field-notes` fixtures (an invented map-tiles service) or pin one reading rule each.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPlanText } from '../../src/read/plan.js';
import { criteriaKindOf } from '../../src/read/criteria.js';
import { readHandoffText, readOrchestrationState, sectionField } from '../../src/read/handoff.js';
import { readLedgerText } from '../../src/read/ledger.js';
import { readYaml } from '../../src/read/yaml.js';
import { buildWorkspace, readBytes } from '../../src/read/workspace.js';
import { validate } from '../../src/schemas/validate.js';
import type { WorkflowFile } from '../../src/model/types.js';
import { ruleOf, runTransitionCase } from '../helpers/rule-tester.js';

const FX = 'field-notes/thoughts';
function fixture(path: string): string {
  return readFileSync(new URL(`../fixtures/dialects/${path}`, import.meta.url), 'utf8');
}
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}
const HR = 'thoughts/shared/handoffs';

describe('plans: labels as written, criteria variants, fences', () => {
  const path = 'thoughts/shared/plans/2026-03-01-tile-cache.md';
  const text = fixture(`${FX}/shared/plans/2026-03-01-tile-cache.md`);
  const plan = readPlanText(path, text);

  it('reads `Phase 0`, `Phase 2A` and sub-numbered tasks with their labels, never garbled', () => {
    expect(plan.phases.map((p) => [p.number, p.label, p.title])).toEqual([
      [0, '0', 'Setup'],
      [1, '1', 'Cache store'],
      [2, '2', 'Eviction'],
      [2, '2A', 'Eviction metrics'],
      [3, '3', 'Warm-up'],
    ]);
    expect(plan.phases[4]!.tasks.map((t) => [t.number, t.label, t.title, t.source, t.steps.length])).toEqual([
      [3, '3.1', 'Warm-up job', 'heading', 2],
      [3, '3.2', 'Warm-up budget', 'heading', 1],
    ]);
    expect(validate('plan', plan.normalized)).toEqual([]);
  });

  it('reads `#### Automated:`/`#### Manual:`, `### Automated Testing`/`### Manual Testing` and bold labels as criteria', () => {
    expect(plan.phases.map((p) => [p.automated.length, p.manual.length, p.unknown.length, p.other.length])).toEqual([
      [1, 1, 0, 0],
      [1, 1, 0, 0],
      [1, 1, 0, 0],
      [1, 1, 0, 0],
      [1, 1, 0, 0],
    ]);
    expect(plan.undividedCriteria).toBeNull();
  });

  it('a ```markdown fence holding a ```rust fence swallows neither its example nor the rest of the phase', () => {
    const metrics = plan.phases[3]!;
    // The runbook example's checkbox stays code; the phase's own criteria after the fence are read.
    expect(metrics.other).toEqual([]);
    expect(metrics.automated[0]!.line).toBe(lineOf(text, '`cargo test -p tilecache metrics::` passes'));
    expect(plan.phases[4]!.line).toBe(lineOf(text, '## Phase 3: Warm-up'));
  });

  it.each([
    ['Automated Verification', 'automated'],
    ['Automated Verification (CI)', 'automated'],
    ['Automated:', 'automated'],
    ['Automated Testing', 'automated'],
    ['Manual Testing:', 'manual'],
    ['Manual', 'manual'],
    ['Success Criteria (automated):', 'automated'],
    ['Success Criteria (manual)', 'manual'],
    ['Success Criteria:', 'unknown'],
    ['Manual steps for the release manager to follow tomorrow', null],
    ['Automation ideas', null],
    // A long aside in brackets does not make the label a sentence: rewording it keeps the items' kind.
    ['CI-only (cannot be checked on a laptop; wait for both database jobs before you tag)', 'automated'],
    ['CI-only (cannot be checked on a laptop)', 'automated'],
  ])('%s -> %s', (label, kind) => {
    expect(criteriaKindOf(label)).toBe(kind);
  });

  it('an undivided `### Success Criteria` list gives criteria of unknown kind, and says where', () => {
    const t = [
      '## Phase 1: A',
      '- [ ] Task 1: a',
      '### Success Criteria:',
      '- [x] `make test` passes',
      '- [ ] The page loads',
      '## Phase 2: B',
      '- [ ] Task 2: b',
      '',
    ].join('\n');
    const p = readPlanText('p.md', t);
    expect(p.phases.map((ph) => [ph.automated.length, ph.manual.length, ph.unknown.length])).toEqual([
      [0, 0, 2],
      [0, 0, 0],
    ]);
    expect(p.undividedCriteria).toEqual({ line: 3, column: 1 });
  });

  it('reads `Phase 3.1`, `Phase 3-28`, `Phase 0.5`, `Phase R.1` and `Phase 25.4` with their own labels', () => {
    // One level: the phase sequence is the run of phase headings at one level (round 3); a `###` phase heading
    // outside a `##` phase is not part of it.
    const t = [
      '## Phase 3.1: Split',
      '## Phase 3-28: Dated',
      '## Phase 0.5: Half',
      '## Phase R.1: Rollback drill',
      '## Phase 25.4: Passthrough mode',
      '',
    ].join('\n');
    expect(readPlanText('p.md', t).phases.map((p) => [p.number, p.label, p.title])).toEqual([
      [3, '3.1', 'Split'],
      [3, '3-28', 'Dated'],
      [0, '0.5', 'Half'],
      [null, 'R.1', 'Rollback drill'],
      [25, '25.4', 'Passthrough mode'],
    ]);
  });

  it('a README and a plan review in the plans folder are not plans; `type: plan` or any checkbox makes one', () => {
    expect(readPlanText('thoughts/shared/plans/README.md', fixture(`${FX}/shared/plans/README.md`)).notAPlan).toBe(
      true,
    );
    expect(readPlanText('r.md', fixture(`${FX}/shared/plans/2026-03-01-tile-cache-review.md`)).notAPlan).toBe(true);
    expect(readPlanText('p.md', '---\ntype: plan\n---\n# Draft\n').notAPlan).toBe(false);
    expect(readPlanText('p.md', '# Draft\n- [ ] decide\n').notAPlan).toBe(false);
    expect(plan.notAPlan).toBe(false);
  });
});

describe('handoffs: sections by meaning, single-line markers, YAML items', () => {
  it('reads `## Files Created` + `## Files Changed`, `## Test Results` and `## Notes for Next Task`', () => {
    const h = readHandoffText(
      `${HR}/tile-cache/task-01-cache-volume.md`,
      HR,
      fixture(`${FX}/shared/handoffs/tile-cache/task-01-cache-volume.md`),
    );
    expect(h.normalized).toMatchObject({
      files_modified: ['deploy/volumes/tile-cache.yaml', 'deploy/renderer.yaml'],
      verification_results: [{ check: '`make check-volumes` passes on staging'.replace(/`/g, ''), result: 'pass' }],
      context_for_next:
        'The volume is mounted at /var/cache/tiles; the store should take the path from TILE_CACHE_DIR.',
    });
    expect(validate('handoff', h.normalized)).toEqual([]);
  });

  it('`**Status:** Complete` followed by `**Agent:** kraken` is status complete; `## Files Touched` tables and `## TDD Summary` count', () => {
    const text = fixture(`${FX}/shared/handoffs/tile-cache/task-02-tile-store.md`);
    const h = readHandoffText(`${HR}/tile-cache/task-02-tile-store.md`, HR, text);
    expect(h.status).toBe('complete');
    expect(h.normalized.status).toBe('complete');
    expect(h.positions['/status']!.line).toBe(lineOf(text, '**Status:** Complete'));
    expect(h.normalized.files_modified).toEqual(['crates/tilecache/src/store.rs', 'crates/tilecache/tests/store.rs']);
    expect(h.verification).toHaveLength(2);
    expect(h.normalized.context_for_next).toContain('Store::len_bytes()');
  });

  it('finds a status marker in a later paragraph, and reads numbered headings (`## 1. Test Results Summary`)', () => {
    const text = fixture(`${FX}/shared/handoffs/tile-cache/task-03-lru-eviction.md`);
    const h = readHandoffText(`${HR}/tile-cache/task-03-lru-eviction.md`, HR, text);
    expect(h.status).toBe('complete');
    expect(h.normalized).toMatchObject({
      verification_results: [{ result: 'pass' }],
      files_modified: ['crates/tilecache/src/evict.rs', 'crates/tilecache/src/store.rs'],
      context_for_next: expect.stringContaining('Evictor::on_evict'),
    });
    expect(h.positions['/verification_results']!.line).toBe(lineOf(text, '## 1. Test Results Summary'));
  });

  it.each([
    ['Files Created', 'files_modified'],
    ['Files Touched:', 'files_modified'],
    ['Test Results', 'verification_results'],
    ['1. Test Results Summary', 'verification_results'],
    ['Testing', 'verification_results'],
    ['Validation', 'verification_results'],
    ['TDD Summary', 'verification_results'],
    ['Test Coverage', 'verification_results'],
    ['Next Task', 'context_for_next'],
    ['Next Steps', 'context_for_next'],
    ['Notes for Next Task', 'context_for_next'],
    ['3. Dependencies for Next Tasks', 'context_for_next'],
    ['Action Items & Next Steps', null],
    ['Learnings', null],
  ])('section %s -> %s', (title, field) => {
    expect(sectionField(title)).toBe(field);
  });

  it('a YAML `next:` item that YAML read as a map (an unquoted `: `) is read back as its text', () => {
    const path = `${HR}/tile-cache/2026-03-04_17-55_tile-cache.yaml`;
    const h = readHandoffText(path, HR, fixture(`${FX}/shared/handoffs/tile-cache/2026-03-04_17-55_tile-cache.yaml`));
    expect(h.normalized.context_for_next).toBe(
      "Warm-up: read the access log from the renderer's log volume, not from S3\nThe budget flag is TILE_WARMUP_SECS",
    );
    expect(validate('handoff', h.normalized)).toEqual([]);
    expect(h.claims).toEqual([expect.objectContaining({ source: 'outcome', raw: 'SUCCEEDED', status: 'complete' })]);
  });

  it('keeps every other statement of the outcome as a claim: `outcome:` next to `status:`, later body markers', () => {
    const h = readHandoffText(
      `${HR}/s/task-01-a.md`,
      HR,
      '---\nstatus: complete\n---\n# A\n\nSome words.\n\n**Status:** BLOCKED\n**Agent:** atlas\n',
    );
    expect(h.status).toBe('complete');
    expect(h.claims).toEqual([{ source: 'body', raw: 'BLOCKED', status: 'blocked', line: 8, column: 1 }]);
  });

  it('an orchestration state file is not a handoff, by content or by name', () => {
    const path = `${HR}/tile-cache/orchestration.yaml`;
    const state = readOrchestrationState(path, HR, fixture(`${FX}/shared/handoffs/tile-cache/orchestration.yaml`));
    expect(state).toMatchObject({ kind: 'orchestration', session: 'tile-cache', data: { current_phase: 3 } });
    expect(
      readOrchestrationState(`${HR}/s/run-state.yaml`, HR, 'session: s\nmode: orchestration\nphases: [{id: 1}]\n')
        ?.kind,
    ).toBe('orchestration');
    expect(readOrchestrationState(`${HR}/s/orchestration.yaml`, HR, 'phases: [1, 2\n')?.problems).toHaveLength(1);
    expect(readOrchestrationState(`${HR}/s/2026-01-08_16-30_x.yaml`, HR, 'goal: g\nnext: [a]\n')).toBeNull();
  });
});

describe('ledgers: State heading suffixes and labels', () => {
  it('`## State — PHASES 0-2A COMPLETE (2026-03-04)` is the State section; items are known by their labels', () => {
    const path = 'thoughts/ledgers/CONTINUITY_CLAUDE-tile-cache.md';
    const l = readLedgerText(path, fixture(`${FX}/ledgers/CONTINUITY_CLAUDE-tile-cache.md`));
    expect(l.items.map((i) => [i.label, i.state, i.group])).toEqual([
      ['Phase 0', 'done', 'Done'],
      ['Phase 1', 'done', 'Done'],
      ['Phase 2', 'done', 'Done'],
      ['Phase 2A', 'done', 'Done'],
      ['Phase 3', 'in-progress', 'Now'],
    ]);
    expect(validate('ledger', l.normalized)).toEqual([]);
  });

  it('records each state label with its section, so a repeated `- Done:` can be named', () => {
    const l = readLedgerText(
      'thoughts/ledgers/CONTINUITY_CLAUDE-s.md',
      '## Goal\ng\n\n## State\n- Done:\n  - [x] Step 1: a\n- Done:\n  - [x] Step 2: b\n',
    );
    expect(l.labels.map((x) => [x.label, x.section, x.line])).toEqual([
      ['Done', 'State', 5],
      ['Done', 'State', 7],
    ]);
    expect(l.items.map((i) => i.label)).toEqual(['Step 1', 'Step 2']);
  });
});

describe('reader errors never leak internals', () => {
  it("a YAML syntax error after an explicit `? ` key is reported at its line with yaml's message (it used to throw a TypeError)", () => {
    const text = fixture('field-notes-planted/thoughts/shared/handoffs/geocoder-v2/2026-04-13_09-00_geocoder-v2.yaml');
    const read = readYaml(text, 0);
    expect(read.problems).toEqual([
      {
        line: lineOf(text, '  - [Write the runbook'),
        column: 5,
        message: expect.stringMatching(/^Invalid YAML: Flow sequence/),
      },
    ]);
  });

  it('a parser crash becomes a plain sentence, not the JavaScript error', () => {
    const deep = new TextEncoder().encode(`${'['.repeat(20000)}x\n`);
    const model = readBytes(
      { path: 'thoughts/shared/plans/p.md', kind: 'plan', root: 'thoughts/shared/plans' },
      deep,
      10_000_000,
    );
    for (const p of model.problems)
      expect(p.message).not.toMatch(/Maximum call stack|Cannot read properties|TypeError/);
  });
});

describe('the workspace keeps what is not a plan or a handoff visible, and infers links', () => {
  const files = (): WorkflowFile[] => {
    const plans = ['README.md', '2026-03-01-tile-cache-review.md', '2026-03-01-tile-cache.md'].map((n) =>
      readPlanText(`thoughts/shared/plans/${n}`, fixture(`${FX}/shared/plans/${n}`)),
    );
    const dir = `${FX}/shared/handoffs/tile-cache`;
    const names = [
      'task-01-cache-volume.md',
      'task-02-tile-store.md',
      'task-03-lru-eviction.md',
      'task-04-eviction-metrics.md',
    ];
    const handoffs = names.map((n) => readHandoffText(`${HR}/tile-cache/${n}`, HR, fixture(`${dir}/${n}`)));
    const state = readOrchestrationState(
      `${HR}/tile-cache/orchestration.yaml`,
      HR,
      fixture(`${dir}/orchestration.yaml`),
    )!;
    const ledger = readLedgerText(
      'thoughts/ledgers/CONTINUITY_CLAUDE-tile-cache.md',
      fixture(`${FX}/ledgers/CONTINUITY_CLAUDE-tile-cache.md`),
    );
    return [...plans, ...handoffs, state, ledger];
  };

  it('documents, states and an inferred link by mention', () => {
    const ws = buildWorkspace('/r', files(), []);
    expect(ws.plans.map((p) => p.path)).toEqual(['thoughts/shared/plans/2026-03-01-tile-cache.md']);
    expect(ws.documents.map((p) => p.path)).toEqual([
      'thoughts/shared/plans/README.md',
      'thoughts/shared/plans/2026-03-01-tile-cache-review.md',
    ]);
    expect(ws.states.map((s) => s.path)).toEqual([`${HR}/tile-cache/orchestration.yaml`]);
    expect(ws.handoffs).toHaveLength(4);
    expect(ws.unlinked).toEqual([]);
    expect(
      [...ws.inferred.values()].every(
        (l) => l.by === 'mention' && l.plan === 'thoughts/shared/plans/2026-03-01-tile-cache.md',
      ),
    ).toBe(true);
    expect(ws.inferred.size).toBe(5);
  });

  it('infers by tasks when nothing mentions the plan: same task count, matching task texts', () => {
    const plan = readPlanText(
      'thoughts/shared/plans/2026-05-01-x.md',
      '# Payouts\n## Phase 1: A\n- [ ] Task 1: Retry failed payouts\n- [ ] Task 2: Alert on payout backlog\n',
    );
    const other = readPlanText(
      'thoughts/shared/plans/2026-05-02-y.md',
      '# Search\n## Phase 1: A\n- [ ] Task 1: Index pages\n- [ ] Task 2: Rank results\n',
    );
    const h = (n: number, desc: string) =>
      readHandoffText(
        `${HR}/pay/task-0${n}-x.md`,
        HR,
        `---\nstatus: complete\ntask: ${n}\ntask_desc: ${desc}\n---\n# x\n`,
      );
    const ws = buildWorkspace(
      '/r',
      [plan, other, h(1, 'Retry the failed payouts nightly'), h(2, 'Alert when the payout backlog grows')],
      [],
    );
    expect(ws.links.get(`${HR}/pay/task-01-x.md`)).toBe('thoughts/shared/plans/2026-05-01-x.md');
    expect(ws.inferred.get(`${HR}/pay/task-02-x.md`)).toMatchObject({ by: 'tasks', session: 'pay' });
    // Ambiguous: two plans with matching tasks link nothing.
    const twin = readPlanText(
      'thoughts/shared/plans/2026-05-03-z.md',
      '# Payouts again\n## Phase 1: A\n- [ ] Task 1: Retry failed payouts\n- [ ] Task 2: Alert on payout backlog\n',
    );
    expect(
      buildWorkspace(
        '/r',
        [plan, twin, h(1, 'Retry the failed payouts nightly'), h(2, 'Alert when the payout backlog grows')],
        [],
      ).inferred.size,
    ).toBe(0);
  });

  it('removing an orchestration state file is no deleted handoff', () => {
    const state = fixture(`${FX}/shared/handoffs/tile-cache/orchestration.yaml`);
    const before = { [`${HR}/tile-cache/orchestration.yaml`]: state };
    expect(runTransitionCase(ruleOf('history/handoff-deleted'), { before, after: {} })).toEqual([]);
    // A real handoff removed the same way is still reported (the test can see a deletion at all).
    const handoff = {
      [`${HR}/tile-cache/task-01-cache-volume.md`]: fixture(`${FX}/shared/handoffs/tile-cache/task-01-cache-volume.md`),
    };
    expect(runTransitionCase(ruleOf('history/handoff-deleted'), { before: handoff, after: {} }).length).toBeGreaterThan(
      0,
    );
  });
});
