import type { Rule } from '../types.js';

// Reported by `validate-workflow verify` (src/verify/), which re-runs the commands: a rule cannot run a process, so
// this rule is its meta and its messages only, like history/incomplete. `{{claim}}` is the item as its plan wrote
// it, backticks and all (with the command named after it when the item holds several); `{{output}}` is empty or
// the last lines of what the command printed, on lines of their own.
export const rule: Rule = {
  meta: {
    id: 'verify/claim',
    short: 'A ticked automated item whose command fails at the commit that ticked it.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](checked(auto) -> pass(command) at that commit)',
    description:
      'An automated verification item ticked in a commit (Tests pass: `npm test`) claims that its command passed there. `validate-workflow verify` re-runs the command in backticks at that commit, in a temporary git worktree, after the set-up step, and reports the claim when the command fails there or does not finish within the limit. Only commands the repository allows run (`verify.allow`, read from the parent commit like every trust setting); the others are listed as not run. Never run by the git hooks.',
    fix: 'Fix the code or the claim now: make the command pass and tick the item again in a new commit, or uncheck it.',
    messages: {
      fails: '{{claim}} was ticked in {{sha}} but fails there (exit {{code}}).{{output}}',
      killed: '{{claim}} was ticked in {{sha}} but fails there (killed by {{signal}}).{{output}}',
      timedOut:
        '{{claim}} was ticked in {{sha}} but did not finish there within {{limit}} (verify.timeout); it was stopped.{{output}}',
      passes: '{{claim}} was ticked in {{sha}} and passes there.',
      passesFix: 'Nothing to fix: the claim holds at the commit that made it.',
      setupFails:
        '{{claim}} (ticked in {{sha}}) was not re-run: the set-up step `{{setup}}` fails there ({{why}}).{{output}}',
      setupFix: 'Make the set-up step (`verify.setup`) work at that commit, or change it in the config.',
      notAllowed: '{{claim}} (ticked in {{sha}}) was not re-run: `verify.allow` does not allow `{{command}}`.',
      notAllowedFix:
        'To have it re-run, a human adds the command to the config in a commit of their own: `"verify": { "allow": [{{pattern}}] }` in validate-workflow.config.json.',
      unavailable: '{{claim}} (ticked in {{sha}}) could not be re-run: {{why}}.',
      unavailableFix: 'Fetch the whole history (`fetch-depth: 0` in actions/checkout) and run `verify` again.',
    },
  },
};
