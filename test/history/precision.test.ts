// Precision on real histories (issue 10): findings a maintainer would agree with. Housekeeping is not a violation
// (deleting or archiving finished plans), items keep their identity when a phase is inserted, and one cause is one
// finding (an agent that drops five open manual items gets one finding naming the five, not five). Real git
// repositories, because what is judged here is what git reports: deletions, renames out of the plans folder, and
// the commit-by-commit fold.
import { describe, expect, it } from 'vitest';
import { ANA, BOB, CLAUDE, Repo, historyFindings, historyOnly, judge, lineOf, md, type Who } from './helpers.js';

const PLANS = 'thoughts/shared/plans';

interface PhaseSpec {
  title: string;
  tasks: string[];
  automated: string[];
  manual: string[];
}

interface PlanSpec {
  title: string;
  phases: PhaseSpec[];
}

/** A plan in the canonical format; `done` phases have every box checked, `partly` only tasks and automated items. */
function render(spec: PlanSpec, done = 0, partly = 0): string {
  const lines: string[] = [
    `# ${spec.title} Implementation Plan`,
    '',
    '## Overview',
    '',
    `What ${spec.title.toLowerCase()} changes and why.`,
    '',
  ];
  let task = 0;
  spec.phases.forEach((p, i) => {
    const all = i < done;
    const work = all || i < done + partly;
    const box = (on: boolean) => (on ? '[x]' : '[ ]');
    lines.push(`## Phase ${i + 1}: ${p.title}`, '');
    for (const t of p.tasks) lines.push(`- ${box(work)} Task ${++task}: ${t}`);
    lines.push(
      '',
      '### Success Criteria:',
      '',
      '#### Automated Verification:',
      '',
      ...p.automated.map((a) => `- ${box(work)} ${a}`),
      '',
    );
    lines.push('#### Manual Verification:', '', ...p.manual.map((m) => `- ${box(all)} ${m}`), '');
  });
  return md(...lines);
}

const CSV: PlanSpec = {
  title: 'CSV export',
  phases: [
    {
      title: 'Query layer',
      tasks: ['Stream rows from the reports query'],
      automated: ['Unit tests pass: `npm test -- export`'],
      manual: ['A 50k-row export finishes in under a minute'],
    },
    {
      title: 'Download endpoint',
      tasks: ['Add GET /reports/:id/export.csv'],
      automated: ['API tests pass: `npm test -- api`'],
      manual: ['The file opens in Excel with accents intact'],
    },
  ],
};
const WEBHOOKS: PlanSpec = {
  title: 'Webhook retries',
  phases: [
    {
      title: 'Retry queue',
      tasks: ['Persist failed deliveries'],
      automated: ['Queue tests pass: `npm test -- queue`'],
      manual: ['A failed delivery shows up in the admin list'],
    },
    {
      title: 'Backoff',
      tasks: ['Exponential backoff with jitter'],
      automated: ['Backoff tests pass: `npm test -- backoff`'],
      manual: ['A receiver that is down for ten minutes gets the event afterwards'],
    },
  ],
};
const DARK: PlanSpec = {
  title: 'Dark mode',
  phases: [
    {
      title: 'Tokens',
      tasks: ['Move colours to CSS variables'],
      automated: ['Style lint passes: `npm run lint:css`'],
      manual: ['No hard-coded colour remains on the settings page'],
    },
    {
      title: 'Toggle',
      tasks: ['Add the theme switch to the header'],
      automated: ['Component tests pass: `npm test -- theme`'],
      manual: ['The choice survives a reload'],
    },
  ],
};

/** Each phase of the plan the way the convention wants it: the agent works, the human confirms the manual items. */
function carryOut(repo: Repo, path: string, spec: PlanSpec, phases = spec.phases.length, agent: Who = CLAUDE): void {
  spec.phases.slice(0, phases).forEach((_, i) => {
    repo.commit(`${spec.title}: phase ${i + 1}`, { [path]: render(spec, i, 1) }, { author: agent });
    repo.commit(
      `Confirm ${spec.title} phase ${i + 1}`,
      { [path]: render(spec, i + 1) },
      { author: ANA, confirmedBy: [ANA] },
    );
  });
}

