// The dialects real repositories use, read end to end: each fixture under test/fixtures/dialects/ is a tree of files
// as it sits in a user's repository. A clean fixture must lint without a single error or warning (a reader that
// misread one heading, checkbox or key would show up here as a spurious finding); a `-planted` fixture holds one
// protocol violation per file and must give exactly those findings, at the file and line a maintainer would point to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Preset } from '../src/config/config.js';
import type { Finding } from '../src/model/finding.js';
import { lint, makeRepo, readTree, runCliHere } from './helpers/repo.js';
import { loadConfig } from '../src/config/config.js';
import { RULE_IDS } from '../src/engine/catalog.js';
import { reported } from './rules/fixtures.js';

const ROOT = fileURLToPath(new URL('./fixtures/dialects/', import.meta.url));

function filesOf(name: string): Record<string, string> {
  return readTree(join(ROOT, name), 'utf8');
}

/**
 * The fixture in a fresh git repository. Nothing is committed: these suites judge the files as they stand, and one
 * commit holding a whole session's progress (checked manual items included) is a matter for the history rules.
 */
function repoOf(name: string): string {
  return makeRepo(filesOf(name));
}

interface Expected {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  file: string;
  line: number;
}

function problems(findings: Finding[]): Expected[] {
  return findings
    .filter((f) => reported(f))
    .map((f) => ({ ruleId: f.ruleId, severity: f.severity as Expected['severity'], file: f.file!, line: f.line! }));
}

function lintFixture(name: string, preset: Preset = 'recommended'): Expected[] {
  const dir = repoOf(name);
  // The fixture's own config, as the CLI reads it (a planted repository states its promise there).
  const { protocol } = loadConfig(dir, undefined, RULE_IDS);
  return problems(lint(dir, { preset, ...(protocol ? { protocol } : {}) }));
}

/** The 1-based line of the one line of a fixture file that contains `needle`; fails when it is missing or not unique. */
function lineIn(fixture: string, file: string, needle: string): number {
  const lines = readFileSync(join(ROOT, fixture, file), 'utf8').split('\n');
  const hits = lines.flatMap((text, i) => (text.includes(needle) ? [i + 1] : []));
  if (hits.length !== 1) throw new Error(`"${needle}" occurs ${hits.length} times in ${fixture}/${file}`);
  return hits[0]!;
}

/** Findings in a stable order, so a list can be compared whole. */
function sorted(list: Expected[]): Expected[] {
  return [...list].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.ruleId < b.ruleId ? -1 : 1),
  );
}

function planted(
  fixture: string,
  ruleId: string,
  severity: Expected['severity'],
  file: string,
  needle: string | 1,
): Expected {
  return { ruleId, severity, file, line: needle === 1 ? 1 : lineIn(fixture, file, needle) };
}

const CLEAN = ['humanlayer', 'continuous-claude', 'canonical', 'handoff-markers', 'continuous-claude-v3', 'ledgers'];

describe('clean fixtures of every dialect', () => {
  for (const name of CLEAN) {
    it(`${name}: no error and no warning in the recommended preset`, () => {
      expect(lintFixture(name)).toEqual([]);
    });
  }

  it('the CLI exits 0 on each clean fixture', async () => {
    for (const name of CLEAN) {
      const res = await runCliHere(repoOf(name), ['--format', 'json']);
      expect(res.stderr, name).toBe('');
      expect(res.code, `${name}: ${res.stdout}`).toBe(0);
      const report = JSON.parse(res.stdout) as { summary: { errors: number; warnings: number; files: number } };
      expect(report.summary, name).toMatchObject({ errors: 0, warnings: 0 });
      expect(report.summary.files, name).toBe(Object.keys(filesOf(name)).length);
    }
  });

  it('strict accepts the fixtures that already write the micro spec to the letter', () => {
    for (const name of ['humanlayer', 'canonical', 'continuous-claude-v3', 'ledgers'])
      expect(lintFixture(name, 'strict'), name).toEqual([]);
  });

  it('strict asks the implement_task and body-marker dialects to name the previous handoff, which recommended excuses', () => {
    const chain = (file: string): Expected => ({ ruleId: 'handoff/chain', severity: 'error', file, line: 1 });
    expect(lintFixture('continuous-claude', 'strict')).toEqual([
      chain('thoughts/handoffs/api-rate-limiting/task-02-redis-store.md'),
      chain('thoughts/handoffs/api-rate-limiting/task-03-express-middleware.md'),
    ]);
    expect(lintFixture('handoff-markers', 'strict')).toEqual([
      chain('thoughts/handoffs/docs-search/task-02-search-box.md'),
      chain('thoughts/handoffs/docs-search/task-03-rank-title-matches.md'),
    ]);
  });
});

