// The soong-plans pack's rules, in docs order.
import type { Rule } from '../../../rules/types.js';
import { rule as fileName } from './file-name.js';

export const rules: readonly Rule[] = [fileName];
