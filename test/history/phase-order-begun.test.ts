// history/phase-order on real histories, issue 19 (precision on real repositories): in `recommended` a phase whose
// verification never began (not one automated item checked) holds the next phase, an error; a phase whose
// verification began and left boxes open (one stale box among ticked ones) is a note, since maintainers read those
// boxes as left open, not as checks skipped. `strict` keeps the seed's letter: any open automated or manual box.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { ANA, CLAUDE, Repo, cliHere, door, historyFindings, lineOf, md, messageFile, type Who } from './helpers.js';

const PLAN = 'thoughts/shared/plans/2026-10-02-ledger-export.md';
const OTHER = 'thoughts/shared/plans/2026-10-05-receipt-mail.md';
const RULE = 'history/phase-order';

interface PhaseText {
  title: string;
  task: string;
  automated: string[];
  manual: string;
}

const EXPORT: PhaseText[] = [
  {
    title: 'Storage',
    task: 'Add the exports table',
    automated: [
      'Migration runs: `npm run migrate`',
      'Types check: `npm run typecheck`',
      'Query client regenerated: `npm run gen:client`',
    ],
    manual: 'The exports table shows in the admin view',
  },
  {
    title: 'Export job',
    task: 'Queue the nightly export',
    automated: ['Job tests pass: `npm test -- export-job`', 'Worker bundle builds: `npm run build:worker`'],
    manual: 'A nightly run leaves a file in the bucket',
  },
  {
    title: 'Download page',
    task: 'Serve the export file',
    automated: ['Page tests pass: `npm test -- download`'],
    manual: 'The file downloads from the browser',
  },
];

const MAIL: PhaseText[] = [
  {
    title: 'Templates',
    task: 'Write the receipt template',
    automated: ['Template snapshots match: `npm test -- receipt`', 'Spelling check passes: `npm run spell`'],
    manual: 'The receipt reads well in a mail client',
  },
  {
    title: 'Sending',
    task: 'Send the receipt after payment',
    automated: ['Mailer tests pass: `npm test -- mailer`'],
    manual: 'A test payment sends one receipt',
  },
];

/** Each phase's state: its task checked or not, and which of its automated items (by index) are checked. */
interface PhaseState {
  task?: boolean;
  auto?: number[];
}

/** A plan of these phases in the canonical format, one task per phase (direct mode: no handoffs needed). */
function render(title: string, phases: PhaseText[], state: PhaseState[] = []): string {
  const lines = [`# ${title} Implementation Plan`, '', '## Overview', '', `What the ${title.toLowerCase()} needs.`, ''];
  const box = (on: boolean | undefined) => (on ? '[x]' : '[ ]');
  phases.forEach((p, i) => {
    const s = state[i] ?? {};
    lines.push(`## Phase ${i + 1}: ${p.title}`, '', `- ${box(s.task)} Task ${i + 1}: ${p.task}`, '');
    lines.push('### Success Criteria:', '', '#### Automated Verification:', '');
    p.automated.forEach((a, k) => lines.push(`- ${box(s.auto?.includes(k))} ${a}`));
    lines.push('', '#### Manual Verification:', '', `- [ ] ${p.manual}`, '');
  });
  return md(...lines);
}

const exportPlan = (...state: PhaseState[]) => render('Ledger export', EXPORT, state);
const mailPlan = (...state: PhaseState[]) => render('Receipt mail', MAIL, state);

/** Ana writes the plans; the agent's commits follow. */
function planned(files: Record<string, string> = { [PLAN]: exportPlan() }): Repo {
  const repo = Repo.create();
  repo.commit('Plan the ledger export', files, { author: ANA });
  return repo;
}

function agent(repo: Repo, subject: string, files: Record<string, string>, author: Who = CLAUDE): string {
  return repo.commit(subject, files, { author });
}

const summary = (list: Finding[]) => list.map((f) => [f.file, f.severity, f.messageId, f.commit ?? null, f.line]);