function finishedPlans(): { repo: Repo; paths: string[] } {
  const repo = Repo.create();
  const plans: [string, PlanSpec][] = [
    [`${PLANS}/2026-10-02-csv-export.md`, CSV],
    [`${PLANS}/2026-10-09-webhook-retries.md`, WEBHOOKS],
    [`${PLANS}/2026-10-15-dark-mode.md`, DARK],
  ];
  repo.commit('Plan the autumn work', Object.fromEntries(plans.map(([p, s]) => [p, render(s)])), { author: ANA });
  for (const [path, spec] of plans) carryOut(repo, path, spec);
  return { repo, paths: plans.map(([p]) => p) };
}

describe('housekeeping is not a violation', () => {
  it('an agent deleting every finished plan in one commit: no finding', async () => {
    const { repo, paths } = finishedPlans();
    expect(historyOnly((await judge(repo.dir)).findings)).toEqual([]);
    repo.commit('Remove completed plan files', {}, { author: CLAUDE, remove: paths });
    expect(historyOnly((await judge(repo.dir)).findings)).toEqual([]);
    expect(historyOnly((await judge(repo.dir, { preset: 'strict' })).findings)).toEqual([]);
  });

  it('an agent archiving finished plans out of the plans folder: no finding', async () => {
    const { repo, paths } = finishedPlans();
    repo.commit(
      'Archive shipped plans',
      {},
      { author: CLAUDE, rename: paths.map((p): [string, string] => [p, p.replace(PLANS, 'docs/archive/plans')]) },
    );
    expect(historyOnly((await judge(repo.dir)).findings)).toEqual([]);
  });
});

