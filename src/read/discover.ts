// Which files are workflow files: the configured globs, minus what git ignores, plus the plans a ledger or handoff
// names outside the globs. Globs follow symbolic links, so a HumanLayer `thoughts/` that links into a separate
// repository is read through the link; a workflow file that is itself a link in this repository is marked.
import {
  existsSync,
  lstatSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, posix, relative, resolve, sep } from 'node:path';
import fg from 'fast-glob';
import picomatch from 'picomatch';
import type { Kind, WorkflowFile } from '../model/types.js';
import type { Config } from '../config/config.js';
import { gitSync, repositoryInfo, repositoryRoot } from '../shared/git.js';
import { classifier } from './classify.js';
import { isStateFileName, isTemplateName, linkTarget, namedPlanPaths } from './paths.js';

export interface Discovered {
  path: string;
  kind: Kind | 'searchable';
  /** For handoffs: the static base of the glob that found it (`thoughts/handoffs`); sessions are folders below it. */
  root: string;
  /**
   * The file is stored in this repository as a symbolic link: its target as written, and whether it is read through
   * the link (it points at a file inside the repository, as history reads it from the commit's tree) or not (it
   * leaves the repository, or points at another link).
   */
  symlink?: { target: string; followed: boolean };
}

function globBase(glob: string): string {
  return picomatch.scan(glob).base;
}

/**
 * Paths git would ignore. Paths behind a symbolic link are asked of the repository the link points into; `inside`
 * says none is (linkFree), and spares looking.
 */
export function gitIgnored(root: string, paths: string[], entries = folderEntries(), inside = false): Set<string> {
  const ignored = new Set<string>();
  if (paths.length === 0) return ignored;
  const groups = new Map<string, { rel: string; path: string }[]>();
  if (inside)
    groups.set(
      root,
      paths.map((path) => ({ rel: path, path })),
    );
  const realRoot = inside ? null : safeRealpath(root);
  const real = realpaths(resolve(root), realRoot, entries);
  for (const path of inside ? [] : paths) {
    let repo = root;
    let rel = path;
    const resolved = real(join(root, path));
    if (resolved && realRoot && !resolved.startsWith(realRoot + sep)) {
      const other = repositoryRoot(dirname(resolved));
      if (!other) continue;
      repo = other;
      rel = relative(other, resolved);
    }
    const list = groups.get(repo) ?? [];
    list.push({ rel, path });
    groups.set(repo, list);
  }
  for (const [repo, list] of groups) {
    const hits = checkIgnore(
      repo,
      list.map((l) => l.rel),
    );
    if (!hits) continue;
    for (const l of list) if (hits.has(l.rel)) ignored.add(l.path);
  }
  return ignored;
}

/**
 * `git check-ignore`'s answer for these paths, or null when git fails (a path inside a submodule makes it die). Asked
 * with `--stdin`, git looks each path up against the whole index (tracked files are never ignored): 190 ms for 3,600
 * workflow files, most of a warm `status`. So the rules alone are asked first (`--no-index`, 9 ms), and the index
 * only about what they match, plus one path of each folder: a path inside a submodule makes git die, and so does its
 * neighbour, so the index-aware pass fails exactly when asking it everything would. A sparse checkout may read a
 * `.gitignore` missing from the work tree from the index, which `--no-index` cannot see: there every path is asked.
 */
function checkIgnore(repo: string, paths: string[]): Set<string> | null {
  const ask = (list: string[], noIndex: boolean) => {
    const res = gitSync(repo, ['check-ignore', ...(noIndex ? ['--no-index'] : []), '--stdin', '-z'], list.join('\0'));
    return res.status === 0 || res.status === 1 ? new Set(res.out.split('\0').filter(Boolean)) : null;
  };
  if (sparse(repo)) return ask(paths, false);
  const matched = ask(paths, true);
  if (!matched) return ask(paths, false);
  // Nothing matched: the index can only keep it so, or fail, and a failure ignores nothing either.
  if (matched.size === 0) return matched;
  const folders = new Map<string, string>();
  for (const path of paths) if (!folders.has(dirname(path))) folders.set(dirname(path), path);
  return ask([...new Set([...matched, ...folders.values()])], false);
}

