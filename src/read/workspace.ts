// Files -> Workspace: read every discovered file with the reader of its kind, then link ledgers, plans and
// handoffs. Reading never judges; a file that cannot be read becomes a model that carries the problem.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type {
  Handoff,
  InferredLink,
  Ledger,
  OrchestrationState,
  Plan,
  ReadProblem,
  StrayFile,
  Task,
  Workspace,
  WorkflowFile,
} from '../model/types.js';
import type { Config } from '../config/config.js';
import { discoverNamed, type Discovered } from './discover.js';
import { decode, type Decoded } from './text.js';
import { deriveVersion } from './derive.js';
import { readPlanText } from './plan.js';
import { readHandoffText, readOrchestrationState } from './handoff.js';
import { readLedgerText } from './ledger.js';
import { planNames, refCandidates } from '../model/queries.js';

export function readText(item: Discovered, text: string): WorkflowFile {
  switch (item.kind) {
    case 'plan':
      return readPlanText(item.path, text);
    case 'orchestration':
      return readOrchestrationState(item.path, item.root, text, true)!;
    case 'handoff':
      // An orchestration state file sits among the handoffs but is none (never a "deleted handoff" when removed).
      return readOrchestrationState(item.path, item.root, text) ?? readHandoffText(item.path, item.root, text);
    default:
      return readLedgerText(item.path, text);
  }
}

/** Bytes -> model; unreadable bytes give an empty model of the right kind that carries the problem. */
export function readBytes(item: Discovered, bytes: Uint8Array, maxBytes: number): WorkflowFile {
  return readDecoded(item, decode(bytes, maxBytes));
}

/** Decoded bytes -> model, as readBytes. */
function readDecoded(item: Discovered, decoded: Decoded): WorkflowFile {
  let problem: ReadProblem | null = decoded.ok ? null : decoded.problem;
  if (decoded.ok && decoded.text.trim() === '')
    problem = {
      line: 1,
      column: 1,
      message: 'File is empty.',
      fix: 'Write the file (`npx validate-workflow new plan|handoff|ledger` starts one from the template), or remove it.',
    };
  if (!problem && decoded.ok) {
    // The parsers recurse: pathological nesting (thousands of `>` quotes or `[` brackets) overflows the stack
    // inside remark or yaml. That is still a file that could not be parsed, a finding of its kind, not exit 2.
    try {
      return readText(item, decoded.text);
    } catch (err) {
      // The error's own text is the parser's internals ("Maximum call stack size exceeded"); the user needs the cause.
      const deep = err instanceof RangeError;
      problem = {
        line: 1,
        column: 1,
        message: deep
          ? 'File could not be parsed: it nests too deeply (thousands of `>` quotes, list levels or brackets); simplify its structure.'
          : 'File could not be parsed; simplify its structure (deep nesting is the usual cause).',
        fix: 'Simplify the structure the message names (fewer nested quotes, list levels or brackets).',
      };
    }
  }
  const model = readText(item, '');
  // An unreadable file in the plans folder is still judged as a plan: its problem must be reported.
  return {
    ...model,
    ...(model.kind === 'plan' ? { notAPlan: false } : {}),
    readable: false,
    problems: [problem!],
  } as WorkflowFile;
}

/**
 * Reads versions of files in the order given, each path's versions oldest first (a history walk): a plan version
 * that only checks boxes of the path's previous version, or appends prose to it, is derived from that version's
 * model (read/derive.ts) instead of parsed. One per thread: the previous versions it keeps are that thread's.
 */
export class VersionReader {
  /** Each path's previous version; `given`: its model came to prime (or was derived from one that did). */
  private readonly last = new Map<string, Previous>();
  derived = 0;
  parsed = 0;
  /** Previous versions given with their model (prime), not read here. */
  primed = 0;

  /**
   * A version whose model is known (HEAD's side of a commit's change, from the models a commit door kept or the
   * cache: engine/change-models.ts) as the path's previous one, so that the next version read can be derived from it.
   */
  prime(item: Discovered, bytes: Uint8Array, maxBytes: number, model: WorkflowFile): void {
    if (item.kind !== 'plan' || !model.readable) return;
    const decoded = decode(bytes, maxBytes);
    if (!decoded.ok) return;
    this.last.set(item.path, { text: decoded.text, model: structuredClone(model), given: true });
    this.primed++;
  }

