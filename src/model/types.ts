// The normalized model every reader produces and every rule consumes. Readers keep a source position for every
// element so a rule (or a schema error) can point at a file and line without going back to the text.

/** `orchestration`: an orchestration state file found among the handoffs (kept apart from them). */
export type Kind = 'plan' | 'handoff' | 'ledger' | 'orchestration';

export interface Position {
  line: number;
  column: number;
}

/** Something that went wrong while reading a file (bad YAML, binary, bad encoding, too large). */
export interface ReadProblem extends Position {
  message: string;
  /** What to do about it, when the kind's own fix ("Fix the YAML ...") does not fit (binary, UTF-16, too large). */
  fix?: string;
}

/** `<!-- validate-workflow-disable rule-id -- reason -->`, read from the file's current version. */
export interface Disable extends Position {
  ruleIds: string[];
  reason: string | null;
}

/** Maps a JSON pointer into the normalized object (`/phases/0/tasks/1`) to where it came from in the file. */
export type PositionMap = Record<string, Position>;

export interface SourceFile {
  /** Repository-relative path with `/` separators. */
  path: string;
  kind: Kind;
  /** false when the bytes could not be read as text at all (binary, bad encoding, too large, empty). */
  readable: boolean;
  problems: ReadProblem[];
  disables: Disable[];
  positions: PositionMap;
  /**
   * Where a field the file lacks is reported: the nearest heading (the H1, else the first heading), else the
   * frontmatter. A missing field has no line of its own, and 1:1 tells the user nothing.
   */
  anchor?: Position;
}

export type CriterionKind = 'automated' | 'manual';

export interface CheckItem extends Position {
  text: string;
  checked: boolean;
  /** `N/A ...`: counts neither as verified nor as pending. */
  na: boolean;
  /**
   * A declared deviation (an open item with its reason on the line: `(skipped: flaky)`, `deferred to Phase 5`,
   * struck through): it holds no later phase, but it is no N/A, so writing one is not loosening the plan.
   */
  deviation?: boolean;
  /**
   * Its kind read from its own words, not said by a heading: an item of a bare `### Verification` list is automated
   * when it runs a command and a human's otherwise. Rewording it can change that reading, so history pairs it with
   * its replacement by its place in the list (src/history/events.ts).
   */
  guessed?: boolean;
}

export interface Task extends Position {
  /** The top-level number: 3 for `Task 3`, `Task 3.1` and `Task 3b`. */
  number: number;
  /** The label as written after `Task`: `3`, `3.1`, `2A`. */
  label: string;
  title: string;
  checked: boolean;
  /** `- [ ] Task N:` list item, or `### Task N:` heading whose own checkboxes are its steps. */
  source: 'item' | 'heading';
  steps: CheckItem[];
}

export interface Phase extends Position {
  /**
   * The top-level number: 2 for `Phase 2`, `Phase 2A` and `Phase 2.1`, 0 for `Phase 0.3`; null for the implicit
   * phase of a plan without phase headings (plan-agent dialect) and for a label that starts with a letter (`R.1`).
   */
  number: number | null;
  /** The label as written after `Phase` (`2A`, `3.1`, `3-28`, `R.1`); null for the implicit phase. */
  label: string | null;
  title: string;
  tasks: Task[];
  automated: CheckItem[];
  manual: CheckItem[];
  /**
   * Criteria whose kind the plan does not say: the items of an undivided `### Success Criteria` list. They are
   * criteria (not progress), but neither automated nor manual.
   */
  unknown: CheckItem[];
  /** Checkboxes that are neither tasks, steps nor criteria; they still count as progress in the phase. */
  other: CheckItem[];
  /**
   * Not a phase of the plan's sequence: the items of a section outside it (a plan-wide criteria list, an end-of-plan
   * checklist, a rollout or future-work section with its own `Phase N` headings). Kept so every checkbox has a home
   * (the gate follows manual items wherever they stand); structure rules judge only the sequence.
   */
  outside?: boolean;
  /** A phase the plan sets aside (`[DEFERRED]`, `(skipped)`): it holds no later phase and needs no criteria. */
  deferred?: boolean;
  /** A phase set aside because its work moved into another (`Absorbed into Phase 4`): that phase's label. */
  movedInto?: string;
  /** A phase whose title says it is done (`[COMPLETED]`, `✅`): its open boxes are stale bookkeeping, not open work. */
  declaredDone?: boolean;
  /**
   * A phase whose own status line or heading says it is done (`### Implementation Status: Complete`): enough to keep
   * its stale boxes from contradicting the plan's own claim of completion, never a verification (phase order).
   */
  statusDone?: boolean;
  /**
   * A phase whose title says it is the plan's testing phase (`Testing & Validation`, `Final Verification`, `QA`) and
   * that holds plain checkboxes of no stated kind (its test steps; a task or a task's step is work, never these): the
   * plan keeps its verification there. Its boxes are read as they stand; `recommended`'s criteria rules count them as
   * the plan's criteria of unknown kind (plan-wide, as an undivided list after the phases), never as automated or
   * manual items.
   */
  verification?: boolean;
  /** A phase whose content sits in sub-phases (`## Phase 1` over `### Phase 1.1`): judged through them. */
  group?: boolean;
  /**
   * Criteria written without checkboxes (plain bullets, a code block) under a criteria heading, by kind: the phase
   * has criteria of that kind, though nothing to check off.
   */
  listed?: ('automated' | 'manual' | 'unknown')[];
  /**
   * The kinds of `listed` whose plain bullets all say there is nothing to check (`- N/A`, `- None for this phase`):
   * present for the criteria rules, as an N/A item is, but no check a human or a command makes.
   */
  listedNa?: ('automated' | 'manual' | 'unknown')[];
}

