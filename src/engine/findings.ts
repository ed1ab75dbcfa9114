// A rule's raw finding as every door and report sees it: severity from the policy, the rule's named message with
// its placeholders filled, and the fix. One function, so the CLI, the reports and the Claude Code hook print the
// same words.
import type { Config } from '../config/config.js';
import type { RawFinding, Rule } from '../rules/types.js';
import type { Finding } from '../model/finding.js';

export function severityOf(rule: Rule, config: Config): 'off' | 'info' | 'warn' | 'error' {
  return config.rules[rule.meta.id] ?? rule.meta.severities[config.preset];
}

/**
 * `{{name}}` replaced by `data.name`; a placeholder without a value is a bug in the rule, shown as written. A value
 * quoted from a file (an item wrapped over two source lines) keeps its words but not its line breaks: a finding is
 * one line in every report, and a break would split it in stylish output and GitHub annotations.
 */
export function formatMessage(template: string, data: RawFinding['data']): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    data && name in data ? String(data[name]).replace(/[ \t]*\r?\n\s*/g, ' ') : whole,
  );
}

export function messageOf(rule: Rule, raw: RawFinding): string {
  const template = rule.meta.messages[raw.messageId];
  if (template === undefined) throw new Error(`rule ${rule.meta.id} has no message "${raw.messageId}"`);
  return formatMessage(template, raw.data);
}

export function fixOf(rule: Rule, raw: RawFinding): string {
  if (raw.fixId === undefined) return formatMessage(rule.meta.fix, raw.data);
  const template = rule.meta.messages[raw.fixId];
  if (template === undefined) throw new Error(`rule ${rule.meta.id} has no message "${raw.fixId}"`);
  return formatMessage(template, raw.data);
}

/** A rule's raw finding as reports see it; history findings also name their commit. */
export function toFinding(
  rule: Rule,
  raw: RawFinding,
  level: 'info' | 'warn' | 'error',
  commit?: { sha: string; subject: string },
): Finding {
  const f: Finding = {
    ruleId: rule.meta.id,
    messageId: raw.messageId,
    severity: raw.info || level === 'info' ? 'info' : level === 'error' && !raw.warn ? 'error' : 'warning',
    file: raw.file,
    line: raw.line,
    column: raw.column ?? (raw.line === null ? null : 1),
    message: messageOf(rule, raw),
    fix: fixOf(rule, raw),
  };
  if (raw.causes?.length) f.causes = raw.causes;
  if (raw.undo?.length) f.undo = raw.undo;
  if (commit?.sha) {
    f.commit = commit.sha;
    f.subject = commit.subject;
  }
  return f;
}
