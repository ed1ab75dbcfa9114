// A cached model keeps the fields a run over a whole snapshot seldom reads (a handoff's lowered text, every field's
// position) apart, and decodes them when one is first read (history/cache.ts, format 7). What a run reads must be
// what was written, however it reads it; a slice whose parts are not what the writer makes is no model (it is parsed
// again), and a hook's verdict on a warm cache is the verdict without one.
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Raw, loadCache, saveCache } from '../../src/history/cache.js';
import type { Handoff } from '../../src/model/types.js';
import { CLAUDE, Repo, door, handoffPath, taskHandoff, taskOneDone } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'vw-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const handoff = {
  kind: 'handoff',
  path: 'thoughts/handoffs/s1/task-01-x.md',
  readable: true,
  problems: [],
  positions: { '/status': { line: 2, column: 1 }, '/previous': { line: 7, column: 3 } },
  mentions: 'plan: thoughts/shared/plans/a.md\n# task handoff\n',
  planRef: 'thoughts/shared/plans/a.md',
  session: 's1',
  status: 'complete',
} as unknown as Handoff;

function written(models: [string, unknown][]): string {
  const file = join(dir, `cache-${Math.random().toString(36).slice(2)}.pack`);
  saveCache(file, {
    key: 'k',
    readers: 'r',
    head: null,
    state: [],
    history: null,
    sections: {},
    models: models as [string, Handoff | Raw][],
  });
  return file;
}

describe('a cached model and its lazy fields', () => {
  it('reads back as written, whichever field is read first, and takes a field set on it', () => {
    const file = written([['b1:x', handoff]]);
    for (const first of ['positions', 'mentions', 'status'] as const) {
      const model = loadCache(file, 'k')!.models.get('b1:x') as unknown as Record<string, unknown>;
      expect(model[first]).toEqual((handoff as unknown as Record<string, unknown>)[first]);
      expect(model).toEqual(handoff);
      expect(JSON.parse(JSON.stringify(model))).toEqual(handoff);
      expect({ ...model }).toEqual(handoff);
    }
    const model = loadCache(file, 'k')!.models.get('b1:x')!;
    (model as { mentions: string }).mentions = 'changed';
    expect((model as Handoff).mentions).toBe('changed');
    expect(model.positions).toEqual(handoff.positions);
  });

  it('decodes its lazy fields only when one is read, and fails loudly when they do not decode', () => {
    const file = written([['b1:x', handoff]]);
    const model = loadCache(file, 'k')!.models.get('b1:x') as unknown as Record<string, unknown>;
    const lazy = (k: string) => Object.getOwnPropertyDescriptor(model, k)?.get !== undefined;
    expect(model.status).toBe('complete');
    expect([lazy('positions'), lazy('mentions')]).toEqual([true, true]);
    expect(model.mentions).toBe(handoff.mentions);
    expect([lazy('positions'), lazy('mentions')]).toEqual([false, false]);
    // A lazy part that passes the shape check (an object's braces) but is no JSON: the run stops, naming the cache.
    const raw = loadCache(file, 'k')!.models.raw('b1:x')!.bytes.toString('utf8');
    const torn = `${raw.slice(0, raw.lastIndexOf('\n'))}\n{"mentions": }`;
    const damaged = loadCache(written([['b1:x', new Raw(Buffer.from(torn))]]), 'k')!.models.get('b1:x')!;
    expect(damaged.kind).toBe('handoff');
    expect(() => damaged.positions).toThrow(/damaged: remove \.git\/validate-workflow\/cache\.pack/);
  });

  it('is no model when its slice is not what the writer makes', () => {
    const good = written([['b1:x', handoff]]);
    const raw = loadCache(good, 'k')!.models.raw('b1:x')!;
    const slice = raw.bytes.toString('utf8');
    const light = slice.slice(0, slice.indexOf('\n'));
    // The slice as stored reads back as the model (a full run writes it back so, undecoded).
    expect(loadCache(written([['b1:x', raw]]), 'k')!.models.get('b1:x')).toEqual(handoff);
    for (const [what, bad] of [
      ['a lazy name the model has itself', `${light}\n["status"]\n{"status":"x"}`],
      ['a lazy name that is no lazy field', `${light}\n["verification"]\n{"verification":[]}`],
      ['a lazy part that is no object', `${light}\n["mentions"]\n"text"`],
      ['a model part that is no object', `[1]\n["mentions"]\n{"mentions":""}`],
      ['a part missing', `${light}\n{"mentions":""}`],
    ]) {
      const cache = loadCache(written([['b1:x', new Raw(Buffer.from(bad!))]]), 'k')!;
      expect(cache.models.get('b1:x'), what).toBeUndefined();
      expect(cache.models.broken, what).toBe(1);
    }
  });

  it("changes no hook's verdict: warm or cold, the same findings", async () => {
    const repo: Repo = taskOneDone();
    await door(repo.dir);
    repo.stage({ [handoffPath(2)]: taskHandoff(2, { previous: 'task-09-nowhere.md' }) });
    const warm = (await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results;
    rmSync(join(repo.dir, '.git/validate-workflow/cache.pack'));
    const cold = (await door(repo.dir, ['--staged'], repo.env(CLAUDE))).results;
    expect(warm).toEqual(cold);
    expect(warm.some((f) => f.ruleId === 'handoff/chain')).toBe(true);
  });
});

// The body of a cache file is read where a run asks for it, from the file the run opened (history/cache.ts Body).
describe("a cache's body, read on demand", () => {
  const other = { ...handoff, status: 'blocked', planRef: 'thoughts/shared/plans/b.md', mentions: 'x'.repeat(999) };
  const save = (file: string, models: [string, unknown][], sections: Record<string, unknown> = {}) =>
    saveCache(file, {
      key: 'k',
      readers: 'r',
      head: null,
      state: [],
      history: null,
      sections,
      models: models as [string, Handoff][],
    });

  it('reads the file it opened: a cache another run writes meanwhile is never mixed into it', () => {
    const file = written([['b1:x', handoff]]);
    const cache = loadCache(file, 'k')!;
    // Written the way every run writes (a new file renamed over the old one), with other bytes at other offsets.
    save(
      file,
      [
        ['b0:y', other],
        ['b1:x', other],
      ],
      { guidance: [['a', 'b']] },
    );
    expect(cache.models.get('b1:x')).toEqual(handoff);
    expect(cache.models.names('b1:x')).toBe(handoff.planRef);
    expect(cache.models.blocked('b1:x')).toBe(false);
    expect(cache.section('guidance')).toBeNull();
    expect(loadCache(file, 'k')!.models.get('b1:x')).toEqual(other);
  });

  it('gives no model for a file cut short after it was read, never a part of one', () => {
    const file = written([['b1:x', handoff]]);
    const cache = loadCache(file, 'k')!;
    truncateSync(file, 200);
    expect(cache.models.get('b1:x')).toBeUndefined();
    expect(cache.models.broken).toBe(1);
  });

  it('reads the same models slice by slice and whole (a run that asks for many)', () => {
    const models: [string, unknown][] = Array.from({ length: 100 }, (_, i) => [
      `b${i}:x`,
      i % 2 ? handoff : { ...other, task: i },
    ]);
    const file = written(models);
    const cache = loadCache(file, 'k')!;
    for (const [k, m] of models) expect(cache.models.get(k)).toEqual(m);
    for (const [k, m] of models) expect(loadCache(written([[k, cache.models.raw(k)!]]), 'k')!.models.get(k)).toEqual(m);
  });
});
