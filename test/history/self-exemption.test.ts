// history/self-exemption: an agent's commit may not loosen the rules that bind it (config, baseline, disable
// comments, `mode_set_by: user`, N/A markers, deleted verification items or criteria sections of a plan that stays)
// unless a human vouches for it with a valid `Confirmed-by`. One finding per commit and file. Each loosening is tried by the agent alone, by a human with the agent as
// co-author, with a valid and an invalid trailer, and by a human alone.
import { describe, expect, it } from 'vitest';
import {
  ANA,
  AUTO,
  BOB,
  CLAUDE,
  CONFIG,
  LEDGER,
  MANUAL,
  MANUAL2,
  PLAN,
  Repo,
  cliHere,
  expectOne,
  historyFindings,
  ledgerDoc,
  lineOf,
  planDoc,
  type CommitOpts,
  type PlanSpec,
} from './helpers.js';

const RULE = 'history/self-exemption';
const FM = ['mode: orchestration'];
const BASE: PlanSpec = { frontmatter: FM, secondManual: [1] };

interface Loosening {
  name: string;
  /** Files the loosening commit writes (and deletes). */
  files: () => Record<string, string>;
  remove?: string[];
  /** Where the finding must point, in the commit's version of the file. */
  at: () => { file: string; line: number };
  /** Files of the starting point besides the plan and the ledger. */
  before?: Record<string, string>;
}

const plan = (spec: PlanSpec) => planDoc({ ...BASE, ...spec });

/** A plan whose manual criteria are plain bullets; phase 2's written as `bullets`, as checkboxes or not at all. */
function plainCriteria(second: 'bullets' | 'boxes' | 'none' | 'na' | 'none-said'): string {
  const manual = {
    bullets: ['- A token refreshes after an hour asleep'],
    boxes: ['- [ ] A token refreshes after an hour asleep'],
    none: [],
    na: ['- N/A: the refresh happens out of sight'],
    'none-said': ['- None for this phase'],
  }[second];
  return [
    '---',
    ...FM,
    '---',
    '# Auth flow Implementation Plan',
    '',
    '## Phase 1: Tokens',
    '',
    '- [ ] Task 1: Issue tokens',
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    '- [ ] Token tests pass: `npm test -- tokens`',
    '',
    '#### Manual Verification:',
    '',
    '- Sign in on a phone, then on the laptop',
    '',
    '## Phase 2: Refresh',
    '',
    '- [ ] Task 2: Refresh tokens before they expire',
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    '- [ ] Refresh tests pass: `npm test -- refresh`',
    '',
    ...(manual.length > 0 ? ['#### Manual Verification:', '', ...manual, ''] : []),
  ].join('\n');
}

/** plainCriteria's plan with phase 2's task and automated item moved into phase 1 and phase 2 gone. */
function merged(): string {
  const text = plainCriteria('none');
  const phase2 = text.indexOf('## Phase 2: Refresh');
  return text
    .slice(0, phase2)
    .replace(
      '- [ ] Task 1: Issue tokens',
      '- [ ] Task 1: Issue tokens\n- [ ] Task 2: Refresh tokens before they expire',
    )
    .replace(
      '- [ ] Token tests pass: `npm test -- tokens`',
      '- [ ] Token tests pass: `npm test -- tokens`\n- [ ] Refresh tests pass: `npm test -- refresh`',
    );
}