function sparse(repo: string): boolean {
  const info = repositoryInfo(repo);
  return (
    !info ||
    existsSync(join(info.gitDir, 'info', 'sparse-checkout')) ||
    existsSync(join(info.commonDir, 'info', 'sparse-checkout'))
  );
}

/**
 * What a folder holds, by name, listed once: whether a file is a link is read from its folder's listing, not asked
 * of each file (an lstat per file, twice, was 45 ms of a warm `status` with 3,600 workflow files). Node lstats the
 * entries whose type the file system does not report; a name the listing lacks is lstat'ed itself.
 */
type FolderEntries = (path: string) => { isSymbolicLink(): boolean; isDirectory(): boolean } | null;

/** `listed`: the listings fast-glob already read while walking (recorded through its `fs` option), by folder. */
function folderEntries(listed?: ReadonlyMap<string, Dirent[]>): FolderEntries {
  const folders = new Map<string, Map<string, Dirent> | null>();
  return (path) => {
    const dir = dirname(path);
    let names = folders.get(dir);
    if (names === undefined) {
      try {
        names = new Map((listed?.get(dir) ?? readdirSync(dir, { withFileTypes: true })).map((e) => [e.name, e]));
      } catch {
        names = null;
      }
      folders.set(dir, names);
    }
    const entry = names?.get(basename(path));
    if (entry) return entry;
    // Not listed under that name (a path named in a file, spelled in another case on a case-insensitive disk).
    try {
      return lstatSync(path);
    } catch {
      return null;
    }
  };
}

/**
 * realpath for many files of few folders: a file itself only when it is a link (realpathSync per file cost 0.7 s
 * for 2,400 files on a loaded machine, most of a warm run's discovery), and a folder from its parent's when its
 * parent lists it as a folder that is no link (a realpathSync per folder was 9 ms for the 300 of the wide bench
 * shape), up to the repository's top folder, whose real path is known.
 */
function realpaths(root: string, realRoot: string | null, entries: FolderEntries): (path: string) => string | null {
  const folders = new Map<string, string | null>([[root, realRoot]]);
  const folderReal = (dir: string): string | null => {
    let real = folders.get(dir);
    if (real !== undefined) return real;
    const entry = entries(dir);
    const parent = dirname(dir);
    if (parent !== dir && dir.startsWith(root + sep) && entry?.isDirectory() && !entry.isSymbolicLink()) {
      const above = folderReal(parent);
      real = above === null ? null : join(above, basename(dir));
    } else real = safeRealpath(dir);
    folders.set(dir, real);
    return real;
  };
  return (path) => {
    const entry = entries(path);
    if (!entry) return null;
    if (entry.isSymbolicLink()) return safeRealpath(path);
    const folder = folderReal(dirname(path));
    return folder === null ? null : join(folder, basename(path));
  };
}

/**
 * Whether no path found leads through a link: each lies in a folder the walk listed (`paths` as fast-glob gives
 * them, relative with `/`), no listing holds a link, and each listed folder whose parent was not listed (a glob's
 * base) really is where it seems under the repository's real path. Then no file is a link or lies in another
 * repository, and nothing is asked per file (that was a third of a warm `status` with 3,600 workflow files).
 */
function linkFree(root: string, listed: ReadonlyMap<string, Dirent[]>, paths: readonly string[]): boolean {
  const top = resolve(root);
  const realTop = safeRealpath(top);
  if (realTop === null) return false;
  const folders = new Set<string>();
  for (const [dir, list] of listed) {
    if (list.some((e) => e.isSymbolicLink())) return false;
    if (dir !== top && !dir.startsWith(top + sep)) return false;
    const rel = relFrom(top, dir);
    folders.add(rel);
    if (dir !== top && !listed.has(dirname(dir)) && !inPlace(dir, realTop, rel)) return false;
  }
  for (const path of paths) {
    const cut = path.lastIndexOf('/');
    if (!folders.has(cut < 0 ? '' : path.slice(0, cut))) return false;
  }
  return true;
}

