// `--format markdown`: the review report of the agent's work for a pull request or a GitHub job summary. A reviewer
// reads it without the repository at hand, so every plan is shown task by task with the commit and handoff behind
// each task, and the manual items with who confirmed them; the findings follow, grouped by rule, each with its fix.
import type { Finding, Severity } from '../model/finding.js';
import type { Identity, TimelineEntry } from '../model/history.js';
import type { Rerun } from '../model/verification.js';
import type { CheckItem, Handoff, Phase, Plan, Task, Workspace } from '../model/types.js';
import {
  attachedNumber,
  effectiveMode,
  handoffTask,
  handoffsOfPlan,
  manualDue,
  phaseVerified,
  tasksOf,
} from '../model/queries.js';
import type { Rule } from '../rules/types.js';
import type { Summary } from '../engine/summary.js';
import type { Formatter } from './formatter.js';
import { plural } from '../shared/text.js';
import { STATUS_MARK, planTimeline, shortSha as short } from './mermaid.js';

/** GitHub refuses a step summary larger than this. */
export const SUMMARY_LIMIT = 1024 * 1024;
/** Room left for whatever else the same step writes to its summary. */
export const DEFAULT_MAX_BYTES = SUMMARY_LIMIT - 64 * 1024;

export interface MarkdownInput {
  findings: Finding[];
  summary: Summary;
  workspace: Workspace | null;
  timeline: TimelineEntry[];
  /** `verify`: the claims re-run at the commits that ticked them, for the verification table. */
  verifications?: Rerun[];
  rules: readonly Rule[];
  /** Where the package's docs live (`https://github.com/owner/repo/blob/main`); rule pages are under `/docs/rules/`. */
  docsBase: string;
  /** Upper bound of the output in UTF-8 bytes (default DEFAULT_MAX_BYTES). */
  maxBytes?: number;
}

// --- Escaping ---------------------------------------------------------------------------------------------------

/**
 * Plain text (model values are plain text: readers take it from mdast with toString) made safe as Markdown
 * inline content: punctuation that could start markup is backslash-escaped, and a newline would end the block.
 * `|` is left to `cell`, which escapes it for tables only.
 */
export function escapeText(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ').replace(/[\\`*_[\]<>~&#$!]/g, '\\$&');
}

/**
 * The tool's own prose (rule descriptions, messages, fixes) already marks code with backticks: those spans are kept,
 * the text between them is escaped.
 */
export function escapeProse(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  let out = '';
  let at = 0;
  const runs = /`+/g;
  for (let m = runs.exec(flat); m; m = runs.exec(flat)) {
    const n = m[0].length;
    const close = closingRun(flat, m.index + n, n);
    // An opening run without a closing run of the same length is literal text, as in CommonMark.
    if (close < 0) continue;
    out += escapeText(flat.slice(at, m.index)) + flat.slice(m.index, close + n);
    at = close + n;
    runs.lastIndex = at;
  }
  return out + escapeText(flat.slice(at));
}

function closingRun(text: string, from: number, length: number): number {
  const runs = /`+/g;
  runs.lastIndex = from;
  for (let m = runs.exec(text); m; m = runs.exec(text)) if (m[0].length === length) return m.index;
  return -1;
}

/** An inline code span whose fence is longer than any run of backticks inside it (CommonMark's rule). */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  if (flat === '') return '';
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space on each side when both are there: needed around a backtick at an edge, and kept
  // around content that has its own spaces at both edges.
  const pad = /^`|`$/.test(flat) || (/^ .* $/.test(flat) && flat.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Cell content of a GFM table: a pipe would end the cell and a newline the row. */
export function cell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, '<br>');
}

/**
 * A code span for a table cell. Backslashes are literal in code spans but GFM unescapes `\|` before the cell is
 * parsed, so text with a backslash before a pipe cannot survive as code: it is shown as escaped text instead.
 */
function cellCode(text: string): string {
  return /\\\|/.test(text) ? escapeText(text) : codeSpan(text);
}

// --- Words ----------------------------------------------------------------------------------------------------

function who(id: Identity): string {
  return id.email ? `${escapeText(id.name)} (${escapeText(id.email)})` : escapeText(id.name);
}

/** `abc1234` and the subject: bare in a table cell, in parentheses inside a sentence. */
function commitRef(sha: string, subject: string, inProse = false): string {
  if (!subject) return codeSpan(short(sha));
  return inProse
    ? `${codeSpan(short(sha))} (${escapeText(subject)})`
    : `${codeSpan(short(sha))} ${escapeText(subject)}`;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const SEVERITY_MARK: Record<Severity, string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };

// --- Verdict --------------------------------------------------------------------------------------------------

function verdict(summary: Summary): string {
  const scope = [
    summary.files ? plural(summary.files, 'workflow file') : '',
    summary.commits ? plural(summary.commits, 'commit') : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const notes = summary.infos ? ` (${plural(summary.infos, 'note')})` : '';
  if (summary.errors + summary.warnings === 0) {
    return `✅ **No protocol violations**${scope ? ` in ${scope}` : ''}${notes}`;
  }
  const counts = [
    summary.errors ? plural(summary.errors, 'error') : '',
    summary.warnings ? plural(summary.warnings, 'warning') : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${summary.errors ? '❌' : '⚠️'} **${counts}**${scope ? ` in ${scope}` : ''}${notes}`;
}

// --- Plans ----------------------------------------------------------------------------------------------------

/** What history says about one plan: the last completion of each task, the last check-off of each manual item. */
interface PlanHistory {
  completions: Map<number, TimelineEntry>;
  checkoffs: Map<string, TimelineEntry>;
}

const manualKey = (phase: number, text: string) => `${phase}\u0000${text}`;

function historyOf(plan: Plan, timeline: TimelineEntry[]): PlanHistory {
  const completions = new Map<number, TimelineEntry>();
  const checkoffs = new Map<string, TimelineEntry>();
  // The timeline is in trace order: a later entry (a task reopened and completed again) replaces an earlier one.
  for (const e of timeline) {
    if (e.plan !== plan.path) continue;
    if (e.kind === 'task-completed' && e.task !== null) completions.set(e.task, e);
    if (e.kind === 'manual-checked' && e.text !== null) checkoffs.set(manualKey(e.phase, e.text), e);
  }
  return { completions, checkoffs };
}

const phaseNumber = (phase: Phase, index: number) => phase.number ?? index + 1;

function phaseCell(phase: Phase): string {
  const label =
    phase.number === null
      ? phase.title
        ? escapeText(phase.title)
        : 'Plan'
      : `${phase.number}${phase.title ? `: ${escapeText(phase.title)}` : ''}`;
  return cell(label);
}

function taskState(task: Task): string {
  if (task.checked) return '✅ done';
  if (task.steps.length) {
    const done = task.steps.filter((s) => s.checked).length;
    if (done) return `🔄 open (${done}/${task.steps.length} steps)`;
  }
  return '⬜ open';
}

function handoffFile(h: Handoff): string {
  return h.path.slice(h.path.lastIndexOf('/') + 1);
}

const FILES_SHOWN = 3;

function filesCell(h: Handoff): string {
  const raw = h.normalized.files_modified;
  if (!Array.isArray(raw)) return '—';
  const files = raw.map((f) => String(f));
  if (files.length === 0) return 'none';
  const shown = files.slice(0, FILES_SHOWN).map(cellCode).join(', ');
  return files.length > FILES_SHOWN ? `${files.length} files: ${shown}, +${files.length - FILES_SHOWN} more` : shown;
}

function verificationCell(h: Handoff): string {
  if (h.verification.length === 0) return '—';
  return h.verification
    .map((v) => {
      if (v && typeof v === 'object' && 'check' in v) {
        const { check, result } = v as { check: unknown; result?: unknown };
        const outcome = String(result ?? '').toLowerCase();
        const mark = /^(pass|passed|ok|success|green)$/.test(outcome)
          ? '✅'
          : /^(fail|failed|error|red)$/.test(outcome)
            ? '❌'
            : '▫️';
        return `${mark} ${cellCode(String(check))}${mark === '▫️' && outcome ? ` (${escapeText(outcome)})` : ''}`;
      }
      return `▫️ ${escapeText(typeof v === 'string' ? v : JSON.stringify(v))}`;
    })
    .join('<br>');
}

function handoffCells(list: Handoff[], done: boolean, orchestration: boolean): [string, string, string] {
  if (list.length === 0) return [done && orchestration ? '⚠️ none' : '—', '—', '—'];
  // Several handoffs for one task are a finding of their own; the row shows them all so the reviewer sees which.
  return [
    list
      .map(
        (h) =>
          `${STATUS_MARK[h.status ?? 'none']} ${escapeText(h.status ?? 'no status')} · ${cellCode(handoffFile(h))}`,
      )
      .join('<br>'),
    list.map(filesCell).join('<br>'),
    list.map(verificationCell).join('<br>'),
  ];
}

/** Task handoffs linked to the plan, by the task they report on. */
function handoffsByTask(plan: Plan, ws: Workspace): Map<number, Handoff[]> {
  const byTask = new Map<number, Handoff[]>();
  for (const h of handoffsOfPlan(ws, plan)) {
    const n = attachedNumber(plan, h);
    if (n !== null) byTask.set(n, [...(byTask.get(n) ?? []), h]);
  }
  return byTask;
}

const TASK_COLUMNS = ['Phase', 'Task', 'State', 'Completed in', 'Handoff', 'Files modified', 'Verification'];
/** The handoff columns: left out when no row has anything in them. */
const HANDOFF_COLUMNS = new Set([4, 5, 6]);

function taskTable(plan: Plan, byTask: Map<number, Handoff[]>, hist: PlanHistory): string[] {
  const orchestration = effectiveMode(plan) === 'orchestration';
  const rows: string[][] = [];
  plan.phases.forEach((phase) => {
    const label = phaseCell(phase);
    if (phase.tasks.length === 0) {
      rows.push([label, '—', phaseVerified(phase) ? '✅ verified' : '⬜ open', '—', '—', '—', '—']);
      return;
    }
    phase.tasks.forEach((task, k) => {
      const done = task.checked;
      const completion = hist.completions.get(task.number);
      const completed = done && completion ? commitRef(completion.commit, completion.subject) : '—';
      const [handoff, files, verification] = handoffCells(byTask.get(task.number) ?? [], done, orchestration);
      const title = `Task ${task.number}${task.title ? `: ${escapeText(task.title)}` : ''}`;
      rows.push([k === 0 ? label : '', title, taskState(task), completed, handoff, files, verification].map(cell));
    });
  });
  // A plan without handoffs (direct mode, or none written yet) would spend three of seven columns of a 900 px
  // comment on dashes, wrapping every task title; the columns come back as soon as one row has something to show.
  const kept = TASK_COLUMNS.map((_, c) => c).filter((c) => !HANDOFF_COLUMNS.has(c) || rows.some((r) => r[c] !== '—'));
  const line = (cells: string[]) => `| ${kept.map((c) => cells[c]).join(' | ')} |`;
  return [line(TASK_COLUMNS), line(TASK_COLUMNS.map(() => '---')), ...rows.map(line)];
}

/** A commit older than the range judged: the state the pull request started from. */
const earlier = (e: TimelineEntry) => (e.before ? ', before this pull request' : '');

function manualSection(plan: Plan, hist: PlanHistory): string[] {
  const confirmed: string[] = [];
  const unconfirmed: string[] = [];
  const waiting: string[] = [];
  const later: string[] = [];
  plan.phases.forEach((phase, i) => {
    const n = phaseNumber(phase, i);
    const where = phase.number === null ? '' : `Phase ${n}: `;
    for (const item of phase.manual as CheckItem[]) {
      if (item.na) continue;
      const text = `${where}${escapeText(item.text)}`;
      if (!item.checked) {
        // Due for a human by the test `status` uses (manualDue): once the phase's automated checks pass.
        (manualDue(phase) ? waiting : later).push(`- ⏳ ${text}`);
        continue;
      }
      const e = hist.checkoffs.get(manualKey(n, item.text));
      if (!e) {
        // Checked in the working tree or in a commit outside the history judged: nothing to say who did it.
        unconfirmed.push(`- ☑️ ${text}: checked, but no judged commit records who checked it`);
      } else if (e.confirmedBy) {
        const relay = e.relayed ? ', relayed by an agent co-author of the commit' : '';
        confirmed.push(
          `- ✅ ${text}: confirmed by ${who(e.confirmedBy)} in ${commitRef(e.commit, e.subject, true)}${relay}${earlier(e)}`,
        );
      } else {
        unconfirmed.push(
          `- ❌ ${text}: checked by ${who(e.author)} in ${commitRef(e.commit, e.subject, true)} without a human's confirmation${earlier(e)}`,
        );
      }
    }
  });
  const out: string[] = [];
  const block = (title: string, items: string[]) => {
    if (items.length) out.push('', `**${title}**`, '', ...items);
  };
  block('Manual items confirmed', confirmed);
  block('Manual items checked without a confirmation', unconfirmed);
  block('Manual items waiting for a human', waiting);
  block("Manual items due after their phase's automated checks", later);
  if (out.length === 0) out.push('', 'No manual verification items.');
  return out;
}