export type PlanMode = 'direct' | 'orchestration';

export interface Plan extends SourceFile {
  kind: 'plan';
  frontmatter: Record<string, unknown> | null;
  title: string | null;
  phases: Phase[];
  /**
   * A file in the plans folder that is not a plan: no phase heading, no task, no checkbox and no `type: plan` in its
   * frontmatter (a README, a plan review, a results note). Kept in the model (Workspace.documents), never judged.
   */
  notAPlan: boolean;
  /** The line of the first `### Success Criteria` list that is not split into automated and manual, if any. */
  undividedCriteria: Position | null;
  /**
   * Why the reader is not sure of the plan's phase sequence (a phase label repeated at the sequence's level), or
   * null. Structure rules stay silent on such a plan; the gate's rules still follow every checkbox.
   */
  unstructured: (Position & { reason: string }) | null;
  /**
   * Where the plan says its work is done (`status: complete`, a `**Status**: Implementation Complete` line, a
   * folder of finished plans), or null.
   */
  claimsComplete: (Position & { source: 'status' | 'body' | 'folder'; said: string }) | null;
  /**
   * The dialect the plan was read as: `phase-headings` (`## Phase N: ...`), `numbered-phases` (`### 4.1 ...` under
   * `## Phases`), `task-headings` (no phases, `### Task N:` headings: the plan-agent dialect), `checklist` (boxes
   * without phases or task headings), `unstructured` (phase labels repeat: the reader does not guess), or
   * `not-a-plan` (no checkbox and no criteria heading).
   */
  dialect: PlanDialect;
  /** Plan-wide criteria written without checkboxes, by kind (a `## Success Criteria` list of plain bullets). */
  listed?: ('automated' | 'manual' | 'unknown')[];
  /** The object validated by schemas/plan.schema.json. */
  normalized: Record<string, unknown>;
}

export type HandoffStatus = 'complete' | 'partial' | 'blocked' | 'failed';

/** Every plan dialect, in one list: the readers' registry (read/dialects) is checked against it. */
export const PLAN_DIALECTS = [
  'phase-headings',
  'numbered-phases',
  'task-headings',
  'checklist',
  'unstructured',
  'not-a-plan',
] as const;
export type PlanDialect = (typeof PLAN_DIALECTS)[number];

/**
 * Every handoff dialect, in one list: schemas/handoff.schema.json's `dialect` enum and the readers' registry
 * (read/dialects) are checked against it.
 */
export const HANDOFF_DIALECTS = ['task', 'humanlayer', 'yaml-session', 'validation', 'plan', 'auto', 'other'] as const;
export type HandoffDialect = (typeof HANDOFF_DIALECTS)[number];

export interface StatusClaim extends Position {
  /** Where the claim is: the key (`outcome`, `result`) or `body` for a marker in the Markdown body. */
  source: string;
  /** As written. */
  raw: string;
  /** Normalized like a status; null for a word that is no status. */
  status: HandoffStatus | null;
}

export interface VerificationResult {
  check: string;
  result: string;
}

