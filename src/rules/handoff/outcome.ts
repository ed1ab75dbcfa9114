import type { Rule, RawFinding } from '../types.js';
import { statusKey } from '../../read/handoff.js';

/**
 * `PARTIAL_PLUS` is a rating the user gives a session ("mostly done, minor issues remain", as Continuous-Claude's
 * create_handoff defines it) and agrees with `status: complete`; `PARTIAL_MINUS` ("major issues remain") does not.
 */
function mostlyDone(status: string | null, raw: string): boolean {
  return status === 'complete' && statusKey(raw) === 'partial_plus';
}

export const rule: Rule = {
  meta: {
    id: 'handoff/outcome',
    short: "A handoff's own words agree with its status.",
    severities: { recommended: 'error', strict: 'error' },
    formula: 'output schema',
    description:
      "A handoff's own words agree with its status: `status: complete` next to an `outcome:` or `result:` of partial or failure (`PARTIAL_MINUS`), or a body marker that says `**Status:** BLOCKED` under `status: complete`, is a contradiction. `PARTIAL_PLUS` (mostly done, minor issues remain) next to `status: complete` is not. Words that are no status (`SUCCEEDED with notes`) are not judged.",
    fix: 'Make the status say what happened: one status word, the same in the frontmatter and the body.',
    messages: {
      keyDisagrees: '`{{source}}: {{raw}}` says the task is {{claim}}, but `{{statusKey}}` says {{status}}.',
      bodyDisagrees: 'The body says "Status: {{raw}}" ({{claim}}), but the handoff\'s status is {{status}}.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const h of ws.handoffs.filter((h) => h.readable && h.problems.length === 0 && h.status !== null)) {
      for (const c of h.claims) {
        if (c.status === null || c.status === h.status || mostlyDone(h.status, c.raw)) continue;
        const at = { file: h.path, line: c.line, column: c.column };
        const data = {
          source: c.source,
          raw: c.raw,
          claim: c.status,
          status: h.status!,
          statusKey: h.sources.status ?? 'status',
        };
        out.push({ ...at, messageId: c.source === 'body' ? 'bodyDisagrees' : 'keyDisagrees', data });
      }
    }
    return out;
  },
};
