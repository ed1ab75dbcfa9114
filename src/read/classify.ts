// Which kind of workflow file a repository path is, by the configured globs, without touching the file system:
// history asks this of paths that only exist in old commits or in the index.
import picomatch from 'picomatch';
import type { Paths } from '../config/config.js';
import type { Discovered } from './discover.js';
import { isStateFileName, isTemplateName } from './paths.js';

export type Classifier = (path: string) => Discovered | null;

/**
 * One classifier per set of globs in a process: a door lists HEAD and the index through several stores (its trust
 * settings, the change's snapshots), and each asked the globs of every path again.
 */
const classifiers = new Map<string, Classifier>();

export function classifier(paths: Paths): Classifier {
  const k = JSON.stringify([paths.handoffs, paths.ledgers, paths.plans, paths.searchable]);
  let known = classifiers.get(k);
  if (!known) {
    if (classifiers.size >= 16) classifiers.clear();
    known = newClassifier(paths);
    classifiers.set(k, known);
  }
  return known;
}

function newClassifier(paths: Paths): Classifier {
  const order: [Discovered['kind'], string[]][] = [
    ['handoff', paths.handoffs],
    ['ledger', paths.ledgers],
    ['plan', paths.plans],
    ['searchable', paths.searchable],
  ];
  const matchers = order.flatMap(([kind, globs]) =>
    globs.map((glob) => ({ kind, root: picomatch.scan(glob).base, match: globMatcher(glob) })),
  );
  const memo = new Map<string, Discovered | null>();
  return (path) => {
    let hit = memo.get(path);
    if (hit !== undefined) return hit;
    const m = isTemplateName(path) ? undefined : matchers.find((x) => x.match(path));
    hit = m
      ? { path, kind: m.kind === 'handoff' && isStateFileName(path) ? 'orchestration' : m.kind, root: m.root }
      : null;
    // Process-wide now (one classifier per set of globs): bounded, as a long-lived API or agent hook sees many paths.
    if (memo.size >= 16384) memo.clear();
    memo.set(path, hit);
    return hit;
  };
}

/**
 * What `picomatch(glob, { dot: false })` answers of a path, without its matcher's two objects per question: its test
 * is the path equal to the glob, or the glob's regular expression (the one picomatch compiles for it). A commit door
 * classifies every path of HEAD and of the index in a fresh process: on the wide bench shape, 7,200 questions cost
 * ~13 ms through picomatch's matcher.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const re = picomatch.makeRe(glob, { dot: false });
  return (path) => path !== '' && (path === glob || re.test(path));
}

/**
 * Whether a glob of the workflow files has no static folder (`**\/handoffs/*.yaml`): no pathspec of git's limits a
 * listing or a log to its files, so git is asked about the whole tree.
 */
export function baseless(paths: Paths): boolean {
  return [...paths.plans, ...paths.handoffs, ...paths.ledgers].some((g) => !picomatch.scan(g).base);
}

/** Static folders of the globs: the pathspecs that limit `git log` to workflow files (see baseless). */
export function pathspecs(paths: Paths): string[] {
  const bases = [...paths.plans, ...paths.handoffs, ...paths.ledgers]
    .map((g) => picomatch.scan(g).base)
    .filter(Boolean);
  return [...new Set(bases)];
}
