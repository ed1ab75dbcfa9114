// The workspace as one commit (or the index) holds it: a map of path -> blob, with models parsed on demand from the
// shared store. Transition rules ask it questions; it never reads the working tree.
import { CONFIG_FILE, configFromObject, defaultConfig, type Config } from '../config/config.js';
import type { Handoff, Ledger, Plan, StrayFile, WorkflowFile, Workspace } from '../model/types.js';
import { buildWorkspace, resolvePlanRef } from '../read/workspace.js';
import type { Discovered } from '../read/discover.js';
import type { Classifier } from '../read/classify.js';
import { parseLink } from './links.js';

/**
 * Where a snapshot's models come from: a git-backed store in history and the hooks, an in-memory one for the rule
 * tester and the Claude Code hook's edits. Rules see snapshots, never the source's way of getting bytes.
 */
export interface ModelSource {
  readonly classify: Classifier;
  get(blob: string, path: string): WorkflowFile | null;
  /** Raw text of a non-workflow file version (the config, package.json, the baseline). */
  text(blob: string): string;
  /** Raw bytes of a version (pack files, which their packs read). */
  bytes(blob: string): Uint8Array | null;
  /** Read these texts at once, before text() asks for them one by one (optional: a source in memory needs not). */
  prefetch?(blobs: (string | undefined)[]): void;
  /**
   * Parse the models of these versions not known yet at once, before get() asks for them one by one (optional, as
   * prefetch: a git-backed source reads them through one `git cat-file` process instead of one each).
   */
  load?(refs: { blob: string; path: string }[]): void;
  /**
   * What a version names for the sight (history/sight.ts planRefOf) when known without its model; undefined: ask
   * get (optional: only the cache's index knows it).
   */
  names?(blob: string, path: string): string | null | undefined;
  /** Whether a version is a blocked handoff when known without its model (optional, as `names`); undefined: ask get. */
  blocked?(blob: string, path: string): boolean | undefined;
}

export const BASELINE_FILE = 'validate-workflow.baseline.json';
/** The allowed-signers file `init --strict` writes (config `allowedSigners`): the keys that may sign confirmations. */
export const ALLOWED_SIGNERS_FILE = 'validate-workflow.allowed-signers';
export const TRUST_FILES = [CONFIG_FILE, 'package.json', BASELINE_FILE, ALLOWED_SIGNERS_FILE];

/** What a snapshot needs of its path -> blob map. */
export interface FileMap {
  get(path: string): string | undefined;
  keys(): Iterable<string>;
}

/** A map seen with a few paths changed on top (undefined: removed), without copying the base. */
export class Overlay implements FileMap {
  constructor(
    private readonly base: FileMap,
    private readonly top: Map<string, string | undefined>,
  ) {}

  get(path: string): string | undefined {
    return this.top.has(path) ? this.top.get(path) : this.base.get(path);
  }

  *keys(): Iterable<string> {
    for (const k of this.base.keys()) if (!this.top.has(k) || this.top.get(k) !== undefined) yield k;
    for (const [k, v] of this.top) if (v !== undefined && this.base.get(k) === undefined) yield k;
  }
}

const configs = new WeakMap<ReadonlySet<string>, Map<string, Config>>();

export class Snapshot {
  private planPaths: Set<string> | null = null;
  private kindPaths = new Map<string, string[]>();

  constructor(
    readonly files: FileMap,
    readonly store: ModelSource,
    /**
     * A digest that names the files and what each is read as, where the snapshot is a commit's listing read as a
     * whole (history/fold.ts pendingCommit): the same digest, the same paths in the same order, the same versions,
     * read the same way. undefined: no such name (engine/snapshot-memory.ts then digests every path).
     */
    readonly listed?: string,
  ) {}

  model(path: string): WorkflowFile | null {
    const blob = this.files.get(path);
    return blob ? this.store.get(blob, path) : null;
  }

  /** The snapshot's path -> blob map as a plain Map (a copy: an Overlay is read through, never changed). */
  fileMap(): Map<string, string> {
    const m = new Map<string, string>();
    for (const path of this.files.keys()) m.set(path, this.files.get(path)!);
    return m;
  }

  /** Raw bytes of the version of `path` this snapshot holds. */
  bytes(path: string): Uint8Array | null {
    const blob = this.files.get(path);
    return blob ? this.store.bytes(blob) : null;
  }

  bytesOf(blob: string): Uint8Array | null {
    return this.store.bytes(blob);
  }

  kindOf(path: string): Discovered['kind'] | null {
    return this.store.classify(path)?.kind ?? null;
  }

