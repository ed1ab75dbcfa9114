import type { Rule, RawFinding } from '../types.js';
import type { Event } from '../../model/history.js';
import { AFTER_THE_FACT, byFile, firstLine, listTexts } from './cause.js';
import { writtenResolutions } from '../../history/resolutions.js';
import type { TransitionContext } from '../types.js';
import { phaseLabel, phaseVerified } from '../../model/queries.js';
import type { CheckItem, Phase, Plan } from '../../model/types.js';
import { phaseSubject } from '../../read/plan.js';

type Loosening = { file: string; line: number } & (
  | { act: 'config' | 'baseline' | 'modeByUser' | 'resolution' }
  | { act: 'unstructured'; reason: string }
  | { act: 'mode'; from: string; to: string }
  | { act: 'disable'; rules: string[] }
  | { act: 'madeNa' | 'addedNa' | 'deleted' | 'recast'; kind: string; text: string }
  | { act: 'sectionRemoved' | 'sectionEmptied'; kind: string; section: string }
  | { act: 'setAside'; phase: string; open: number; done: boolean; leftOpen?: boolean }
);

function loosening(e: Event): Loosening | null {
  const at = { file: e.file, line: e.line };
  switch (e.type) {
    case 'trust-file-changed':
      return { ...at, act: e.what };
    case 'disable-added':
      return { ...at, act: 'disable', rules: e.ruleIds };
    case 'mode-set-by-user':
      return { ...at, act: 'modeByUser' };
    // The mode decides which rules bind the agent (orchestration: handoffs, no batching); changing it is loosening.
    case 'mode-changed':
      return { ...at, act: 'mode', from: e.from, to: e.to };
    // The order rules skip a plan read as unstructured: making it so is loosening them.
    case 'plan-unstructured':
      return { ...at, act: 'unstructured', reason: e.reason };
    case 'item-made-na':
      return { ...at, act: 'madeNa', kind: e.kind, text: e.text };
    case 'item-added-na':
      return { ...at, act: 'addedNa', kind: e.kind, text: e.text };
    // A plan deleted or archived whole has no item events (housekeeping, src/history/events.ts): a removed item is
    // one taken out of a plan that stays.
    // An item recast as a manual one now waits for a human: that binds the agent more, not less.
    case 'item-removed':
      if (e.kept === 'manual') return null;
      return e.kind === 'automated' || e.kind === 'manual'
        ? { ...at, act: e.kept ? 'recast' : 'deleted', kind: e.kind, text: e.text }
        : null;
    // A section of plain bullets has no items to delete one by one: the phase stops listing that kind at all.
    // A list left saying only `N/A` is emptied: no check is left, as when the list goes.
    case 'criteria-removed':
      return {
        ...at,
        act: e.na ? 'sectionEmptied' : 'sectionRemoved',
        kind: e.kind,
        section:
          e.label === null
            ? `the plan's ${e.kind} verification`
            : `the ${e.kind} verification of Phase ${e.label}${e.title ? ` (${e.title})` : ''}`,
      };
    default:
      return null;
  }
}

/**
 * The resolutions of blocked handoffs the commit writes: an agent answering its own blocker, which
 * `handoff/blocked-proceed` would otherwise take for the user's guidance (issue 12, bypass 10). The human's
 * `Guidance-by:` in the commit makes the resolution the human's word relayed.
 */
function resolutions(ctx: TransitionContext): Loosening[] {
  const written = writtenResolutions(ctx.changes, ctx.before, ctx.after);
  if (written.length === 0 || ctx.guidanceGiven().ok) return [];
  return written.map((w) => ({ file: w.file, line: w.line, act: 'resolution' as const }));
}

/**
 * Phases the commit sets aside (a title or lead marker that says deferred or skipped, or that its work moved into a
 * phase that no longer waits) while their verification is still open: a phase set aside holds no later phase back
 * and its open checks are no longer waited for, so it loosens the order and confirmation the agent is held to, as
 * turning an item into N/A does. A phase is compared with its former self (formerSelf); a plan added or deleted in the
 * commit has no phase to set aside.
 */