/** A plan's section, and the same without its picture for when the whole does not fit the report's budget. */
function planSection(plan: Plan, ws: Workspace, timeline: TimelineEntry[], findings: readonly Finding[]): string[][] {
  const hist = historyOf(plan, timeline);
  const byTask = handoffsByTask(plan, ws);
  const tasks = tasksOf(plan);
  const done = tasks.filter((t) => t.checked).length;
  const facts = [codeSpan(plan.path), `${effectiveMode(plan)} mode`, `${done} of ${plural(tasks.length, 'task')} done`];
  const head = [`### 📋 ${escapeText(plan.title ?? plan.path)}`, '', facts.join(' · '), ''];
  if (plan.phases.length === 0)
    return [[...head, 'No phases or tasks could be read from this plan.', ...manualSection(plan, hist)]];
  const picture = planTimeline({
    plan,
    handoffs: byTask,
    completions: hist.completions,
    checkoff: (phase, text) => hist.checkoffs.get(manualKey(phase, text)),
    findings,
  });
  const rest = [...taskTable(plan, byTask, hist), ...manualSection(plan, hist)];
  return picture.length
    ? [
        [...head, ...picture, '', ...rest],
        [...head, ...rest],
      ]
    : [[...head, ...rest]];
}

function strayHandoffs(ws: Workspace): string[] {
  const linked = new Set(ws.plans.flatMap((p) => handoffsOfPlan(ws, p)));
  const stray = ws.handoffs.filter((h) => h.isTask && !linked.has(h));
  if (stray.length === 0) return [];
  return [
    '### Task handoffs without a plan',
    '',
    ...stray.map(
      (h) => `- ${codeSpan(h.path)} (task ${handoffTask(h) ?? '?'}, ${escapeText(h.status ?? 'no status')})`,
    ),
  ];
}

