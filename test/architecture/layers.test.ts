// The house's layering (shared/ARCHITECTURE.md, round 2): imports only point down this list, so a newcomer can
// follow a finding from the CLI down to the reader without climbing back up, and history never learns of rules.
// Folders on one line may import each other; a folder may always import itself. fix writes files from findings and
// the model; verify re-runs the commands of ticked items (it folds history and names findings from the catalog).
// The top line is the doors: cli, api (the programmatic entry) and action (the GitHub Action's entry) are thin
// callers of the engine's doors (engine/run.ts, engine/doors.ts), so none of them imports another: what one of them
// would take from another belongs in the engine.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LAYERS: string[][] = [
  ['model', 'schemas', 'shared'],
  ['config'],
  ['read'],
  ['history'],
  ['rules', 'packs'],
  ['engine'],
  ['fix', 'verify'],
  ['report'],
  ['cli', 'api', 'action'],
];

/** The doors: on one line, and still apart. */
const DOORS = LAYERS.at(-1)!;

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function layerOf(folder: string): number {
  const at = LAYERS.findIndex((l) => l.includes(folder));
  if (at < 0) throw new Error(`src/${folder} is in no layer: add it to LAYERS in this test (and to ARCHITECTURE)`);
  return at;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative module specifiers of static imports, re-exports and dynamic `import()`s, with their lines. */
export function importsOf(text: string): { spec: string; line: number }[] {
  const out: { spec: string; line: number }[] = [];
  text.split('\n').forEach((l, i) => {
    for (const m of l.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/g))
      out.push({ spec: m[1]!, line: i + 1 });
  });
  return out;
}

/** Every import of one folder's module by another's: where, from which folder, into which. */
function crossings(): { where: string; from: string; target: string; spec: string }[] {
  const out: { where: string; from: string; target: string; spec: string }[] = [];
  for (const file of sources(SRC)) {
    const from = relative(SRC, file).split(sep)[0]!;
    for (const { spec, line } of importsOf(readFileSync(file, 'utf8'))) {
      const target = relative(SRC, resolve(dirname(file), spec)).split(sep)[0]!;
      if (target === from || target.startsWith('..')) continue;
      out.push({ where: `src/${relative(SRC, file).split(sep).join('/')}:${line}`, from, target, spec });
    }
  }
  return out;
}

function upward(): string[] {
  return crossings()
    .filter((c) => layerOf(c.target) > layerOf(c.from))
    .map((c) => `${c.where} (${c.from}) imports ${c.spec} (${c.target})`);
}

function betweenDoors(): string[] {
  return crossings()
    .filter((c) => DOORS.includes(c.from) && DOORS.includes(c.target))
    .map((c) => `${c.where} (${c.from}) imports ${c.spec} (${c.target})`);
}

describe('layering', () => {
  it('has no import that points up the layer list', () => {
    expect(upward()).toEqual([]);
  });

  it('has no door importing another (cli, api and action call the engine, not each other)', () => {
    expect(betweenDoors()).toEqual([]);
  });

  it('finds imports in every form the sources use (so the check above cannot pass by missing them)', () => {
    const text = [
      "import { a } from '../engine/a.js';",
      "export { b } from '../rules/b.js';",
      "  const m = await import('../cli/c.js');",
      "import '../report/d.js';",
      "import x from 'node:fs';",
    ].join('\n');
    expect(importsOf(text).map((i) => i.spec)).toEqual([
      '../engine/a.js',
      '../rules/b.js',
      '../cli/c.js',
      '../report/d.js',
    ]);
  });
});