function setAside(ctx: TransitionContext): Loosening[] {
  const out: Loosening[] = [];
  for (const c of ctx.changes) {
    if (c.status !== 'M' && c.status !== 'R') continue;
    const before = ctx.before.plan(c.from ?? c.path);
    const after = ctx.after.plan(c.path);
    if (!before || !after || before.unstructured || after.unstructured) continue;
    for (const phase of after.phases) {
      // Declared done with its checks open holds nothing up either (phaseVerified trusts the author's word). Asked
      // before the phase's former self is looked for: every commit that changes a plan passes here.
      if (!(phase.deferred || phase.declaredDone)) continue;
      const old = formerSelf(before, after, phase);
      if (!old || old.deferred || old.declaredDone) continue;
      // Work moved into a phase that still waits for its own checks keeps the order: that phase holds the later
      // ones back (a plan restructured as it is worked, not a gate dropped).
      const into =
        phase.movedInto && after.phases.find((p) => p.label?.toUpperCase() === phase.movedInto!.toUpperCase());
      if (into && !into.deferred && !phaseVerified(into, ctx.preset)) continue;
      // Declared done, only the checks that hold later phases back count (`recommended`): manual boxes wait for a
      // human in any case, and an agent closing its automated work rightly says the phase is done.
      const automatedOnly = !phase.deferred && ctx.preset === 'recommended';
      const { count: open, begun } = stillOpen(old, phase, after, automatedOnly, ctx.preset);
      if (open > 0)
        out.push({
          file: c.path,
          line: phase.line,
          act: 'setAside',
          phase:
            old.label === phase.label || phase.label === null
              ? phaseLabel(old)
              : `Phase ${phase.label} (${old.title}; Phase ${old.label ?? old.number} before this commit)`,
          open,
          done: !phase.deferred,
          // Declared done once its automated checks began (a check the parent version had, ticked), the rest were
          // left open, not skipped: the reading history/phase-order gives a begun phase (`recommended`; `strict`
          // holds every open check).
          leftOpen: automatedOnly && begun,
        });
    }
  }
  return out;
}

/** A phase's boxes by kind and text: their identity across versions (convention section 6). */
function itemKeys(phase: Phase): string[] {
  return [
    ...phase.automated.map((i) => `a\0${i.text}`),
    ...phase.manual.map((i) => `m\0${i.text}`),
    ...(phase.unknown ?? []).map((i) => `u\0${i.text}`),
    ...phase.tasks.map((t) => `t\0${t.label}\0${t.title}`),
  ];
}

/**
 * The phase of the parent version that `phase` was: the one about the same subject, when exactly one phase of each
 * version is about it; else the one holding most of its boxes (items keep their identity, by kind and text, when a
 * phase is renamed, renumbered or has an item moved); else the one of the same label, unless that one's subject moved
 * to another label (a plan renumbered as it is worked: the new Phase 6 is not the old Phase 6).
 */
function formerSelf(before: Plan, after: Plan, phase: Phase): Phase | undefined {
  const was = before.phases.filter((p) => !p.outside);
  const now = after.phases.filter((p) => !p.outside);
  const about = (list: Phase[], subject: string) => list.filter((p) => phaseSubject(p.title) === subject);
  const subject = phaseSubject(phase.title);
  if (subject !== '' && about(was, subject).length === 1 && about(now, subject).length === 1)
    return about(was, subject)[0];
  const mine = new Set(itemKeys(phase));
  const shared = was
    .map((p) => ({ p, n: itemKeys(p).filter((k) => mine.has(k)).length }))
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n);
  if (shared[0] && (shared.length === 1 || shared[0].n > shared[1]!.n)) return shared[0].p;
  if (phase.label === null) return undefined;
  const byLabel = was.find((p) => p.label?.toUpperCase() === phase.label!.toUpperCase());
  if (!byLabel) return undefined;
  const its = phaseSubject(byLabel.title);
  const moved =
    its !== '' && about(was, its).length === 1 && now.some((p) => p !== phase && phaseSubject(p.title) === its);
  return moved ? undefined : byLabel;
}