describe('HumanLayer create_plan plans and session handoffs', () => {
  const F = 'humanlayer-planted';
  const HL = 'thoughts/shared/handoffs';

  // The planted repositories state their promise in validate-workflow.config.json (`protocol`: criteria in every
  // phase, a handoff per task with every field): round 3 judges a repository by the protocol it promised, and a
  // repository that promised nothing is not held to per-phase criteria in `recommended`.
  it('reports each planted violation once, where it is', () => {
    expect(sorted(lintFixture(F))).toEqual(
      sorted([
        // Phase 2's automated item is checked while Phase 1's manual check is still open: strict's concern only
        // (recommended calls a phase verified when its automated items are; see the test below).

        // A manual check ticked before the automated ones of its phase (a state note in recommended).
        planted(
          F,
          'plan/manual-before-automated',
          'info',
          'thoughts/shared/plans/2026-01-11-ENG-1510-session-search.md',
          '- [x] Typing part of a title',
        ),
        // Phase 2 lost its `#### Manual Verification:` section.
        planted(
          F,
          'plan/phase-manual-criteria',
          'warning',
          'thoughts/shared/plans/2026-01-12-ENG-1520-approval-timeouts.md',
          '## Phase 2: Expire approvals',
        ),
        // An unquoted `topic:` with a colon in it: the frontmatter is not YAML.
        planted(
          F,
          'handoff/schema',
          'error',
          `${HL}/ENG-1510/2026-01-11_18-02-40_ENG-1510_session-search.md`,
          'topic: Session search: command palette',
        ),
        // A copy written into the generated searchable mirror. (A handoff without its ticket folder is HumanLayer's
        // own flat layout, fine in recommended.)
        planted(
          F,
          'layout/paths',
          'warning',
          'thoughts/searchable/shared/plans/2026-01-10-ENG-1502-webhook-retries.md',
          1,
        ),
      ]),
    );
  });

  it('strict asks the flat handoff for its folder and Phase 1 for its manual check before Phase 2 starts', () => {
    const strictOnly = lintFixture(F, 'strict').filter(
      (f) => f.ruleId === 'layout/paths' || f.ruleId === 'plan/phase-order',
    );
    expect(sorted(strictOnly)).toEqual(
      sorted([
        { ...planted(F, 'layout/paths', 'error', `${HL}/2026-01-12_09-15-00_ENG-1520_approval-timeouts.md`, 1) },
        {
          ...planted(
            F,
            'layout/paths',
            'error',
            'thoughts/searchable/shared/plans/2026-01-10-ENG-1502-webhook-retries.md',
            1,
          ),
        },
        planted(
          F,
          'plan/phase-order',
          'error',
          'thoughts/shared/plans/2026-01-10-ENG-1502-webhook-retries.md',
          '- [x] Worker tests pass',
        ),
      ]),
    );
  });
});