describe('history/phase-order in recommended: a verification that never began, or boxes left open (issue 19)', () => {
  it('the same commit starts phase 2 of two plans: where phase 1 never began an error, where it began a note', async () => {
    const repo = planned({ [PLAN]: exportPlan(), [OTHER]: mailPlan() });
    // The export plan's phase 1 is implemented and not one of its checks ticked; the mail plan's phase 1 has its
    // template check ticked and its spelling check left open.
    agent(repo, 'Storage and templates', {
      [PLAN]: exportPlan({ task: true }),
      [OTHER]: mailPlan({ task: true, auto: [0] }),
    });
    const exportNext = exportPlan({ task: true }, { task: true });
    const mailNext = mailPlan({ task: true, auto: [0] }, { task: true });
    const start = agent(repo, 'Export job and sending', { [PLAN]: exportNext, [OTHER]: mailNext });
    const recommended = await historyFindings(repo.dir, RULE, 'recommended');
    expect(summary(recommended)).toEqual([
      [PLAN, 'error', 'startedEarly', start, lineOf(exportNext, 'Task 2:')],
      [OTHER, 'info', 'leftOpen', start, lineOf(mailNext, 'Task 2:')],
    ]);
    // strict: the seed's letter, any open criterion holds the next phase.
    const strict = await historyFindings(repo.dir, RULE, 'strict');
    expect(summary(strict)).toEqual([
      [PLAN, 'error', 'startedEarly', start, lineOf(exportNext, 'Task 2:')],
      [OTHER, 'error', 'startedEarly', start, lineOf(mailNext, 'Task 2:')],
    ]);
  });

  it('phase 1 begun with one automated box open: a note in recommended naming the box, an error in strict', async () => {
    const repo = planned();
    // Migration and types ticked; the generated client's box stays open (a stale box, as maintainers read it).
    agent(repo, 'Storage', { [PLAN]: exportPlan({ task: true, auto: [0, 1] }) });
    const text = exportPlan({ task: true, auto: [0, 1] }, { task: true });
    const start = agent(repo, 'Export job', { [PLAN]: text });
    const [note, ...rest] = await historyFindings(repo.dir, RULE, 'recommended');
    expect(rest).toEqual([]);
    expect(note).toMatchObject({
      severity: 'info',
      messageId: 'leftOpen',
      commit: start,
      file: PLAN,
      line: lineOf(text, 'Task 2:'),
      message: `First check-off in Phase 2 (Export job) comes before Phase 1 (Storage) was verified (that needs its automated items checked or N/A): 1 automated item still open, first "Query client regenerated: npm run gen:client" at line ${lineOf(text, 'Query client regenerated')}; its verification had begun, so \`recommended\` reads the open boxes as left open, not skipped.`,
    });
    // A commit already made: the boxes may have been checked since, so the fix says "if they are still open".
    expect(note!.fix).toMatch(
      /^The order of a commit already made cannot change: check the open boxes of Phase 1 \(Storage\) once they pass if they are still open, or say on the line why/,
    );
    const strict = await historyFindings(repo.dir, RULE, 'strict');
    expect(summary(strict)).toEqual([[PLAN, 'error', 'startedEarly', start, lineOf(text, 'Task 2:')]]);
  });

  it('one commit checks items of phase 1 and phase 2 and leaves a phase 1 automated box open: a note', async () => {
    const repo = planned();
    // The agent implements both phases in one go; of phase 1's checks it ticks two, the third stays open.
    const text = exportPlan({ task: true, auto: [0, 2] }, { task: true, auto: [0] });
    const both = agent(repo, 'Storage and export job', { [PLAN]: text });
    const found = await historyFindings(repo.dir, RULE, 'recommended');
    // The finding stands at the phase's first check-off event, as the error always has (the automated item here).
    const at = lineOf(text, 'Job tests pass');
    expect(summary(found)).toEqual([[PLAN, 'info', 'leftOpen', both, at]]);
    expect(found[0]!.message).toContain('1 automated item still open, first "Types check: npm run typecheck"');
    expect(summary(await historyFindings(repo.dir, RULE, 'strict'))).toEqual([
      [PLAN, 'error', 'startedEarly', both, at],
    ]);
  });

  it('an untouched phase decides over a begun one, wherever the two stand: the error names the untouched phase', async () => {
    // The plan enters git with phases 1 and 2 under way (a plan that arrives progressed is the snapshot rules'), so
    // the one commit judged is the one that starts phase 3.
    const untouchedFirst = planned({ [PLAN]: exportPlan({ task: true }, { task: true, auto: [0] }) });
    const text1 = exportPlan({ task: true }, { task: true, auto: [0] }, { task: true });
    const start1 = agent(untouchedFirst, 'Download page', { [PLAN]: text1 });
    const found1 = await historyFindings(untouchedFirst.dir, RULE, 'recommended');
    expect(summary(found1)).toEqual([[PLAN, 'error', 'startedEarly', start1, lineOf(text1, 'Task 3:')]]);
    expect(found1[0]!.message).toBe(
      'First check-off in Phase 3 (Download page) comes before Phase 1 (Storage) was verified (that needs its automated items checked or N/A).',
    );
    // The other way round: phase 1 begun and left open, phase 2's verification never began.
    const untouchedSecond = planned({ [PLAN]: exportPlan({ task: true, auto: [0, 1] }, { task: true }) });
    const text2 = exportPlan({ task: true, auto: [0, 1] }, { task: true }, { task: true });
    const start2 = agent(untouchedSecond, 'Download page', { [PLAN]: text2 });
    const found2 = await historyFindings(untouchedSecond.dir, RULE, 'recommended');
    expect(summary(found2)).toEqual([[PLAN, 'error', 'startedEarly', start2, lineOf(text2, 'Task 3:')]]);
    expect(found2[0]!.message).toBe(
      'First check-off in Phase 3 (Download page) comes before Phase 2 (Export job) was verified (that needs its automated items checked or N/A).',
    );
  });

  it('N/A items and declared deviations are no beginning: only a ticked automated box shows the checks ran', async () => {
    const phases: PhaseText[] = [
      {
        ...EXPORT[0]!,
        automated: [
          'N/A: no search index in this service',
          'Load test holds 50 exports a minute (deferred to Phase 3)',
          'Types check: `npm run typecheck`',
          'Query client regenerated: `npm run gen:client`',
        ],
      },
      EXPORT[1]!,
    ];
    const judged = async (phase1: PhaseState) => {
      const repo = planned({ [PLAN]: render('Ledger export', phases) });
      agent(repo, 'Storage', { [PLAN]: render('Ledger export', phases, [phase1]) });
      agent(repo, 'Export job', { [PLAN]: render('Ledger export', phases, [phase1, { task: true }]) });
      return (await historyFindings(repo.dir, RULE, 'recommended')).map((f) => [f.severity, f.messageId, f.message]);
    };
    expect(await judged({ task: true })).toEqual([['error', 'startedEarly', expect.any(String)]]);
    // Open, of the four: the generated client only (the N/A item and the deferred one are no open boxes either).
    expect(await judged({ task: true, auto: [2] })).toEqual([
      ['info', 'leftOpen', expect.stringContaining('1 automated item still open, first "Query client regenerated')],
    ]);
  });

  it('one commit starting two phases is one finding per plan, and an untouched phase among them makes it the error', async () => {
    const judged = async (phase2: PhaseState) => {
      const repo = planned();
      agent(repo, 'Storage', { [PLAN]: exportPlan({ task: true, auto: [0, 1] }) });
      const text = exportPlan({ task: true, auto: [0, 1] }, phase2, { task: true });
      const commit = agent(repo, 'Export job and download page', { [PLAN]: text });
      const found = await historyFindings(repo.dir, RULE, 'recommended');
      expect(found.map((f) => f.commit)).toEqual([commit]);
      return found.map((f) => [f.severity, f.messageId, f.message]);
    };
    // Phase 2 begun in the same commit, phase 1 begun before: both starts are notes, one finding naming both.
    expect(await judged({ task: true, auto: [0] })).toEqual([
      [
        'info',
        'leftOpenMany',
        expect.stringMatching(
          /^First check-offs in Phase 2 \(Export job\), Phase 3 \(Download page\) come before Phase 1 \(Storage\) was verified \(that needs its automated items checked or N\/A; first at line \d+\): 1 automated item still open, /,
        ),
      ],
    ]);
    // Phase 2 implemented without one check: phase 3's start is the error, and phase 2's note is part of it.
    expect(await judged({ task: true })).toEqual([
      [
        'error',
        'startedEarly',
        'First check-off in Phase 3 (Download page) comes before Phase 2 (Export job) was verified (that needs its automated items checked or N/A).',
      ],
    ]);
  });
});

