// A rule pack is one object, the way an ESLint plugin is: the files it owns (globs), how it reads one version of
// one of them (never throwing: problems are findings), its rules, and the JSON Schema fragment of its config key.
// The engine runs a pack's rules exactly as it runs the core's (same severities, disables, baseline, doors).
import type { ReadProblem } from '../model/types.js';
import type { Commit } from '../model/history.js';
import type { Config } from '../config/config.js';
import type { Rule } from '../rules/types.js';

export type PackId = string;

/** One file of a pack as read: its model, or the problem that kept it from being read. */
export interface PackFile<M = unknown> {
  pack: PackId;
  path: string;
  /** Null when the file could not be read (the problem says why). */
  model: M | null;
  problems: ReadProblem[];
}

export interface Pack {
  id: PackId;
  /** One line for the docs index and `--print-config`. */
  description: string;
  /** Globs (repository-relative) of the pack's files under this config; [] when the pack is off. */
  globs(config: Config): string[];
  /** Parse one file version; never throws (problems are findings). */
  read(path: string, bytes: Uint8Array): PackFile;
  rules: readonly Rule[];
  /**
   * JSON Schema of `packs.<id>` in the config (false switches any pack off); the build writes it into
   * schemas/config.schema.json. Its `description` is what a wrong value is told it must be.
   */
  configSchema: Record<string, unknown>;
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