describe('Continuous-Claude plan-agent plans with implement_task handoffs', () => {
  const F = 'continuous-claude-planted';
  const RATE = 'thoughts/shared/plans/2026-02-03-api-rate-limiting.md';

  // The planted repositories state their promise in validate-workflow.config.json (`protocol`: criteria in every
  // phase, a handoff per task with every field): round 3 judges a repository by the protocol it promised, and a
  // repository that promised nothing is not held to per-phase criteria in `recommended`.
  it('reports each planted violation once, where it is', () => {
    expect(sorted(lintFixture(F))).toEqual(
      sorted([
        // Task 1's steps are all checked, but its handoff says partial.
        planted(F, 'handoff/validated', 'error', RATE, '### Task 1: Token bucket'),
        // Task 2's steps are all checked and no agent wrote its handoff (4 tasks: orchestration).
        planted(F, 'handoff/missing', 'error', RATE, '### Task 2: Redis store'),
        // Task headings skip 3.
        planted(
          F,
          'plan/task-numbering',
          'error',
          'thoughts/shared/plans/2026-02-10-search-index.md',
          '### Task 4: Query parser',
        ),
        // The plan-level manual criterion is checked while the automated one is not.
        planted(
          F,
          'plan/manual-before-automated',
          'info',
          'thoughts/shared/plans/2026-02-14-webhook-signing.md',
          '- [x] The receiver example',
        ),
        // Task 1 reported blocked on a question for the user, and the next agent went ahead anyway.
        planted(
          F,
          'handoff/blocked-proceed',
          'error',
          'thoughts/handoffs/search-index/task-02-inverted-index.md',
          'status: success',
        ),
        // No `## Next Task Context` section: reported at the handoff's title, the nearest heading.
        planted(F, 'handoff/schema', 'error', 'thoughts/handoffs/audit-log/task-01-audit-table.md', '# Task Handoff'),
        // Task 2's handoffs report it done, and nobody checked it in the plan.
        planted(
          F,
          'handoff/plan-sync',
          'error',
          'thoughts/shared/plans/2026-02-10-search-index.md',
          '### Task 2: Inverted index',
        ),
        planted(
          F,
          'handoff/plan-sync',
          'error',
          'thoughts/shared/plans/2026-02-12-audit-log.md',
          '### Task 1: Audit table',
        ),
        // `task-2-...`: the number is not zero-padded.
        planted(F, 'handoff/path', 'warning', 'thoughts/handoffs/audit-log/task-2-write-audit-rows.md', 1),
        // Blocked, but `## Issues Encountered` says "None.": nothing says what blocks it.
        planted(
          F,
          'handoff/schema',
          'error',
          'thoughts/handoffs/csv-export/task-01-export-endpoint.md',
          '## Issues Encountered',
        ),
        // It names the audit-log plan (`plan_file:`), whose Task 1 has a handoff in session audit-log a day earlier,
        // and it names none (issue 12: a later handoff for a task is a retry that names the earlier one).
        planted(F, 'handoff/one-per-task', 'error', 'thoughts/handoffs/csv-export/task-01-export-endpoint.md', 1),
      ]),
    );
  });
});

describe('canonical micro-spec plans and task handoffs', () => {
  const F = 'canonical-planted';
  const BILLING = 'thoughts/shared/plans/2026-11-21-billing.md';

  // The planted repositories state their promise in validate-workflow.config.json (`protocol`: criteria in every
  // phase, a handoff per task with every field): round 3 judges a repository by the protocol it promised, and a
  // repository that promised nothing is not held to per-phase criteria in `recommended`.
  it('reports each planted violation once, where it is', () => {
    expect(sorted(lintFixture(F))).toEqual(
      sorted([
        // Phase 2 restarts task numbering at 1.
        planted(F, 'plan/task-numbering', 'error', BILLING, '- [x] Task 1: Stripe client'),
        planted(F, 'plan/task-numbering', 'error', BILLING, '- [ ] Task 2: Webhook handler'),
        // `previous:` names a handoff that does not exist (a typo).
        planted(
          F,
          'handoff/chain',
          'warning',
          'thoughts/handoffs/billing/task-02-invoice-numbering.md',
          'previous: task-01-invoice-modle.md',
        ),
        // One agent did tasks 3 and 4 and wrote one handoff for both.
        planted(
          F,
          'handoff/one-per-task',
          'error',
          'thoughts/handoffs/billing/task-03-stripe-client.md',
          'task: [3, 4]',
        ),
        planted(F, 'handoff/schema', 'error', 'thoughts/handoffs/billing/task-03-stripe-client.md', 'task: [3, 4]'),
        // `mode: direct` on a 4-task plan, with no record that the user chose it.
        planted(F, 'plan/mode', 'warning', 'thoughts/shared/plans/2026-11-22-exports.md', 'mode: direct'),
        // Phase 2 has only a manual section; its task is checked while Phase 1's manual check is open (which only
        // strict holds against it: recommended calls Phase 1 verified, its automated item is checked).
        planted(
          F,
          'plan/phase-automated-criteria',
          'warning',
          'thoughts/shared/plans/2026-11-23-dunning.md',
          '## Phase 2: Suspension',
        ),
      ]),
    );
    expect(lintFixture(F, 'strict').filter((f) => f.ruleId === 'plan/phase-order')).toEqual([
      planted(F, 'plan/phase-order', 'error', 'thoughts/shared/plans/2026-11-23-dunning.md', '- [x] Task 3: Suspend'),
    ]);
  });

  it('an N/A manual item counts as present and as verified', () => {
    // Phase 1 of the clean auth plan has only `- [ ] N/A: ...` as manual criterion and Phase 2 has a checked task:
    // no phase-manual-criteria warning, and no phase-order error.
    const findings = lint(repoOf('canonical'), { preset: 'strict' });
    expect(findings.filter((f) => f.ruleId.startsWith('plan/'))).toEqual([]);
  });
});

