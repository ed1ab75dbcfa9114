// The core rule families. Order here is the order of the docs index, not of execution (rules are independent).
// Packs bring their own rules (src/packs/<name>/); the engine's catalog joins both.
import type { Rule } from './types.js';
import { rule as planSchema } from './plan/schema.js';
import { rule as planAutomated } from './plan/phase-automated-criteria.js';
import { rule as planManual } from './plan/phase-manual-criteria.js';
import { rule as planNumbering } from './plan/task-numbering.js';
import { rule as planMode } from './plan/mode.js';
import { rule as planPhaseOrder } from './plan/phase-order.js';
import { rule as planManualBeforeAutomated } from './plan/manual-before-automated.js';
import { rule as planClaimedComplete } from './plan/claimed-complete.js';
import { rule as planPlaceholder } from './plan/placeholder.js';
import { rule as handoffSchema } from './handoff/schema.js';
import { rule as handoffPath } from './handoff/path.js';
import { rule as handoffMissing } from './handoff/missing.js';
import { rule as handoffOnePerTask } from './handoff/one-per-task.js';
import { rule as handoffChain } from './handoff/chain.js';
import { rule as handoffValidated } from './handoff/validated.js';
import { rule as handoffBlockedProceed } from './handoff/blocked-proceed.js';
import { rule as handoffPlanSync } from './handoff/plan-sync.js';
import { rule as handoffOutcome } from './handoff/outcome.js';
import { rule as ledgerSchema } from './ledger/schema.js';
import { rule as ledgerSync } from './ledger/sync.js';
import { rule as ledgerState } from './ledger/state.js';
import { rule as layoutPaths } from './layout/paths.js';
import { rule as disableDirective } from './disable/directive.js';
import { rule as historyHandoffDeleted } from './history/handoff-deleted.js';
import { rule as historyHandoffRewritten } from './history/handoff-rewritten.js';
import { rule as historyTaskOrder } from './history/task-order.js';
import { rule as historyBatchedTasks } from './history/batched-tasks.js';
import { rule as historyPhaseOrder } from './history/phase-order.js';
import { rule as historyManualConfirmation } from './history/manual-confirmation.js';
import { rule as historySelfExemption } from './history/self-exemption.js';
import { rule as historyIncomplete } from './history/incomplete.js';
import { rule as baselineStale } from './baseline/stale.js';
import { rule as verifyClaim } from './verify/claim.js';

export const CORE_RULES: readonly Rule[] = [
  planSchema,
  planAutomated,
  planManual,
  planNumbering,
  planMode,
  planPhaseOrder,
  planManualBeforeAutomated,
  planClaimedComplete,
  planPlaceholder,
  handoffSchema,
  handoffPath,
  handoffMissing,
  handoffOnePerTask,
  handoffChain,
  handoffValidated,
  handoffBlockedProceed,
  handoffPlanSync,
  handoffOutcome,
  ledgerSchema,
  ledgerSync,
  ledgerState,
  layoutPaths,
  disableDirective,
  historyHandoffDeleted,
  historyHandoffRewritten,
  historyTaskOrder,
  historyBatchedTasks,
  historyPhaseOrder,
  historyManualConfirmation,
  historySelfExemption,
  historyIncomplete,
  baselineStale,
  verifyClaim,
];
