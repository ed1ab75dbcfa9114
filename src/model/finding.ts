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
  /**
   * What the finding is about, when another rule can report the same thing at the same door (not in the JSON
   * contract): a history finding whose causes a snapshot finding of that door already reports is left out, so one
   * cause is reported once (convention section 6).
   */
  causes?: string[];
  /**
   * A history finding: the events that would undo it, as `undoKey`s (not in the JSON contract). When a later commit
   * undoes every one of them, the violation was reverted and is reported as a warning naming that commit.
   */
  undo?: string[];
  /**
   * Where the repository's own words belong in this finding (not in the JSON contract): the finding was judged without
   * them, and each door adds them as the working tree's instructions say them today (engine/findings.ts
   * citeInstructions), so a cached finding never holds words the files have since changed.
   */
  cite?: Citation;
}

/**
 * A profile part a finding quotes (read/profile.ts manualConfirmation), and the place in the message its words go:
 * before the rule's closing stop. What a door adds later (a revert, a baseline count) only ever follows the message.
 */
export interface Citation {
  part: 'manualConfirmation';
  at: number;
}

/** One event that undoes a violation: a manual item unchecked again, a handoff back at its path. */
export function undoKey(kind: 'uncheck' | 'restore', file: string, text = ''): string {
  return `${kind}\0${file}\0${text}`;
}

/**
 * History findings without those whose every cause a snapshot finding of the same door already reports: a task checked
 * without its handoff is handoff/missing's while the handoff is missing, history/task-order's once it came late.
 */
function withoutRepeats(history: readonly Finding[], snapshot: readonly Finding[]): Finding[] {
  // A note (info) names the cause without judging it: the history finding that judges it stays.
  const reported = new Set(snapshot.filter((f) => f.severity !== 'info').flatMap((f) => f.causes ?? []));
  if (reported.size === 0) return [...history];
  return history.filter((f) => !f.causes?.length || !f.causes.every((c) => reported.has(c)));
}

/**
 * A door's findings, one per cause: the snapshot's, without a note (info) whose every cause a history finding names
 * (plan/phase-order's note on an unverified phase gives way to history/phase-order's error naming the commit, or to
 * its note naming the commit that went ahead of boxes left open: the same cause, said with its commit), and the
 * history's, without those a snapshot finding already reports, and without a note whose every cause a snapshot note
 * that stays names: that note says the cause as it stands now, where the history's said it as it stood then
 * (plan/phase-order names a phase whose verification shows no beginning at HEAD, which history/phase-order's note
 * on a beginning since undone cannot stand for).
 */
export function oneCause(history: readonly Finding[], snapshot: readonly Finding[]): Finding[] {
  const judged = new Set(history.flatMap((f) => f.causes ?? []));
  const notes = (f: Finding) => f.severity === 'info' && !!f.causes?.length && f.causes.every((c) => judged.has(c));
  const kept = snapshot.filter((f) => !notes(f));
  const said = new Set(kept.filter((f) => f.severity === 'info').flatMap((f) => f.causes ?? []));
  const stale = (f: Finding) => f.severity === 'info' && !!f.causes?.length && f.causes.every((c) => said.has(c));
  return [...kept, ...withoutRepeats(history, snapshot).filter((f) => !stale(f))];
}

/**
 * One cause, one finding across commits: of history findings of one rule naming the same causes (an earlier phase
 * left unverified while later phases went ahead, commit after commit), the first stands for all. A note never stands
 * for a judged finding: a note whose every cause a judged finding of its rule names gives way to it, earlier or
 * later (boxes read as left open at one commit, the same phase's verification undone and skipped at a later one:
 * the error is the finding).
 */
export function firstPerCause(history: readonly Finding[]): Finding[] {
  const judged = new Map<string, Set<string>>();
  for (const f of history)
    if (f.severity !== 'info' && f.causes?.length) {
      const set = judged.get(f.ruleId) ?? new Set<string>();
      for (const c of f.causes) set.add(c);
      judged.set(f.ruleId, set);
    }
  const seen = new Set<string>();
  return history.filter((f) => {
    if (!f.causes?.length) return true;
    const by = judged.get(f.ruleId);
    if (f.severity === 'info' && by && f.causes.every((c) => by.has(c))) return false;
    const key = `${f.ruleId}\0${[...f.causes].sort().join('\0')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function compareFindings(a: Finding, b: Finding): number {
  const fa = a.file ?? '';
  const fb = b.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0)
  );
}
