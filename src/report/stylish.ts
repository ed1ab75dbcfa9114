// `--format stylish` (the default): findings grouped by file, `line:col severity message rule-id`, then counts.
import type { Finding } from '../model/finding.js';
import type { Summary } from '../engine/summary.js';
import type { Formatter } from './formatter.js';
import { plural } from '../shared/text.js';

export interface StylishOptions {
  color: boolean;
}

const paint = (on: boolean, code: string, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

export function formatStylish(findings: Finding[], summary: Summary, opts: StylishOptions): string {
  const lines: string[] = [];
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = f.file ?? '(repository)';
    const list = groups.get(key) ?? [];
    list.push(f);
    groups.set(key, list);
  }
  for (const [file, list] of groups) {
    lines.push(paint(opts.color, '4', file));
    const width = Math.max(...list.map((f) => (f.line === null ? 0 : `${f.line}:${f.column ?? 1}`.length)));
    for (const f of list) {
      const pos = f.line === null ? '' : `${f.line}:${f.column ?? 1}`;
      const sev =
        f.severity === 'error'
          ? paint(opts.color, '31', 'error  ')
          : f.severity === 'warning'
            ? paint(opts.color, '33', 'warning')
            : paint(opts.color, '36', 'info   ');
      const where = f.commit ? ` [${f.commit.slice(0, 12)} ${f.subject ?? ''}]` : '';
      // A message with lines of its own (a command's last output) keeps its first line with the commit and rule id.
      const [first, ...more] = f.message.split('\n');
      lines.push(`  ${pos.padEnd(width)}  ${sev}  ${first}${where}  ${paint(opts.color, '2', f.ruleId)}`);
      for (const line of more) lines.push(`  ${' '.repeat(width)}           ${line}`);
      if (f.fix) lines.push(`  ${' '.repeat(width)}           ${paint(opts.color, '2', `fix: ${f.fix}`)}`);
    }
    lines.push('');
  }
  const problems = summary.errors + summary.warnings;
  const history = summary.judgedFrom ? `; history: ${summary.judgedFrom}` : '';
  const scope = `${plural(summary.files, 'workflow file')}${summary.commits ? `, ${plural(summary.commits, 'commit')}` : ''} checked${history}`;
  if (problems === 0) {
    lines.push(
      paint(opts.color, '32', `✔ no problems (${scope})${summary.infos ? `, ${plural(summary.infos, 'info')}` : ''}`),
    );
  } else {
    const mark = summary.errors ? paint(opts.color, '31', '✖') : paint(opts.color, '33', '⚠');
    lines.push(
      `${mark} ${plural(problems, 'problem')} (${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}${summary.infos ? `, ${plural(summary.infos, 'info')}` : ''}) in ${scope}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export const stylish: Formatter = {
  name: 'stylish',
  format: (input) => formatStylish(input.findings, input.summary, { color: input.color }),
};
