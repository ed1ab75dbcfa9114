// The memory pack's rules, in catalog order.
import type { Rule } from '../types.js';

export const memoryRules: readonly Rule[] = [];
