// The memory pack (seed 001, Plan2 memory store): JSONL truth sources, memory units, stage versions, the derived
// index, and append-only history, in real temporary git repositories.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { git, lint, makeRepo, of, readTree, writeFiles } from '../helpers/repo.js';
import { CONFIG_FILE, defaultConfig, loadConfig, type Config } from '../../src/config/config.js';
import { packHistory } from './history.js';
import { RULE_IDS } from '../../src/engine/catalog.js';
import { stageVersionProblem } from '../../src/packs/memory/rules/stage-version.js';

const ROOT = 'chats/design-review';
const ON: Partial<Config> = { packs: { memory: { root: ROOT } } };
const M = `${ROOT}/memory`;

function fixture(name: string): Record<string, string> {
  return readTree(fileURLToPath(new URL(`../fixtures/packs/memory/${name}`, import.meta.url)), 'utf8');
}

const memoryFindings = (fs: ReturnType<typeof lint>) => fs.filter((f) => f.ruleId.startsWith('memory/'));

const unit = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    type: 'decision',
    content: `fact ${id}`,
    scope: 'combat',
    priority: 'soft',
    confidence: 0.5,
    provenance: 'meeting 2026-01-15',
    ...extra,
  });

describe('memory pack: snapshot', () => {
  it('is off without config, on with it (config file read as users write it)', () => {
    const dir = makeRepo(fixture('violations'));
    expect(memoryFindings(lint(dir))).toEqual([]);
    const config = loadConfig(dir, undefined, RULE_IDS);
    expect(config.packs.memory).toEqual({ root: ROOT });
    expect(memoryFindings(lint(dir, config)).length).toBeGreaterThan(0);
  });

  it('a clean store has no findings; an ignored derived index is fine', () => {
    const dir = makeRepo({ ...fixture('clean'), [`${ROOT}/index.sqlite`]: 'SQLite format 3\n' });
    expect(memoryFindings(lint(dir, ON))).toEqual([]);
  });

  it('the root "." is the repository root', () => {
    const dir = makeRepo({ 'memory/deltas.jsonl': `${unit('u-1')}\nnot json\n` });
    const f = of(lint(dir, { packs: { memory: { root: './' } } }), 'memory/jsonl');
    expect(f.map((x) => [x.file, x.line])).toEqual([['memory/deltas.jsonl', 2]]);
  });

  it('reports each planted violation under its rule, at its line', () => {
    const fs = lint(makeRepo(fixture('violations')), ON);
    const jsonl = of(fs, 'memory/jsonl');
    expect(jsonl.map((f) => [f.file, f.line])).toEqual([[`${M}/deltas.jsonl`, 2]]);

    const schema = of(fs, 'memory/unit-schema');
    expect(schema.every((f) => f.file === `${M}/cold/facts.jsonl` && f.line === 1)).toBe(true);
    const messages = schema.map((f) => f.message).join('\n');
    expect(messages).toMatch(/`type` must be one of "constitution", "decision", "semantic", "episodic", "snippet"/);
    expect(messages).toMatch(/`priority` must be one of "hard", "soft", "ref"/);
    expect(messages).toMatch(/`confidence` must be <= 1/);
    expect(messages).toMatch(/missing required field `provenance`/);

    const stage = of(fs, 'memory/stage-version');
    expect(stage.map((f) => [f.file, f.line])).toEqual([[`${M}/hot_context_versions.jsonl`, 1]]);
    expect(stage[0]!.message).toMatch(/scope@vYYYYMMDD-NN/);

    const index = of(fs, 'memory/index-committed');
    expect(index.map((f) => f.file)).toEqual([`${ROOT}/global/index/inverted.sqlite`]);
    expect(fs.filter((f) => f.ruleId.startsWith('memory/')).every((f) => f.severity === 'error')).toBe(true);
  });

  it('a tracked index is a finding even when ignored', () => {
    const dir = makeRepo({ ...fixture('clean'), [`${ROOT}/index.sqlite`]: 'x' });
    git(dir, 'add', '-f', `${ROOT}/index.sqlite`);
    expect(of(lint(dir, ON), 'memory/index-committed').map((f) => f.file)).toEqual([`${ROOT}/index.sqlite`]);
  });

  it('stage versions: shape, real date, own scope; versions without @ are not stage versions', () => {
    expect(stageVersionProblem('combat@v20260115-02', 'combat')).toBeNull();
    expect(stageVersionProblem('combat@v20260230-01', 'combat')).toMatch(/no real date/);
    expect(stageVersionProblem('level@v20260115-01', 'combat')).toMatch(/scope "level"/);
    expect(stageVersionProblem('combat@20260115-01', 'combat')).toMatch(/does not match/);
    const dir = makeRepo({ [`${M}/deltas.jsonl`]: `${unit('u-1', { version: '2026-01..2026-03' })}\n` });
    expect(memoryFindings(lint(dir, ON))).toEqual([]);
  });
});