const LOOSENINGS: Loosening[] = [
  {
    name: 'changes the config',
    before: { [CONFIG]: JSON.stringify({ rules: { 'plan/mode': 'error' } }, null, 2) },
    files: () => ({
      [CONFIG]: JSON.stringify({ preset: 'recommended', rules: { 'history/manual-confirmation': 'off' } }, null, 2),
    }),
    at: () => ({ file: CONFIG, line: 1 }),
  },
  {
    name: 'adds a config file',
    files: () => ({ [CONFIG]: JSON.stringify({ agents: [] }) }),
    at: () => ({ file: CONFIG, line: 1 }),
  },
  {
    name: 'changes the validateWorkflow key of package.json',
    before: {
      'package.json': JSON.stringify({ name: 'app', validateWorkflow: { rules: { 'plan/mode': 'error' } } }, null, 2),
    },
    files: () => ({
      'package.json': JSON.stringify({ name: 'app', validateWorkflow: { rules: { 'plan/mode': 'off' } } }, null, 2),
    }),
    at: () => ({ file: 'package.json', line: 1 }),
  },
  {
    name: 'changes the baseline',
    before: { 'validate-workflow.baseline.json': '{"findings": []}\n' },
    files: () => ({ 'validate-workflow.baseline.json': '{"findings": [{"ruleId": "history/manual-confirmation"}]}\n' }),
    at: () => ({ file: 'validate-workflow.baseline.json', line: 1 }),
  },
  {
    name: 'adds a disable comment',
    files: () => ({
      [PLAN]: plan({ tail: '<!-- validate-workflow-disable plan/manual-before-automated -- flaky -->' }),
    }),
    at: () => ({
      file: PLAN,
      line: lineOf(
        plan({ tail: '<!-- validate-workflow-disable plan/manual-before-automated -- flaky -->' }),
        'validate-workflow-disable',
      ),
    }),
  },
  {
    name: 'adds `mode_set_by: user`',
    // Only `mode_set_by` is added: changing `mode` as well is a second loosening (issue 12), tested in memory.
    files: () => ({ [PLAN]: plan({ frontmatter: [...FM, 'mode_set_by: user'] }) }),
    at: () => ({ file: PLAN, line: lineOf(plan({ frontmatter: [...FM, 'mode_set_by: user'] }), 'mode_set_by') }),
  },
  {
    name: 'turns a manual item into N/A',
    files: () => ({ [PLAN]: plan({ naManual: [1] }) }),
    at: () => ({ file: PLAN, line: lineOf(plan({ naManual: [1] }), `N/A: ${MANUAL(1)}`) }),
  },
  {
    name: 'deletes a manual verification item',
    files: () => ({ [PLAN]: plan({ secondManual: [] }) }),
    // The item is gone: the finding points at the nearest checkbox that survived, in the new version.
    at: () => ({ file: PLAN, line: lineOf(plan({ secondManual: [] }), MANUAL(1)) }),
  },
  {
    name: "deletes phase 2's manual criteria section",
    files: () => ({ [PLAN]: plan({ noManual: [2] }) }),
    at: () => ({ file: PLAN, line: lineOf(plan({ noManual: [2] }), AUTO(2)) }),
  },
  {
    // Plain bullets have no checkbox to delete one by one: the section itself is what goes (round 11).
    name: "deletes phase 2's manual criteria section of plain bullets",
    before: { [PLAN]: plainCriteria('bullets') },
    files: () => ({ [PLAN]: plainCriteria('none') }),
    at: () => ({ file: PLAN, line: lineOf(plainCriteria('none'), '## Phase 2: Refresh') }),
  },
  {
    name: 'merges phase 2 into phase 1, dropping its manual section of plain bullets',
    before: { [PLAN]: plainCriteria('bullets') },
    files: () => ({ [PLAN]: merged() }),
    at: () => ({ file: PLAN, line: lineOf(merged(), '# Auth flow') }),
  },
  {
    name: 'makes the plan unreadable as a phase sequence (a second Phase 1 heading)',
    // The order rules skip a plan read as unstructured: an agent could add the heading in the commit that starts
    // phase 2 early and so silence history/phase-order.
    files: () => ({ [PLAN]: plan({ tail: '## Phase 1: Notes on the first phase\n\nNothing yet.' }) }),
    at: () => ({
      file: PLAN,
      line: lineOf(plan({ tail: '## Phase 1: Notes on the first phase\n\nNothing yet.' }), '## Phase 1: Notes'),
    }),
  },
  // Deleting the whole plan is no longer here: it is housekeeping, not loosening (convention section 6; before
  // issue 10 it was one finding per plan). See 'what is not a loosening' below and test/history/precision.test.ts.
];

/** The starting repository of each loosening, committed once for the file; each test gets a copy of its own. */
const starts = new Map<string, Repo>();

function start(l: Loosening): Repo {
  let made = starts.get(l.name);
  if (made === undefined) {
    made = Repo.create();
    made.commit(
      'Plan the auth flow',
      { [PLAN]: plan({}), [LEDGER]: ledgerDoc(), ...(l.before ?? {}) },
      { author: ANA },
    );
    starts.set(l.name, made);
  }
  return made.copy();
}