function keptWalk(
  root: string,
  at: number,
  listed: ReadonlyMap<string, Dirent[]>,
  statted: ReadonlyMap<string, Stats | undefined>,
  bases: string[],
  all: Discovered[],
): KeptWalk {
  const top = resolve(root);
  const rel = (dir: string) => relFrom(top, dir);
  const folders: KeptWalk['folders'] = [];
  for (const dir of listed.keys()) {
    // The stat taken before the folder was listed: a change during the walk shows as a different stat next time,
    // even one that keeps an old modification time (rsync -t, tar) or comes from a lagging clock (a network disk).
    const st = statted.get(dir);
    folders.push(st ? [rel(dir), st.mtimeMs, st.ctimeMs, st.ino] : [rel(dir), -1, -1, -1]);
  }
  const groups: KeptWalk['groups'] = [];
  const found: KeptWalk['found'] = all.map((d) => {
    let group = groups.findIndex(([kind, base]) => kind === d.kind && base === d.root);
    if (group < 0) group = groups.push([d.kind, d.root]) - 1;
    return [d.path, group];
  });
  return { at, folders, absent: [...new Set(bases.filter((b) => !listed.has(b)).map(rel))], found, groups };
}

/** A folder under the repository's top folder `top`, relative to it with `/` separators ('' for `top` itself). */
function relFrom(top: string, dir: string): string {
  return dir === top ? '' : relative(top, dir).split(sep).join('/');
}

/**
 * Whether a folder is where its path from the top says, under the top's real path: no link on the way (a walk is
 * only taken as linkless, or kept, for folders that are).
 */
function inPlace(dir: string, realTop: string, rel: string): boolean {
  return safeRealpath(dir) === join(realTop, rel);
}

