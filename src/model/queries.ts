// Questions rules ask of the model, answered once here so every rule answers them the same way.
import type { CheckItem, Handoff, Phase, Plan, PlanMode, Position, PositionMap, Task, Workspace } from './types.js';

export function tasksOf(plan: Plan): Task[] {
  return plan.phases.flatMap((p) => p.tasks);
}

/** Declared mode, or the seed's table: 4+ tasks or context_critical -> orchestration, else direct. */
export function tableMode(plan: Plan): PlanMode {
  return tasksOf(plan).length >= 4 || plan.frontmatter?.context_critical === true ? 'orchestration' : 'direct';
}

export function effectiveMode(plan: Plan): PlanMode {
  const declared = plan.frontmatter?.mode;
  return declared === 'direct' || declared === 'orchestration' ? declared : tableMode(plan);
}

export function criteria(phase: Phase): CheckItem[] {
  return [...phase.automated, ...phase.manual];
}

/**
 * verified(n), as phase order means it (convention section 5, `plan/phase-order`). `recommended`: every automated
 * item checked or N/A (manual boxes are a human's and often lag behind the human's word); `strict`: every automated,
 * manual (and unsplit) criterion checked or N/A. A phase without the criteria its preset looks at needs its tasks
 * (and other boxes) done. Without a preset: `strict`, every criterion.
 */
export function phaseVerified(phase: Phase, preset: 'recommended' | 'strict' = 'strict'): boolean {
  const items = preset === 'strict' ? [...criteria(phase), ...(phase.unknown ?? [])] : phase.automated;
  if (items.length > 0) return items.every((i) => i.checked || i.na);
  return phase.tasks.every((t) => t.checked) && phase.other.every((o) => o.checked || o.na);
}

/** Every checked checkbox of a phase (task items, steps, criteria, other), in document order. */
export function checkedBoxes(phase: Phase): (Position & { text: string })[] {
  const boxes: (Position & { text: string })[] = [];
  for (const t of phase.tasks) {
    if (t.source === 'item' && t.checked) boxes.push({ line: t.line, column: t.column, text: `Task ${t.label ?? t.number}: ${t.title}` });
    for (const s of t.steps) if (s.checked && !s.na) boxes.push(s);
  }
  for (const i of [...criteria(phase), ...(phase.unknown ?? []), ...phase.other]) if (i.checked && !i.na) boxes.push(i);
  return boxes.sort((a, b) => a.line - b.line || a.column - b.column);
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `Phase 2A (Title)`: the label as written; `the plan` for the implicit phase of a plan without phase headings. */
export function phaseLabel(phase: Phase): string {
  const label = phase.label ?? (phase.number === null ? null : String(phase.number));
  if (label === null) return 'the plan';
  return `Phase ${label}${phase.title ? ` (${phase.title})` : ''}`;
}

export function handoffTask(h: Handoff): number | null {
  return h.task ?? h.fileTask;
}

const byPlan = new WeakMap<Workspace, Map<string, Handoff[]>>();

/** Task handoffs linked to a plan (indexed once per workspace: rules ask this for every plan). */
export function handoffsOfPlan(ws: Workspace, plan: Plan): Handoff[] {
  let index = byPlan.get(ws);
  if (!index) {
    index = new Map();
    for (const h of ws.handoffs) {
      const target = h.isTask ? ws.links.get(h.path) : undefined;
      if (target) index.set(target, [...(index.get(target) ?? []), h]);
    }
    byPlan.set(ws, index);
  }
  return index.get(plan.path) ?? [];
}

export function sessionKey(h: Handoff): string {
  return `${h.root}/${h.session ?? ''}`;
}

/** Task handoffs grouped by session folder, each group in task order. */
export function taskHandoffsBySession(ws: Workspace): Map<string, Handoff[]> {
  const groups = new Map<string, Handoff[]>();
  for (const h of ws.handoffs) {
    if (!h.isTask || h.session === null || handoffTask(h) === null) continue;
    const list = groups.get(sessionKey(h)) ?? [];
    list.push(h);
    groups.set(sessionKey(h), list);
  }
  for (const list of groups.values()) list.sort((a, b) => handoffTask(a)! - handoffTask(b)! || (a.path < b.path ? -1 : 1));
  return groups;
}

export function positionOf(positions: PositionMap, pointer: string, fallback: Position = { line: 1, column: 1 }): Position {
  let p = pointer;
  while (p) {
    const hit = positions[p];
    if (hit) return hit;
    p = p.slice(0, p.lastIndexOf('/'));
  }
  return fallback;
}

export function planOf(ws: Workspace, path: string): Plan | undefined {
  const target = ws.links.get(path);
  return target ? ws.plans.find((p) => p.path === target) : undefined;
}

/** A value in one canonical text (object keys sorted), so two readings of the same words compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A handoff's resolution (`resolution:` or a `## Resolution` section) as one comparable text, or null when it has
 * none: what `handoff/blocked-proceed` accepts as the user's answer, and what history asks the author of.
 */
export function resolutionOf(h: Handoff): string | null {
  const r = h.resolution;
  if (r === null || r === undefined || r === '' || (Array.isArray(r) && r.length === 0)) return null;
  return typeof r === 'string' ? r.trim() || null : canonical(r);
}
