import type { Rule, RawFinding } from '../types.js';
import type { Ledger, LedgerItem, Phase, Plan, Task, Workspace } from '../../model/types.js';
import {
  handoffTasks,
  handoffsOfPlan,
  ledgerItemTasks,
  phaseBoxes,
  planOf,
  plansNamedBy,
  positionOf,
  sequence,
  setAside,
  tasksOf,
} from '../../model/queries.js';

/** Plan tasks checked complete that no task item of the ledger tracks (the ledger/sync fix adds them). */
export function unlistedTasks(plan: Plan, ledger: Ledger): Task[] {
  const listed = new Set(ledger.items.filter((i) => i.task !== null).flatMap((i) => ledgerItemTasks(plan, i)));
  return tasksOf(plan).filter((t) => t.checked && !listed.has(t));
}

export const rule: Rule = {
  meta: {
    id: 'ledger/sync',
    short: 'The ledger and its plan agree on which tasks are done.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(update_ledger) <- task_complete',
    description:
      "A ledger and the plan it names (or the plan its session was linked to) agree on which tasks are done: a task checked in the plan is `[x]` in the ledger state, and a task `[x]` in the ledger is checked in the plan. A ledger item `Task N: text` tracks the plan's Task N when the texts agree, else the one task with that text (a task inserted mid-plan renumbers the plan, not the ledger). A task the ledger and its handoff both call done while the plan has it unchecked is `handoff/plan-sync`'s finding (the plan was not updated), not this rule's. A ledger item that marks a phase done (`[x] Phase 2: ...`, `[x] Phase 0-3: ...`) is held against the plans the ledger names (its link, else every plan whose file name or title it mentions): it is reported only when every one of those plans that has the phase has not a single box of it checked. A titled claim (`Phase 1: Model router`) is held only against plan phases whose title shares a word with it (a ledger may number its own milestones).",
    fix: 'Update the ledger `## State` (or the plan) so both say the same.',
    fixable: 'problem',
    messages: {
      unknownTask: 'Ledger lists Task {{task}}, which {{plan}} does not have.',
      doneButUnchecked: 'Ledger marks Task {{task}} done but the plan has it unchecked ({{plan}}:{{planLine}}).',
      checkedButNotDone:
        'Plan checks Task {{task}} complete ({{plan}}:{{planLine}}) but the ledger marks it {{state}}.',
      checkedButUnlisted:
        'Plan checks Task {{task}} complete ({{plan}}:{{planLine}}) but the ledger state does not list it.',
      phaseClaimed:
        'Ledger marks {{phase}} done, but {{plans}} {{have}} none of its {{count}} checkboxes checked (first at {{first}}).',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const ledger of ws.ledgers.filter((l) => l.readable)) {
      out.push(...phaseClaims(ws, ledger));
      const plan = planOf(ws, ledger.path);
      const taskItems = ledger.items.filter((i) => i.task !== null);
      if (!plan || !plan.readable || taskItems.length === 0) continue;
      // A task the ledger and its handoff both call done, unchecked in the plan: the plan is what nobody updated,
      // handoff/plan-sync's one finding; saying it again per ledger line would report one cause many times.
      const handedOff = new Set(
        handoffsOfPlan(ws, plan)
          .filter((h) => h.status === 'complete')
          .flatMap((h) => handoffTasks(plan, h)),
      );
      for (const item of taskItems) {
        const tasks = ledgerItemTasks(plan, item);
        const task = tasks.at(-1);
        if (!task) {
          out.push({
            file: ledger.path,
            line: item.line,
            column: item.column,
            messageId: 'unknownTask',
            data: { task: item.task!, plan: plan.path },
          });
        } else if (item.state === 'done' && !task.checked && !handedOff.has(task)) {
          out.push({
            file: ledger.path,
            line: item.line,
            column: item.column,
            messageId: 'doneButUnchecked',
            data: { task: item.task!, plan: plan.path, planLine: task.line },
          });
        } else if (item.state === 'done' && !task.checked) {
          continue;
        } else if (item.state !== 'done' && task.checked) {
          out.push({
            file: ledger.path,
            line: item.line,
            column: item.column,
            messageId: 'checkedButNotDone',
            data: { task: item.task!, plan: plan.path, planLine: task.line, state: item.state },
          });
        }
      }
      for (const task of unlistedTasks(plan, ledger)) {
        out.push({
          file: ledger.path,
          ...positionOf(ledger.positions, '/state'),
          messageId: 'checkedButUnlisted',
          data: { task: task.number, plan: plan.path, planLine: task.line },
        });
      }
    }
    return out;
  },
};

