// Every dialect the readers know, one module each (convention section 4). A plan dialect says how its phases are
// written and when a plan is of it; a handoff dialect says which files are of it and which reader reads them. The
// readers ask the registry, never a dialect by name. To add one: write its module beside these, list it below in
// its place (the first that detects a file wins), and add its name to the model's list in model/types.ts, which the
// schemas and a test hold to this registry.
import type { PlanDialect } from '../../model/types.js';
import type { HandoffDialectModule, PhaseHeadingRole, PlanDialectModule, PlanShape } from './types.js';
import { notAPlan } from './plan/not-a-plan.js';
import { unstructured } from './plan/unstructured.js';
import { numberedPhases } from './plan/numbered-phases.js';
import { phaseHeadings } from './plan/phase-headings.js';
import { taskHeadings } from './plan/task-headings.js';
import { checklist } from './plan/checklist.js';
import { yamlSession } from './handoff/yaml-session.js';
import { task } from './handoff/task.js';
import { validation } from './handoff/validation.js';
import { auto } from './handoff/auto.js';
import { planHandoff } from './handoff/plan.js';
import { humanlayer } from './handoff/humanlayer.js';
import { other } from './handoff/other.js';

export type { HandoffDialectModule, PhaseHeadingRole, PlanDialectModule, PlanShape } from './types.js';
export { LABEL } from './types.js';
export { isPhaseHeadingText } from './plan/phase-headings.js';

/** In detection order. */
export const PLAN_DIALECT_MODULES: readonly PlanDialectModule[] = [
  notAPlan,
  unstructured,
  numberedPhases,
  phaseHeadings,
  taskHeadings,
  checklist,
];

/** In detection order. */
export const HANDOFF_DIALECT_MODULES: readonly HandoffDialectModule[] = [
  yamlSession,
  task,
  validation,
  auto,
  planHandoff,
  humanlayer,
  other,
];

export function planDialectOf(shape: PlanShape): PlanDialect {
  return (PLAN_DIALECT_MODULES.find((d) => d.detect(shape)) ?? checklist).name;
}

export function handoffDialectOf(fileName: string): HandoffDialectModule {
  return HANDOFF_DIALECT_MODULES.find((d) => d.detect(fileName)) ?? other;
}

/** What a heading is to the phase sequence, and which dialect reads it so: the first dialect that gives it a role. */
export function phaseHeadingOf(
  text: string,
  parent: string | null,
): { role: Exclude<PhaseHeadingRole, { role: 'none' }>; dialect: PlanDialect } | null {
  for (const d of PLAN_DIALECT_MODULES) {
    const role = d.phaseHeading?.(text, parent);
    if (role && role.role !== 'none') return { role, dialect: d.name };
  }
  return null;
}
