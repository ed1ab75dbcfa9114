// The normalized model every reader produces and every rule consumes. Readers keep a source position for every
// element so a rule (or a schema error) can point at a file and line without going back to the text.

export type Kind = 'plan' | 'handoff' | 'ledger';

export interface Position {
  line: number;
  column: number;
}

/** Something that went wrong while reading a file (bad YAML, binary, bad encoding, too large). */
export interface ReadProblem extends Position {
  message: string;
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
}

export type CriterionKind = 'automated' | 'manual';

export interface CheckItem extends Position {
  text: string;
  checked: boolean;
  /** `N/A ...`: counts neither as verified nor as pending. */
  na: boolean;
}

export interface Task extends Position {
  number: number;
  title: string;
  checked: boolean;
  /** `- [ ] Task N:` list item, or `### Task N:` heading whose own checkboxes are its steps. */
  source: 'item' | 'heading';
  steps: CheckItem[];
}

export interface Phase extends Position {
  /** null for the implicit phase of a plan without phase headings (plan-agent dialect). */
  number: number | null;
  title: string;
  tasks: Task[];
  automated: CheckItem[];
  manual: CheckItem[];
  /** Checkboxes that are neither tasks, steps nor criteria; they still count as progress in the phase. */
  other: CheckItem[];
}

export type PlanMode = 'direct' | 'orchestration';

export interface Plan extends SourceFile {
  kind: 'plan';
  frontmatter: Record<string, unknown> | null;
  title: string | null;
  phases: Phase[];
  /** The object validated by schemas/plan.schema.json. */
  normalized: Record<string, unknown>;
}

export type HandoffStatus = 'complete' | 'partial' | 'blocked' | 'failed';

export type HandoffDialect =
  | 'task'
  | 'humanlayer'
  | 'yaml-session'
  | 'validation'
  | 'plan'
  | 'auto'
  | 'other';

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
  verification: unknown[];
  resolution: unknown;
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
}

export interface Ledger extends SourceFile {
  kind: 'ledger';
  session: string | null;
  planRef: string | null;
  status: string | null;
  items: LedgerItem[];
  normalized: Record<string, unknown>;
}

/** A path under `thoughts/searchable/` or similar: discovered only so layout rules can name it. */
export interface StrayFile {
  path: string;
  reason: 'searchable';
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
}

export type WorkflowFile = Plan | Handoff | Ledger;
