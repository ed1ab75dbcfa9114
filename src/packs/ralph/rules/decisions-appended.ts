import type { Rule, RawFinding } from '../../../rules/types.js';
import { PACK_ID, type RalphDecisionsModel } from '../model.js';
import { isRec } from './session.js';
import { plural } from '../../../shared/text.js';

const COMMON = ['id', 'type', 'source', 'node_id'];
/** The fields of each decision type the seed writes (A_QUALITY_EVALUATE, A_SCOPE_EVALUATE, A_GOAL_EVALUATE). */
const BY_TYPE: Record<string, string[]> = {
  'quality-gate': ['timestamp', 'verdict', 'confidence_score'],
  'scope-gate': ['verdict', 'analyze_macro_id'],
  'goal-gate': ['unmet_count', 'unmet_ids'],
};

/** What is wrong with one line of decisions.ndjson, or null. */
export function lineProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  if (!isRec(value)) return 'is not a JSON object';
  const type = typeof value.type === 'string' ? value.type : '';
  const missing = [...COMMON, ...(BY_TYPE[type] ?? [])].filter((k) => value[k] === undefined || value[k] === null);
  if (missing.length) return `lacks ${missing.map((k) => `\`${k}\``).join(', ')}`;
  if (value.source !== 'ralph') return `has source ${JSON.stringify(value.source)}, not "ralph"`;
  return null;
}

function lines(text: string | null): string[] {
  return (text ?? '')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '');
}

export const rule: Rule = {
  meta: {
    id: 'ralph/decisions-appended',
    short: 'decisions.ndjson is only ever appended to.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'Append to `{session_dir}/decisions.ndjson`',
    description:
      'decisions.ndjson is only ever appended to: no commit edits, reorders or removes a line already committed, and every line is a JSON object with the fields the seed writes (id, type, source, node_id, and per type verdict, confidence_score, analyze_macro_id or unmet_count/unmet_ids).',
    fix: 'Restore the committed lines and append a new decision instead of editing an old one; write each decision as one JSON object per line.',
    messages: {
      badLine: 'Line {{line}} of decisions.ndjson {{problem}}.',
      fileRemoved: 'The commit removes decisions.ndjson, which held {{decisions}}.',
      lineEdited: 'The commit edits committed line {{line}} of decisions.ndjson: decisions are only appended.',
      lineRemoved: 'The commit removes committed line {{line}} of decisions.ndjson: decisions are only appended.',
      badAppend: 'The commit appends line {{line}} of decisions.ndjson that {{problem}}.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const file of packs.get(PACK_ID) ?? []) {
      const model = file.model as RalphDecisionsModel | null;
      if (!model || model.kind !== 'decisions') continue;
      for (const l of model.lines) {
        const why = lineProblem(l.text);
        if (why)
          out.push({
            file: file.path,
            line: l.line,
            column: 1,
            messageId: 'badLine',
            data: { line: l.line, problem: why },
          });
      }
    }
    return out;
  },
  packTransition: (change) => {
    if (!change.path.endsWith('/decisions.ndjson') && !(change.before?.path ?? '').endsWith('/decisions.ndjson'))
      return [];
    const sha = change.commit.sha.slice(0, 7);
    const before = lines(change.beforeText);
    if (change.afterText === null) {
      return before.length
        ? [
            {
              file: change.before?.path ?? change.path,
              line: null,
              messageId: 'fileRemoved',
              data: { sha, decisions: plural(before.length, 'committed decision') },
            },
          ]
        : [];
    }
    const after = lines(change.afterText);
    const out: RawFinding[] = [];
    const changed = before.findIndex((l, i) => after[i] !== l);
    if (changed !== -1) {
      out.push({
        file: change.path,
        line: changed + 1,
        messageId: changed < after.length ? 'lineEdited' : 'lineRemoved',
        data: { sha, line: changed + 1 },
      });
    }
    const afterLines = change.afterText.split('\n');
    let n = 0;
    afterLines.forEach((raw, i) => {
      const l = raw.replace(/\r$/, '');
      if (l.trim() === '') return;
      n++;
      if (n <= before.length) return;
      const why = lineProblem(l);
      if (why)
        out.push({ file: change.path, line: i + 1, messageId: 'badAppend', data: { sha, line: i + 1, problem: why } });
    });
    return out;
  },
};
