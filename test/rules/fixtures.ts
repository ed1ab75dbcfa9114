// Shared builders for the rule tests: canonical files (section 3 of the convention) that each test bends in one
// place. Pure text: the rule tests judge them in memory (test/helpers/rule-tester.ts), the few CLI tests through
// test/rules/cli.ts. Not a test file itself.
import { stringify } from 'yaml';
import type { Config, Preset, RuleSetting } from '../../src/config/config.js';

export type Files = Record<string, string | Uint8Array>;

export const PLAN = 'thoughts/shared/plans/2026-11-20-auth.md';
export const SESSION = 'auth-1';
export const HANDOFFS = `thoughts/handoffs/${SESSION}`;
export const LEDGER = `thoughts/ledgers/CONTINUITY_CLAUDE-${SESSION}.md`;

/** Lines joined with a final newline, so a test reads like the file it writes. */
export function md(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

/** 1-based line of the nth line containing `needle`; throws on a typo so a line assertion cannot pass by accident. */
export function lineOf(text: string, needle: string, nth = 1): number {
  let seen = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes(needle) && ++seen === nth) return i + 1;
  }
  throw new Error(`"${needle}" (#${nth}) not found in:\n${text}`);
}

export function strict(): Partial<Config> {
  return { preset: 'strict' };
}

export function setting(ruleId: string, value: RuleSetting, preset: Preset = 'recommended'): Partial<Config> {
  return { preset, rules: { [ruleId]: value } };
}

export function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function handoffName(n: number, desc = `step-${n}`): string {
  return `task-${pad(n)}-${desc}.md`;
}

export function handoffPath(n: number, desc = `step-${n}`, session = SESSION): string {
  return `thoughts/handoffs/${session}/${handoffName(n, desc)}`;
}

/**
 * A canonical task handoff (section 3) that satisfies every handoff rule for task n of an 8-task plan; a key set to
 * undefined in `fields` is left out, anything else replaces the default.
 */
export function taskHandoff(n: number, fields: Record<string, unknown> = {}, body = ''): string {
  const defaults: Record<string, unknown> = {
    status: 'complete',
    task: n,
    task_total: 8,
    task_desc: `Step ${n}`,
    plan: PLAN,
    ...(n > 1 ? { previous: handoffName(n - 1) } : {}),
    files_modified: [`src/step-${n}.ts`],
    verification_results: [{ check: 'npm test', result: 'pass' }],
    context_for_next: `Step ${n} is done.`,
    blocker: null,
    decisions: [],
    open_questions: [],
  };
  const merged = { ...defaults, ...fields };
  const data = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
  return `---\n${stringify(data)}---\n# Task Handoff: ${String(merged.task_desc ?? `Step ${n}`)}\n${body}`;
}

/** A chain of valid handoffs for tasks 1..n in SESSION, keyed by path. */
export function handoffChain(n: number, fields: (task: number) => Record<string, unknown> = () => ({})): Files {
  const out: Files = {};
  for (let t = 1; t <= n; t++) out[handoffPath(t)] = taskHandoff(t, fields(t));
  return out;
}

export interface LedgerSpec {
  session?: string;
  plan?: string | null;
  status?: string;
  state: string[];
}

/** A canonical continuity ledger (section 3) whose `## State` holds the given list lines. */
export function ledger(spec: LedgerSpec): string {
  const fm = [
    `session: ${spec.session ?? SESSION}`,
    ...(spec.plan === null ? [] : [`plan: ${spec.plan ?? PLAN}`]),
    `status: ${spec.status ?? 'active'}`,
  ];
  return md(
    '---',
    ...fm,
    '---',
    `# Session: ${spec.session ?? SESSION}`,
    '',
    '## Goal',
    '',
    'Ship the auth flow.',
    '',
    '## State',
    '',
    ...spec.state,
    '',
    '## Open Questions',
    '',
    '## Working Set',
    '',
  );
}

/**
 * A canonical plan: phases of `tasksPerPhase` task items (numbered across the plan), each with one automated and one
 * manual item. `checked` lists the task numbers that are checked; `verified` the phases whose criteria are checked.
 */
