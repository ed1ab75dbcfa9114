// A rule's raw finding as every door and report sees it: severity from the policy, the rule's named message with
// its placeholders filled, and the fix. One function, so the CLI, the reports and the Claude Code hook print the
// same words.
import type { Config } from '../config/config.js';
import type { RawFinding, Rule } from '../rules/types.js';
import type { Finding } from '../model/finding.js';
import { oneLine } from '../shared/text.js';
import { describeSource, instructionInputs, instructionSignals, manualConfirmationOf } from '../read/profile.js';
import { loadParsers } from '../read/lazy.js';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { cacheKey, readCacheText, writeCacheFile } from '../history/cache.js';
import { repositoryInfo } from '../shared/git.js';
import { since, timing } from '../shared/timing.js';

export function severityOf(rule: Rule, config: Config): 'off' | 'info' | 'warn' | 'error' {
  return config.rules[rule.meta.id] ?? rule.meta.severities[config.preset];
}

/**
 * `{{name}}` replaced by `data.name`; a placeholder without a value is a bug in the rule, shown as written. A value
 * quoted from a file keeps its words but not its line breaks (oneLine).
 */
export function formatMessage(template: string, data: RawFinding['data']): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    data && name in data ? oneLine(String(data[name])) : whole,
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
  if (raw.cite) f.cite = { part: raw.cite, at: f.message.endsWith('.') ? f.message.length - 1 : f.message.length };
  if (commit?.sha) {
    f.commit = commit.sha;
    f.subject = commit.subject;
  }
  return f;
}

/**
 * The repository's own words in the findings that quote them (Finding.cite), as the working tree's instructions say
 * them now: every door's last step before reporting, so each door says the same and a finding taken from the cache
 * is worded like a new one. The words are not part of a judgement (a commit's verdict never reads the profile, and
 * the cache never holds what an edit of CLAUDE.md changes); the instructions are read only when some finding asks.
 */
export async function citeInstructions(root: string, findings: Finding[]): Promise<Finding[]> {
  if (!findings.some((f) => f.cite)) return findings;
  const t = performance.now();
  const { words, read } = await confirmationWords(root);
  const out = findings.map((f) => {
    if (!f.cite) return f;
    const { cite, ...rest } = f;
    return { ...rest, message: `${f.message.slice(0, cite.at)}${words}${f.message.slice(cite.at)}` };
  });
  timing(`instructions cited${read ? '' : ' (words remembered)'}`, since(t));
  return out;
}

/**
 * The words a citation adds (`; this repository's CLAUDE.md (line 5) says "..."`, or none), remembered under .git/
 * by the digest of the instruction files' bytes: a repository with such a finding re-reads its instructions' words
 * once after they change, not on every run (parsing them is most of a warm run where .claude/ is large). Only words:
 * nothing judged depends on this file, so one written by anyone can change a message, never a verdict.
 */
async function confirmationWords(root: string): Promise<{ words: string; read: boolean }> {
  const info = repositoryInfo(root);
  const file = info ? join(info.gitDir, 'validate-workflow', 'instruction-words.json') : null;
  const key = cacheKey(['manualConfirmation', instructionInputs(root)]);
  if (file) {
    try {
      const kept = JSON.parse(readCacheText(file)) as { key?: unknown; words?: unknown };
      if (kept.key === key && typeof kept.words === 'string') return { words: kept.words, read: false };
    } catch {
      // None yet, unreadable, or no file the tool wrote (a named pipe would block): read the instructions.
    }
  }
  await loadParsers();
  const said = manualConfirmationOf(instructionSignals(root));
  const words = said.value && said.source.from === 'instructions' ? `; ${describeSource(said.source)}` : '';
  if (file) writeCacheFile(file, JSON.stringify({ key, words }));
  return { words, read: true };
}
