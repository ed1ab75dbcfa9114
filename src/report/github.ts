// `--format github`: GitHub Actions workflow commands, one per finding, which the runner turns into annotations on
// the pull request's files. See docs/formats/github.md.
import type { Finding } from '../model/finding.js';
import type { Formatter } from './formatter.js';
import { plural } from '../shared/text.js';

export interface GithubOptions {
  /** Where the reader finds every finding when some were not annotated, e.g. "run `npx validate-workflow` or see the job summary". */
  reportHint: string;
}

/** GitHub annotates at most this many of each kind per step; the rest show only in the log. */
export const ANNOTATION_LIMIT = 10;

type Command = 'error' | 'warning' | 'notice';

const COMMAND: Record<Finding['severity'], Command> = { error: 'error', warning: 'warning', info: 'notice' };

// The runner splits a command at `::` and its properties at `,` and `=`, and unescapes these sequences (the same
// escaping as @actions/core). `%` goes first so the escapes themselves are not escaped again.
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function text(f: Finding): string {
  // The annotation sits on the file as it is now; a history finding's line is in the commit named here.
  const where = f.commit ? ` (commit ${f.commit.slice(0, 12)}${f.subject ? ` "${f.subject}"` : ''})` : '';
  return `${f.message}${where}${f.fix ? ` ${f.fix}` : ''}`;
}

function command(f: Finding): string {
  const props: string[] = [];
  if (f.file !== null) {
    props.push(`file=${escapeProperty(f.file)}`);
    if (f.line !== null) {
      props.push(`line=${f.line}`);
      if (f.column !== null) props.push(`col=${f.column}`);
    }
  }
  props.push(`title=${escapeProperty(f.ruleId)}`);
  return `::${COMMAND[f.severity]} ${props.join(',')}::${escapeData(text(f))}`;
}

// A finding past the limit still belongs in the log, but as a plain line: a workflow command there would not be
// annotated anyway, and a further notice would push our closing notice out of the notices GitHub shows.
function plain(f: Finding): string {
  const pos =
    f.file === null
      ? '(repository)'
      : `${f.file}${f.line === null ? '' : `:${f.line}${f.column === null ? '' : `:${f.column}`}`}`;
  // Escaped like command data: a raw newline in a message must not start a line the runner reads as a command.
  return escapeData(`${pos} ${f.severity} ${f.ruleId}: ${text(f)}`);
}

export function formatGithub(findings: Finding[], opts: GithubOptions): string {
  const total: Record<Command, number> = { error: 0, warning: 0, notice: 0 };
  for (const f of findings) total[COMMAND[f.severity]]++;
  const over = Object.values(total).some((n) => n > ANNOTATION_LIMIT);
  // The closing line is itself a notice: keep a notice slot for it so it is always annotated.
  const cap: Record<Command, number> = {
    error: ANNOTATION_LIMIT,
    warning: ANNOTATION_LIMIT,
    notice: over ? ANNOTATION_LIMIT - 1 : ANNOTATION_LIMIT,
  };
  const lines: string[] = [];
  const seen: Record<Command, number> = { error: 0, warning: 0, notice: 0 };
  const hidden: Record<Command, number> = { error: 0, warning: 0, notice: 0 };
  // The limit counts each kind separately, so the findings keep their order (by file) in the log.
  for (const f of findings) {
    const kind = COMMAND[f.severity];
    if (seen[kind]++ < cap[kind]) lines.push(command(f));
    else {
      lines.push(plain(f));
      hidden[kind]++;
    }
  }
  if (hidden.error + hidden.warning + hidden.notice > 0) {
    const parts = [
      hidden.error ? plural(hidden.error, 'error') : '',
      hidden.warning ? plural(hidden.warning, 'warning') : '',
      hidden.notice ? plural(hidden.notice, 'notice') : '',
    ].filter(Boolean);
    const count = hidden.error + hidden.warning + hidden.notice;
    const message = `${parts.join(', ')} not shown as annotations (GitHub shows ${ANNOTATION_LIMIT} errors and ${ANNOTATION_LIMIT} warnings per step; ${count === 1 ? 'it is' : 'they are'} in the log above). For the full report, ${opts.reportHint.replace(/[.\s]+$/, '')}.`;
    lines.push(`::notice title=${escapeProperty('validate-workflow')}::${escapeData(message)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** In a CI log, where the reader finds what was not annotated. */
const REPORT_HINT = 'run `npx validate-workflow` locally, or see the job summary';

export const github: Formatter = {
  name: 'github',
  format: (input) => formatGithub(input.findings, { reportHint: REPORT_HINT }),
};
