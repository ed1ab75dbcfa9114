// What a run reads besides the globs (convention section 6; issue 12, bypass 7): the plans that ledgers and
// handoffs name outside the globs (an upper-case `.MD`, a dot-file, a folder the globs miss), read as plans, and the
// targets of workflow files committed as symbolic links, tracked so that a commit changing only the target reaches
// the link. The globs alone decide nothing about either, so a run learns them from the files it reads: the fold from
// every version it folds (and the state it starts from), the commit doors from HEAD and the index. What is learned
// only widens the sight; a fold that learns something new is folded again with it (history/fold.ts).
import type { WorkflowFile } from '../model/types.js';
import type { Classifier } from '../read/classify.js';
import { linkTarget, namedPlanPaths } from '../read/paths.js';
import { refCandidates } from '../model/queries.js';
import { parseLink } from './links.js';
import type { FileMap, ModelSource } from './snapshot.js';

/** Files tracked besides the workflow files (pack files): which paths, and the folders to ask git about. */
export interface Tracked {
  match: (path: string) => boolean;
  pathspecs: string[];
  /** A tracked glob has no static folder: no pathspec limits git to its files (read/classify.ts baseless). */
  baseless?: boolean;
}

export const NOTHING_ELSE: Tracked = { match: () => false, pathspecs: [] };

/** Paths a run has not seen yet: named plans and link targets. */
export interface Learned {
  named: Set<string>;
  targets: Set<string>;
}

export const learned = (): Learned => ({ named: new Set(), targets: new Set() });

/**
 * What a model names for the sight: a ledger's or handoff's plan reference, null for any other model. The cache keeps
 * it beside each model (history/cache.ts), so it must stay a function of the model alone.
 */
export function planRefOf(model: WorkflowFile): string | null {
  return (model.kind === 'ledger' || model.kind === 'handoff') && typeof model.planRef === 'string'
    ? model.planRef
    : null;
}

export class Sight {
  /** Plans named outside the globs: classified as plans. */
  readonly named = new Set<string>();
  /** Targets of symbolic links among the workflow files. */
  readonly targets = new Set<string>();
  /** The globs' classifier, and the named plans as plans. */
  readonly classify: Classifier;

  constructor(readonly globs: Classifier) {
    this.classify = (path) => globs(path) ?? (this.named.has(path) ? { path, kind: 'plan', root: '' } : null);
  }

  /** `base` with what the sight adds: link targets are tracked, and every added path is a (literal) pathspec. */
  tracked(base: Tracked): Tracked {
    if (this.named.size === 0 && this.targets.size === 0) return base;
    const extra = [...this.named, ...this.targets].sort().map((p) => `:(literal)${p}`);
    return {
      match: (p) => base.match(p) || this.targets.has(p),
      pathspecs: [...base.pathspecs, ...extra],
      baseless: base.baseless,
    };
  }

  /** The plan paths a ledger or handoff version names that the sight does not cover yet. */
  namesOf(model: WorkflowFile | null, into: Learned): void {
    if (model) this.refers(planRefOf(model), model.path, into);
  }

  /**
   * References whose reading from the repository root is a plan in sight. That reading does not depend on where the
   * reference is written, and a plan in sight stays one (the sight only grows), so every other ledger or handoff that
   * writes the same reference (a wide repository's thousands of handoffs name a few hundred plans) teaches nothing.
   */
  private readonly rootPlans = new Set<string>();

  /** The plan paths a reference written in the ledger or handoff at `path` names that the sight does not cover yet. */
  private refers(ref: string | null, path: string, into: Learned): void {
    if (!ref || this.rootPlans.has(ref)) return;
    const candidates = namedPlanPaths(ref, path);
    // A reference that already names a plan in sight (the common case: a repository path the globs cover) teaches
    // nothing: its other readings (relative to the ledger's folder) name no file, and learning them would fold the
    // whole history a second time for every repository whose ledgers name their plans.
    if (candidates.some((path) => this.classify(path)?.kind === 'plan')) {
      // Named from the repository root (the first reading), not only from the referring file's folder.
      const first = candidates[0];
      if (first !== undefined && first === refCandidates(ref, path)[0] && this.classify(first)?.kind === 'plan')
        this.rootPlans.add(ref);
      return;
    }
    for (const path of candidates) if (this.classify(path) === null) into.named.add(path);
  }

  /** A link's target inside the repository; learned when the sight does not read it yet (a workflow file it reads). */
  targetOf(path: string, text: string, into: Learned): string | null {
    const target = linkTarget(path, text);
    if (target !== null && !this.targets.has(target) && this.classify(target) === null) into.targets.add(target);
    return target;
  }

  /** What a path -> value map teaches: the targets of its links, and the plans its ledgers and handoffs name. */
  learnState(state: FileMap, source: ModelSource, into: Learned): void {
    for (const path of state.keys()) {
      const value = state.get(path)!;
      const link = parseLink(value);
      if (link) this.targetOf(path, link.text, into);
      const kind = this.classify(path)?.kind;
      if (kind !== 'ledger' && kind !== 'handoff') continue;
      // What the source knows a version names without its model (the cache's index) spares decoding the model.
      const ref = source.names?.(value, path);
      if (ref !== undefined) this.refers(ref, path, into);
      else this.namesOf(source.get(value, path), into);
    }
  }

  /** Take in what was learned; @returns whether the sight grew. */
  grow(found: Learned): boolean {
    const before = this.named.size + this.targets.size;
    for (const p of found.named) if (this.classify(p) === null) this.named.add(p);
    for (const p of found.targets) this.targets.add(p);
    return this.named.size + this.targets.size > before;
  }
}
