// The soong-plans pack's rules, in catalog order.
import type { Rule } from '../types.js';

export const soongRules: readonly Rule[] = [];
