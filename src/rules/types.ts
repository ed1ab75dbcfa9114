// What a rule is: data (its id, severities, seed formula, description, fix) plus pure functions over the model.
// A rule never reads a file, calls git or parses text; the runner owns severity, disables and output.
import type { Config, Preset, RuleSetting } from '../config/config.js';
import type { Workspace } from '../model/types.js';

export interface RuleMeta {
  id: string;
  severities: Record<Preset, Exclude<RuleSetting, 'off'> | 'off'>;
  /** The formula of the seed spec the rule enforces ('—' when it guards the format only). */
  formula: string;
  description: string;
  /** The short fix, shown after each finding unless the finding gives its own. */
  fix: string;
}

export interface RawFinding {
  file: string | null;
  line: number | null;
  column?: number | null;
  message: string;
  fix?: string;
  /** A note rather than a problem: reported as `info` whatever the rule's severity. */
  info?: boolean;
}

export interface RuleContext {
  preset: Preset;
  config: Config;
  knownRules: ReadonlySet<string>;
}

export interface Rule {
  meta: RuleMeta;
  snapshot?(ws: Workspace, ctx: RuleContext): RawFinding[];
}
