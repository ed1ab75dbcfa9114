// Shared by the ralph rules: the sessions of a pack workspace as plain records, defensively typed (a file that breaks
// the schema still gets the invariant checks its fields allow), and the position of a field.
import type { PackChange, PackFile, PackWorkspace } from '../../types.js';
import { PACK_ID, type RalphModel } from '../model.js';
import type { Position } from '../../../model/types.js';
import type { RawFinding } from '../../../rules/types.js';
import { positionOf } from '../../../model/queries.js';

export type Rec = Record<string, unknown>;

export interface Session {
  path: string;
  data: Rec;
  /** The steps that are mappings, with their position in the list. */
  steps: { i: number; step: Rec }[];
  at(pointer: string): Position;
}

export function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function sessionOf(file: PackFile | null): Session | null {
  const model = file?.model as RalphModel | null | undefined;
  if (!file || !model || model.kind !== 'status' || !isRec(model.data)) return null;
  const data = model.data;
  const steps = Array.isArray(data.steps) ? data.steps.flatMap((step, i) => (isRec(step) ? [{ i, step }] : [])) : [];
  return { path: file.path, data, steps, at: (pointer) => positionOf(model.positions, pointer) };
}

export function sessions(packs: PackWorkspace): Session[] {
  return (packs.get(PACK_ID) ?? []).flatMap((f) => {
    const s = sessionOf(f);
    return s ? [s] : [];
  });
}

/** A decision step carries a gate name in `decision`; an execution step carries null. */
export function isDecision(step: Rec): boolean {
  return step.decision !== null && step.decision !== undefined && step.decision !== '';
}

/** The gate of a decision step, without a `decision:` prefix. */
export function gate(step: Rec): string {
  return String(step.decision ?? '').replace(/^decision:/, '');
}

export function label(step: Rec, i: number): string {
  return isDecision(step)
    ? `step ${i} (decision:${gate(step)})`
    : `step ${i} (${String(step.skill || step.stage || 'execution step')})`;
}

/** A task_decomposition that is a non-empty list: the session is decomposed. */
export function decomposition(data: Rec): Rec[] | null {
  return Array.isArray(data.task_decomposition) && data.task_decomposition.length > 0
    ? data.task_decomposition.filter(isRec)
    : null;
}

export function isStatusChange(change: PackChange): boolean {
  return change.path.endsWith('/status.json');
}

/** A finding at a pointer of a session: the rule's message `messageId` with its placeholders' values. */
export function at(s: Session, pointer: string, messageId: string, data?: Record<string, string | number>): RawFinding {
  const p = s.at(pointer);
  return { file: s.path, line: p.line, column: p.column, messageId, ...(data ? { data } : {}) };
}