/**
 * The checks a phase set aside or declared done leaves open: each check its former self had open that this commit
 * neither ticks nor excuses (N/A, a reason on its line) nor moves into a phase that still waits for its own checks
 * (an item moved into a phase set aside or done is still one waited for no more, and a deleted one too), and each
 * open check the phase gains; and whether its verification began, with an automated check its former self had (ticked
 * then or now: a check added ticked shows nothing began).
 */
function stillOpen(
  old: Phase,
  phase: Phase,
  after: Plan,
  automatedOnly: boolean,
  preset: TransitionContext['preset'],
): { count: number; begun: boolean } {
  const kinds = (p: Phase): [string, CheckItem[]][] =>
    automatedOnly
      ? [['a', p.automated]]
      : [
          ['a', p.automated],
          ['m', p.manual],
          ['u', p.unknown ?? []],
        ];
  const open = (i: CheckItem) => !i.checked && !i.na && !i.deviation;
  const where = new Map<string, { p: Phase; i: CheckItem }>();
  for (const p of after.phases)
    for (const [k, items] of kinds(p)) for (const i of items) where.set(`${k}\0${i.text}`, { p, i });
  const mine = new Map(kinds(phase));
  const accounted = new Set<CheckItem>();
  let count = 0;
  let begun = old.automated.some((i) => i.checked && !i.na && !i.deviation);
  for (const [k, items] of kinds(old)) {
    const here = mine.get(k) ?? [];
    items.forEach((i, n) => {
      if (!open(i)) return;
      // Reworded as it was ticked (its result written onto the line): the item in its place, the list's length kept
      // (convention section 6: by text first, then by position).
      const now =
        where.get(`${k}\0${i.text}`) ?? (here.length === items.length ? { p: phase, i: here[n]! } : undefined);
      if (now) accounted.add(now.i);
      if (now && now.p === phase && k === 'a' && now.i.checked && !now.i.na && !now.i.deviation) begun = true;
      if (now && !open(now.i)) return;
      if (now && now.p !== phase && !now.p.deferred && !now.p.declaredDone && !phaseVerified(now.p, preset)) return;
      count++;
    });
  }
  for (const items of mine.values()) count += items.filter((i) => open(i) && !accounted.has(i)).length;
  return { count, begun };
}

/** "Phase 2 (Export) done with 1 automated check open", several joined with "and". */
function doneWithOpen(list: readonly Loosening[]): string {
  return (list as Extract<Loosening, { act: 'setAside' }>[])
    .map((l) => `${l.phase} done with ${l.open === 1 ? '1 automated check' : `${l.open} automated checks`} open`)
    .join(' and ');
}

type ItemAct = Extract<Loosening, { text: string }>;

/** "the manual verification of Phase 2 (Export)", several joined with "and". */
function sectionsOf(list: readonly Loosening[]): string {
  return (list as Extract<Loosening, { act: 'sectionRemoved' | 'sectionEmptied' }>[])
    .map((l) => l.section)
    .join(' and ');
}

/** "Phase 2 (Export) while 3 of its checks are open", several joined with "and". */
function phasesOf(list: readonly Loosening[]): string {
  return (list as Extract<Loosening, { act: 'setAside' }>[])
    .map(
      (l) =>
        `${l.phase}${l.done ? ' (by declaring it done)' : ''} while ${l.open === 1 ? '1 of its checks is' : `${l.open} of its checks are`} open`,
    )
    .join(' and ');
}

/** "the manual item" / "3 verification items" as the acts' kinds say. */
function kindsOf(items: readonly ItemAct[]): string {
  const kinds = [...new Set(items.map((i) => i.kind))].sort();
  return kinds.join(' and ');
}

