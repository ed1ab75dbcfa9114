// `--format json`: exactly the object of section 7 of the convention.
import type { Finding } from '../model/finding.js';
import type { Summary } from '../engine/summary.js';
import type { Formatter } from './formatter.js';

/** One finding of the contract: the Finding without what is not in it (messageId, causes, undo, cite). */
export type JsonResult = Omit<Finding, 'messageId' | 'causes' | 'undo' | 'cite'>;

export interface JsonReport {
  version: 1;
  results: JsonResult[];
  summary: Pick<Summary, 'errors' | 'warnings' | 'infos' | 'files' | 'commits'>;
}

/** The contract's object itself: what `--format json` prints and the programmatic API's lint() returns. */
export function jsonReport(findings: Finding[], summary: Summary): JsonReport {
  const results = findings.map((f) => {
    const r: JsonResult = {
      ruleId: f.ruleId,
      severity: f.severity,
      file: f.file,
      line: f.line,
      column: f.column,
      message: f.message,
    };
    if (f.fix) r.fix = f.fix;
    if (f.commit) {
      r.commit = f.commit;
      r.subject = f.subject ?? '';
    }
    return r;
  });
  const { errors, warnings, infos, files, commits } = summary;
  return { version: 1, results, summary: { errors, warnings, infos, files, commits } };
}

export function formatJson(findings: Finding[], summary: Summary): string {
  return `${JSON.stringify(jsonReport(findings, summary), null, 2)}\n`;
}

export const json: Formatter = { name: 'json', format: (input) => formatJson(input.findings, input.summary) };