  read(item: Discovered, bytes: Uint8Array, maxBytes: number): WorkflowFile {
    const decoded = decode(bytes, maxBytes);
    if (item.kind !== 'plan' || !decoded.ok) return readDecoded(item, decoded);
    const previous = this.last.get(item.path);
    const derived = previous ? deriveFrom(previous, decoded.text) : null;
    const model = derived ?? readDecoded(item, decoded);
    if (derived) this.derived++;
    else this.parsed++;
    // The kept model is a copy: callers own what they are given and may change it.
    if (model.readable)
      this.last.set(item.path, {
        text: decoded.text,
        model: structuredClone(model),
        given: derived !== null && previous!.given,
      });
    return model;
  }
}

interface Previous {
  text: string;
  model: WorkflowFile;
  given: boolean;
}

/**
 * The version derived from the previous one, or null (parse it). A model given to prime comes from a file in the git
 * folder, which anything that can run git can write: one that is not the shape a reader makes (a forged entry under
 * a valid digest) is parsed instead of failing the hook. A model this reader made is derived from without that net,
 * so that a fault of the derivation itself still fails loudly (the property tests of test/read/derive.test.ts).
 */
function deriveFrom(previous: Previous, text: string): WorkflowFile | null {
  if (!previous.given) return deriveVersion(previous.model, previous.text, text);
  try {
    return deriveVersion(previous.model, previous.text, text);
  } catch {
    return null;
  }
}

