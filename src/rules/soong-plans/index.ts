// The soong-plans pack's rules, in catalog order.
import type { Rule } from '../types.js';
import { rule as fileName } from './file-name.js';

export const soongRules: readonly Rule[] = [fileName];