  paths(kind: Discovered['kind']): string[] {
    let list = this.kindPaths.get(kind);
    if (!list) {
      list = [...this.files.keys()].filter((p) => this.kindOf(p) === kind);
      this.kindPaths.set(kind, list);
    }
    return list;
  }

  plan(path: string): Plan | null {
    const m = this.model(path);
    return m?.kind === 'plan' ? m : null;
  }

  private plans(): Set<string> {
    this.planPaths ??= new Set(this.paths('plan'));
    return this.planPaths;
  }

  ledgerOfSession(session: string): Ledger | null {
    for (const path of this.paths('ledger')) {
      const l = this.model(path);
      if (l?.kind === 'ledger' && l.session === session) return l;
    }
    return null;
  }

  planOfLedger(l: Ledger): Plan | null {
    const path = l.planRef ? resolvePlanRef(l.planRef, l.path, this.plans()) : null;
    return path ? this.plan(path) : null;
  }

  planOfHandoff(h: Handoff): Plan | null {
    const direct = h.planRef ? resolvePlanRef(h.planRef, h.path, this.plans()) : null;
    if (direct) return this.plan(direct);
    const ledger = h.session ? this.ledgerOfSession(h.session) : null;
    return ledger ? this.planOfLedger(ledger) : null;
  }

  /**
   * Where this snapshot's config keeps the allowed signers, when it names a path of its own: that file is a trust
   * file like the default one (an agent who adds its key to it signs confirmations). Read without the rule ids the
   * full config needs, which this layer does not know.
   */
  allowedSignersPath(): string | null {
    const raw = (blob: string | undefined): unknown => {
      try {
        return blob ? JSON.parse(this.store.text(blob)) : undefined;
      } catch {
        return undefined;
      }
    };
    const own = raw(this.files.get(CONFIG_FILE));
    const pkg = raw(this.files.get('package.json'));
    const settings =
      own ?? (pkg && typeof pkg === 'object' ? (pkg as Record<string, unknown>).validateWorkflow : undefined);
    const path =
      settings && typeof settings === 'object' ? (settings as Record<string, unknown>).allowedSigners : undefined;
    return typeof path === 'string' && path !== ALLOWED_SIGNERS_FILE ? path.replace(/^\.\//, '') : null;
  }

  /** The trust settings this snapshot holds: its config file, else package.json's key, else the defaults. */
  config(knownRules: ReadonlySet<string>): Config {
    // By the blobs it is read from: the fold asks it of every commit, whose config is almost always its parent's
    // (a copy, of which a door may set the preset).
    const k = `${this.files.get(CONFIG_FILE)}\0${this.files.get('package.json')}`;
    let byBlobs = configs.get(knownRules);
    if (!byBlobs) configs.set(knownRules, (byBlobs = new Map()));
    let config = byBlobs.get(k);
    if (!config) {
      config = this.readConfig(knownRules);
      if (byBlobs.size >= 16) byBlobs.clear();
      byBlobs.set(k, config);
    }
    return { ...config };
  }

  private readConfig(knownRules: ReadonlySet<string>): Config {
    const own = this.files.get(CONFIG_FILE);
    // Both settings files at once: allowedSignersPath reads both of them after this.
    this.store.prefetch?.([own, this.files.get('package.json')]);
    try {
      if (own) return configFromObject(JSON.parse(this.store.text(own)), CONFIG_FILE, knownRules);
      const pkg = this.files.get('package.json');
      if (pkg) {
        const data = JSON.parse(this.store.text(pkg)) as Record<string, unknown>;
        if (data && typeof data === 'object' && 'validateWorkflow' in data)
          return configFromObject(data.validateWorkflow, 'package.json', knownRules);
      }
    } catch {
      // A config that was broken in some old commit binds nobody; the defaults judge that commit's successor.
    }
    return defaultConfig();
  }

  workspace(root: string): Workspace {
    const files: WorkflowFile[] = [];
    const strays: StrayFile[] = [];
    // The models the loop asks for, read in one batch: the hooks met one or two versions the store did not hold yet
    // per snapshot, each a git process of its own.
    this.store.load?.(
      [...this.files.keys()].flatMap((path) => {
        const item = this.store.classify(path);
        const blob = this.files.get(path);
        return item && item.kind !== 'searchable' && blob ? [{ blob, path }] : [];
      }),
    );
    for (const path of this.files.keys()) {
      const item = this.store.classify(path);
      if (!item) continue;
      if (item.kind === 'searchable') {
        strays.push({ path, reason: 'searchable' });
        continue;
      }
      const link = parseLink(this.files.get(path));
      if (link) strays.push({ path, reason: 'symlink', target: link.text, followed: link.blob !== null });
      const m = this.model(path);
      if (m) files.push(m);
    }
    return buildWorkspace(root, files, strays);
  }
}