describe('one cause, one finding, at every door (issue 19)', () => {
  /** Phase 1 begun (migration and types ticked, the client box open), then the agent starts phase 2. */
  function leftOpen(): { repo: Repo; base: string; text: string } {
    const repo = planned();
    const base = agent(repo, 'Storage', { [PLAN]: exportPlan({ task: true, auto: [0, 1] }) });
    return { repo, base, text: exportPlan({ task: true, auto: [0, 1] }, { task: true }) };
  }
  const order = (list: Finding[]) =>
    list.filter((f) => f.ruleId.endsWith('/phase-order')).map((f) => [f.ruleId, f.severity, f.commit ?? null]);

  it("a full run: the history's note names the commit, and plan/phase-order's note at HEAD gives way to it", async () => {
    const { repo, text } = leftOpen();
    const start = agent(repo, 'Export job', { [PLAN]: text });
    expect(order((await cliHere(repo.dir, ['--since', 'root'])).results)).toEqual([[RULE, 'info', start]]);
    // strict: the snapshot's error reports the cause while the plan shows it, as before.
    expect(order((await cliHere(repo.dir, ['--since', 'root', '--preset', 'strict'])).results)).toEqual([
      ['plan/phase-order', 'error', null],
    ]);
  });

  it('phase 1 left open while phases 2 and 3 go ahead, commit after commit: one note, at the first', async () => {
    const { repo, text } = leftOpen();
    const start = agent(repo, 'Export job', { [PLAN]: text });
    agent(repo, 'Export job checks', {
      [PLAN]: exportPlan({ task: true, auto: [0, 1] }, { task: true, auto: [0, 1] }),
    });
    const later = exportPlan({ task: true, auto: [0, 1] }, { task: true, auto: [0, 1] }, { task: true });
    agent(repo, 'Download page', { [PLAN]: later });
    expect(order((await cliHere(repo.dir, ['--since', 'root'])).results)).toEqual([[RULE, 'info', start]]);
  });

  // The staged doors judge the transition as history does (one engine: a hook that refused what CI then reads as
  // boxes left open would judge the same commit twice over). What stops the agent at the hook is the state its change
  // brings about, plan/phase-order's error where a change is judged: at a hook the open box can still be ticked or
  // its reason written, which history can no longer ask of a commit already made.
  it('at the hooks the change that leaves the box open is refused once, by plan/phase-order', async () => {
    const { repo, text } = leftOpen();
    repo.stage({ [PLAN]: text });
    const staged = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(staged.code).toBe(1);
    expect(order(staged.results)).toEqual([['plan/phase-order', 'error', null]]);
    const msg = await door(repo.dir, ['commit-msg', messageFile('Export job')], repo.env(CLAUDE));
    expect(msg.code).toBe(1);
    expect(order(msg.results)).toEqual([['plan/phase-order', 'error', null]]);
    // With plan/phase-order silenced for this plan by its human, the transition alone speaks: a note, as in history.
    const tail = '\n<!-- validate-workflow-disable plan/phase-order -- the export plan is judged by hand -->\n';
    repo.git('reset', '-q', '--hard');
    repo.commit('Judge the export plan by hand', { [PLAN]: `${exportPlan({ task: true, auto: [0, 1] })}${tail}` });
    repo.stage({ [PLAN]: `${text}${tail}` });
    const quiet = await door(repo.dir, ['--staged'], repo.env(CLAUDE));
    expect(quiet.code).toBe(0);
    expect(order(quiet.results)).toEqual([[RULE, 'info', null]]);
    // Before the commit exists the boxes are open for sure: the fix says so plainly (history's says "if still open").
    expect(quiet.results.find((f) => f.ruleId === RULE)!.fix).toMatch(/^Check the open boxes of Phase 1 \(Storage\)/);
  });

  it('a pull request that leaves the box open: an error of the change (plan/phase-order), one finding', async () => {
    const { repo, base, text } = leftOpen();
    agent(repo, 'Export job', { [PLAN]: text });
    expect(order((await cliHere(repo.dir, ['--range', `${base}..HEAD`])).results)).toEqual([
      ['plan/phase-order', 'error', null],
    ]);
  });
});