function safeStat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The globs' walk as it was, kept between runs by a caller that runs often (`status`, from a SessionStart hook):
 * what it found, before git's ignore rules, and the stat of every folder it listed, which vouches for that listing
 * (a file added, removed or renamed in a folder changes the folder's modification time). Only a walk that met no
 * link and whose globs all walk folders (fast-glob stats a glob without wildcards directly) is kept.
 */
export interface KeptWalk {
  /** Date.now() before the walk: a folder changed this close to it may not show it (racily clean). */
  at: number;
  /** Every folder listed, from the repository's top folder: [path, mtimeMs, ctimeMs, ino]. */
  folders: [string, number, number, number][];
  /** The globs' bases that were not listed: they must still be no folder. */
  absent: string[];
  /** What the walk found, sorted by path: [path, the position of its [kind, root] in `groups`]. */
  found: [string, number][];
  groups: [Discovered['kind'], string][];
}

/** A walk kept for `discover`: the last one (null if none), and where the next one goes when it changed. */
export interface WalkMemo {
  kept: KeptWalk | null;
  /** null: the last walk cannot be kept (it met a link), so the one kept before is of no more use. */
  keep(walk: KeptWalk | null): void;
}

/**
 * A file or folder changed this close to when it was last looked at (or after) may have changed within the clock's
 * resolution without its modification time showing it (git's "racily clean" entries): it is looked at again. For the
 * kept walk here and status's summaries alike.
 */
export const RACY_MS = 2000;

/** The kept walk's findings if every folder it listed is unchanged, every base it missed is still missing, and every
 * folder it started from is still where it seems (no link on the way from the repository's top); else null. */
function keptFindings(root: string, kept: KeptWalk): Discovered[] | null {
  const top = resolve(root);
  const realTop = safeRealpath(top);
  if (
    realTop === null ||
    !Array.isArray(kept.folders) ||
    !Array.isArray(kept.absent) ||
    !Array.isArray(kept.found) ||
    !Array.isArray(kept.groups)
  )
    return null;
  const listed = new Set(kept.folders.map((f) => f[0]));
  for (const [rel, mtimeMs, ctimeMs, ino] of kept.folders) {
    const dir = rel === '' ? top : join(top, rel);
    const st = safeStat(dir);
    if (!st?.isDirectory() || st.mtimeMs !== mtimeMs || st.ctimeMs !== ctimeMs || st.ino !== ino) return null;
    // Racily clean: changed within the clock's resolution of the walk, the modification time may not show it.
    if (st.mtimeMs >= kept.at - RACY_MS) return null;
    if (rel !== '' && !listed.has(posix.dirname(rel) === '.' ? '' : posix.dirname(rel)) && !inPlace(dir, realTop, rel))
      return null;
  }
  for (const rel of kept.absent) if (safeStat(join(top, rel))?.isDirectory()) return null;
  const out: Discovered[] = [];
  for (const [path, at] of kept.found) {
    const group = kept.groups[at];
    if (!group) return null;
    out.push({ path, kind: group[0], root: group[1] });
  }
  return out;
}

export function discover(root: string, config: Config, inGit: boolean, memo?: WalkMemo): Discovered[] {
  const reused = memo?.kept ? keptFindings(root, memo.kept) : null;
  if (reused) {
    const paths = reused.map((d) => d.path);
    const ignored = inGit ? gitIgnored(root, paths, undefined, true) : new Set<string>();
    return reused.filter((d) => !ignored.has(d.path));
  }
  const at = Date.now();
  const found = new Map<string, Discovered>();
  // Every folder the walk lists is kept, types and all: which files are links, and where folders really are, is
  // read from these below instead of asking the disk again for each file.
  const listed = new Map<string, Dirent[]>();
  const statted = new Map<string, Stats | undefined>();
  const recording = ((dir: string, options?: { withFileTypes?: boolean }) => {
    const st = memo ? safeStat(dir) : undefined;
    const list = readdirSync(dir, options as { withFileTypes: true });
    if (options?.withFileTypes) {
      listed.set(resolve(dir), list);
      if (memo) statted.set(resolve(dir), st);
    }
    return list;
  }) as typeof readdirSync;
  // Earlier kinds win when globs overlap: a handoff folder inside a plans folder is still handoffs.
  const order: [Discovered['kind'], string[]][] = [
    ['handoff', config.paths.handoffs],
    ['ledger', config.paths.ledgers],
    ['plan', config.paths.plans],
    ['searchable', config.paths.searchable],
  ];
  const bases: string[] = [];
  let walksFolders = true;
  for (const [kind, globs] of order) {
    for (const glob of globs) {
      const base = globBase(glob);
      const options = {
        cwd: root,
        dot: false,
        onlyFiles: true,
        followSymbolicLinks: true,
        ignore: ['**/node_modules/**', '**/.git/**', ...config.ignore],
      };
      if (memo)
        for (const task of fg.generateTasks(glob, options)) {
          walksFolders &&= task.dynamic;
          bases.push(resolve(root, task.base));
        }
      const files = fg.sync(glob, { ...options, fs: { readdirSync: recording } });
      for (const path of files)
        if (!found.has(path) && !isTemplateName(path))
          found.set(path, {
            path,
            kind: kind === 'handoff' && isStateFileName(path) ? 'orchestration' : kind,
            root: base,
          });
    }
  }
  const all = [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const entries = folderEntries(listed);
  const paths = all.map((d) => d.path);
  const free = linkFree(root, listed, paths);
  if (memo && free && walksFolders) memo.keep(keptWalk(root, at, listed, statted, bases, all));
  else if (memo?.kept) memo.keep(null);
  const ignored = inGit ? gitIgnored(root, paths, entries, free) : new Set<string>();
  return all.filter((d) => !ignored.has(d.path)).map((d) => (free ? d : withLink(root, d, entries)));
}

/**
 * A workflow file that is itself a symbolic link inside this repository, marked as history sees it: followed when
 * its target (resolved from the link's folder) is a regular file inside the repository. A file behind a linked
 * folder (HumanLayer's `thoughts/` into another repository) is no link of this repository's.
 */
function withLink(root: string, d: Discovered, entries = folderEntries()): Discovered {
  if (d.kind === 'searchable') return d;
  const abs = join(root, d.path);
  if (!entries(abs)?.isSymbolicLink()) return d;
  const realRoot = safeRealpath(root);
  const folder = safeRealpath(dirname(abs));
  if (!realRoot || !folder || (folder !== realRoot && !folder.startsWith(realRoot + sep))) return d;
  const text = readlinkSync(abs);
  const target = linkTarget(d.path, text);
  let followed = false;
  try {
    followed = target !== null && lstatSync(join(root, target)).isFile();
  } catch {
    // A target that is not there: the link dangles.
  }
  return { ...d, symlink: { target: text, followed } };
}

/**
 * The plans ledgers and handoffs name that the globs miss (convention section 6: an upper-case `.MD`, a dot-file, a
 * folder the globs do not cover): Markdown files inside the repository that exist and git does not ignore. A path a
 * glob classifies is the globs' business (found, or ignored), never added here.
 */
export function discoverNamed(
  root: string,
  config: Config,
  files: readonly WorkflowFile[],
  known: ReadonlySet<string>,
  inGit: boolean,
): Discovered[] {
  return discoverPlansAt(root, namedPlans(config, files, known), inGit);
}

/** The paths of discoverNamed's plans, before looking whether they exist: a function of the files' models alone. */
export function namedPlans(config: Config, files: readonly WorkflowFile[], known: ReadonlySet<string>): string[] {
  const classify = classifier(config.paths);
  const wanted = new Set<string>();
  for (const f of files) {
    if ((f.kind !== 'ledger' && f.kind !== 'handoff') || !f.planRef) continue;
    for (const path of namedPlanPaths(f.planRef, f.path))
      if (!known.has(path) && classify(path) === null) wanted.add(path);
  }
  return [...wanted].sort();
}

/** Those of these plan paths that exist in the working tree and git does not ignore (namedPlans's, sorted). */
export function discoverPlansAt(root: string, paths: readonly string[], inGit: boolean): Discovered[] {
  const present = paths.filter((path) => {
    try {
      return statSync(join(root, path)).isFile();
    } catch {
      return false;
    }
  });
  const ignored = inGit ? gitIgnored(root, present) : new Set<string>();
  return present.filter((path) => !ignored.has(path)).map((path) => withLink(root, { path, kind: 'plan', root: '' }));
}

/** Folders under `thoughts/` that are no person's: the shared tree, HumanLayer's mirror, the workflow folders. */
const NOT_A_PERSON = new Set(['shared', 'searchable', 'global', 'plans', 'handoffs', 'ledgers']);

/**
 * HumanLayer keeps each person's plans in `thoughts/<user>/plans/`, which the default globs do not read: the people
 * whose folder holds Markdown plans there, and how many, so a run can say what it left out rather than pass them by.
 */
export function personalPlans(root: string): { people: string[]; plans: number } {
  const people: string[] = [];
  let plans = 0;
  for (const person of entries(join(root, 'thoughts'))) {
    if (NOT_A_PERSON.has(person.name) || person.name.startsWith('.')) continue;
    // HumanLayer links each person's folder into a thoughts repository: follow the link.
    if (!person.isDirectory() && !(person.isSymbolicLink() && isFolder(join(root, 'thoughts', person.name)))) continue;
    const count = countMarkdown(join(root, 'thoughts', person.name, 'plans'));
    if (count === 0) continue;
    people.push(person.name);
    plans += count;
  }
  return { people, plans };
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function countMarkdown(dir: string): number {
  let n = 0;
  for (const e of entries(dir)) {
    if (e.isDirectory()) n += countMarkdown(join(dir, e.name));
    else if (e.name.endsWith('.md')) n++;
  }
  return n;
}
