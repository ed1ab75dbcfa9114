// A rule's raw finding as every door and report sees it: severity from the policy, the rule's named message with
// its placeholders filled, and the fix. One function, so the CLI, the reports and the Claude Code hook print the
// same words.
import type { Config } from '../config/config.js';
import type { RawFinding, Rule, RuleContext } from '../rules/types.js';
import type { Workspace } from '../model/types.js';
import { promiseOf } from '../rules/promise.js';
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
  if (raw.requires) f.requires = raw.requires;
  if (raw.cite) f.cite = { part: raw.cite, at: f.message.endsWith('.') ? f.message.length - 1 : f.message.length };
  if (commit?.sha) {
    f.commit = commit.sha;
    f.subject = commit.subject;
  }
  return f;
}

/**
 * A door's history findings without those that hold only where the state it judges asks for what they name
 * (Finding.requires), where that state does not: in `recommended`, history/task-order's late handoff where neither
 * the state's promise (rules/promise.ts, the same `taskHandoffs` handoff/missing asks on that workspace) nor the plan
 * there (`mode: orchestration`) asks for task handoffs. Asked after the cache, where the door's snapshot and history
 * findings meet (as oneCause and citeInstructions are): history judges every commit alike, so a repository whose
 * first task handoffs came after the check-offs they were late for is told of each, and the cache holds nothing that
 * an instruction file or a later handoff changes. `state` is built only when such a finding is there to keep.
 */
export function keepRequired(
  findings: Finding[],
  state: () => Workspace,
  ctx: Pick<RuleContext, 'config' | 'preset'>,
): Finding[] {
  // strict holds every orchestration plan to its handoffs (its promise is the canonical one): nothing to ask.
  if (ctx.preset === 'strict' || !findings.some((f) => f.requires)) return findings;
  const t = performance.now();
  const ws = state();
  if (promiseOf(ws, ctx).taskHandoffs.value) {
    timing('requirements kept (task handoffs promised)', since(t));
    return findings;
  }
  // A plan that declares `mode: orchestration` promised its handoffs itself, as handoff/missing reads it.
  const declared = new Set(ws.plans.filter((p) => p.frontmatter?.mode === 'orchestration').map((p) => p.path));
  const kept = findings.filter((f) => !f.requires || (f.file !== null && declared.has(f.file)));
  timing('requirements kept', since(t));
  return kept;
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
