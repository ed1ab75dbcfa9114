import type { Rule, RawFinding, TransitionContext } from '../types.js';
import type { Phase, Plan } from '../../model/types.js';
import {
  checkedBoxes,
  phaseLabel,
  phaseVerified,
  tasksOf,
  setAside,
  verificationBegun,
  verificationBoxes,
} from '../../model/queries.js';
import { openPhaseCause, unbegunPhaseCause } from '../plan/phase-order.js';
import { AFTER_THE_FACT, byFile, firstLine, personInAudit } from './cause.js';

function phaseIndex(plan: Plan, n: number): number {
  return plan.phases.findIndex((p, i) => !p.outside && (p.number ?? i + 1) === n);
}

/**
 * The phase of `plan` an event at `line` of it stands in. Events carry the top-level number only, which sub-phases
 * share (`2A`, `2B`, `2.1`): the phase of that number whose heading is the last one at or above the line tells them
 * apart, so starting 2B while 2A is open is judged as any other start (an event without such a heading keeps the
 * first phase of its number, as before).
 */
function phaseAt(plan: Plan, n: number, line: number): number {
  let found = -1;
  plan.phases.forEach((p, i) => {
    if (!p.outside && (p.number ?? i + 1) === n && p.line <= line) found = i;
  });
  return found >= 0 ? found : phaseIndex(plan, n);
}

/** The phase of `plan` (another version of the same plan) that stands for `phase`: by its label, else its number. */
function counterpart(plan: Plan, phase: Phase): Phase | undefined {
  const seq = plan.phases.filter((p) => !p.outside);
  const byLabel = phase.label === null ? undefined : seq.find((p) => p.label === phase.label);
  return byLabel ?? (phase.number === null ? undefined : seq.find((p) => p.number === phase.number));
}

/**
 * The phase of `plan` that is `phase` by both its label and its title, when it is the only one: the identity a phase
 * keeps through versions that renumber, split or retitle phases is not certain, so a phase known by one of the two
 * only is no match (its past stays unread).
 */
