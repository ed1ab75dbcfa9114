// The ralph pack's rules, in catalog order.
import type { Rule } from '../types.js';

export const ralphRules: readonly Rule[] = [];
