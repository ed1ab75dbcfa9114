// The ralph pack at its doors: reading, the working tree through lint (a session written as the seed's schema
// example validates clean, files are read where they lie) and real commits through the history door. Each rule's
// logic and words are tested in memory in ralph.rules.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { ralph } from '../../src/packs/ralph/index.js';
import { git, lint, makeRepo, of, writeFiles } from '../helpers/repo.js';
import { packHistory } from './history.js';

const DIR = '.workflow/.maestro/ralph-20260112-143015';
const STATUS = `${DIR}/status.json`;
const DECISIONS = `${DIR}/decisions.ndjson`;
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/packs/ralph/clean/${name}`, import.meta.url), 'utf8');
const CLEAN_STATUS = fixture(STATUS);
const CLEAN_DECISIONS = fixture(DECISIONS);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function status(mutate: (s: Json) => void = () => {}): string {
  const s = JSON.parse(CLEAN_STATUS) as Json;
  mutate(s);
  return `${JSON.stringify(s, null, 2)}\n`;
}

function lintStatus(mutate: (s: Json) => void) {
  return lint(makeRepo({ [STATUS]: status(mutate), [DECISIONS]: CLEAN_DECISIONS }));
}

/** Commit each version in turn and judge the pack history. */
async function history(...versions: Record<string, string>[]) {
  const dir = makeRepo({});
  versions.forEach((files, n) => {
    writeFiles(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', `tick ${n + 1}`);
  });
  return packHistory(dir);
}

describe('ralph pack: reading', () => {
  it('is on when its files exist, off with packs.ralph = false', () => {
    expect(ralph.globs(defaultConfig())).toEqual([
      '.workflow/.maestro/ralph-*/status.json',
      '.workflow/.maestro/ralph-*/decisions.ndjson',
    ]);
    expect(ralph.globs({ ...defaultConfig(), packs: { ralph: false } })).toEqual([]);
    const dir = makeRepo({ [STATUS]: status((s) => (s.status = 'bogus')) });
    expect(of(lint(dir, { packs: { ralph: false } }), 'ralph/schema')).toEqual([]);
  });

  it('gives keys their lines and never throws on a corrupt file', () => {
    const f = ralph.read(STATUS, Buffer.from('{\n  "status": "running",\n  "steps": [\n}\n'));
    expect(f.model).toBeNull();
    expect(f.problems[0]!.line).toBe(4);
    expect(f.problems[0]!.message).toMatch(/^E010/);
    const d = ralph.read(DECISIONS, Buffer.from('{"id":"DEC-1"}\n{oops\n'));
    expect(d.problems.map((p) => p.line)).toEqual([2]);
  });
});

describe('ralph pack: the working tree', () => {
  it('a status.json written as the seed schema example validates clean', () => {
    const findings = lint(makeRepo({ [STATUS]: CLEAN_STATUS, [DECISIONS]: CLEAN_DECISIONS }));
    expect(findings.filter((f) => f.ruleId.startsWith('ralph/'))).toEqual([]);
  });

  it('ralph/schema: E010 for corrupt JSON and for each schema violation, at its line', () => {
    const corrupt = of(lint(makeRepo({ [STATUS]: CLEAN_STATUS.slice(0, 200) })), 'ralph/schema');
    expect(corrupt).toHaveLength(1);
    expect(corrupt[0]!.message).toMatch(/E010/);
    const bad = of(
      lintStatus((s) => {
        s.quality_mode = 'thorough';
        s.steps[2].completion_status = 'FINISHED';
        s.steps[3].command_scope = 'user';
        s.scope_verdict = 'huge';
        s.planning_mode = 'mixed';
        s.steps[7].status = 'done';
        s.status = 'stopped';
      }),
      'ralph/schema',
    );
    expect(bad.map((f) => f.message).join('\n')).toMatch(/quality_mode.*thorough/);
    expect(bad).toHaveLength(7);
    expect(bad.every((f) => f.message.startsWith('E010') && f.severity === 'error')).toBe(true);
    const qm = CLEAN_STATUS.split('\n').findIndex((l) => l.includes('"quality_mode"')) + 1;
    expect(bad.find((f) => f.message.includes('quality_mode'))!.line).toBe(qm);
  });

  it('ralph/decisions-appended (snapshot): every line is a JSON object with the seed fields', () => {
    const f = of(
      lint(
        makeRepo({
          [STATUS]: CLEAN_STATUS,
          [DECISIONS]: `${CLEAN_DECISIONS}{"id":"DEC-2","type":"scope-gate","source":"ralph","node_id":"post-analyze-scope"}\nnot json\n`,
        }),
      ),
      'ralph/decisions-appended',
    );
    expect(f.map((x) => x.line)).toEqual([2, 3]);
    expect(f[0]!.message).toMatch(/verdict/);
  });
});

describe('ralph pack: history rules', () => {
  const goal = (d: string) =>
    JSON.stringify({
      id: `DEC-${d}`,
      type: 'goal-gate',
      source: 'ralph',
      node_id: 'post-goal-audit',
      unmet_count: 1,
      unmet_ids: ['G2'],
    });

  it('a session that only moves forward is clean', async () => {
    const v2 = status((s) => {
      s.steps[5] = {
        ...s.steps[5],
        status: 'completed',
        completion_confirmed: true,
        completion_status: 'DONE',
        completed_at: '2026-01-12T16:30:00Z',
      };
      s.active_step_index = null;
      s.task_decomposition[1].evidence = '.workflow/phases/02-export/review.json';
    });
    const f = await history(
      { [STATUS]: CLEAN_STATUS, [DECISIONS]: CLEAN_DECISIONS },
      { [STATUS]: v2, [DECISIONS]: `${CLEAN_DECISIONS}${goal('2')}\n` },
    );
    expect(f).toEqual([]);
  });

  it('ralph/decisions-appended: an edited or removed committed line, and an appended line without the fields', async () => {
    const edited = CLEAN_DECISIONS.replace('"proceed"', '"fix"');
    const f = await history({ [DECISIONS]: CLEAN_DECISIONS }, { [DECISIONS]: `${edited}{"id":"DEC-3"}\n` });
    const mine = of(f, 'ralph/decisions-appended');
    expect(mine.map((x) => x.line)).toEqual([1, 2]);
    expect(mine[0]!.message).toMatch(/edits committed line 1/);
    expect(mine[0]!.commit).toBeTruthy();
    const removed = await history(
      { [DECISIONS]: `${CLEAN_DECISIONS}${goal('2')}\n` },
      { [DECISIONS]: CLEAN_DECISIONS },
    );
    expect(of(removed, 'ralph/decisions-appended')[0]!.message).toMatch(/removes committed line 2/);
  });

  it('ralph/decomposition-accumulates: removed or rewritten sub-goals and fields moving backwards', async () => {
    const f = await history(
      { [STATUS]: CLEAN_STATUS },
      {
        [STATUS]: status((s) => {
          s.task_decomposition[0].done_when = 'The CSV download works';
          s.task_decomposition[0].status = 'pending';
          s.task_decomposition.pop();
        }),
      },
    );
    const msgs = of(f, 'ralph/decomposition-accumulates').map((x) => x.message);
    expect(msgs).toHaveLength(3);
    expect(msgs.join('\n')).toMatch(/removes sub-goal G2/);
    expect(msgs.join('\n')).toMatch(/changes G1\.done_when/);
    expect(msgs.join('\n')).toMatch(/G1\.status backwards/);
  });

  it('ralph/step-release: completed back to pending only for a decision step released with retry_count + 1', async () => {
    const reopened = await history(
      { [STATUS]: CLEAN_STATUS },
      {
        [STATUS]: status((s) =>
          Object.assign(s.steps[2], {
            status: 'pending',
            completion_confirmed: false,
            completion_status: null,
            completed_at: null,
          }),
        ),
      },
    );
    expect(of(reopened, 'ralph/step-release')).toHaveLength(1);
    const silent = await history(
      { [STATUS]: CLEAN_STATUS },
      {
        [STATUS]: status((s) =>
          Object.assign(s.steps[4], { status: 'pending', completion_confirmed: false, completed_at: null }),
        ),
      },
    );
    expect(of(silent, 'ralph/step-release')).toHaveLength(1);
    const released = await history(
      { [STATUS]: CLEAN_STATUS },
      {
        [STATUS]: status((s) =>
          Object.assign(s.steps[4], {
            status: 'pending',
            completion_confirmed: false,
            completed_at: null,
            retry_count: 1,
          }),
        ),
      },
    );
    expect(of(released, 'ralph/step-release')).toEqual([]);
  });
});
