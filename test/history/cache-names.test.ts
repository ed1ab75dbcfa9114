// The cache keeps what each ledger and handoff version names (its plan reference) beside its model (history/cache.ts,
// Header.names), so that a commit through the hooks learns the plans in sight without decoding every handoff's model.
// What it says must never change a verdict: the hooks' verdict with it is the verdict without a cache; a version the
// commit changes is read afresh whatever the cache says of it; an index that is not this cache's (another settings
// key, entries that do not line up with the models) is no index. The plan here lies outside the globs (convention
// section 6): only a ledger that names it brings it in sight, so a wrong answer about what the ledger names shows as
// a finding lost.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { ANA, CONFIG, LEDGER, PLAN, Repo, door, ledger, planDoc, TASK } from './helpers.js';

/** A plan the globs miss: in sight only while a ledger names it. */
const OUTSIDE = 'plans/auth.md';
const ledgerNaming = (plan: string) => ledger({ plan, state: [1, 2, 3, 4].map((t) => `- [ ] ${TASK(t)}`) });
/** A manual item checked while phase 1's automated one is not: plan/manual-before-automated, a snapshot finding. */
const manualFirst = () => planDoc({ frontmatter: ['mode: direct'], tasks: [1, 2], manual: [1] });
const RULE = 'plan/manual-before-automated';

const onOutside = (list: Finding[]) => list.filter((f) => f.ruleId === RULE && f.file === OUTSIDE);
const cacheOf = (repo: Repo) => join(repo.dir, '.git/validate-workflow/cache.pack');

/** The repository with the ledger naming `named`, adopted by the human, and the cache its full run leaves. */
async function adopted(named: string): Promise<Repo> {
  const repo = Repo.create();
  repo.commit(
    'Adopt validate-workflow',
    {
      [CONFIG]: '{}\n',
      [PLAN]: planDoc(),
      [OUTSIDE]: planDoc({ frontmatter: ['mode: direct'] }),
      [LEDGER]: ledgerNaming(named),
    },
    { author: ANA },
  );
  await door(repo.dir);
  return repo;
}

/** pre-commit's findings on the staged change, and those of the same door without a cache. */
async function staged(repo: Repo): Promise<{ warm: Finding[]; cold: Finding[] }> {
  const warm = (await door(repo.dir, ['--staged'])).results;
  const kept = readFileSync(cacheOf(repo));
  rmSync(cacheOf(repo));
  const cold = (await door(repo.dir, ['--staged'])).results;
  writeFileSync(cacheOf(repo), kept);
  return { warm, cold };
}

// --- the cache file, taken apart and put together again (history/cache.ts, format 6) ----------------------------

interface Pack {
  magic: Buffer;
  header: { key: string; readers?: string; models: [string, number, number][]; names: [number, number] | null };
  body: Buffer;
}

function readPack(repo: Repo): Pack {
  const buf = readFileSync(cacheOf(repo));
  const m = buf.indexOf(10);
  const h = buf.indexOf(10, m + 1);
  return {
    magic: buf.subarray(0, m + 1),
    header: JSON.parse(buf.toString('utf8', m + 1, h)) as Pack['header'],
    body: buf.subarray(h + 1),
  };
}

function writePack(repo: Repo, pack: Pack): void {
  writeFileSync(cacheOf(repo), Buffer.concat([pack.magic, Buffer.from(`${JSON.stringify(pack.header)}\n`), pack.body]));
}

/** Appends a slice to the body: where it lies. */
function append(pack: Pack, bytes: Buffer): [number, number] {
  const at: [number, number] = [pack.body.length, bytes.length];
  pack.body = Buffer.concat([pack.body, bytes]);
  return at;
}

const namesOf = (pack: Pack): unknown[] => {
  const [offset, length] = pack.header.names!;
  return JSON.parse(pack.body.toString('utf8', offset, offset + length)) as unknown[];
};

/** The cache with what the model of `key` names set to `names`; a model is added (a copy of `like`'s) if it has none. */
function plant(repo: Repo, key: string, names: string | null, like = key): void {
  const pack = readPack(repo);
  const list = namesOf(pack);
  let i = pack.header.models.findIndex(([k]) => k === key);
  if (i < 0) {
    const model = pack.header.models.find(([k]) => k === like);
    expect(model, like).toBeDefined();
    pack.header.models.push([key, model![1], model![2]]);
    i = list.push(null) - 1;
  }
  list[i] = names;
  pack.header.names = append(pack, Buffer.from(JSON.stringify(list)));
  writePack(repo, pack);
}

