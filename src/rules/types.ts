// What a rule is: data (its id, severities, rule in one line, description, fix) plus pure functions over the model.
// A rule never reads a file, calls git or parses text; the runner owns severity, disables and output.
import type { Config, Preset, RuleSetting } from '../config/config.js';
import type { Plan, Workspace } from '../model/types.js';
import type { Change, Commit, Event, Identity } from '../model/history.js';
import type { Snapshot } from '../history/snapshot.js';
import type { Confirmation } from '../history/trust.js';
import type { PackChange, PackWorkspace } from '../packs/types.js';
import type { Citation } from '../model/finding.js';

export interface RuleMeta {
  id: string;
  /**
   * Per preset. `info` (a preset's level, not a setting the config can give) reports every finding as a note that
   * never fails a run: a state worth seeing that is not a violation by itself in that preset.
   */
  severities: Record<Preset, RuleSetting | 'info'>;
  /**
   * The level of a finding a change introduces (a commit at the hooks, a pull request's range) where the preset reports
   * the rule as notes: a state in the files is a note, but the change that makes it did something in order.
   */
  introducedAs?: 'warn' | 'error';
  /**
   * The rule in one line, in the notation of the workflow's formal spec (docs pages print it as "The rule in one
   * line"); '—' when it guards the format only.
   */
  formula: string;
  description: string;
  /**
   * What the rule checks in one line (under 80 characters), where a report has room for no more: the PR comment, the
   * rule list of `explain`. The description stays the full text, on the docs page and in `explain <id>`. Every
   * rule of the catalog has one (test/architecture/registry.test.ts); a pack's rule may leave it out.
   */
  short?: string;
  /** The short fix, shown after each finding unless the finding gives its own. */
  fix: string;
  /**
   * Every sentence the rule can say, by name, with `{{placeholders}}` (ESLint's `messages`): findings name a
   * message, so the CLI, the reports and the Claude Code hook print the same words and tests assert the id.
   * Fix texts a finding gives instead of `fix` live here too.
   */
  messages: Record<string, string>;
  /**
   * The Claude Code hook refuses an Edit that introduces this snapshot finding, because the finding is about the
   * order of the agent's steps (a task checked before its handoff exists). Other snapshot findings are about
   * consistency between files, which an agent restores over several edits: they are judged when it stops.
   * Transition findings (how a change was made) are always refused at the edit.
   */
  editGate?: boolean;
  /**
   * `--fix` repairs this rule's findings (src/fix/): `problem` when the repair is mechanical and certain, `scaffold`
   * when it adds structure a human must fill in (made only with `--fix-type scaffold`).
   */
  fixable?: 'problem' | 'scaffold';
}

export interface RawFinding {
  file: string | null;
  line: number | null;
  column?: number | null;
  /** A key of the rule's `meta.messages`. */
  messageId: string;
  /** Values for the message's (and the fix's) `{{placeholders}}`. */
  data?: Record<string, string | number>;
  /** A key of `meta.messages` holding this finding's own fix, instead of `meta.fix`. */
  fixId?: string;
  /** At most a warning, whatever the rule's severity (a lesser form of the rule's problem, such as a repeated label). */
  warn?: boolean;
  /** A note rather than a problem: reported as `info` whatever the rule's severity. */
  info?: boolean;
  /** Finding.causes. */
  causes?: string[];
  /** Finding.undo. */
  undo?: string[];
  /** The finding quotes this part of the repository's profile where its instructions state it (Finding.cite). */
  cite?: Citation['part'];
}

export interface RuleContext {
  preset: Preset;
  config: Config;
  knownRules: ReadonlySet<string>;
  /** When set, only findings in these files will be reported: per-file checks may skip the others. */
  focus?: ReadonlySet<string>;
  /**
   * Blocked handoffs the user gave guidance for in a commit (`Guidance-by:` by a human), by path, with who gave it:
   * a fact only history knows, handed to the snapshot rules by the door (engine/guidance.ts).
   */
  guidance?: ReadonlyMap<string, string>;
  /**
   * Resolutions of blocked handoffs that an agent's commit wrote (history/resolutions.ts resolutionKey): not the
   * user's word, so they resolve nothing. Only history knows who wrote a resolution; without it one counts.
   */
  selfResolved?: ReadonlySet<string>;
}

/**
 * One commit's transition: the snapshots before and after it, the events between them, and the commit's metadata.
 * `stage` says which door it came through: the full history, a pre-commit (no message yet), or commit-msg.
 */
export interface TransitionContext extends RuleContext {
  stage: 'history' | 'staged' | 'commit-msg';
  commit: Commit;
  events: readonly Event[];
  /** The files the commit changes (a change of a body section has no event of its own). */
  changes: readonly Change[];
  before: Snapshot;
  after: Snapshot;
  /**
   * The run is an audit of a history that never adopted the convention (no config file, convention section 6):
   * a plan, handoff or item that enters git already progressed is an info ("history cannot show who checked it"),
   * not an error. After the adoption point this is false, and adding a plan already checked is a check-off.
   */
  audit: boolean;
  /** Identities of the commit (author, committer, co-authors) that match the `agents` patterns. */
  agents: readonly Identity[];
  /** Whether a human's `Confirmed-by` counts for this commit (signature checked only when asked). */
  confirmation(): Confirmation;
  /**
   * Whether the commit changes documents only (workflow files, Markdown, text): an import or a docs commit, not the
   * implementing commit. Asked of git once, only when a rule needs it.
   */
  documentsOnly(): boolean;
  /** Whether the commit's `Guidance-by:` counts: the human's answer to a blocked handoff, checked like a confirmation. */
  guidanceGiven(): Confirmation;
  /**
   * The versions of the plan at `file` that earlier commits made, newest first: those of the commits before this one
   * on its first parent's ancestry, the parent's own version among them (history/past.ts). What a formula's `P`
   * (at some earlier point) reads beyond the parent's snapshot. Empty without git (the rule tester). Asked of git
   * once per file, only when a rule needs it.
   */
  earlierPlans(file: string): readonly Plan[];
}

export interface Rule {
  meta: RuleMeta;
  snapshot?(ws: Workspace, ctx: RuleContext): RawFinding[];
  transition?(ctx: TransitionContext): RawFinding[];
  /** Rule packs: judge the pack files of the working tree. */
  packSnapshot?(packs: PackWorkspace, ctx: RuleContext): RawFinding[];
  /** Rule packs: judge one commit's change to one pack file. */
  packTransition?(change: PackChange, ctx: RuleContext): RawFinding[];
}
