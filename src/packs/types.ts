// Rule packs for the other systems in the seeds (ralph sessions, soong plans, append-only memory). A pack reads its
// own files into its own models; its rules are ordinary rule modules that judge those models (snapshot) or one
// commit's change to one of its files (history). The core engine, reports and docs serve them unchanged.
import type { ReadProblem } from '../model/types.js';
import type { Commit } from '../model/history.js';
import type { Config } from '../config/config.js';

export type PackId = 'ralph' | 'soong-plans' | 'memory';

/** One file of a pack as read: its model, or the problem that kept it from being read. */
export interface PackFile<M = unknown> {
  pack: PackId;
  path: string;
  /** Null when the file could not be read (the problem says why). */
  model: M | null;
  problems: ReadProblem[];
}

export interface PackDef {
  id: PackId;
  /** Globs (repository-relative) of the pack's files under this config; [] when the pack is off. */
  globs(config: Config): string[];
  /** Parse one file version; never throws (problems are findings). */
  read(path: string, bytes: Uint8Array): PackFile;
}

/** Every pack file of a snapshot, by pack. */
export type PackWorkspace = Map<PackId, PackFile[]>;

/** One commit's change to one pack file: the version before (null: added) and after (null: deleted). */
export interface PackChange {
  pack: PackId;
  path: string;
  before: PackFile | null;
  after: PackFile | null;
  /** Raw texts, for rules about lines (append-only files). */
  beforeText: string | null;
  afterText: string | null;
  commit: Commit;
}
