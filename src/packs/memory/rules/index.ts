// The memory pack's rules, in docs order.
import type { Rule } from '../../../rules/types.js';
import { rule as jsonl } from './jsonl.js';
import { rule as unitSchema } from './unit-schema.js';
import { rule as stageVersion } from './stage-version.js';
import { rule as indexCommitted } from './index-committed.js';
import { rule as appendOnly } from './append-only.js';

export const rules: readonly Rule[] = [jsonl, unitSchema, stageVersion, indexCommitted, appendOnly];