export function plan(
  opts: { frontmatter?: string[]; tasksPerPhase?: number[]; checked?: number[]; verified?: number[] } = {},
): string {
  const perPhase = opts.tasksPerPhase ?? [2, 2];
  const checked = new Set(opts.checked ?? []);
  const verified = new Set(opts.verified ?? []);
  const lines: string[] = [];
  if (opts.frontmatter) lines.push('---', ...opts.frontmatter, '---');
  lines.push('# Auth flow Implementation Plan', '');
  let task = 0;
  perPhase.forEach((count, i) => {
    const n = i + 1;
    const box = (on: boolean) => (on ? '[x]' : '[ ]');
    lines.push(`## Phase ${n}: Part ${n}`, '');
    for (let k = 0; k < count; k++) {
      task++;
      lines.push(`- ${box(checked.has(task))} Task ${task}: Do step ${task}`);
    }
    lines.push(
      '',
      '### Success Criteria:',
      '',
      '#### Automated Verification:',
      '',
      `- ${box(verified.has(n))} Phase ${n} tests pass: \`npm test\``,
      '',
    );
    lines.push('#### Manual Verification:', '', `- ${box(verified.has(n))} Phase ${n} works in the browser`, '');
  });
  return md(...lines);
}

/**
 * A two-phase plan whose tasks have these titles, numbered in order (phase 2 starts at `phase2From`); the tasks whose
 * titles are in `done` are checked, and phase 1's automated item when `verified`. For tests where tasks are known
 * by their text: a task inserted mid-plan renumbers the ones after it.
 */
export function titledPlan(spec: {
  titles: readonly string[];
  done: readonly string[];
  phase2From: string;
  verified?: boolean;
}): string {
  const split = spec.titles.indexOf(spec.phase2From);
  const item = (t: string, i: number) => `- [${spec.done.includes(t) ? 'x' : ' '}] Task ${i + 1}: ${t}`;
  const criteria = (auto: string, autoDone: boolean, manual: string) => [
    '',
    '### Success Criteria:',
    '',
    '#### Automated Verification:',
    '',
    `- [${autoDone ? 'x' : ' '}] ${auto}`,
    '',
    '#### Manual Verification:',
    '',
    `- [ ] ${manual}`,
    '',
  ];
  return md(
    '# Auth flow Implementation Plan',
    '',
    '## Phase 1: Schema',
    '',
    ...spec.titles.slice(0, split).map(item),
    ...criteria('Migration applies: `npm run migrate`', spec.verified ?? false, 'Tables visible in the admin console'),
    '## Phase 2: Endpoints',
    '',
    ...spec.titles.slice(split).map((t, i) => item(t, i + split)),
    ...criteria('Endpoint tests pass: `npm test`', false, 'Login works in the browser'),
  );
}

/** `Add users table` -> `add-users-table`. */
export function kebab(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The inline disable of section 5, in the comment syntax of the file's kind. */
export function disableComment(path: string, ruleId: string, reason: string | null): string {
  const body = `validate-workflow-disable ${ruleId}${reason === null ? '' : ` -- ${reason}`}`;
  return /\.ya?ml$/i.test(path) ? `# ${body}\n` : `\n<!-- ${body} -->\n`;
}

/** Appends a disable to a file: a disable covers the whole file, so appending moves no finding's line. */
export function withDisable(files: Files, path: string, ruleId: string, reason: string | null): Files {
  const text = files[path];
  if (typeof text !== 'string') throw new Error(`no text file ${path} in fixture`);
  return { ...files, [path]: text + disableComment(path, ruleId, reason) };
}

/**
 * A repository's own create_plan command that asks for both kinds of criteria (convention section 4b): a repository
 * test that expects the criteria rules to speak in `recommended` carries it, as a real repository would.
 */
export const CREATE_PLAN_COMMAND: Files = {
  '.claude/commands/create_plan.md': md(
    '# Create a plan',
    '',
    'Every phase ends with its success criteria:',
    '',
    '```markdown',
    '#### Automated Verification:',
    '- [ ] <command the agent runs>',
    '',
    '#### Manual Verification:',
    '- [ ] <what a person checks>',
    '```',
  ),
};

/**
 * In `recommended` the snapshot order rules report notes (info): the boxes at HEAD show a state, not an order. A test
 * of what the reader makes of a plan counts their notes as found.
 */
export const STATE_NOTES: ReadonlySet<string> = new Set(['plan/phase-order', 'plan/manual-before-automated']);

/** A finding that tells the user something about the plan: an error, a warning, or a state note. */
export function reported(f: { severity: string; ruleId: string }): boolean {
  return f.severity !== 'info' || STATE_NOTES.has(f.ruleId);
}