describe('handoffs that carry their status as a body marker', () => {
  const F = 'handoff-markers';
  const SESSION = 'thoughts/handoffs/docs-search';

  it('an unknown status word in a `**Status:**` marker is reported at the marker', () => {
    const files = filesOf(F);
    const path = `${SESSION}/task-03-rank-title-matches.md`;
    files[path] = files[path]!.replace('**Status**: validated', '**Status**: In review');
    expect(problems(lint(makeRepo(files)))).toEqual([
      { ruleId: 'handoff/schema', severity: 'error', file: path, line: lineIn(F, path, '**Status**: validated') },
      // The plan checks task 3 complete, and its handoff no longer says so.
      {
        ruleId: 'handoff/validated',
        severity: 'error',
        file: 'thoughts/plans/2026-05-02-docs-search.md',
        line: lineIn(F, 'thoughts/plans/2026-05-02-docs-search.md', 'Task 3:'),
      },
    ]);
  });

  it('a `## Status:` heading that says the task is blocked needs a blocker', () => {
    const files = filesOf(F);
    const path = `${SESSION}/task-02-search-box.md`;
    files[path] = files[path]!.replace('## Status: COMPLETE', '## Status: BLOCKED');
    const next = `${SESSION}/task-03-rank-title-matches.md`;
    const plan = 'thoughts/plans/2026-05-02-docs-search.md';
    expect(sorted(problems(lint(makeRepo(files))))).toEqual(
      sorted([
        { ruleId: 'handoff/schema', severity: 'error', file: path, line: 1 },
        // Task 3 went ahead after the blocked task 2, and the plan still checks task 2 complete.
        { ruleId: 'handoff/blocked-proceed', severity: 'error', file: next, line: lineIn(F, next, '**Status**') },
        { ruleId: 'handoff/validated', severity: 'error', file: plan, line: lineIn(F, plan, 'Task 2:') },
      ]),
    );
  });
});

describe('Continuous-Claude v3 YAML handoffs', () => {
  const F = 'continuous-claude-v3-planted';
  const DIR = 'thoughts/shared/handoffs';

  // The planted repositories state their promise in validate-workflow.config.json (`protocol`: criteria in every
  // phase, a handoff per task with every field): round 3 judges a repository by the protocol it promised, and a
  // repository that promised nothing is not held to per-phase criteria in `recommended`.
  it('reports each planted violation once, where it is', () => {
    expect(sorted(lintFixture(F))).toEqual(
      sorted([
        // A mis-indented key in the body document: reported at the line, in the file's own numbering.
        planted(
          F,
          'handoff/schema',
          'error',
          `${DIR}/open-source-release/2026-01-10_09-00_hook-timeouts.yaml`,
          '   modified:',
        ),
        // The body document is a list, not a mapping.
        planted(
          F,
          'handoff/schema',
          'error',
          `${DIR}/open-source-release/2026-01-10_11-45_release-notes.yaml`,
          '- goal: Draft the release notes',
        ),
        // Written straight into the handoffs root, without the session folder.
        planted(F, 'layout/paths', 'warning', `${DIR}/2026-01-11_08-30_license-audit.yaml`, 1),
      ]),
    );
  });

  it('a YAML disable comment with a reason silences its rule for that file', () => {
    const files = filesOf(F);
    const path = `${DIR}/2026-01-11_08-30_license-audit.yaml`;
    files[path] =
      `# validate-workflow-disable layout/paths -- kept where the release checklist links to it\n${files[path]!}`;
    expect(problems(lint(makeRepo(files))).filter((f) => f.file === path)).toEqual([]);
  });
});