// --- Findings -------------------------------------------------------------------------------------------------

interface Group {
  ruleId: string;
  rule: Rule | undefined;
  findings: Finding[];
  worst: Severity;
}

function groups(findings: Finding[], rules: readonly Rule[]): Group[] {
  const order = new Map(rules.map((r, i) => [r.meta.id, i]));
  const byRule = new Map<string, Finding[]>();
  for (const f of findings) byRule.set(f.ruleId, [...(byRule.get(f.ruleId) ?? []), f]);
  const out: Group[] = [...byRule].map(([ruleId, list]) => ({
    ruleId,
    rule: rules.find((r) => r.meta.id === ruleId),
    findings: [...list].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]),
    worst: list.reduce<Severity>((w, f) => (SEVERITY_ORDER[f.severity] < SEVERITY_ORDER[w] ? f.severity : w), 'info'),
  }));
  // Errors first so a truncated report still shows what blocks the merge.
  return out.sort(
    (a, b) =>
      SEVERITY_ORDER[a.worst] - SEVERITY_ORDER[b.worst] ||
      (order.get(a.ruleId) ?? Infinity) - (order.get(b.ruleId) ?? Infinity) ||
      (a.ruleId < b.ruleId ? -1 : 1),
  );
}

/**
 * A rule's heading: its mark, its linked id, the counts and what it checks in one line (meta.short). The long
 * description and the fixes wait behind `<details>` (groupDetails), so a comment reads at a glance.
 */