const versionKey = (repo: Repo, rev: string, path: string) =>
  `${repo.git('rev-parse', `${rev}:${path}`).trim()}:${path}`;

describe('what the cache says a ledger or handoff version names', () => {
  it('brings a plan named by an unchanged ledger in sight at pre-commit, as a run without a cache does', async () => {
    const repo = await adopted(OUTSIDE);
    const ledgerNames = () => {
      const pack = readPack(repo);
      return namesOf(pack)[pack.header.models.findIndex(([k]) => k === versionKey(repo, 'HEAD', LEDGER))];
    };
    // The run wrote what the ledger names beside the model it parsed.
    expect(ledgerNames()).toBe(OUTSIDE);
    // A later run writes the cache again, the ledger's model carried over undecoded: what it names goes with it.
    repo.commit('Plan the steps', { [PLAN]: planDoc({ tasks: [1] }) }, { author: ANA });
    await door(repo.dir);
    expect(ledgerNames()).toBe(OUTSIDE);
    repo.stage({ [OUTSIDE]: manualFirst() });
    const { warm, cold } = await staged(repo);
    expect(onOutside(warm)).toHaveLength(1);
    expect(warm).toEqual(cold);
  });

  // The cache lives in .git/, where anything that can run git can write (history/fold.ts pendingCommit): what it says
  // of the version the commit stages is never taken. (HEAD's side of the change is taken from it like every version
  // HEAD holds, since round 23: a forged entry there buys nothing `--no-verify` does not, engine/change-models.ts.)
  it('is never taken for the version the commit stages', async () => {
    const repo = await adopted(PLAN);
    repo.stage({ [LEDGER]: ledgerNaming(OUTSIDE), [OUTSIDE]: manualFirst() });
    const key = versionKey(repo, '', LEDGER);
    // The planted entry says the version names the other plan, the one in the globs: were it taken, the plan outside
    // them would be out of sight after the change.
    plant(repo, key, PLAN, versionKey(repo, 'HEAD', LEDGER));
    const { warm, cold } = await staged(repo);
    expect(onOutside(warm)).toHaveLength(1);
    expect(warm).toEqual(cold);
  });

  it('is no index when it is another settings key’s of other readers, or its entries do not line up with the models', async () => {
    const repo = await adopted(OUTSIDE);
    repo.stage({ [OUTSIDE]: manualFirst() });
    const { cold } = await staged(repo);
    expect(onOutside(cold)).toHaveLength(1);
    const good = readFileSync(cacheOf(repo));
    const ledgerKey = versionKey(repo, 'HEAD', LEDGER);
    const cases: [string, (pack: Pack) => void][] = [
      [
        // Under another key, only models the same readers made under settings that classify alike are lent (with
        // their index): a cache of other readers lends nothing.
        'another settings key, of other readers',
        (pack) => {
          const list = namesOf(pack);
          list[pack.header.models.findIndex(([k]) => k === ledgerKey)] = null;
          pack.header.names = append(pack, Buffer.from(JSON.stringify(list)));
          pack.header.key = 'made under other settings';
          pack.header.readers = 'made by other readers';
        },
      ],
      [
        'one entry short',
        (pack) => {
          pack.header.names = append(
            pack,
            Buffer.from(
              JSON.stringify(
                namesOf(pack)
                  .slice(1)
                  .map(() => null),
              ),
            ),
          );
        },
      ],
      [
        // What a writer did not know: the model is decoded to learn it.
        'entries that say they are not known',
        (pack) => {
          pack.header.names = append(pack, Buffer.from(JSON.stringify(namesOf(pack).map(() => false))));
        },
      ],
    ];
    for (const [what, spoil] of cases) {
      writeFileSync(cacheOf(repo), good);
      const pack = readPack(repo);
      spoil(pack);
      writePack(repo, pack);
      const run = await door(repo.dir, ['--staged']);
      expect(onOutside(run.results), what).toHaveLength(1);
      expect(run.results, what).toEqual(cold);
    }
  });
});