describe('items keep their identity', () => {
  const SEARCH: PlanSpec = {
    title: 'Search',
    phases: [
      {
        title: 'Index',
        tasks: ['Build the inverted index'],
        automated: ['Tests pass: `npm test`'],
        manual: ['Search returns the seeded documents'],
      },
      {
        title: 'Ranking',
        tasks: ['Score results by BM25'],
        automated: ['Tests pass: `npm test`'],
        manual: ['Top result for "refund" is the refund policy', 'Ranking feels right on ten sample queries'],
      },
    ],
  };
  const WITH_TYPOS: PlanSpec = {
    ...SEARCH,
    phases: [
      SEARCH.phases[0]!,
      {
        title: 'Typo tolerance',
        tasks: ['Match within edit distance 1'],
        automated: ['Tests pass: `npm test`'],
        manual: ['N/A: covered by the automated fuzz corpus'],
      },
      SEARCH.phases[1]!,
    ],
  };
  const PATH = `${PLANS}/2026-11-03-search.md`;

  it('an agent inserting a phase before phase 2: no self-exemption (nothing deleted, nothing made N/A)', async () => {
    const repo = Repo.create();
    repo.commit('Plan search', { [PATH]: render(SEARCH) }, { author: ANA });
    repo.commit('Search: phase 1', { [PATH]: render(SEARCH, 0, 1) }, { author: CLAUDE });
    repo.commit('Confirm search phase 1', { [PATH]: render(SEARCH, 1) }, { author: ANA, confirmedBy: [ANA] });
    repo.commit('Plan: typo tolerance before ranking', { [PATH]: render(WITH_TYPOS, 1) }, { author: CLAUDE });
    expect(historyOnly((await judge(repo.dir)).findings)).toEqual([]);
  });

  it('a phase inserted before a phase already under way keeps its check-offs where they were', async () => {
    const repo = Repo.create();
    repo.commit('Plan search', { [PATH]: render(SEARCH) }, { author: ANA });
    repo.commit('Search: phase 1', { [PATH]: render(SEARCH, 0, 1) }, { author: CLAUDE });
    repo.commit('Confirm search phase 1', { [PATH]: render(SEARCH, 1) }, { author: ANA, confirmedBy: [ANA] });
    repo.commit('Search: phase 2', { [PATH]: render(SEARCH, 1, 1) }, { author: CLAUDE });
    // Phase 2's "Tests pass" is checked; the inserted phase's identical text is not: the checked one moved to phase 3.
    const inserted = render(WITH_TYPOS, 1)
      .replace('- [ ] Task 3: Score results by BM25', '- [x] Task 3: Score results by BM25')
      .replace(/(## Phase 3[\s\S]*?)- \[ \] Tests pass/, '$1- [x] Tests pass');
    repo.commit('Plan: typo tolerance before ranking', { [PATH]: inserted }, { author: CLAUDE });
    expect(historyOnly((await judge(repo.dir)).findings)).toEqual([]);
  });

  it('rewording: an item reworded where it stood is no check-off; one that swapped places with a checked one is', async () => {
    const repo = Repo.create();
    repo.commit('Plan search', { [PATH]: render(SEARCH) }, { author: ANA });
    repo.commit('Search: phase 1', { [PATH]: render(SEARCH, 0, 1) }, { author: CLAUDE });
    const confirmed = render(SEARCH, 1);
    repo.commit('Confirm search phase 1', { [PATH]: confirmed }, { author: ANA, confirmedBy: [ANA] });
    repo.commit('Search: phase 2', { [PATH]: render(SEARCH, 1, 1) }, { author: CLAUDE });
    const reworded = render(SEARCH, 1, 1).replace(
      'Ranking feels right on ten sample queries',
      'Ranking feels right on twenty sample queries',
    );
    repo.commit('Reword a ranking check', { [PATH]: reworded }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/manual-confirmation')).toEqual([]);
    // The agent rewrites both manual items of phase 2 and checks the second: a check-off without confirmation.
    const swapped = reworded
      .replace('- [ ] Top result for "refund" is the refund policy', '- [ ] "refund" finds the refund policy first')
      .replace('- [ ] Ranking feels right on twenty sample queries', '- [x] Twenty sample queries rank sensibly');
    const commit = repo.commit('Tidy ranking checks', { [PATH]: swapped }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/manual-confirmation');
    expect(found).toEqual([
      expect.objectContaining({ commit, messageId: 'unconfirmed', line: lineOf(swapped, 'Twenty sample queries') }),
    ]);
  });
});

describe('one finding per cause', () => {
  const ROLLOUT: PlanSpec = {
    title: 'Billing migration',
    phases: [
      {
        title: 'Dual write',
        tasks: ['Write invoices to both stores'],
        automated: ['Consistency job passes: `npm run check:billing`'],
        manual: ['Finance signs off the March reconciliation'],
      },
      {
        title: 'Cutover',
        tasks: ['Read invoices from the new store'],
        automated: ['Integration tests pass: `npm test -- billing`'],
        manual: [
          'Invoices render in the customer portal',
          'Totals match the finance export',
          'Refund e-mails arrive',
          'The PDF opens on a phone',
          'Support can find an invoice by number',
        ],
      },
    ],
  };
  const PATH = `${PLANS}/2026-11-12-billing-migration.md`;

  it('an agent commit that drops five open manual items: one finding naming the five', async () => {
    const repo = Repo.create();
    repo.commit('Plan the billing migration', { [PATH]: render(ROLLOUT) }, { author: ANA });
    carryOut(repo, PATH, ROLLOUT, 1);
    const dropped = render(ROLLOUT, 1).replace(
      /- \[ \] (Invoices render|Totals match|Refund e-mails|The PDF opens|Support can find).*\n/g,
      '',
    );
    const commit = repo.commit('Trim the cutover checklist', { [PATH]: dropped }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/self-exemption');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ commit, file: PATH, messageId: 'deletesItems', severity: 'error' });
    expect(found[0]!.message).toBe(
      `An agent's commit (Claude <noreply@anthropic.com>) deletes 5 manual verification items without a human's confirmation: "Invoices render in the customer portal", "Totals match the finance export", "Refund e-mails arrive", "The PDF opens on a phone", "Support can find an invoice by number" (first at line ${found[0]!.line}).`,
    );
    // Nothing else in history reports the same cause.
    expect(historyOnly((await judge(repo.dir)).findings).map((f) => f.ruleId)).toEqual(['history/self-exemption']);
  });

  it('an agent commit that checks five manual items: one finding naming the five', async () => {
    const repo = Repo.create();
    repo.commit('Plan the billing migration', { [PATH]: render(ROLLOUT) }, { author: ANA });
    carryOut(repo, PATH, ROLLOUT, 1);
    repo.commit('Billing: cutover', { [PATH]: render(ROLLOUT, 1, 1) }, { author: CLAUDE });
    const text = render(ROLLOUT, 2);
    const commit = repo.commit('Cutover verified', { [PATH]: text }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/manual-confirmation');
    expect(found).toEqual([
      expect.objectContaining({
        commit,
        messageId: 'unconfirmedMany',
        line: lineOf(text, 'Invoices render'),
        message: expect.stringMatching(/^5 manual items are checked without a human's confirmation/),
      }),
    ]);
    expect(found[0]!.fix).toContain(`npx validate-workflow confirm ${PATH} --phase 2`);
    expect(found[0]!.fix).not.toMatch(/in its own commit/);
  });
});

describe("a plan's end state written as a bare verification list (round 11)", () => {
  const PATH = `${PLANS}/2026-11-20-invoice-reminders.md`;
  /** The end state above the phases, the phase's own criteria split by kind (`manual` false: no manual section). */
  const reminders = (end: string, auto: string, man: string, manual = true) =>
    md(
      '# Invoice reminders Implementation Plan',
      '## Desired End State',
      'Customers with an overdue invoice get one reminder a week until they pay.',
      '### Verification',
      `- ${end} Overdue invoices are picked up by the nightly job`,
      `- ${end} A paid invoice gets no further reminder`,
      `- ${end} \`npm test -- reminders\` passes`,
      '## Phase 1: Nightly job',
      `- ${auto} Task 1: Select overdue invoices`,
      '### Success Criteria:',
      '#### Automated Verification:',
      `- ${auto} Job tests pass: \`npm test -- jobs\``,
      ...(manual ? ['#### Manual Verification:', `- ${man} A reminder email arrives in a real inbox`] : []),
    );

  it('an agent checking the end state with its work: no finding, since the phase names its own manual check', async () => {
    const repo = Repo.create();
    repo.commit('Plan invoice reminders', { [PATH]: reminders('[ ]', '[ ]', '[ ]') }, { author: ANA });
    repo.commit('Nightly reminder job', { [PATH]: reminders('[x]', '[x]', '[ ]') }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/manual-confirmation')).toEqual([]);
  });

  it("the same agent checking the phase's manual item as well: still the gate's error, naming that item", async () => {
    const repo = Repo.create();
    repo.commit('Plan invoice reminders', { [PATH]: reminders('[ ]', '[ ]', '[ ]') }, { author: ANA });
    repo.commit('Nightly reminder job', { [PATH]: reminders('[x]', '[x]', '[x]') }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/manual-confirmation');
    expect(found.map((f) => [f.severity, f.line])).toEqual([
      ['error', lineOf(reminders('[x]', '[x]', '[x]'), 'A reminder email')],
    ]);
    expect(found[0]!.message).not.toMatch(/picked up by the nightly job|paid invoice/);
  });

  it("an agent adding the phase's manual check that turns the end state into outcomes: self-exemption, saying so", async () => {
    const repo = Repo.create();
    repo.commit('Plan invoice reminders', { [PATH]: reminders('[ ]', '[ ]', '', false) }, { author: ANA });
    repo.commit('Add a manual check', { [PATH]: reminders('[ ]', '[ ]', '[ ]') }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/self-exemption');
    expect(found.map((f) => f.severity)).toEqual(['error']);
    expect(found[0]!.message).toMatch(
      /makes 2 manual verification items no longer read as manual \(the items are still there/,
    );
    expect(found[0]!.message).toMatch(/picked up by the nightly job/);
  });

  it("a plan whose phases name no manual check keeps the safe side: the end state is a human's", async () => {
    const repo = Repo.create();
    repo.commit('Plan invoice reminders', { [PATH]: reminders('[ ]', '[ ]', '', false) }, { author: ANA });
    repo.commit('Nightly reminder job', { [PATH]: reminders('[x]', '[x]', '', false) }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/manual-confirmation');
    expect(found.map((f) => f.severity)).toEqual(['error']);
    expect(found[0]!.message).toMatch(/picked up by the nightly job/);
  });
});

// Round 13 (corpus): a plan without phases holds its end state and its criteria in one implicit phase. When it names
// its manual checks itself (`Manual:` items), the bare end-state list states outcomes, as in a plan with phases.
describe("a phaseless plan's end state written as a bare verification list (round 13)", () => {
  const PATH = `${PLANS}/2026-11-21-archive-export.md`;
  const archive = (end: string, man: string, named = true) =>
    md(
      '# Archive export Implementation Plan',
      '## Desired End State',
      '### Verification',
      `- ${end} An export of a closed project lists every file it held`,
      `- ${end} An empty project exports an empty archive`,
      '## Changes Required',
      '### 1. Export command',
      'Write the archive in one pass.',
      '### Success Criteria',
      `- ${end} Automated: \`npm test -- export\` passes`,
      named ? `- ${man} Manual: the archive opens in the desktop unzip tool` : `- ${man} The archive opens on a laptop`,
    );

  it('an agent checking the end state with its work: no finding, since the plan names its own manual check', async () => {
    const repo = Repo.create();
    repo.commit('Plan the export', { [PATH]: archive('[ ]', '[ ]') }, { author: ANA });
    repo.commit('Export command', { [PATH]: archive('[x]', '[ ]') }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/manual-confirmation')).toEqual([]);
  });

  it("the same agent checking the plan's manual item as well: the gate's error, naming only that item", async () => {
    const repo = Repo.create();
    repo.commit('Plan the export', { [PATH]: archive('[ ]', '[ ]') }, { author: ANA });
    repo.commit('Export command', { [PATH]: archive('[x]', '[x]') }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/manual-confirmation');
    expect(found.map((f) => [f.severity, f.line])).toEqual([
      ['error', lineOf(archive('[x]', '[x]'), 'Manual: the archive opens')],
    ]);
    expect(found[0]!.message).not.toMatch(/closed project|empty archive/);
  });

  it("a phaseless plan that names no manual check keeps the safe side: the end state is a human's", async () => {
    const repo = Repo.create();
    repo.commit('Plan the export', { [PATH]: archive('[ ]', '[ ]', false) }, { author: ANA });
    repo.commit('Export command', { [PATH]: archive('[x]', '[ ]', false) }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/manual-confirmation');
    expect(found.map((f) => f.severity)).toEqual(['error']);
    expect(found[0]!.message).toMatch(/closed project/);
  });
});

// A phaseless plan's `##` section runs on over every `###` below it, so only a title that names the end state makes a
// bare verification list outcomes, and only the list right under it: an `## Overview` whose `### Verification` holds
// the plan's human check, or an end state with another heading or a task before its list, keeps the safe side.
describe("a phaseless plan's verification list that is not its end state (round 13)", () => {
  const PATH = `${PLANS}/2026-11-22-report-export.md`;
  const plan = (above: string[], end: string) =>
    md(
      '# Report export Implementation Plan',
      ...above,
      '### Verification',
      `- ${end} The exported report opens with every chart in place`,
      '## Changes Required',
      '### 1. Export command',
      'Write the report in one pass.',
      '### Success Criteria',
      `- ${end} Automated: \`npm test -- report\` passes`,
      '- [ ] Manual: the report prints on one page per chart',
    );

  it.each([
    ['under `## Overview`', ['## Overview', 'Export reports as PDF.']],
    ['under `## Goals`', ['## Goals']],
    ['under an end state, another heading between', ['## Desired End State', '### Notes', 'Charts stay vector.']],
    ['under an end state, a task between', ['## Desired End State', '- [ ] Task 1: Add the export button']],
  ])("%s: the agent's tick of the human check is the gate's error", async (_, above) => {
    const repo = Repo.create();
    repo.commit('Plan the export', { [PATH]: plan(above, '[ ]') }, { author: ANA });
    repo.commit('Export command', { [PATH]: plan(above, '[x]') }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/manual-confirmation');
    expect(found.map((f) => f.severity)).toEqual(['error']);
    expect(found[0]!.message).toMatch(/every chart in place/);
  });

  it('right under `## Target End State`: outcomes, as the plan names its own manual check', async () => {
    const above = ['## Target End State'];
    const repo = Repo.create();
    repo.commit('Plan the export', { [PATH]: plan(above, '[ ]') }, { author: ANA });
    repo.commit('Export command', { [PATH]: plan(above, '[x]') }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/manual-confirmation')).toEqual([]);
  });
});

// The reading above must not become a way around the gate: an agent that adds the plan's own `Manual:` item turns the
// end state's human checks into outcomes, which is loosening, as it is in a plan with phases.
describe("an agent adding the Manual: item that turns a phaseless plan's end state into outcomes (round 13)", () => {
  const PATH = `${PLANS}/2026-11-23-photo-import.md`;
  const photos = (manual: boolean) =>
    md(
      '# Photo import Implementation Plan',
      '## Desired End State',
      '### Verification',
      '- [ ] A folder of holiday photos imports in date order',
      '- [ ] Duplicates are skipped with a note',
      '## Changes Required',
      '### 1. Import command',
      'Read the folder once.',
      '### Success Criteria',
      '- [ ] Automated: `npm test -- import` passes',
      ...(manual ? ['- [ ] Manual: the import dialog shows a progress bar'] : []),
    );

  it('is self-exemption, naming the end-state items that stopped being manual', async () => {
    const repo = Repo.create();
    repo.commit('Plan the import', { [PATH]: photos(false) }, { author: ANA });
    repo.commit('Add a manual check', { [PATH]: photos(true) }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/self-exemption');
    expect(found.map((f) => f.severity)).toEqual(['error']);
    expect(found[0]!.message).toMatch(/holiday photos/);
    expect(found[0]!.message).toMatch(/Duplicates are skipped/);
  });

  it("is the human's to make", async () => {
    const repo = Repo.create();
    repo.commit('Plan the import', { [PATH]: photos(false) }, { author: ANA });
    repo.commit('Add a manual check', { [PATH]: photos(true) }, { author: BOB });
    expect(await historyFindings(repo.dir, 'history/self-exemption')).toEqual([]);
  });
});

// Round 13 (corpus): an agent that moves a command from the automated list into the manual one, while adding another
// automated check, makes a human's check of it: that binds the agent more, so it is no self-exemption.
describe('an agent moving an automated item into the manual list (round 13)', () => {
  const PATH = `${PLANS}/2026-11-24-backup-restore.md`;
  const backup = (moved: boolean) =>
    md(
      '# Backup restore Implementation Plan',
      '## Phase 1: Restore command',
      '- [ ] Task 1: Restore a backup into an empty database',
      '### Success Criteria:',
      '#### Automated Verification:',
      moved ? '- [ ] Lint passes: `npm run lint`' : '- [ ] Run `npm test -- restore`',
      '#### Manual Verification:',
      ...(moved ? ['- [ ] Run `npm test -- restore`'] : []),
      '- [ ] A restored database opens in the admin panel',
    );

  it('is no self-exemption', async () => {
    const repo = Repo.create();
    repo.commit('Plan the restore', { [PATH]: backup(false) }, { author: ANA });
    repo.commit('Restore checks', { [PATH]: backup(true) }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, 'history/self-exemption')).toEqual([]);
  });

  it('the other way round, a manual item moved into the automated list, is', async () => {
    const repo = Repo.create();
    repo.commit('Plan the restore', { [PATH]: backup(true) }, { author: ANA });
    repo.commit('Restore checks', { [PATH]: backup(false) }, { author: CLAUDE });
    const found = await historyFindings(repo.dir, 'history/self-exemption');
    expect(found.map((f) => f.severity)).toEqual(['error']);
  });
});
