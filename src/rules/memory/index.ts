// The memory pack's rules, in catalog order.
import type { Rule } from '../types.js';
import { rule as jsonl } from './jsonl.js';
import { rule as unitSchema } from './unit-schema.js';
import { rule as stageVersion } from './stage-version.js';
import { rule as indexCommitted } from './index-committed.js';
import { rule as appendOnly } from './append-only.js';

export const memoryRules: readonly Rule[] = [jsonl, unitSchema, stageVersion, indexCommitted, appendOnly];