/** `Phase 2`, `Phase 0-3`: the phase numbers a ledger item's label claims (none for `Phase 2A` or a task). */
function claimedPhases(item: LedgerItem): number[] {
  const m = /^Phase (\d+)(?:-(\d+))?$/.exec(item.label);
  if (!m) return [];
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  return to >= from && to - from < 100 ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : [];
}

/** The phases of a plan that a claim of phase n covers: phase n and its sub-phases (`3.1`, `3.2`). */
function phasesNumbered(plan: Plan, n: number): Phase[] {
  return sequence(plan).filter((p) => p.label !== null && (p.label === String(n) || p.label.startsWith(`${n}.`)));
}

/**
 * Words that name no phase in particular: every phase is a phase, most are an implementation of something, and a
 * claim's status words (`Phase 1: Complete`, `All tasks finished`) say how it went, not which phase it is.
 */
const GENERIC = new Set(
  'phase implementation implement implemented and the for with all task tasks done complete completed finished verified'.split(
    ' ',
  ),
);

/** `Model router implementation` -> [model, router]: the words a phase title is known by. */
function titleWords(title: string): string[] {
  const words = title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.length >= 3 && !GENERIC.has(w));
}

/** One word is the other or begins it (`scaffold`, `scaffolding`; `agent`, `agents`), the shorter of 4 letters or more. */
function sameWord(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short === long || (short.length >= 4 && long.startsWith(short));
}

/**
 * The words of the title a single-phase claim gives its phase (`Phase 1: Model router` -> [model, router]), or null:
 * a claim without a title, or a range (`Phase 0-3: all agents built`, whose words describe several phases).
 */
function claimTitle(item: LedgerItem, numbers: number[]): string[] | null {
  const said = /^Phase \d+\s*[:.\-–—]\s*(.*)$/i.exec(item.text)?.[1];
  if (said === undefined || numbers.length !== 1) return null;
  const words = titleWords(said);
  return words.length > 0 ? words : null;
}

/**
 * Whether a claim with that title can be about this plan phase: the two titles share a word. A ledger that numbers
 * its own milestones names other phases than the plan's.
 */
function sameTitle(ours: string[] | null, phase: Phase): boolean {
  const theirs = titleWords(phase.title);
  if (ours === null || theirs.length === 0) return true;
  return ours.some((w) => theirs.some((t) => sameWord(w, t)));
}

/**
 * A ledger that calls phases done while the plans it names have not a box of them checked (the ledger's word and
 * the plans' boxes disagree, with nothing checked to show for the claim). Conservative: every named plan that has
 * the phase must show it untouched, and a phase the plan itself declares done or deferred is no evidence.
 */
function phaseClaims(ws: Workspace, ledger: Ledger): RawFinding[] {
  const claims = ledger.items.filter((i) => i.state === 'done' && i.task === null && claimedPhases(i).length > 0);
  if (claims.length === 0) return [];
  const plans = plansNamedBy(ws, ledger).filter((p) => !p.notAPlan && !p.unstructured && !setAside(p));
  const out: RawFinding[] = [];
  for (const item of claims) {
    const numbers = claimedPhases(item);
    const title = claimTitle(item, numbers);
    const held = plans.flatMap((plan) =>
      numbers.flatMap((n) =>
        phasesNumbered(plan, n)
          .filter((phase) => sameTitle(title, phase))
          .map((phase) => ({ plan, phase })),
      ),
    );
    if (held.length === 0 || held.some(({ phase }) => phase.declaredDone || phase.statusDone || phase.deferred))
      continue;
    const all = held.flatMap(({ plan, phase }) => phaseBoxes(phase).map((b) => ({ plan, ...b })));
    if (all.length === 0 || all.some((b) => b.checked)) continue;
    const named = [...new Set(held.map((h) => h.plan.path))];
    out.push({
      file: ledger.path,
      line: item.line,
      column: item.column,
      messageId: 'phaseClaimed',
      data: {
        phase: item.label,
        plans: named.join(' and '),
        have: named.length > 1 ? 'have' : 'has',
        count: all.length,
        first: `${all[0]!.plan.path}:${all[0]!.line}`,
      },
    });
  }
  return out;
}
