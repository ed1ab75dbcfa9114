import { promiseOf } from '../promise.js';
import type { Rule } from '../types.js';
import type { Handoff } from '../../model/types.js';
import type { RawFinding } from '../types.js';
import { SCHEMA_MESSAGES, schemaFindings } from '../schema-findings.js';
import { fieldSources } from '../../read/handoff.js';

/** What would satisfy a missing field: the keys the reader accepts and the section titles it matches. */
function missing(field: string): Pick<RawFinding, 'messageId' | 'data'> {
  if (field === 'blocker') return { messageId: 'missingBlocker' };
  if (field === 'task') return { messageId: 'missingTask' };
  const { keys, sections } = fieldSources(field);
  const keyList = keys.map((k) => `\`${k}:\``).join(', ');
  if (field === 'status') return { messageId: 'missingStatus', data: { field, keys: keyList } };
  if (sections.length === 0) return { messageId: 'missingKey', data: { field, keys: keyList } };
  const sectionList =
    field === 'task_desc'
      ? '`## Task Summary`, or the `# Title` heading'
      : sections.map((t) => `\`## ${t}\``).join(', ');
  return { messageId: 'missingField', data: { field, keys: keyList, sections: sectionList } };
}

/**
 * The template writes `blocker: null`; on a blocked handoff that is the micro spec's missing "blocker when blocked",
 * so it gets that message rather than a type error about null.
 */
function judged(h: Handoff): Handoff {
  if (h.normalized.status !== 'blocked' || h.normalized.blocker !== null) return h;
  const { blocker: _null, ...rest } = h.normalized;
  return { ...h, normalized: rest };
}

/**
 * A type error names the field as the reader normalized it (`context_for_next`); the user wrote `next:` or a
 * `## Next Steps` section, so the message names that.
 */
function asWritten(h: Handoff, f: RawFinding): RawFinding {
  const error = f.data?.error;
  if (f.messageId !== 'invalid' || typeof error !== 'string') return f;
  const m = /^`([^`./]+)([`.])/.exec(error);
  const source = m ? h.sources[m[1]!] : undefined;
  if (!m || !source || source === m[1] || source.startsWith('#')) return f;
  return { ...f, data: { ...f.data, error: `\`${source}${error.slice(1 + m[1]!.length)}` } };
}

/** Fields whose absence only `strict` reports. */
const LENIENT = new Set(['files_modified', 'context_for_next']);

export const rule: Rule = {
  meta: {
    id: 'handoff/schema',
    short: 'The handoff parses and has the required fields.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'output schema: required [status, task_desc, files_modified[], verification_results, context_for_next]',
    description:
      'The handoff parses and its normalized model satisfies schemas/handoff.schema.json. Task handoffs need status, task_desc, files_modified, verification_results and context_for_next, a task number (the `task` key, an integer, or `task-NN` in the file name), and a blocker when blocked; session handoffs of the other dialects are held to the lighter part of the schema. In `recommended` a missing files_modified or context_for_next is not reported unless the config states `protocol.taskHandoffs` (real handoffs write them in many shapes, and a last or read-only task has none).',
    fix: 'Add or correct the field in the frontmatter (or its section in the body).',
    messages: {
      ...SCHEMA_MESSAGES,
      missingField: 'task handoff is missing `{{field}}`: add a frontmatter key ({{keys}}) or a section ({{sections}})',
      missingKey: 'task handoff is missing `{{field}}`: add a frontmatter key ({{keys}})',
      missingStatus:
        'task handoff is missing `status`: add a frontmatter key ({{keys}}), a `**Status:** complete` line or a `## Status: complete` heading',
      missingTask:
        'task handoff has no task number: add `task: N` (or `task_number: N`) to the frontmatter, or name the file task-NN-<desc>.md',
      missingBlocker:
        'status is blocked but no `blocker` says what blocks the task: add a `blocker:` key or an `## Issues Encountered` section',
    },
  },
  snapshot: (ws, ctx) => {
    // The config that states the repository writes task handoffs holds them to every field, as strict does.
    const strictFields = ctx.preset === 'strict' || promiseOf(ws, ctx).taskHandoffs.source.from === 'config';
    return ws.handoffs
      .filter((h) => !ctx.focus || ctx.focus.has(h.path))
      .flatMap((h) =>
        schemaFindings(judged(h), 'handoff', missing)
          // recommended: the files and the context for the next task are written in too many shapes (a checkpoints
          // block, `## Resume Context`, nothing for a last or read-only task) to ask for by name; strict asks.
          .filter((f) => strictFields || !(f.data && LENIENT.has(String(f.data.field))))
          .map((f) => asWritten(h, f)),
      );
  },
};
