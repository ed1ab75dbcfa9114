import type { Rule, RawFinding } from '../types.js';
import type { Phase, Plan } from '../../model/types.js';
import { checkedBoxes, phaseLabel, phaseVerified, tasksOf, setAside } from '../../model/queries.js';
import { openPhaseCause } from '../plan/phase-order.js';
import { AFTER_THE_FACT, byFile, firstLine, personInAudit } from './cause.js';

function phaseIndex(plan: Plan, n: number): number {
  return plan.phases.findIndex((p, i) => !p.outside && (p.number ?? i + 1) === n);
}

/** What verified means for this phase in this preset, for the message. */
export function verifiedMeans(phase: Phase, preset: 'recommended' | 'strict'): string {
  if (preset === 'strict' && phase.automated.length + phase.manual.length > 0)
    return 'its automated and manual items checked or N/A';
  if (phase.automated.length > 0) return 'its automated items checked or N/A';
  return 'its tasks checked';
}

interface Start {
  file: string;
  line: number;
  key: string;
  phase: Phase;
  open: Phase;
}

export const rule: Rule = {
  meta: {
    id: 'history/phase-order',
    short: 'A phase is started only after the earlier phases were verified.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](phase(n) -> P(verified(n-1)))',
    description:
      "The commit that first checks an item of phase n comes after the commit that completed the verification of every earlier phase. `recommended`: verified = all its automated items checked or N/A (manual boxes are a human's and often lag); `strict`: its automated and manual items. A commit that completes phase n-1's verification as it starts phase n shows no order between the two (convention section 6); one that starts phase n while phase n-1 stays unverified after it is too early, even when it also makes phase n-1's first check-offs. A plan that enters git already progressed is judged by the snapshot rules (plan/phase-order), not by this rule; a task checked while an earlier task is open is history/task-order's. In an audit (no config), only commits with an agent's identity are judged: history shows who committed, not who worked.",
    fix: `Verify each phase before starting the next from now on; for this commit, ${AFTER_THE_FACT}.`,
    messages: {
      startedEarly: 'First check-off in {{phase}} comes before {{open}} was verified (that needs {{verified}}).',
      startedEarlyMany:
        'First check-offs in {{phases}} come before {{open}} was verified (that needs {{verified}}; first at line {{line}}).',
      // The fix before the commit exists (pre-commit, commit-msg): the check-off can still wait.
      waitForPhase:
        'Leave {{phase}} unchecked until {{open}} is verified ({{verified}}); a human confirms manual items with `npx validate-workflow confirm {{file}} --phase {{openNumber}}`.',
      // The fix of a commit already made: what to do now.
      orderNow: `The order of a commit already made cannot change: verify {{open}} now if it is still open (a human confirms manual items with \`npx validate-workflow confirm {{file}} --phase {{openNumber}}\`) and keep the order from here on; for this commit, ${AFTER_THE_FACT}.`,
    },
  },
  transition: (ctx) => {
    if (personInAudit(ctx)) return [];
    const starts: Start[] = [];
    const seen = new Set<string>();
    // Per phase: whether every check-off that starts it is a task that history/task-order already reports (a task
    // checked while an earlier task of the plan is open): the same cause, reported once.
    const onlyTaskOrder = new Map<string, boolean>();
    for (const e of ctx.events) {
      const starting = (e.type === 'item-checked' && e.checked) || (e.type === 'task-completed' && e.completed);
      if (!starting) continue;
      const k = `${e.file}|${e.phase}`;
      const after = ctx.after.plan(e.file);
      const taskOrders =
        e.type === 'task-completed' && !!after && tasksOf(after).some((t) => t.number < e.task && !t.checked);
      onlyTaskOrder.set(k, (onlyTaskOrder.get(k) ?? true) && taskOrders);
      if (seen.has(k)) continue;
      seen.add(k);
      const before = ctx.before.plan(e.file);
      // A plan that enters git in this commit is judged by the snapshot rules (plan/phase-order), in every mode:
      // history cannot say in which order its boxes were checked.
      if (!after || !before) continue;
      // A plan whose phase sequence the reader is not sure of has no order to judge (plan/schema says so once).
      if (after.unstructured || before.unstructured || setAside(after)) continue;
      const ai = phaseIndex(after, e.phase);
      const bi = phaseIndex(before, e.phase);
      // Only the commit that first checks something in the phase is judged; later ones build on it.
      if (bi >= 0 && checkedBoxes(before.phases[bi]!).length > 0) continue;
      const upTo = bi >= 0 ? bi : ai;
      const open = before.phases.slice(0, upTo).find((p) => !p.outside && !phaseVerified(p, ctx.preset));
      if (!open || ai < 0) continue;
      // The same commit completes the open phase's verification: history shows no order between the two
      // (convention section 6, round 3); its manual boxes are manual-confirmation's, its tasks batched-tasks'.
      const openNow = open.number === null ? -1 : phaseIndex(after, open.number);
      if (openNow >= 0 && phaseVerified(after.phases[openNow]!, ctx.preset)) continue;
      starts.push({ file: e.file, line: e.line, key: k, phase: after.phases[ai]!, open });
    }
    const out: RawFinding[] = [];
    const fixId = ctx.stage === 'history' ? 'orderNow' : 'waitForPhase';
    for (const [file, all] of byFile(starts)) {
      const list = all.filter((s) => !onlyTaskOrder.get(s.key));
      if (list.length === 0) continue;
      const first = list.find((s) => s.line === firstLine(list))!;
      const data = {
        file,
        line: first.line,
        phase: phaseLabel(first.phase),
        phases: list.map((s) => phaseLabel(s.phase)).join(', '),
        open: phaseLabel(first.open),
        openNumber: first.open.number ?? 1,
        verified: verifiedMeans(first.open, ctx.preset),
      };
      // The same unverified phase at a later commit is the same cause, reported at the first commit; while the plan
      // still shows that phase unverified, plan/phase-order reports the cause at HEAD, and this one gives way (one
      // cause, one finding: the repository's maintainers read the two as one complaint).
      out.push({
        file,
        line: first.line,
        messageId: list.length > 1 ? 'startedEarlyMany' : 'startedEarly',
        fixId,
        data,
        causes: [openPhaseCause(file, first.open)],
      });
    }
    return out;
  },
};