function sameIn(plan: Plan, phase: Phase): Phase | undefined {
  const key = (p: Phase) => `${p.label}\0${p.title.trim().toLowerCase()}`;
  const found = plan.phases.filter((p) => !p.outside && key(p) === key(phase));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Whether `phase`, unverified in the commit's parent (`parent`), was verified in an earlier version of the plan:
 * the formula's `P(verified(n-1))` is over the past, and the commit that completed the verification exists even when
 * a later one took the boxes back (a parallel worker writing over the plan from an older copy). The earlier version
 * must show the same phase (sameIn) verified with every box the parent leaves open checked there, by its words:
 * a box added since, or reworded, was never checked, and the start is judged as before.
 */
function verifiedBefore(ctx: TransitionContext, file: string, parent: Plan, phase: Phase): boolean {
  if (phase.label === null || !phase.title.trim() || sameIn(parent, phase) !== phase) return false;
  const open = verificationBoxes(phase, ctx.preset)
    .filter((b) => !b.done)
    .map((b) => b.key);
  return ctx.earlierPlans(file).some((version) => {
    if (version.unstructured || setAside(version)) return false;
    const was = sameIn(version, phase);
    if (!was || !phaseVerified(was, ctx.preset)) return false;
    const done = new Set(
      verificationBoxes(was, ctx.preset)
        .filter((b) => b.done)
        .map((b) => b.key),
    );
    return open.every((k) => done.has(k));
  });
}

/** The automated items a phase leaves open (not checked, not N/A, no declared deviation), in line order. */
function openAutomated(phase: Phase): Phase['automated'] {
  return phase.automated.filter((i) => !i.checked && !i.na && !i.deviation).sort((a, b) => a.line - b.line);
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
  /**
   * `recommended`: the open phase as the commit leaves it, when its verification had begun there: its open boxes read
   * as left open, and the start is a note, not an error.
   */
  leftOpen?: Phase;
}

export const rule: Rule = {
  meta: {
    id: 'history/phase-order',
    short: 'A phase is started only after the earlier phases were verified.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '[](phase(n) -> P(verified(n-1)))',
    description:
      "The commit that first checks an item of phase n comes after the commit that completed the verification of every earlier phase. `recommended`: verified = all its automated items checked or N/A, the error is an earlier phase whose verification had not begun (no automated item checked, N/A and deviations aside; without automated items, its tasks); a begun one left open is a note; an untouched phase decides over a begun one. `strict`: its automated and manual items. A commit that completes phase n-1's verification as it starts phase n shows no order (section 6) if no earlier phase stays open; nor a start after an earlier version verified phase n-1 (same label and title, every box open now checked there) that a later commit unchecked (`P` reads the past); sub-phases (2A, 2B) are phases. A plan that enters git already progressed is plan/phase-order's; a task checked while an earlier task is open is history/task-order's. In an audit (no config), only agents' commits are judged.",
    fix: `Verify each phase before starting the next from now on; for this commit, ${AFTER_THE_FACT}.`,
    messages: {
      startedEarly: 'First check-off in {{phase}} comes before {{open}} was verified (that needs {{verified}}).',
      startedEarlyMany:
        'First check-offs in {{phases}} come before {{open}} was verified (that needs {{verified}}; first at line {{line}}).',
      // recommended: the earlier phase's verification had begun and left boxes open (a note, issue 19).
      // Said as the error says it, with what verified needs, then why it is a note.
      leftOpen:
        'First check-off in {{phase}} comes before {{open}} was verified (that needs {{verified}}): {{openItems}} still open, first "{{item}}" at line {{itemLine}}; its verification had begun, so `recommended` reads the open boxes as left open, not skipped.',
      leftOpenMany:
        'First check-offs in {{phases}} come before {{open}} was verified (that needs {{verified}}; first at line {{line}}): {{openItems}} still open, first "{{item}}" at line {{itemLine}}; its verification had begun, so `recommended` reads the open boxes as left open, not skipped.',
      // The fix before the commit exists (pre-commit, commit-msg): the check-off can still wait.
      waitForPhase:
        'Leave {{phase}} unchecked until {{open}} is verified ({{verified}}); a human confirms manual items with `npx validate-workflow confirm {{file}} --phase {{openNumber}}`.',
      // The fix of a commit already made: what to do now.
      orderNow: `The order of a commit already made cannot change: verify {{open}} now if it is still open (a human confirms manual items with \`npx validate-workflow confirm {{file}} --phase {{openNumber}}\`) and keep the order from here on; for this commit, ${AFTER_THE_FACT}.`,
      // The fix of a note before the commit exists (pre-commit, commit-msg): the boxes are still open.
      closeLeftOpen:
        'Check the open boxes of {{open}} once they pass, or say on the line why one stays open (`skipped: <reason>`, `deferred to Phase N`): a declared deviation holds no later phase.',
      // The fix of a note on a commit already made: the boxes may have been closed since, as orderNow says.
      closeLeftOpenNow:
        'The order of a commit already made cannot change: check the open boxes of {{open}} once they pass if they are still open, or say on the line why one stays open (`skipped: <reason>`, `deferred to Phase N`): a declared deviation holds no later phase.',
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
      const after = ctx.after.plan(e.file);
      const ai = after ? phaseAt(after, e.phase, e.line) : -1;
      const k = `${e.file}|${e.phase}|${ai}`;
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
      // The same phase in the commit's parent: by its label (a sub-phase has its own), else its number.
      const was = ai >= 0 ? counterpart(before, after.phases[ai]!) : undefined;
      const bi = was ? before.phases.indexOf(was) : phaseIndex(before, e.phase);
      // Only the commit that first checks something in the phase is judged; later ones build on it.
      if (bi >= 0 && checkedBoxes(before.phases[bi]!).length > 0) continue;
      const upTo = bi >= 0 ? bi : ai;
      const opens = before.phases.slice(0, upTo).filter((p) => !p.outside && !phaseVerified(p, ctx.preset));
      if (opens.length === 0 || ai < 0) continue;
      // The earlier phases still unverified as the commit leaves them. One the same commit completes shows no order
      // (convention section 6, round 3; its manual boxes are manual-confirmation's, its tasks batched-tasks'), but
      // only that one: completing phase 1 while starting phase 3 leaves phase 2 open, and the start is judged.
      // Nor does one verified in an earlier commit whose boxes were unchecked since (verifiedBefore); git is asked
      // only for a phase still open here.
      const stillOpen = opens
        .map((p) => ({ p, now: counterpart(after, p) }))
        .filter(({ now }) => !now || !phaseVerified(now, ctx.preset))
        .filter(({ p }) => !verifiedBefore(ctx, e.file, before, p));
      if (stillOpen.length === 0) continue;
      const start = { file: e.file, line: e.line, key: k, phase: after.phases[ai]! };
      if (ctx.preset === 'strict') {
        starts.push({ ...start, open: stillOpen[0]!.p });
        continue;
      }
      // recommended (issue 19): going ahead while an earlier phase's verification had not begun at this commit (not
      // one of its automated items checked) is the agent skipping the checks, an error; going ahead while it had
      // begun and left boxes open (a stale box among ticked ones, one commit for several phases that leaves the same
      // boxes open in each) is what maintainers read as bookkeeping left behind, a note. An untouched phase decides
      // over a begun one wherever the two stand. Begun is read in the commit's own version of the plan: what
      // the agent had ticked when it went ahead, this commit's ticks included. A phase the commit's version no
      // longer shows cannot show a beginning: it stays an error, as before.
      const untouched = stillOpen.find(({ now }) => !now || !verificationBegun(now));
      if (untouched) starts.push({ ...start, open: untouched.p });
      else if (stillOpen[0]) starts.push({ ...start, open: stillOpen[0].p, leftOpen: stillOpen[0].now });
    }
    const out: RawFinding[] = [];
    const fixId = ctx.stage === 'history' ? 'orderNow' : 'waitForPhase';
    for (const [file, all] of byFile(starts)) {
      const judged = all.filter((s) => !onlyTaskOrder.get(s.key));
      // One finding per plan and commit: a phase started while an earlier one was untouched is the error, and the
      // notes of the same commit (phases started while a begun phase stood open) are part of it.
      const errors = judged.filter((s) => !s.leftOpen);
      const list = errors.length > 0 ? errors : judged;
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
      // recommended's error is a phase whose verification never began: a cause of its own besides the open phase, so
      // a note on the same phase (begun, boxes left open) neither hides it in a later commit nor stands for it at HEAD
      // (finding.ts firstPerCause, oneCause; plan/phase-order names it while the phase shows no beginning at HEAD).
      const causes = [openPhaseCause(file, first.open)];
      if (errors.length > 0) {
        const messageId = list.length > 1 ? 'startedEarlyMany' : 'startedEarly';
        if (ctx.preset !== 'strict') causes.push(unbegunPhaseCause(file, first.open));
        out.push({ file, line: first.line, messageId, fixId, data, causes });
        continue;
      }
      const open = openAutomated(first.leftOpen!);
      const item = open[0];
      out.push({
        file,
        line: first.line,
        messageId: list.length > 1 ? 'leftOpenMany' : 'leftOpen',
        fixId: ctx.stage === 'history' ? 'closeLeftOpenNow' : 'closeLeftOpen',
        data: {
          ...data,
          openItems: open.length === 1 ? '1 automated item' : `${open.length} automated items`,
          item: item?.text ?? '',
          itemLine: item?.line ?? first.line,
        },
        info: true,
        causes,
      });
    }
    return out;
  },
};