export interface Handoff extends SourceFile {
  kind: 'handoff';
  dialect: HandoffDialect;
  /** Task handoffs are held to the micro-spec schema; the other dialects to their lighter one. */
  isTask: boolean;
  /** Folder below the handoffs root, or null when the handoff sits directly in the root. */
  session: string | null;
  /** The handoffs root this file was found under (`thoughts/handoffs`). */
  root: string;
  /** Task number from `task-NN` in the file name. */
  fileTask: number | null;
  status: HandoffStatus | null;
  task: number | null;
  taskDesc: string | null;
  planRef: string | null;
  previous: string | null;
  /**
   * A retry's `retry_of:`: the earlier handoff of the same task it follows (by path or file name). `previous:` may
   * name it too (convention section 6: a retry is a new file that names the earlier one).
   */
  retryOf: string | null;
  verification: unknown[];
  resolution: unknown;
  /**
   * Every other place the handoff states its outcome besides the status it was given: an `outcome:`/`result:` key
   * next to `status:`, a body marker (`**Status:** BLOCKED`, `## Status: PARTIAL`) under a frontmatter status.
   * handoff/outcome judges whether they agree.
   */
  claims: StatusClaim[];
  /** The handoff's text in lower case (capped), for link inference: which plan file or title it mentions. */
  mentions: string;
  /** Normalized field -> the key or section title it was read from, as written (messages name what the user wrote). */
  sources: Record<string, string>;
  /** The object validated by schemas/handoff.schema.json (raw values where they could not be normalized). */
  normalized: Record<string, unknown>;
  /** The frontmatter as written, which history requires never to change once committed. */
  frontmatter: Record<string, unknown> | null;
}

export type LedgerItemState = 'done' | 'in-progress' | 'pending';

export interface LedgerItem extends Position {
  text: string;
  state: LedgerItemState;
  task: number | null;
  /** What the item is known by: `Task 3`, `Phase 2A`, `Step 4`, or else its text. */
  label: string;
  /** The label this item was written under (`Done`, `Now`, `Remaining`), if any. */
  group: string | null;
}

/** A state label item (`- Done:`, `- Now: ...`) as written, for the rule that a label is not repeated in a section. */
export interface LedgerLabel extends Position {
  label: string;
  /** The `##`/`###` section it sits in (its title as written). */
  section: string;
}

export interface Ledger extends SourceFile {
  kind: 'ledger';
  session: string | null;
  planRef: string | null;
  status: string | null;
  items: LedgerItem[];
  labels: LedgerLabel[];
  /** The ledger's text in lower case (capped), for link inference: which plan file or title it mentions. */
  mentions: string;
  normalized: Record<string, unknown>;
}

/**
 * An orchestration state file (`orchestration.yaml` with `session`, `mode`, `current_phase`, `phases`) in a handoff
 * session folder: the orchestrator's bookkeeping, not a handoff. Kept apart so no handoff rule (and no history
 * rule) judges it as one.
 */
export interface OrchestrationState extends SourceFile {
  kind: 'orchestration';
  session: string | null;
  data: Record<string, unknown> | null;
}

/** A path under `thoughts/searchable/` or similar: discovered only so layout rules can name it. */
export interface StrayFile {
  path: string;
  /**
   * `searchable`: under the generated mirror, not read. `symlink`: a workflow file stored in this repository as a
   * symbolic link (read through the link when it points at a file inside the repository, else not read).
   */
  reason: 'searchable' | 'symlink';
  /** For a symbolic link: its target as written, and whether the file is read through it. */
  target?: string;
  followed?: boolean;
}

export interface Workspace {
  root: string;
  plans: Plan[];
  handoffs: Handoff[];
  ledgers: Ledger[];
  strays: StrayFile[];
  /** Plan path for each handoff and ledger path that could be linked. */
  links: Map<string, string>;
  /** Handoffs whose plan could not be found: one info each, then plan checks skip them. */
  unlinked: Handoff[];
  /**
   * Links the tool inferred (section 4: no `plan:` key, but one plan is named by the session's files or matches its
   * task handoffs): handoff or ledger path -> how. Every entry is also in `links`.
   */
  inferred: Map<string, InferredLink>;
  /** Files in the plans folder that are not plans (Plan.notAPlan): visible, never judged. */
  documents: Plan[];
  /** Orchestration state files found among the handoffs. */
  states: OrchestrationState[];
}

export interface InferredLink {
  plan: string;
  /** `mention`: the session's ledger or handoffs name the plan's file or title; `tasks`: task count and texts match. */
  by: 'mention' | 'tasks';
  session: string;
}

export type WorkflowFile = Plan | Handoff | Ledger | OrchestrationState;