const WHO: Record<string, { opts: CommitOpts; flagged: boolean }> = {
  'the agent alone': { opts: { author: CLAUDE }, flagged: true },
  'a human with the agent as co-author': { opts: { author: BOB, coAuthors: [CLAUDE] }, flagged: true },
  'the agent, naming a human who neither authored nor committed it': {
    opts: { author: CLAUDE, confirmedBy: [ANA] },
    flagged: true,
  },
  'the agent, naming itself': { opts: { author: CLAUDE, confirmedBy: [CLAUDE] }, flagged: true },
  "a human with the agent as co-author and the human's Confirmed-by": {
    opts: { author: BOB, coAuthors: [CLAUDE], confirmedBy: [BOB] },
    flagged: false,
  },
  "the agent as author, committed by a human with the human's Confirmed-by": {
    opts: { author: CLAUDE, committer: ANA, confirmedBy: [ANA] },
    flagged: false,
  },
  'a human alone (no trailer needed)': { opts: { author: BOB }, flagged: false },
};

describe.each(LOOSENINGS)('an agent commit that $name', (l) => {
  for (const [who, { opts, flagged }] of Object.entries(WHO)) {
    it(`${flagged ? 'is reported' : 'is allowed'} when made by ${who}`, async () => {
      const repo = start(l);
      const commit = repo.commit('Loosen the rules', l.files(), { ...opts, remove: l.remove });
      const found = await historyFindings(repo.dir, RULE);
      if (!flagged) {
        expect(found).toEqual([]);
        return;
      }
      const f = expectOne(found, RULE, { repo, commit, ...l.at(), severity: 'error' });
      // The agent is named once, even when it is both author and committer.
      expect(f.message.split('Claude <noreply@anthropic.com>')).toHaveLength(2);
    });
  }

  it('is an error in strict too, where even a co-authored confirmation does not count', async () => {
    const repo = start(l);
    const commit = repo.commit('Loosen the rules', l.files(), {
      author: BOB,
      coAuthors: [CLAUDE],
      confirmedBy: [BOB],
      remove: l.remove,
    });
    expectOne(await historyFindings(repo.dir, RULE, 'strict'), RULE, { repo, commit, ...l.at(), severity: 'error' });
  });
});

// Round 12: a list of plain bullets left saying only `N/A` has no checkbox that was made N/A, and the section is still
// there; the human check is gone all the same.
describe('an agent emptying a manual section of plain bullets into N/A', () => {
  it('is reported where the phase starts, the message saying what the list became', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: plainCriteria('bullets'), [LEDGER]: ledgerDoc() }, { author: ANA });
    const commit = repo.commit('Nothing to check', { [PLAN]: plainCriteria('na') }, { author: CLAUDE });
    const f = expectOne(await historyFindings(repo.dir, RULE), RULE, {
      repo,
      commit,
      file: PLAN,
      line: lineOf(plainCriteria('na'), '## Phase 2: Refresh'),
      severity: 'error',
    });
    expect(f.message).toBe(
      "An agent's commit (Claude <noreply@anthropic.com>) replaces the manual verification of Phase 2 (Refresh) (a list without checkboxes) with N/A without a human's confirmation: no check of that kind is left where it stood.",
    );
  });

  it("is the human's to make", async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: plainCriteria('bullets'), [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Nothing to check', { [PLAN]: plainCriteria('none-said') }, { author: BOB });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });
});

// An item wrapped over two source lines is quoted as one line: a finding is one line in every report.
describe('an agent deleting a manual item written over two lines', () => {
  it('quotes the item on one line', async () => {
    const wrapped = plainCriteria('boxes').replace(
      '- [ ] A token refreshes after an hour asleep',
      '- [ ] A token refreshes after an hour asleep\n  and the session survives a restart',
    );
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: wrapped, [LEDGER]: ledgerDoc() }, { author: ANA });
    const commit = repo.commit('Drop the check', { [PLAN]: plainCriteria('none') }, { author: CLAUDE });
    // The finding sits where the deleted section stood: the end of Phase 2 in the commit's version.
    const line = lineOf(plainCriteria('none'), '- [ ] Refresh tests pass');
    const f = expectOne(await historyFindings(repo.dir, RULE), RULE, {
      repo,
      commit,
      file: PLAN,
      line,
      severity: 'error',
    });
    expect(f.message).toContain('"A token refreshes after an hour asleep and the session survives a restart"');
    expect(f.message).not.toContain('\n');
  });
});

