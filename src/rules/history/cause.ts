// One finding per cause (convention section 6): a history rule reports one finding per commit, rule and file,
// listing the items it concerns with their count and the first line, never one per checkbox. And a fix never asks
// to change the past: for a commit already made it says what to do now.

import type { TransitionContext } from '../types.js';
/** How many item texts a finding quotes before "and N more". */
export const LISTED = 5;

/** `"A", "B", "C"`, or `"A", "B", "C", "D", "E" and 3 more`. */
export function listTexts(texts: readonly string[], max = LISTED): string {
  const shown = texts.slice(0, max).map((t) => `"${t}"`);
  const more = texts.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** Things of one cause, grouped by file in the order they first appear. */
export function byFile<T extends { file: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const list = out.get(it.file);
    if (list) list.push(it);
    else out.set(it.file, [it]);
  }
  return out;
}

/** The first line among items (findings point at it). */
export function firstLine(items: readonly { line: number }[]): number {
  return items.reduce((m, i) => Math.min(m, i.line), Number.POSITIVE_INFINITY);
}

/**
 * The two ways to live with a finding about a commit that is already made, said the same way by every history rule:
 * the baseline (the finding stays known, with the reason in the commit that records it) or the adoption point
 * (history before it is folded, not judged).
 */
export const AFTER_THE_FACT =
  'record the finding in the baseline with the reason in that commit\'s message (`npx validate-workflow --baseline-write`), or, when the commit predates your adoption of the convention, set the adoption point (`"history": { "since": "<commit>" }` in validate-workflow.config.json, or `--since <commit>`)';

/**
 * An audit (no config: the repository never adopted the convention) sees who committed, not who worked: the order
 * rules bind an agent's steps, so there they judge only commits with an agent's identity on them. A person who
 * checks three phases in one go, or ticks an earlier phase late, broke no protocol anyone asked of them.
 */
export function personInAudit(ctx: TransitionContext): boolean {
  return ctx.audit && ctx.stage === 'history' && ctx.agents.length === 0;
}