/** One clause per act, for a finding that names several acts on one file. */
function clause(act: Loosening['act'], list: readonly Loosening[]): string {
  const items = list as ItemAct[];
  const texts = listTexts(items.map((i) => i.text));
  switch (act) {
    case 'config':
      return 'changes the validate-workflow config';
    case 'baseline':
      return 'changes the baseline';
    case 'modeByUser':
      return 'adds `mode_set_by: user`';
    case 'resolution':
      return 'writes the resolution of the blocked handoff itself';
    case 'unstructured':
      return `makes the plan unreadable as a phase sequence (${(list[0] as Extract<Loosening, { act: 'unstructured' }>).reason})`;
    case 'mode': {
      const m = list[0] as Extract<Loosening, { act: 'mode' }>;
      return `changes the plan's mode from ${m.from} to ${m.to}`;
    }
    case 'disable':
      return `adds a disable comment for ${(list as Extract<Loosening, { act: 'disable' }>[]).flatMap((d) => d.rules).join(', ') || 'no rule'}`;
    case 'madeNa':
      return `turns ${items.length === 1 ? 'an item' : `${items.length} items`} into N/A (${texts})`;
    case 'addedNa':
      return `adds ${items.length === 1 ? 'an N/A item' : `${items.length} N/A items`} (${texts})`;
    case 'deleted':
      return `deletes ${items.length === 1 ? 'a verification item' : `${items.length} verification items`} (${texts})`;
    case 'recast':
      return `makes ${items.length === 1 ? 'a verification item' : `${items.length} verification items`} no longer read as ${kindsOf(items)} (${texts})`;
    case 'sectionRemoved':
      return `removes ${sectionsOf(list)}`;
    case 'sectionEmptied':
      return `replaces ${sectionsOf(list)} with N/A`;
    case 'setAside':
      return `sets aside ${phasesOf(list)}`;
  }
}