describe('what is not a loosening', () => {
  it('a package.json change outside the validateWorkflow key', async () => {
    const repo = Repo.create();
    repo.commit(
      'Plan',
      {
        [PLAN]: plan({}),
        [LEDGER]: ledgerDoc(),
        'package.json': JSON.stringify({ name: 'app', version: '1.0.0', validateWorkflow: { preset: 'strict' } }),
      },
      { author: ANA },
    );
    repo.commit(
      'Bump',
      { 'package.json': JSON.stringify({ name: 'app', version: '1.1.0', validateWorkflow: { preset: 'strict' } }) },
      { author: CLAUDE },
    );
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('adding a plan, tasks or criteria, checking automated items, editing an item text', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: plan({}), [LEDGER]: ledgerDoc() }, { author: CLAUDE });
    repo.commit('More criteria', { [PLAN]: plan({ secondManual: [1, 2], tasks: [1], auto: [1] }) }, { author: CLAUDE });
    repo.commit(
      'Reword',
      {
        [PLAN]: plan({ secondManual: [1, 2], tasks: [1], auto: [1] }).replace(
          MANUAL2(2),
          'Phase 2 logs show no errors',
        ),
      },
      { author: CLAUDE },
    );
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('an agent deleting the whole plan (housekeeping, convention section 6)', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: plan({}), [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Remove the plan', {}, { author: CLAUDE, remove: [PLAN] });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
    expect(await historyFindings(repo.dir, RULE, 'strict')).toEqual([]);
  });

  it('an agent turning a manual section of plain bullets into checkboxes, or rewording it', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: plainCriteria('bullets'), [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Boxes', { [PLAN]: plainCriteria('boxes') }, { author: CLAUDE });
    repo.commit(
      'Reword',
      { [PLAN]: plainCriteria('boxes').replace('an hour asleep', 'a night asleep') },
      { author: CLAUDE },
    );
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('an agent renaming the plain list to a bare `Verification` heading, or moving it to a new phase', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: plainCriteria('bullets'), [LEDGER]: ledgerDoc() }, { author: ANA });
    const bare = plainCriteria('bullets').replace(/#### Manual Verification:(\n+- A token)/, '#### Verification:$1');
    repo.commit('Rename', { [PLAN]: bare }, { author: CLAUDE });
    const moved = `${plainCriteria('none')}\n## Phase 3: Expiry\n\n#### Manual Verification:\n\n- A token refreshes after an hour asleep\n`;
    repo.commit('Move', { [PLAN]: moved }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('an agent rewording a plain N/A list, or giving it real checks', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: plainCriteria('na'), [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Reword', { [PLAN]: plainCriteria('none-said') }, { author: CLAUDE });
    repo.commit('Checks', { [PLAN]: plainCriteria('bullets') }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('an agent that keeps a disable comment the human added', async () => {
    const repo = Repo.create();
    const tail = '<!-- validate-workflow-disable plan/mode -- the user wants direct -->';
    repo.commit('Plan', { [PLAN]: plan({ tail }), [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Task 1', { [PLAN]: plan({ tail, tasks: [1] }) }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });
});

describe('through the CLI', () => {
  it('the agent-made loosening fails the run (exit 1), the confirmed one passes', async () => {
    const tail = '<!-- validate-workflow-disable plan/manual-before-automated -- flaky -->';
    const bad = Repo.create();
    bad.commit('Plan', { [PLAN]: plan({}), [LEDGER]: ledgerDoc() }, { author: ANA });
    const commit = bad.commit('Quiet the linter', { [PLAN]: plan({ tail }) }, { author: CLAUDE });
    const res = await cliHere(bad.dir);
    expect(res.code).toBe(1);
    expect(res.results.filter((f) => f.ruleId === RULE).map((f) => f.commit)).toEqual([commit]);

    const ok = Repo.create();
    ok.commit('Plan', { [PLAN]: plan({}), [LEDGER]: ledgerDoc() }, { author: ANA });
    ok.commit('Quiet the linter', { [PLAN]: plan({ tail }) }, { author: BOB, coAuthors: [CLAUDE], confirmedBy: [BOB] });
    expect((await cliHere(ok.dir)).results.filter((f) => f.ruleId === RULE)).toEqual([]);
  });
});

// Round 14: a phase set aside (its title or lead marker now says deferred, skipped, or absorbed into another phase)
// holds no later phase back and its open checks are no longer waited for: an agent doing that alone loosens the gate
// as N/A-ing its items would.
/** The one self-exemption finding of an agent's commit that rewrites the plan to `text`, pinned at Phase 1's heading. */
async function setAsideFinding(start: string, text: string) {
  const repo = Repo.create();
  repo.commit('Plan', { [PLAN]: start, [LEDGER]: ledgerDoc() }, { author: ANA });
  const commit = repo.commit('Set Phase 1 aside', { [PLAN]: text }, { author: CLAUDE });
  return expectOne(await historyFindings(repo.dir, RULE), RULE, {
    repo,
    commit,
    file: PLAN,
    line: lineOf(text, '## Phase 1: Part 1'),
    severity: 'error',
  });
}

describe('an agent setting aside a phase whose checks are open', () => {
  const start = planDoc(BASE);
  const retitled = start.replace('## Phase 1: Part 1', '## Phase 1: Part 1 (deferred)');
  const led = start.replace('## Phase 1: Part 1\n', '## Phase 1: Part 1\n\n**DEFERRED**: until the API exists.\n');
  const absorbed = start.replace(
    '## Phase 1: Part 1\n',
    '## Phase 1: Part 1\n\n> **ABSORBED into Phase 2**: built with it.\n',
  );

  it.each([
    ['a title that says deferred', retitled],
    ['a lead marker that says deferred', led],
  ])('is reported at the phase, naming its open checks: %s', async (_name, text) => {
    const f = await setAsideFinding(start, text);
    expect(f.message).toBe(
      "An agent's commit (Claude <noreply@anthropic.com>) sets aside Phase 1 (Part 1) while 3 of its checks are open, without a human's confirmation: a phase set aside holds no later phase back, and its open checks are no longer waited for.",
    );
  });

  it("is the human's to make, or the agent's with the human's confirmation", async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: start, [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Set Phase 1 aside', { [PLAN]: retitled }, { author: BOB });
    repo.commit('Defer Phase 1', { [PLAN]: led }, { author: CLAUDE, committer: ANA, confirmedBy: [ANA] });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('is no loosening when the work moved into a phase that still waits for its own checks', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: start, [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit('Absorb Phase 1 into Phase 2', { [PLAN]: absorbed }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('is a loosening when the phase it moved into is verified already', async () => {
    const twoDone = planDoc({ ...BASE, tasks: [3, 4], auto: [2], manual: [2] });
    const text = twoDone.replace(
      '## Phase 1: Part 1\n',
      '## Phase 1: Part 1\n\n> **ABSORBED into Phase 2**: built with it.\n',
    );
    await setAsideFinding(twoDone, text);
  });

  it('is no loosening once every check of the phase is done', async () => {
    const repo = Repo.create();
    const done = planDoc({ ...BASE, auto: [1], manual: [1] });
    repo.commit('Plan', { [PLAN]: done, [LEDGER]: ledgerDoc() }, { author: ANA });
    repo.commit(
      'Mark it',
      { [PLAN]: done.replace('## Phase 1: Part 1', '## Phase 1: Part 1 (skipped)') },
      { author: CLAUDE },
    );
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });
});

describe('an agent declaring done a phase whose checks are open', () => {
  const start = planDoc(BASE);
  it.each([
    ['by its title', start.replace('## Phase 1: Part 1', '## Phase 1: Part 1 [DONE]')],
    ['by its lead marker', start.replace('## Phase 1: Part 1\n', '## Phase 1: Part 1\n\n**DONE**\n')],
  ])('sets it aside all the same: %s', async (_name, text) => {
    const f = await setAsideFinding(start, text);
    expect(f.message).toContain('sets aside Phase 1 (Part 1) (by declaring it done) while 1 of its checks is open');
  });

  it('is no loosening when only manual checks stay open: they wait for a human in any case', async () => {
    const repo = Repo.create();
    const autoDone = planDoc({ ...BASE, tasks: [1, 2], auto: [1] });
    repo.commit('Plan', { [PLAN]: autoDone, [LEDGER]: ledgerDoc() }, { author: ANA });
    const text = autoDone.replace('## Phase 1: Part 1', '## Phase 1: Part 1 [DONE]');
    repo.commit('Phase 1 done', { [PLAN]: text }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('is no loosening when the same commit ticks the checks it declares done', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: start, [LEDGER]: ledgerDoc() }, { author: ANA });
    const worked = planDoc({ ...BASE, tasks: [1, 2], auto: [1] });
    repo.commit(
      'Phase 1 done',
      { [PLAN]: worked.replace('## Phase 1: Part 1', '## Phase 1: Part 1 [DONE]') },
      { author: CLAUDE },
    );
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it('knows a renumbered phase by its subject: a phase declared done before stays the same phase', async () => {
    const repo = Repo.create();
    const three = planDoc({ ...BASE, phases: [2, 2, 2], tasks: [1, 2] });
    const twoDone = three.replace('## Phase 2: Part 2', '## Phase 2: Part 2 [DONE]');
    repo.commit('Plan', { [PLAN]: twoDone, [LEDGER]: ledgerDoc() }, { author: ANA });
    // A phase inserted before: Part 2 becomes Phase 3, Part 3 becomes Phase 4; the old Phase 3 had nothing declared.
    const renumbered = twoDone
      .replace('## Phase 3: Part 3', '## Phase 4: Part 3')
      .replace(
        '## Phase 2: Part 2 [DONE]',
        '## Phase 2: Groundwork\n\n- [x] Lay the groundwork\n\n## Phase 3: Part 2 [DONE]',
      );
    repo.commit('Insert a phase', { [PLAN]: renumbered }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });

  it("is a note in recommended once the phase's automated checks began, and an error in strict", async () => {
    const repo = Repo.create();
    // Two automated checks; the agent ticks one, leaves the other, and writes [DONE].
    const two = start.replace(
      `- [ ] ${AUTO(1)}: \`npm test\``,
      `- [ ] ${AUTO(1)}: \`npm test\`\n- [ ] Lint passes: \`npm run lint\``,
    );
    repo.commit('Plan', { [PLAN]: two, [LEDGER]: ledgerDoc() }, { author: ANA });
    const done = two
      .replace(`- [ ] ${AUTO(1)}`, `- [x] ${AUTO(1)}`)
      .replace('## Phase 1: Part 1', '## Phase 1: Part 1 [DONE]');
    const commit = repo.commit('Phase 1 done', { [PLAN]: done }, { author: CLAUDE });
    const f = expectOne(await historyFindings(repo.dir, RULE), RULE, {
      repo,
      commit,
      file: PLAN,
      line: lineOf(done, '## Phase 1: Part 1'),
      severity: 'info',
    });
    expect(f.message).toContain('declares Phase 1 (Part 1) done with 1 automated check open');
    expect((await historyFindings(repo.dir, RULE, 'strict')).map((x) => x.severity)).toEqual(['error']);
  });

  it('reads bold prose that opens the phase as prose, not as a marker', async () => {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: start, [LEDGER]: ledgerDoc() }, { author: ANA });
    const text = start.replace(
      '## Phase 1: Part 1\n',
      '## Phase 1: Part 1\n\n**Deferred migrations** are handled here.\n',
    );
    repo.commit('Describe Phase 1', { [PLAN]: text }, { author: CLAUDE });
    expect(await historyFindings(repo.dir, RULE)).toEqual([]);
  });
});

// After helper-76's review of the set-aside act: a phase is known by a subject only one phase of each version has,
// else by the boxes it holds (items keep their identity, by kind and text), else by its label; it leaves open every
// check its former self had open that the commit neither ticks nor moves into a phase still waiting; and its
// verification began only with a check the parent version already had.
describe('the phase an agent sets aside, known across a rewrite of the plan', () => {
  /** A plan of phases, each heading with its automated checks (`[x] a one`, `[ ] b two`). */
  const plan = (...phases: [string, ...string[]][]) =>
    [
      '---',
      ...FM,
      '---',
      '# Auth flow Implementation Plan',
      '',
      ...phases.flatMap(([heading, ...items]) => [heading, '', '#### Automated Verification:', '', ...items, '']),
    ].join('\n');

  /** The findings of an agent's commit that rewrites the plan from `start` to `text`. */
  async function rewrite(start: string, text: string, preset?: 'strict') {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: start, [LEDGER]: ledgerDoc() }, { author: ANA });
    const commit = repo.commit('Rework the plan', { [PLAN]: text }, { author: CLAUDE });
    return { repo, commit, findings: await historyFindings(repo.dir, RULE, preset) };
  }

  /** The one error of that commit, at the heading that starts with `heading`. */
  async function errorAt(start: string, text: string, heading: string) {
    const { repo, commit, findings } = await rewrite(start, text);
    return expectOne(findings, RULE, { repo, commit, file: PLAN, line: lineOf(text, heading), severity: 'error' });
  }

  it.each([
    ['declared done', '**DONE**'],
    ['deferred', '**DEFERRED**'],
  ])('is found among phases without titles: %s', async (_name, marker) => {
    const start = plan(['## Phase 1', '- [x] a one'], ['## Phase 2', '- [ ] b two'], ['## Phase 3', '- [ ] c three']);
    const text = start.replace('## Phase 2\n', `## Phase 2\n\n${marker}\n`);
    const f = await errorAt(start, text, '## Phase 2');
    expect(f.message).toContain('sets aside Phase 2');
  });

  it('counts a check moved into a phase declared done as still open', async () => {
    const start = plan(['## Phase 1: Setup [DONE]', '- [x] a one'], ['## Phase 2: Export', '- [ ] b two']);
    const text = plan(['## Phase 1: Setup [DONE]', '- [x] a one', '- [ ] b two'], ['## Phase 2: Export [DONE]']);
    await errorAt(start, text, '## Phase 2');
  });

  it("is not passed off as another phase by taking that phase's subject", async () => {
    const start = plan(['## Phase 1: Setup [DONE]', '- [x] a one'], ['## Phase 2: Export', '- [ ] b two']);
    const text = plan(['## Phase 1: Setup [DONE]', '- [x] a one'], ['## Phase 2: Setup [DONE]', '- [ ] b two']);
    const f = await errorAt(start, text, '## Phase 2');
    expect(f.message).toContain('sets aside Phase 2 (Export)');
  });

  it('is found renumbered and deferred in words, and named by its new label', async () => {
    const start = plan(['## Phase 1: Setup', '- [ ] a one'], ['## Phase 2: Export', '- [ ] b two']);
    const text = plan(
      ['## Phase 1: Groundwork', '- [x] g zero'],
      ['## Phase 2: Setup (deferred to Phase 4)', '- [ ] a one'],
      ['## Phase 3: Export', '- [ ] b two'],
    );
    const f = await errorAt(start, text, '## Phase 2');
    expect(f.message).toContain('sets aside Phase 2 (Setup; Phase 1 before this commit) while 1 of its checks is open');
  });

  it('keeps the error when the only ticked check is one the same commit adds', async () => {
    const start = plan(['## Phase 1: Setup', '- [ ] a one'], ['## Phase 2: Export', '- [ ] b two']);
    const text = plan(
      ['## Phase 1: Setup [DONE]', '- [ ] a one', '- [x] file exists'],
      ['## Phase 2: Export', '- [ ] b two'],
    );
    await errorAt(start, text, '## Phase 1');
  });

  it('knows checks reworded as they are ticked (their results written onto the line), by their place', async () => {
    const start = plan(['## Phase 1: Setup', '- [ ] a one', '- [ ] b two'], ['## Phase 2: Export', '- [ ] c three']);
    const text = plan(
      ['## Phase 1: Setup [DONE]', '- [x] a one (passes, 12 tests)', '- [x] b two (no warnings)'],
      ['## Phase 2: Export', '- [ ] c three'],
    );
    expect((await rewrite(start, text)).findings).toEqual([]);
  });

  it('is silent for a new phase that only shares a subject with an older one', async () => {
    const start = plan(['## Phase 1: Setup', '- [x] a one'], ['## Phase 2: Tests', '- [ ] b two']);
    const text = start + '\n## Phase 3: Tests (deferred)\n\n#### Automated Verification:\n\n- [ ] c three\n';
    expect((await rewrite(start, text)).findings).toEqual([]);
  });
});

describe('an item of a bare verification list reworded where it stood', () => {
  /** A plan whose phases name manual checks of their own, and whose end state is a bare `### Verification` list. */
  const endState = (...items: string[]) =>
    [
      '---',
      ...FM,
      '---',
      '# Report export Implementation Plan',
      '',
      '## Desired End State',
      '',
      'Reports export in the new format only.',
      '',
      '### Verification',
      '',
      ...items,
      '',
      '## Phase 1: Exporter',
      '',
      '- [ ] Task 1: Write the exporter',
      '',
      '#### Automated Verification:',
      '',
      '- [ ] Exporter tests pass: `npm test -- export`',
      '',
      '#### Manual Verification:',
      '',
      '- [ ] An exported report opens in the viewer',
      '',
    ].join('\n');
  const START = [
    '- [ ] New exporter in place: `src/export/report.ts`',
    '- [ ] Old formats removed: `csv.ts`, `xml.ts`',
    '- [ ] The docs describe the new format',
  ];

  async function agentCommit(start: string, text: string) {
    const repo = Repo.create();
    repo.commit('Plan', { [PLAN]: start, [LEDGER]: ledgerDoc() }, { author: ANA });
    const commit = repo.commit('Finish the export', { [PLAN]: text }, { author: CLAUDE });
    return { repo, commit, findings: await historyFindings(repo.dir, RULE) };
  }

  it('is an edit of the item it replaced, not a deletion, when its new words read as another kind', async () => {
    const text = endState(
      '- [x] New exporter in place: `src/export/report.ts`',
      '- [x] Old formats kept (the importer still reads them)',
      '- [x] The docs describe the new format',
    );
    expect((await agentCommit(endState(...START), text)).findings).toEqual([]);
  });

  it('is still a deletion when the list got shorter', async () => {
    const text = endState(START[0]!, START[2]!);
    const { repo, commit, findings } = await agentCommit(endState(...START), text);
    const line = lineOf(text, START[0]!);
    const f = expectOne(findings, RULE, { repo, commit, file: PLAN, line, severity: 'error' });
    expect(f.message).toContain('deletes the automated verification item "Old formats removed: csv.ts, xml.ts"');
  });

  it('is turned into N/A when it is reworded into N/A, and named with the kind it had', async () => {
    const na = '- [ ] N/A: the importer still reads the old formats';
    const text = endState(START[0]!, na, START[2]!);
    const { repo, commit, findings } = await agentCommit(endState(...START), text);
    const f = expectOne(findings, RULE, { repo, commit, file: PLAN, line: lineOf(text, na), severity: 'error' });
    expect(f.message).toContain('turns automated item "N/A: the importer still reads the old formats" into N/A');
  });

  /** A plan of one phase whose criteria are a bare `### Verification` list of `items`. */
  const phaseList = (...items: string[]) =>
    [
      '---',
      ...FM,
      '---',
      '# Report export Implementation Plan',
      '',
      '## Phase 1: Exporter',
      '',
      '- [ ] Task 1: Write the exporter',
      '',
      '### Verification',
      '',
      ...items,
      '',
    ].join('\n');

  it("leaves a command check reworded into a human's check to the confirmation rule", async () => {
    const start = phaseList('- [ ] Unit tests pass: `npm test`', '- [ ] Smoke run passes: `npm run smoke`');
    const text = phaseList('- [x] Unit tests pass: `npm test`', '- [x] The smoke report reads well in the browser');
    const { repo, commit, findings } = await agentCommit(start, text);
    expect(findings).toEqual([]);
    const checks = await historyFindings(repo.dir, 'history/manual-confirmation');
    const f = expectOne(checks, 'history/manual-confirmation', {
      repo,
      commit,
      file: PLAN,
      line: lineOf(text, 'The smoke report'),
      severity: 'error',
    });
    expect(f.message).toContain('"The smoke report reads well in the browser"');
  });

  it('is still a deletion when a command check is reworded into an open prose item, which verifies nothing', async () => {
    const text = endState(START[0]!, '- [ ] Old formats handled', START[2]!);
    const { repo, commit, findings } = await agentCommit(endState(...START), text);
    const f = expectOne(findings, RULE, {
      repo,
      commit,
      file: PLAN,
      line: lineOf(text, START[0]!),
      severity: 'error',
    });
    expect(f.message).toContain('deletes the automated verification item "Old formats removed: csv.ts, xml.ts"');
  });

  it("is still a deletion when a human's check is reworded into a command: the gate is gone", async () => {
    const start = phaseList('- [ ] Unit tests pass: `npm test`', '- [ ] The smoke report reads well in the browser');
    const text = phaseList('- [ ] Unit tests pass: `npm test`', '- [ ] Smoke run passes: `npm run smoke`');
    const { repo, commit, findings } = await agentCommit(start, text);
    const f = expectOne(findings, RULE, {
      repo,
      commit,
      file: PLAN,
      line: lineOf(text, 'Unit tests pass'),
      severity: 'error',
    });
    expect(f.message).toContain('deletes the manual verification item "The smoke report reads well in the browser"');
  });
});
