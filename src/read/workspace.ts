// Files -> Workspace: read every discovered file with the reader of its kind, then link ledgers, plans and
// handoffs. Reading never judges; a file that cannot be read becomes a model that carries the problem.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Handoff, Ledger, Plan, ReadProblem, Workspace, WorkflowFile } from '../model/types.js';
import type { Config } from '../config/config.js';
import type { Discovered } from './discover.js';
import { decode } from './text.js';
import { readPlanText } from './plan.js';
import { readHandoffText } from './handoff.js';
import { readLedgerText } from './ledger.js';

export function readText(item: Discovered, text: string): WorkflowFile {
  switch (item.kind) {
    case 'plan':
      return readPlanText(item.path, text);
    case 'handoff':
      return readHandoffText(item.path, item.root, text);
    default:
      return readLedgerText(item.path, text);
  }
}

/** Bytes -> model; unreadable bytes give an empty model of the right kind that carries the problem. */
export function readBytes(item: Discovered, bytes: Uint8Array, maxBytes: number): WorkflowFile {
  const decoded = decode(bytes, maxBytes);
  let problem: ReadProblem | null = decoded.ok ? null : decoded.problem;
  if (decoded.ok && decoded.text.trim() === '') problem = { line: 1, column: 1, message: 'File is empty.' };
  if (!problem && decoded.ok) {
    // The parsers recurse: pathological nesting (thousands of `>` quotes or `[` brackets) overflows the stack
    // inside remark or yaml. That is still a file that could not be parsed, a finding of its kind, not exit 2.
    try {
      return readText(item, decoded.text);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      problem = { line: 1, column: 1, message: `File could not be parsed (${why}); simplify its structure (nesting is the usual cause).` };
    }
  }
  const model = readText(item, '');
  return { ...model, readable: false, problems: [problem!] };
}

export function readOne(root: string, item: Discovered, maxBytes: number): WorkflowFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(join(root, item.path));
  } catch (err) {
    const model = readText(item, '');
    return { ...model, readable: false, problems: [{ line: 1, column: 1, message: `File could not be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}` }] };
  }
  return readBytes(item, bytes, maxBytes);
}

/** Resolve a plan reference as written in a handoff or ledger to the path of a known plan. */
export function resolvePlanRef(ref: string, from: string, plans: { has(path: string): boolean; keys(): Iterable<string> }): string | null {
  const clean = ref.trim().replace(/^\.\//, '');
  const candidates = [posix.normalize(clean), posix.normalize(posix.join(posix.dirname(from), clean))];
  for (const c of candidates) if (plans.has(c)) return c;
  const byName = [...plans.keys()].filter((p) => posix.basename(p) === posix.basename(clean));
  return byName.length === 1 ? byName[0]! : null;
}

export function buildWorkspace(root: string, files: WorkflowFile[], strays: Discovered[]): Workspace {
  const plans = files.filter((f): f is Plan => f.kind === 'plan');
  const handoffs = files.filter((f): f is Handoff => f.kind === 'handoff');
  const ledgers = files.filter((f): f is Ledger => f.kind === 'ledger');
  const byPath = new Map(plans.map((p) => [p.path, p]));
  const links = new Map<string, string>();
  const sessionPlan = new Map<string, string>();
  for (const ledger of ledgers) {
    const plan = ledger.planRef ? resolvePlanRef(ledger.planRef, ledger.path, byPath) : null;
    if (!plan) continue;
    links.set(ledger.path, plan);
    if (ledger.session) sessionPlan.set(ledger.session, plan);
  }
  const unlinked: Handoff[] = [];
  for (const handoff of handoffs) {
    const plan = (handoff.planRef && resolvePlanRef(handoff.planRef, handoff.path, byPath)) || (handoff.session && sessionPlan.get(handoff.session)) || null;
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
    strays: strays.map((s) => ({ path: s.path, reason: 'searchable' as const })),
    links,
    unlinked,
  };
}

export function readWorkspace(root: string, discovered: Discovered[], config: Config): Workspace {
  const files: WorkflowFile[] = [];
  const strays: Discovered[] = [];
  for (const item of discovered) {
    if (item.kind === 'searchable') strays.push(item);
    else files.push(readOne(root, item, config.maxFileBytes));
  }
  return buildWorkspace(root, files, strays);
}