export const rule: Rule = {
  meta: {
    id: 'history/self-exemption',
    short: "An agent's commit does not loosen the rules that bind it.",
    severities: { recommended: 'error', strict: 'error' },
    formula: 'O(respect_user_preference); F(checkoff_manual)',
    description:
      "An agent's commit does not loosen the rules that bind it without a human's `Confirmed-by`: it does not change the config or the baseline, add a disable comment, add `mode_set_by: user`, write the resolution of a blocked handoff (the user's answer to its blocker; the human's `Guidance-by:` in the commit relays it), turn an item into `N/A` (or add an `N/A` item to a phase that already existed), delete a verification item or a criteria section of a plan that stays (or leave a section of plain bullets saying only `N/A`), make a plan read as phases unreadable as one (a second `## Phase 1` heading), which stops the order rules judging it, or set aside a phase whose checks are open (its title or lead marker now says deferred, skipped, done or absorbed into another phase). Deleting or archiving a whole plan is housekeeping, not loosening; an item that moved (a phase inserted or renumbered) is neither deleted nor N/A-ed. One finding per commit and file, listing the items.",
    fix: 'Have a human review the change now: revert it in a new commit, or keep it and record the finding in the baseline (`npx validate-workflow --baseline-write`, committed by the human with the reason).',
    messages: {
      // {{agents}}: the commit's agent identities, `Name <email>`, comma-separated.
      changesConfig:
        "An agent's commit ({{agents}}) changes the validate-workflow config without a human's confirmation.",
      changesBaseline: "An agent's commit ({{agents}}) changes the baseline without a human's confirmation.",
      addsDisable:
        "An agent's commit ({{agents}}) adds a disable comment for {{rules}} without a human's confirmation.",
      setsModeByUser: "An agent's commit ({{agents}}) adds `mode_set_by: user` without a human's confirmation.",
      unstructures:
        "An agent's commit ({{agents}}) makes {{file}} unreadable as a sequence of phases without a human's confirmation: {{reason}}, so its phase order is no longer judged.",
      writesResolution:
        "An agent's commit ({{agents}}) writes the resolution of blocked handoff {{file}} itself: only the user's guidance unblocks the task, and a resolution counts only when a human's commit writes it.",
      changesMode:
        "An agent's commit ({{agents}}) changes the plan's mode from {{from}} to {{to}} without a human's confirmation (the mode decides which rules bind the agent).",
      makesNa:
        'An agent\'s commit ({{agents}}) turns {{kind}} item "{{item}}" into N/A without a human\'s confirmation.',
      makesNaMany:
        "An agent's commit ({{agents}}) turns {{count}} {{kind}} items into N/A without a human's confirmation: {{items}} (first at line {{line}}).",
      addsNa: 'An agent\'s commit ({{agents}}) adds the N/A {{kind}} item "{{item}}" without a human\'s confirmation.',
      addsNaMany:
        "An agent's commit ({{agents}}) adds {{count}} N/A {{kind}} items without a human's confirmation: {{items}} (first at line {{line}}).",
      deletesItem:
        'An agent\'s commit ({{agents}}) deletes the {{kind}} verification item "{{item}}" without a human\'s confirmation.',
      deletesItems:
        "An agent's commit ({{agents}}) deletes {{count}} {{kind}} verification items without a human's confirmation: {{items}} (first at line {{line}}).",
      // An item still in the file that the commit's edit makes read as another kind (its heading renamed, or the
      // plan around it changed how it reads): the gate it was under is gone all the same.
      recastsItem:
        'An agent\'s commit ({{agents}}) makes the {{kind}} verification item "{{item}}" no longer read as {{kind}} (the item is still there; the edit around it changed its kind) without a human\'s confirmation.',
      recastsItems:
        "An agent's commit ({{agents}}) makes {{count}} {{kind}} verification items no longer read as {{kind}} (the items are still there; the edit around them changed their kind) without a human's confirmation: {{items}} (first at line {{line}}).",
      // A criteria section of plain bullets (no checkboxes) taken out of a phase that stays.
      removesSection:
        "An agent's commit ({{agents}}) removes {{sections}} (a list without checkboxes) without a human's confirmation: no check of that kind is left where it stood.",
      emptiesSection:
        "An agent's commit ({{agents}}) replaces {{sections}} (a list without checkboxes) with N/A without a human's confirmation: no check of that kind is left where it stood.",
      // A phase whose title or lead marker now says deferred, skipped or absorbed into another, its checks still open.
      setsAside:
        "An agent's commit ({{agents}}) sets aside {{phases}}, without a human's confirmation: a phase set aside holds no later phase back, and its open checks are no longer waited for.",
      // Declared done after its automated checks began: left open, not skipped (`recommended`).
      declaresDoneLeftOpen:
        "An agent's commit ({{agents}}) declares {{phases}}. Its verification had begun, so `recommended` reads the open checks as left open, not skipped: tick them in a later commit, or have a human mark those that do not apply N/A (`Confirmed-by:`).",
      // Several kinds of loosening in one file: one finding, each act a clause of {{acts}}.
      loosens:
        "An agent's commit ({{agents}}) loosens {{file}} without a human's confirmation: it {{acts}} (first at line {{line}}).",
      // The fix before the commit exists (commit-msg): the change can still be left out.
      leaveOut:
        'Leave this change to the human: take it out of the commit, or have the human who makes the commit confirm it with a `Confirmed-by:` trailer.',
      // The fix of a commit already made: what to do now.
      reviewNow: `Have a human review the change now: revert it in a new commit if it should not stand; if it stands, ${AFTER_THE_FACT}.`,
      // A resolution: how the user's guidance is given instead.
      resolutionLeaveOut:
        'Take the resolution out of the commit and ask the user how to proceed: they give their answer with a `Guidance-by: Name <email>` trailer in a commit they make, or write the resolution in a commit of their own.',
      resolutionNow:
        'Ask the user how to proceed: they give their answer with a `Guidance-by: Name <email>` trailer in a commit they make, or write the resolution in a commit of their own; until then the blocked task holds the session back.',
    },
  },
  transition: (ctx) => {
    if (ctx.stage === 'staged' || ctx.agents.length === 0) return [];
    const asides = setAside(ctx);
    const leftOpen = asides.filter((l) => l.act === 'setAside' && l.leftOpen);
    const acts = [
      ...ctx.events.map(loosening).filter((l): l is Loosening => l !== null),
      ...resolutions(ctx),
      ...asides.filter((l) => !leftOpen.includes(l)),
    ];
    if ((acts.length === 0 && leftOpen.length === 0) || ctx.confirmation().ok) return [];
    const agents = ctx.agents.map((a) => `${a.name} <${a.email}>`).join(', ');
    const fixId = ctx.stage === 'history' ? 'reviewNow' : 'leaveOut';
    const resolutionFix = ctx.stage === 'history' ? 'resolutionNow' : 'resolutionLeaveOut';
    const out: RawFinding[] = [];
    for (const [file, list] of byFile(leftOpen))
      out.push({
        file,
        line: firstLine(list),
        messageId: 'declaresDoneLeftOpen',
        info: true,
        data: { agents, phases: doneWithOpen(list) },
      });
    for (const [file, list] of byFile(acts)) {
      const line = firstLine(list);
      const kinds = new Map<Loosening['act'], Loosening[]>();
      for (const l of list) kinds.set(l.act, [...(kinds.get(l.act) ?? []), l]);
      if (kinds.size > 1) {
        const text = [...kinds].map(([act, of]) => clause(act, of)).join('; ');
        out.push({ file, line, messageId: 'loosens', fixId, data: { agents, file, acts: text, line } });
        continue;
      }
      const [act, of] = [...kinds][0]!;
      if (act === 'resolution') {
        out.push({ file, line, messageId: 'writesResolution', fixId: resolutionFix, data: { agents, file } });
        continue;
      }
      if (act === 'sectionRemoved' || act === 'sectionEmptied') {
        const messageId = act === 'sectionRemoved' ? 'removesSection' : 'emptiesSection';
        out.push({ file, line, messageId, fixId, data: { agents, sections: sectionsOf(of) } });
        continue;
      }
      if (act === 'setAside') {
        out.push({ file, line, messageId: 'setsAside', fixId, data: { agents, phases: phasesOf(of) } });
        continue;
      }
      if (act === 'unstructured') {
        const { reason } = of[0] as Extract<Loosening, { act: 'unstructured' }>;
        out.push({ file, line, messageId: 'unstructures', fixId, data: { agents, file, reason } });
        continue;
      }
      const items = of as ItemAct[];
      const many = items.length > 1;
      const data = {
        agents,
        kind: act === 'deleted' || act === 'recast' || act === 'madeNa' || act === 'addedNa' ? kindsOf(items) : '',
        item: items[0]?.text ?? '',
        items: listTexts(items.map((i) => i.text ?? '')),
        count: of.length,
        line,
      };
      const messageId = {
        config: 'changesConfig',
        baseline: 'changesBaseline',
        modeByUser: 'setsModeByUser',
        resolution: 'writesResolution',
        unstructured: 'unstructures',
        mode: 'changesMode',
        setAside: 'setsAside',
        disable: 'addsDisable',
        madeNa: many ? 'makesNaMany' : 'makesNa',
        addedNa: many ? 'addsNaMany' : 'addsNa',
        deleted: many ? 'deletesItems' : 'deletesItem',
        recast: many ? 'recastsItems' : 'recastsItem',
      }[act];
      const rules =
        act === 'disable'
          ? (of as Extract<Loosening, { act: 'disable' }>[]).flatMap((d) => d.rules).join(', ') || 'no rule'
          : '';
      const mode = act === 'mode' ? (of[0] as Extract<Loosening, { act: 'mode' }>) : null;
      out.push({ file, line, messageId, fixId, data: { ...data, rules, from: mode?.from ?? '', to: mode?.to ?? '' } });
    }
    return out;
  },
};
