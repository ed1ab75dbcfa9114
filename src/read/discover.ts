// Which files are workflow files: the configured globs, minus what git ignores. Globs follow symbolic links,
// so a HumanLayer `thoughts/` that links into a separate repository is read through the link.
import { realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import fg from 'fast-glob';
import picomatch from 'picomatch';
import type { Kind } from '../model/types.js';
import type { Config } from '../config/config.js';
import { gitSync, repositoryRoot } from '../shared/git.js';
import { isStateFileName } from './paths.js';

export { repositoryRoot };

export interface Discovered {
  path: string;
  kind: Kind | 'searchable';
  /** For handoffs: the static base of the glob that found it (`thoughts/handoffs`); sessions are folders below it. */
  root: string;
}

function globBase(glob: string): string {
  return picomatch.scan(glob).base;
}

/** Paths git would ignore. Paths behind a symbolic link are asked of the repository the link points into. */
export function gitIgnored(root: string, paths: string[]): Set<string> {
  const ignored = new Set<string>();
  if (paths.length === 0) return ignored;
  const groups = new Map<string, { rel: string; path: string }[]>();
  for (const path of paths) {
    let repo = root;
    let rel = path;
    const real = safeRealpath(join(root, path));
    const realRoot = safeRealpath(root);
    if (real && realRoot && !real.startsWith(realRoot + sep)) {
      const other = repositoryRoot(dirname(real));
      if (!other) continue;
      repo = other;
      rel = relative(other, real);
    }
    const list = groups.get(repo) ?? [];
    list.push({ rel, path });
    groups.set(repo, list);
  }
  for (const [repo, list] of groups) {
    const res = gitSync(repo, ['check-ignore', '--stdin', '-z'], list.map((l) => l.rel).join('\0'));
    if (res.status !== 0 && res.status !== 1) continue;
    const hits = new Set(res.out.split('\0').filter(Boolean));
    for (const l of list) if (hits.has(l.rel)) ignored.add(l.path);
  }
  return ignored;
}

function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

export function discover(root: string, config: Config, inGit: boolean): Discovered[] {
  const found = new Map<string, Discovered>();
  // Earlier kinds win when globs overlap: a handoff folder inside a plans folder is still handoffs.
  const order: [Discovered['kind'], string[]][] = [
    ['handoff', config.paths.handoffs],
    ['ledger', config.paths.ledgers],
    ['plan', config.paths.plans],
    ['searchable', config.paths.searchable],
  ];
  for (const [kind, globs] of order) {
    for (const glob of globs) {
      const files = fg.sync(glob, { cwd: root, dot: false, onlyFiles: true, followSymbolicLinks: true, ignore: ['**/node_modules/**', '**/.git/**', ...config.ignore] });
      for (const path of files) if (!found.has(path)) found.set(path, { path, kind: kind === 'handoff' && isStateFileName(path) ? 'orchestration' : kind, root: globBase(glob) });
    }
  }
  const all = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (!inGit) return all;
  const ignored = gitIgnored(root, all.map((d) => d.path));
  return all.filter((d) => !ignored.has(d.path));
}
