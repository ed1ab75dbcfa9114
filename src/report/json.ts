// `--format json`: exactly the object of section 7 of the convention.
import type { Finding } from '../model/finding.js';
import type { Summary } from './summary.js';
import type { Formatter } from './formatter.js';

export function formatJson(findings: Finding[], summary: Summary): string {
  const results = findings.map((f) => {
    const r: Record<string, unknown> = { ruleId: f.ruleId, severity: f.severity, file: f.file, line: f.line, column: f.column, message: f.message };
    if (f.fix) r.fix = f.fix;
    if (f.commit) {
      r.commit = f.commit;
      r.subject = f.subject ?? '';
    }
    return r;
  });
  const { errors, warnings, infos, files, commits } = summary;
  return `${JSON.stringify({ version: 1, results, summary: { errors, warnings, infos, files, commits } }, null, 2)}\n`;
}

export const json: Formatter = { name: 'json', format: (input) => formatJson(input.findings, input.summary) };