describe('continuity ledgers', () => {
  const F = 'ledgers-planted';
  const L = 'thoughts/ledgers';

  // The planted repositories state their promise in validate-workflow.config.json (`protocol`: criteria in every
  // phase, a handoff per task with every field): round 3 judges a repository by the protocol it promised, and a
  // repository that promised nothing is not held to per-phase criteria in `recommended`.
  it('reports each planted violation once, where it is', () => {
    expect(sorted(lintFixture(F))).toEqual(
      sorted([
        // The ledger marks task 2 done; the plan does not.
        planted(F, 'ledger/sync', 'error', `${L}/CONTINUITY_CLAUDE-siwx-auth.md`, '[x] Task 2: Client signs'),
        // Two items in progress, `[→]` and `[->]`.
        planted(F, 'ledger/state', 'error', `${L}/CONTINUITY_CLAUDE-docs-refresh.md`, '- [->] Update screenshots'),
        // `status: complete` with an item still remaining.
        planted(F, 'ledger/state', 'error', `${L}/CONTINUITY_CLAUDE-ci-speedup.md`, 'status: complete'),
        // Task 1 is both done and remaining; and `in_progress` is no ledger status.
        planted(F, 'ledger/state', 'error', `${L}/CONTINUITY_CLAUDE-release-2-0.md`, '  - [ ] Task 1: Changelog'),
        planted(F, 'ledger/schema', 'error', `${L}/CONTINUITY_CLAUDE-release-2-0.md`, 'status: in_progress'),
        // No `## Goal` section.
        planted(F, 'ledger/schema', 'error', `${L}/CONTINUITY_CLAUDE-flaky-tests.md`, 1),
      ]),
    );
  });
});

