import type { Rule, RawFinding } from '../../../rules/types.js';
import { at, label, sessions } from './session.js';

export const rule: Rule = {
  meta: {
    id: 'ralph/command-scope',
    short: 'No step has `command_scope` "missing".',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'E006',
    description:
      'No step has command_scope "missing": every execution step\'s skill resolved to a global or project command when the steps were built.',
    fix: 'Install the missing skill under .claude/commands/ (or fix the skill name) and rebuild the steps.',
    messages: {
      missing: 'E006: {{step}} has command_scope "missing": its skill was not found.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const s of sessions(packs)) {
      for (const { i, step } of s.steps) {
        if (step.command_scope === 'missing')
          out.push(at(s, `/steps/${i}/command_scope`, 'missing', { step: label(step, i) }));
      }
    }
    return out;
  },
};
