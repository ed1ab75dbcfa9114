// The ralph pack's rules, in docs order.
import type { Rule } from '../../../rules/types.js';
import { rule as schema } from './schema.js';
import { rule as activeStep } from './active-step.js';
import { rule as staleActiveStep } from './stale-active-step.js';
import { rule as completionConfirmed } from './completion-confirmed.js';
import { rule as sessionComplete } from './session-complete.js';
import { rule as lastStep } from './last-step.js';
import { rule as postGoalAudit } from './post-goal-audit.js';
import { rule as retries } from './retries.js';
import { rule as stepIndex } from './step-index.js';
import { rule as commandScope } from './command-scope.js';
import { rule as decisionInline } from './decision-inline.js';
import { rule as exit2Pause } from './exit2-pause.js';
import { rule as decisionsAppended } from './decisions-appended.js';
import { rule as decompositionAccumulates } from './decomposition-accumulates.js';
import { rule as stepRelease } from './step-release.js';

export const rules: readonly Rule[] = [
  schema,
  activeStep,
  staleActiveStep,
  completionConfirmed,
  sessionComplete,
  lastStep,
  postGoalAudit,
  retries,
  stepIndex,
  commandScope,
  decisionInline,
  exit2Pause,
  decisionsAppended,
  decompositionAccumulates,
  stepRelease,
];