describe('memory pack: history (append-only truth sources)', () => {
  function commit(dir: string, files: Record<string, string>, message: string): string {
    writeFiles(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', message);
    return git(dir, 'rev-parse', 'HEAD').trim();
  }
  const config = { ...defaultConfig(), ...ON } as Config;
  // Each commit is judged by its parent's settings, so the store's root is committed first.
  const CONFIG = { [CONFIG_FILE]: `${JSON.stringify(ON)}\n` };
  function repo(): string {
    const dir = makeRepo({});
    commit(dir, CONFIG, 'configure the memory pack');
    return dir;
  }

  it('appending lines is clean', async () => {
    const dir = repo();
    commit(dir, { [`${M}/deltas.jsonl`]: `${unit('u-1')}\n` }, 'first delta');
    commit(
      dir,
      { [`${M}/deltas.jsonl`]: `${unit('u-1')}\n${unit('u-2')}\n`, [`${M}/cold/facts.jsonl`]: `${unit('u-3')}\n` },
      'second delta',
    );
    commit(dir, { [`${M}/cold/facts.jsonl`]: `${unit('u-3')}\n${unit('u-4')}\n` }, 'more facts');
    expect(await packHistory(dir, config)).toEqual([]);
  });

  it('an edited line, a removed line and a deleted file are errors naming the commit', async () => {
    const dir = repo();
    commit(
      dir,
      {
        [`${M}/deltas.jsonl`]: `${unit('u-1')}\n${unit('u-2')}\n`,
        [`${M}/hot_context_versions.jsonl`]: '{"version":"combat@v20260115-01"}\n',
      },
      'deltas',
    );
    const edit = commit(
      dir,
      { [`${M}/deltas.jsonl`]: `${unit('u-1', { confidence: 0.9 })}\n${unit('u-2')}\n${unit('u-3')}\n` },
      'tweak a delta',
    );
    const cut = commit(dir, { [`${M}/deltas.jsonl`]: `${unit('u-1', { confidence: 0.9 })}\n` }, 'drop deltas');
    git(dir, 'rm', '-q', `${M}/hot_context_versions.jsonl`);
    git(dir, 'commit', '-q', '-m', 'drop hot context');
    const del = git(dir, 'rev-parse', 'HEAD').trim();

    const f = of(await packHistory(dir, config), 'memory/append-only');
    expect(f.map((x) => [x.commit, x.file, x.line])).toEqual([
      [edit, `${M}/deltas.jsonl`, 1],
      [cut, `${M}/deltas.jsonl`, 1],
      [del, `${M}/hot_context_versions.jsonl`, null],
    ]);
    // The finding carries the commit (asserted above); the message says what happened, the same at every door.
    expect(f[0]!.message).toMatch(/^The commit edited line 1 of the append-only/);
    expect(f[1]!.message).toMatch(/removed lines 2-3/);
    expect(f.every((x) => x.severity === 'error')).toBe(true);
  });

  it('the pack is off in history without config', async () => {
    const dir = makeRepo({});
    commit(dir, { [`${M}/deltas.jsonl`]: `${unit('u-1')}\n${unit('u-2')}\n` }, 'deltas');
    commit(dir, { [`${M}/deltas.jsonl`]: `${unit('u-2')}\n` }, 'drop a delta');
    expect(await packHistory(dir, defaultConfig())).toEqual([]);
    expect(await packHistory(dir, config)).toEqual([]);
  });
});
