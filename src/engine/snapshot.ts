// Runs the snapshot rules over a workspace: severities from preset and config, inline disables, one sorted list.
import type { Config } from '../config/config.js';
import type { Workspace, WorkflowFile } from '../model/types.js';
import type { Rule, RuleContext } from '../rules/types.js';
import { compareFindings, type Finding } from './finding.js';
import { severityOf, toFinding } from './findings.js';

export { severityOf, toFinding };

function disabledIn(file: WorkflowFile | undefined, ruleId: string): boolean {
  // History rules judge what was committed; a comment in today's file cannot excuse yesterday's commit. And a
  // disable cannot silence the rule that reports disables, or a reasonless disable would hide itself.
  if (!file || ruleId.startsWith('history/') || ruleId === 'disable/directive') return false;
  return file.disables.some((d) => d.ruleIds.includes(ruleId));
}

export function runSnapshot(ws: Workspace, rules: readonly Rule[], config: Config, knownRules: ReadonlySet<string>, focus?: ReadonlySet<string>): Finding[] {
  const ctx: RuleContext = { preset: config.preset, config, knownRules, focus };
  const files = new Map<string, WorkflowFile>([...ws.plans, ...ws.handoffs, ...ws.ledgers].map((f) => [f.path, f]));
  const out: Finding[] = [];
  for (const rule of rules) {
    const level = severityOf(rule, config);
    if (level === 'off' || !rule.snapshot) continue;
    for (const raw of rule.snapshot(ws, ctx)) {
      if (focus && raw.file !== null && !focus.has(raw.file)) continue;
      if (raw.file && disabledIn(files.get(raw.file), rule.meta.id)) continue;
      out.push(toFinding(rule, raw, level));
    }
  }
  return out.sort(compareFindings);
}