function groupHeader(g: Group, docsBase: string): string[] {
  const counts = (['error', 'warning', 'info'] as const)
    .map((s) => [s, g.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => plural(n, s === 'info' ? 'note' : s))
    .join(', ');
  const name = g.rule
    ? `[${codeSpan(g.ruleId)}](${docsBase.replace(/\/+$/, '')}/docs/rules/${g.ruleId}.md)`
    : codeSpan(g.ruleId);
  const short = g.rule?.meta.short ? ` · ${escapeProse(g.rule.meta.short)}` : '';
  return [`#### ${SEVERITY_MARK[g.worst]} ${name} · ${counts}${short}`, ''];
}

const where = (f: Finding) => (f.file === null ? 'repository' : f.line === null ? f.file : `${f.file}:${f.line}`);

/** A fenced block longer than any run of backticks in its text. */
function fenced(lines: string[]): string[] {
  const longest = Math.max(2, ...lines.flatMap((l) => (l.match(/`+/g) ?? []).map((run) => run.length)));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}text`, ...lines, fence];
}

/** Lines without the indentation they all share. */
function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
}

/** One line per finding: where, the commit for a history finding, and the message. The fix is in the details. */
function findingEntry(f: Finding): string {
  const parts = [`- ${SEVERITY_MARK[f.severity]} ${codeSpan(where(f))}`];
  if (f.commit) parts.push(` · commit ${commitRef(f.commit, f.subject ?? '', true)}`);
  // A message's own lines (the last output of a command verify re-ran) follow as a block under the item.
  const [first, ...more] = f.message.split('\n');
  parts.push(`: ${escapeProse(first!)}`);
  if (more.length)
    parts.push(
      '\n\n',
      fenced(dedent(more))
        .map((l) => `  ${l}`)
        .join('\n'),
      '\n',
    );
  return parts.join('');
}

/**
 * What a reader opens when a line is not enough: the rule's full description and how to fix each finding (once when
 * they share one fix). GitHub reads the Markdown inside `<details>` only after a blank line.
 */
function groupDetails(g: Group, shown: readonly Finding[]): string[] {
  const fixes = shown.map((f) => f.fix ?? g.rule?.meta.fix ?? '');
  const same = fixes.every((f) => f === fixes[0]);
  const body: string[] = [];
  if (g.rule) body.push(escapeProse(g.rule.meta.description), '');
  if (same && fixes[0]) body.push(`**Fix:** ${escapeProse(fixes[0])}`, '');
  else if (!same)
    shown.forEach((f, i) => {
      if (fixes[i]) body.push(`- ${codeSpan(where(f))}: **Fix:** ${escapeProse(fixes[i]!)}`);
    });
  if (body.length === 0) return [];
  return ['<details><summary>About the rule and how to fix</summary>', '', ...body, '', '</details>', ''];
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function size(n: number): string {
  return n >= 1024 ? `${Math.floor(n / 1024)} KiB` : `${n} bytes`;
}

/** Without a workspace (a range of commits), the timeline alone still says what happened, plan by plan. */
function timelineSection(timeline: TimelineEntry[]): string[] {
  const byPlan = new Map<string, TimelineEntry[]>();
  for (const e of timeline) if (!e.before) byPlan.set(e.plan, [...(byPlan.get(e.plan) ?? []), e]);
  const out: string[] = [];
  for (const [plan, entries] of [...byPlan].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push(`### 📋 ${codeSpan(plan)}`, '');
    for (const e of entries) {
      const at = commitRef(e.commit, e.subject, true);
      if (e.kind === 'task-completed')
        out.push(`- ✅ Phase ${e.phase}, Task ${e.task ?? '?'} completed in ${at} by ${who(e.author)}`);
      else if (e.confirmedBy)
        out.push(
          `- ✅ Phase ${e.phase}: ${escapeText(e.text ?? '')}: confirmed by ${who(e.confirmedBy)} in ${at}${e.relayed ? ', relayed by an agent co-author of the commit' : ''}`,
        );
      else
        out.push(
          `- ❌ Phase ${e.phase}: ${escapeText(e.text ?? '')}: checked by ${who(e.author)} in ${at} without a human's confirmation`,
        );
    }
    out.push('');
  }
  return out;
}

// --- Claims re-run (verify) -------------------------------------------------------------------------------------

const NOT_RUN: Record<NonNullable<Rerun['reason']>, string> = {
  'not-allowed': 'not in `verify.allow`',
  'setup-failed': 'the set-up step fails there',
  unavailable: 'the commit cannot be checked out',
};

/** The verification cell: what the re-run at the ticking commit said. */
function rerunCell(r: Rerun): string {
  const known = r.cached ? ', known from an earlier run' : '';
  const took = r.ms !== undefined && !r.cached ? `, ${(r.ms / 1000).toFixed(1)} s` : '';
  switch (r.status) {
    case 'passed':
      return `✅ passed${took}${known}`;
    case 'failed':
      return `❌ failed (${r.code === null || r.code === undefined ? 'killed' : `exit ${r.code}`}${took}${known})`;
    case 'timed-out':
      return `⏱️ stopped at the time limit${known}`;
    case 'not-run':
      return `⏭️ not run: ${escapeProse(NOT_RUN[r.reason ?? 'unavailable'])}`;
  }
}

/** Every claim `verify` re-ran, one row each with the commit that ticked it and the verification column. */
function verificationSection(reruns: readonly Rerun[]): string[] {
  return [
    '### 🔁 Automated items re-run at the commit that ticked them',
    '',
    '| Plan | Phase | Item | Ticked in | Verification |',
    '| --- | --- | --- | --- | --- |',
    ...reruns.map((r) => {
      const item = r.item.includes(r.command) ? escapeProse(r.item) : `${escapeProse(r.item)} (${codeSpan(r.command)})`;
      const cells = [codeSpan(r.plan), String(r.phase), item, commitRef(r.commit, r.subject), rerunCell(r)];
      return `| ${cells.map(cell).join(' | ')} |`;
    }),
    '',
  ];
}

export function formatMarkdown(input: MarkdownInput): string {
  const maxBytes = input.maxBytes ?? DEFAULT_MAX_BYTES;
  const { workspace, timeline, summary, rules, docsBase } = input;
  const head: string[] = ['## validate-workflow review', '', verdict(summary), ''];

  // Plans come before the findings but must not crowd them out: together they get at most half of the budget,
  // whole sections only, in order, and a line says how many did not fit. Each section is a list of choices, the
  // fullest first: as many plans as fit get their table, then their pictures come back in order while they fit.
  const sections: string[][][] = [];
  if (workspace) {
    const plans = [...workspace.plans].sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const plan of plans)
      sections.push(planSection(plan, workspace, timeline, input.findings).map((s) => [...s, '']));
    if (plans.length === 0) sections.push([['No plans found.', '']]);
    const stray = strayHandoffs(workspace);
    if (stray.length) sections.push([[...stray, '']]);
  } else if (timeline.length) {
    sections.push([timelineSection(timeline)]);
  }
  if (input.verifications?.length) sections.push([verificationSection(input.verifications)]);
  const room = maxBytes / 2 - bytes(head.join('\n'));
  const options = sections.map((choices) => choices.map((c) => c.join('\n')));
  const cost = (text: string) => bytes(text) + 1;
  const chosen: string[] = [];
  let used = 0;
  for (const choices of options) {
    const lean = choices.at(-1)!;
    if (used + cost(lean) > room) break;
    chosen.push(lean);
    used += cost(lean);
  }
  chosen.forEach((lean, i) => {
    const full = options[i]![0]!;
    if (full !== lean && used - cost(lean) + cost(full) <= room) {
      chosen[i] = full;
      used += cost(full) - cost(lean);
    }
  });
  head.push(...chosen);
  const omitted = sections.length - chosen.length;
  if (omitted)
    head.push(
      `_${plural(omitted, 'more section')} about plans left out to keep this report under ${size(maxBytes)}._`,
      '',
    );

  const all = groups(input.findings, rules);
  const body: string[] = [];
  if (all.length) body.push('### Findings', '');
  const total = input.findings.length;
  let shown = 0;
  // What is left after the plans, less room for the line that says how many findings were left out.
  let budget = maxBytes - bytes(head.join('\n')) - bytes(body.join('\n')) - 400;
  outer: for (const g of all) {
    const header = groupHeader(g, docsBase);
    const entries = g.findings.map((f) => findingEntry(f));
    const headerBytes = bytes(header.join('\n')) + 1;
    // A rule heading is shown only with at least one of its findings under it.
    if (bytes(entries[0]!) + 1 + headerBytes > budget) break;
    body.push(...header);
    budget -= headerBytes;
    let full = true;
    const listed: Finding[] = [];
    for (const [k, entry] of entries.entries()) {
      const cost = bytes(entry) + 1;
      if (cost > budget) {
        full = false;
        break;
      }
      body.push(entry);
      listed.push(g.findings[k]!);
      budget -= cost;
      shown++;
    }
    body.push('');
    // The details of the findings listed, when they fit; the lines come first.
    const details = groupDetails(g, listed);
    const cost = bytes(details.join('\n')) + 1;
    if (details.length && cost <= budget) {
      body.push(...details);
      budget -= cost;
    }
    if (!full) break outer;
  }
  const tail: string[] = [];
  if (shown < total) {
    tail.push(
      '',
      `> ⚠️ ${plural(total - shown, 'finding')} of ${total} left out to keep this report under ${size(maxBytes)}. Run \`npx validate-workflow --format json\` for all of them.`,
    );
  }
  return `${[...head, ...body, ...tail]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

export const markdown: Formatter = {
  name: 'markdown',
  // Nothing judged: the report is the heading and why, so a job summary still says the step ran.
  format: (input) =>
    input.note !== undefined ? `## validate-workflow review\n\n${input.note}` : formatMarkdown(input),
};
