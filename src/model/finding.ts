// The finding as every report sees it (section 7 of the convention): the engine turns a rule's RawFinding into this.
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  ruleId: string;
  /** The rule's message name (not in the JSON contract: for tests and for telling findings apart). */
  messageId?: string;
  severity: Severity;
  /** Repository-relative with `/` separators; null for a finding about the repository as a whole. */
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  fix?: string;
  commit?: string;
  subject?: string;
}

export function compareFindings(a: Finding, b: Finding): number {
  const fa = a.file ?? '';
  const fb = b.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
}