// Issue 11: the dialects people really write. `field-notes` is a clean session of an invented map-tiles service in
// every shape the issue lists (sub-numbered phases and tasks, criteria under `#### Automated:`, `### Manual Testing`,
// bold labels, a ```markdown fence holding a ```rust fence, near-synonym handoff sections, single-line status markers,
// a YAML `next:` item with an unquoted `: `, a `## State — ...` heading, an orchestration state file, a flat
// HumanLayer handoff, plans-folder documents that are not plans, and a session linked to its plan without `plan:`).
// `field-notes-planted` holds the violations the tool used to miss, one cause each.
describe('the dialects people really write (issue 11)', () => {
  const F = 'field-notes-planted';
  const L = 'thoughts/ledgers';
  const GEO = 'thoughts/shared/handoffs/geocoder-v2';

  it('field-notes: no error and no warning in recommended, and one info saying the session link was inferred', () => {
    const found = lint(repoOf('field-notes'));
    expect(problems(found)).toEqual([]);
    expect(found.filter((f) => f.severity === 'info').map((f) => [f.ruleId, f.messageId, f.message])).toEqual([
      [
        'handoff/missing',
        'inferred',
        'Session "tile-cache" names no plan; its files were linked to thoughts/shared/plans/2026-03-01-tile-cache.md because the session mentions its file name or title.',
      ],
    ]);
  });

  it('field-notes: the CLI counts every file and exits 0', async () => {
    const res = await runCliHere(repoOf('field-notes'), ['--format', 'json']);
    expect(res.code, res.stdout).toBe(0);
    const report = JSON.parse(res.stdout) as { summary: { errors: number; warnings: number; files: number } };
    expect(report.summary).toMatchObject({ errors: 0, warnings: 0, files: Object.keys(filesOf('field-notes')).length });
  });

  it('field-notes-planted: reports each planted violation once, where it is', () => {
    const ROUTE = 'thoughts/shared/plans/2026-04-10-route-cache.md';
    const GEOPLAN = 'thoughts/shared/plans/2026-04-11-geocoder-v2.md';
    const doneLabels = new Set(
      readFileSync(join(ROOT, F, `${L}/CONTINUITY_CLAUDE-route-cache.md`), 'utf8')
        .split('\n')
        .flatMap((l, i) => (l === '- Done:' ? [i + 1] : [])),
    );
    const isDoneLabel = (f: Expected) => f.file === `${L}/CONTINUITY_CLAUDE-route-cache.md` && doneLabels.has(f.line);
    expect(sorted(lintFixture(F).filter((f) => f.severity === 'error' && !isDoneLabel(f)))).toEqual(
      sorted([
        // Four task handoffs report their tasks complete, the ledger marks them done, and the plan (linked by the
        // ledger's mention of its file name, no `plan:` key anywhere) still has every `### Task N:` unchecked.
        planted(F, 'handoff/plan-sync', 'error', ROUTE, '### Task 1: Route key'),
        // `Phase 7` both in `Now:` and under `Remaining:`.
        planted(F, 'ledger/state', 'error', `${L}/CONTINUITY_CLAUDE-route-cache.md`, '  - [ ] Phase 7: Load test'),
        // `[x] Phase 3` under Done and `[ ] Phase 3` under Remaining, in a `## State — IN PROGRESS (...)` section.
        planted(F, 'ledger/state', 'error', `${L}/CONTINUITY_CLAUDE-geocoder-v2.md`, '  - [ ] Phase 3: Query API'),
        // `status: complete` next to `outcome: PARTIAL_MINUS`.
        planted(F, 'handoff/outcome', 'error', `${GEO}/2026-04-12_16-20_geocoder-v2.yaml`, 'outcome: PARTIAL_MINUS'),
        // `status: complete` in the frontmatter, `**Status:** BLOCKED` in the body.
        planted(F, 'handoff/outcome', 'error', `${GEO}/task-01-index-build.md`, '**Status:** BLOCKED'),
        // A real YAML syntax error (an unclosed `[`), after an explicit `? ` key: yaml's message at the error's line.
        planted(F, 'handoff/schema', 'error', `${GEO}/2026-04-13_09-00_geocoder-v2.yaml`, '  - [Write the runbook'),
      ]),
    );
    // `Phase 2A` follows Phase 1; Phase 4 skips 3. Round 7: a gap in the phases is a note in recommended (every number
    // still names one phase, in order; on the real corpus both judges called such gaps noise), an error in strict.
    // (`lintFixture` keeps errors and warnings: the note is not among them.)
    expect(lintFixture(F).filter((f) => f.ruleId === 'plan/task-numbering')).toEqual([]);
    expect(lintFixture(F, 'strict').filter((f) => f.ruleId === 'plan/task-numbering')).toContainEqual(
      planted(F, 'plan/task-numbering', 'error', GEOPLAN, '## Phase 4: Cut-over'),
    );
    const warnings = lintFixture(F).filter((f) => f.severity === 'warning' && f.ruleId !== 'ledger/state');
    // Phase 4's criteria are one undivided `### Success Criteria:` list: one finding for the plan. Round 14: a note
    // in recommended (the phase has verification, only its kind is unsaid; maintainers called the warning noise on
    // every public repository it met), an error in strict, still found in both.
    expect(warnings).toEqual([]);
    const unsplit = lint(repoOf(F)).filter((f) => f.ruleId === 'plan/phase-automated-criteria');
    expect(unsplit.map((f) => [f.messageId, f.severity, f.file, f.line])).toEqual([
      ['unsplit', 'info', GEOPLAN, lineIn(F, GEOPLAN, '### Success Criteria:')],
    ]);
    expect(lintFixture(F, 'strict')).toContainEqual(
      planted(F, 'plan/phase-automated-criteria', 'error', GEOPLAN, '### Success Criteria:'),
    );
  });

  // Round 9: one warning at the first repeat, listing every repeat (convention section 6: a repeated ledger key is one
  // finding listing its lines); this test asked for one per repeat before.
  it('field-notes-planted: `- Done:` repeated in one State section is one warning at the first repeat', () => {
    // Needs RawFinding.warn (a finding at most a warning whatever the rule's severity) in the engine.
    const repeats = lintFixture(F).filter(
      (f) =>
        f.ruleId === 'ledger/state' &&
        f.file === `${L}/CONTINUITY_CLAUDE-route-cache.md` &&
        f.line !== lineIn(F, `${L}/CONTINUITY_CLAUDE-route-cache.md`, '  - [ ] Phase 7: Load test'),
    );
    const lines = readFileSync(join(ROOT, F, `${L}/CONTINUITY_CLAUDE-route-cache.md`), 'utf8').split('\n');
    const done = lines.flatMap((l, i) => (l === '- Done:' ? [i + 1] : []));
    expect(done.length).toBeGreaterThan(2);
    expect(repeats).toEqual([
      { ruleId: 'ledger/state', severity: 'warning', file: `${L}/CONTINUITY_CLAUDE-route-cache.md`, line: done[1] },
    ]);
  });

  it('field-notes-planted: an inferred link is said once per session, as an info', () => {
    const infos = lint(repoOf(F)).filter((f) => f.severity === 'info' && f.messageId === 'inferred');
    expect(infos.map((f) => f.message)).toEqual([
      'Session "route-cache" names no plan; its files were linked to thoughts/shared/plans/2026-04-10-route-cache.md because the session mentions its file name or title.',
    ]);
  });

  it('strict still asks the flat HumanLayer handoff for a session folder', () => {
    expect(lintFixture('field-notes', 'strict').filter((f) => f.ruleId === 'layout/paths')).toEqual([
      {
        ruleId: 'layout/paths',
        severity: 'error',
        file: 'thoughts/shared/handoffs/2026-03-04_18-40-12_tile-cache-warmup.md',
        line: 1,
      },
    ]);
  });
});