export function readOne(root: string, item: Discovered, maxBytes: number): WorkflowFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(join(root, item.path));
  } catch (err) {
    const model = readText(item, '');
    return {
      ...model,
      ...(model.kind === 'plan' ? { notAPlan: false } : {}),
      readable: false,
      problems: [
        {
          line: 1,
          column: 1,
          message: `File could not be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
          fix: 'Make the file readable (its permissions, or what a symbolic link points to), or remove it.',
        },
      ],
    } as WorkflowFile;
  }
  return readBytes(item, bytes, maxBytes);
}

/** Resolve a plan reference as written in a handoff or ledger to the path of a known plan. */
export function resolvePlanRef(
  ref: string,
  from: string,
  plans: { has(path: string): boolean; keys(): Iterable<string> },
): string | null {
  const clean = ref.trim().replace(/^\.\//, '');
  for (const c of refCandidates(ref, from)) if (plans.has(c)) return c;
  const byName = [...plans.keys()].filter((p) => posix.basename(p) === posix.basename(clean));
  return byName.length === 1 ? byName[0]! : null;
}

/** Whether a discovered file is read: not under the searchable mirror, and not a link that is not followed. */
export function readableItem(item: Discovered): boolean {
  return item.kind !== 'searchable' && (item.symlink === undefined || item.symlink.followed);
}

/** The discovered files reported as they are, not for what they say: the searchable mirror, symbolic links. */
export function straysOf(discovered: readonly Discovered[]): StrayFile[] {
  return discovered.flatMap((d): StrayFile[] =>
    d.kind === 'searchable'
      ? [{ path: d.path, reason: 'searchable' }]
      : d.symlink
        ? [{ path: d.path, reason: 'symlink', target: d.symlink.target, followed: d.symlink.followed }]
        : [],
  );
}

export function buildWorkspace(root: string, files: WorkflowFile[], strays: StrayFile[]): Workspace {
  const allPlans = files.filter((f): f is Plan => f.kind === 'plan');
  // A README or a plan review in the plans folder is kept visible (documents) and never judged as a plan.
  const plans = allPlans.filter((p) => !p.notAPlan);
  const documents = allPlans.filter((p) => p.notAPlan);
  const handoffs = files.filter((f): f is Handoff => f.kind === 'handoff');
  const ledgers = files.filter((f): f is Ledger => f.kind === 'ledger');
  const states = files.filter((f): f is OrchestrationState => f.kind === 'orchestration');
  const byPath = new Map(plans.map((p) => [p.path, p]));
  const links = new Map<string, string>();
  const sessionPlan = new Map<string, string>();
  for (const ledger of ledgers) {
    const plan = ledger.planRef ? resolvePlanRef(ledger.planRef, ledger.path, byPath) : null;
    if (!plan) continue;
    links.set(ledger.path, plan);
    if (ledger.session) sessionPlan.set(ledger.session, plan);
  }
  const inferred = new Map<string, InferredLink>();
  for (const link of inferLinks(plans, handoffs, ledgers, links, sessionPlan, byPath)) {
    inferred.set(link.file, { plan: link.plan, by: link.by, session: link.session });
    links.set(link.file, link.plan);
    if (link.ledger) sessionPlan.set(link.session, link.plan);
  }
  const unlinked: Handoff[] = [];
  for (const handoff of handoffs) {
    if (links.has(handoff.path)) continue;
    const plan =
      (handoff.planRef && resolvePlanRef(handoff.planRef, handoff.path, byPath)) ||
      (handoff.session && sessionPlan.get(handoff.session)) ||
      null;
    if (plan) links.set(handoff.path, plan);
    // A handoff whose frontmatter could not be read may well name its plan; its schema finding already says what
    // is wrong, and calling it unlinked would be a second, misleading finding about the same file.
    else if (handoff.isTask && handoff.readable && handoff.problems.length === 0) unlinked.push(handoff);
  }
  return {
    root,
    plans,
    handoffs,
    ledgers,
    strays,
    links,
    unlinked,
    inferred,
    documents,
    states,
  };
}

/** Words of a task text, for comparing a plan's task with a handoff's task_desc. */
function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  );
}

/** A handoff's task_desc matches a plan task's title when most of the title's words are in it (or the reverse). */
export function descMatches(title: string, desc: string): boolean {
  const a = words(title);
  const b = words(desc);
  if (a.size === 0 || b.size === 0) return false;
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / Math.min(a.size, b.size) >= 0.6;
}

interface Inferred {
  file: string;
  plan: string;
  by: InferredLink['by'];
  session: string;
  ledger: boolean;
}

/**
 * Section 4: a session whose ledger and handoffs name no plan is linked to the one plan whose file name or title its
 * ledger or handoffs mention, or else to the one plan whose task count equals its task handoffs and whose task texts
 * match their task_desc. Ambiguity links nothing.
 */
function inferLinks(
  plans: Plan[],
  handoffs: Handoff[],
  ledgers: Ledger[],
  links: Map<string, string>,
  sessionPlan: Map<string, string>,
  byPath: Map<string, Plan>,
): Inferred[] {
  if (plans.length === 0) return [];
  const sessions = new Map<string, { handoffs: Handoff[]; ledger: Ledger | null }>();
  for (const h of handoffs) {
    // A file that could not be read is no evidence for a guess (and its schema finding says what is wrong).
    if (
      h.session === null ||
      !h.readable ||
      h.problems.length > 0 ||
      sessionPlan.has(h.session) ||
      (h.planRef && resolvePlanRef(h.planRef, h.path, byPath))
    )
      continue;
    const s = sessions.get(h.session) ?? { handoffs: [], ledger: null };
    s.handoffs.push(h);
    sessions.set(h.session, s);
  }
  for (const l of ledgers) {
    if (!l.session || !l.readable || l.problems.length > 0 || links.has(l.path)) continue;
    const s = sessions.get(l.session) ?? { handoffs: [], ledger: null };
    s.ledger = l;
    sessions.set(l.session, s);
  }
  const out: Inferred[] = [];
  for (const [session, s] of sessions) {
    const texts = [...(s.ledger ? [s.ledger.mentions] : []), ...s.handoffs.map((h) => h.mentions)];
    const mentioned = plans.filter((p) => planNames(p).some((name) => texts.some((t) => t.includes(name))));
    const tasks = s.handoffs.filter((h) => h.isTask && (h.task ?? h.fileTask) !== null);
    const numbers = new Set(tasks.map((h) => h.task ?? h.fileTask));
    const matchesTasks = (p: Plan): boolean => {
      const planTasks: Task[] = p.phases.flatMap((ph) => ph.tasks);
      if (numbers.size < 2 || planTasks.length !== numbers.size) return false;
      return tasks.every((h) => {
        const t = planTasks.filter((pt) => pt.number === (h.task ?? h.fileTask));
        return t.length === 1 && h.taskDesc !== null && descMatches(t[0]!.title, h.taskDesc);
      });
    };
    let plan: Plan | undefined;
    let by: InferredLink['by'] = 'mention';
    if (mentioned.length === 1) plan = mentioned[0];
    else {
      const pool = mentioned.length > 1 ? mentioned : plans;
      const byTasks = pool.filter(matchesTasks);
      if (byTasks.length === 1) {
        plan = byTasks[0];
        by = mentioned.length > 1 ? 'mention' : 'tasks';
      }
    }
    if (!plan) continue;
    for (const h of s.handoffs) out.push({ file: h.path, plan: plan.path, by, session, ledger: false });
    if (s.ledger) out.push({ file: s.ledger.path, plan: plan.path, by, session, ledger: true });
  }
  return out;
}

export function readWorkspace(root: string, discovered: Discovered[], config: Config, inGit = true): Workspace {
  const files = discovered.filter(readableItem).map((item) => readOne(root, item, config.maxFileBytes));
  // Plans the files just read name outside the globs (they name no further plans: one pass).
  const named = discoverNamed(root, config, files, new Set(discovered.map((d) => d.path)), inGit);
  files.push(...named.filter(readableItem).map((item) => readOne(root, item, config.maxFileBytes)));
  return buildWorkspace(root, files, straysOf([...discovered, ...named]));
}
