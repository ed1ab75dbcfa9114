import type { Rule } from '../types.js';

// Reported by the history engine itself (it is about the repository, not about a commit's events).
export const rule: Rule = {
  meta: {
    id: 'history/incomplete',
    short: 'History cannot be judged: a shallow clone or a missing range base.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '—',
    description:
      'History rules cannot be judged: the clone is shallow, or the base of a range is missing. Never a silent pass. A repository without commits, or a push to an empty remote, is not incomplete: history starts empty.',
    fix: 'Fetch the whole history: `git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout.',
    messages: {
      // The fold (src/history/fold.ts) says why history could not be folded by one of these names.
      shallow: 'This is a shallow clone: the history rules cannot judge commits they cannot see.',
      rangeEndMissing: 'The range end {{ref}} is not a commit in this repository.',
      rangeBaseMissing: 'The range base {{ref}} is not in this repository (fetch it, or fetch the whole history).',
      // A full clone lacks the base too when it names a commit nobody fetched (or nobody made): unshallowing is no fix.
      rangeBaseMissingFix:
        'Fetch the base (`git fetch origin {{ref}}`, or `fetch-depth: 0` in actions/checkout), or correct the range if the name is mistyped.',
    },
  },
};
