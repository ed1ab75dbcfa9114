// Shared builders for the rule tests: canonical files (section 3 of the convention) that each test bends in one
// place, plus the severity / config / inline-disable checks every rule must pass. Not a test file itself.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Config, Preset, RuleSetting } from '../../src/config/config.js';
import type { Finding } from '../../src/model/finding.js';
import { CLI, lint, makeRepo, of, runCli } from '../helpers/repo.js';

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

/** The findings of one rule after linting a fresh repository with these files. */
export function findings(files: Files, ruleId: string, overrides: Partial<Config> = {}): Finding[] {
  return of(lint(makeRepo(files), overrides), ruleId);
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
  const fm = [`session: ${spec.session ?? SESSION}`, ...(spec.plan === null ? [] : [`plan: ${spec.plan ?? PLAN}`]), `status: ${spec.status ?? 'active'}`];
  return md('---', ...fm, '---', `# Session: ${spec.session ?? SESSION}`, '', '## Goal', '', 'Ship the auth flow.', '', '## State', '', ...spec.state, '', '## Open Questions', '', '## Working Set', '');
}

/**
 * A canonical plan: phases of `tasksPerPhase` task items (numbered across the plan), each with one automated and one
 * manual item. `checked` lists the task numbers that are checked; `verified` the phases whose criteria are checked.
 */
export function plan(opts: { frontmatter?: string[]; tasksPerPhase?: number[]; checked?: number[]; verified?: number[] } = {}): string {
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
    lines.push('', '### Success Criteria:', '', '#### Automated Verification:', '', `- ${box(verified.has(n))} Phase ${n} tests pass: \`npm test\``, '');
    lines.push('#### Manual Verification:', '', `- ${box(verified.has(n))} Phase ${n} works in the browser`, '');
  });
  return md(...lines);
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
 * The runner's contract for one rule, checked on a fixture the rule reports: its severity in each preset of the
 * catalog, `rules: {id: off|warn|error}` overrides, and an inline disable (with and without a reason) silencing it
 * in that file only.
 */
export function describeRunnerContract(ruleId: string, files: Files, severities: Record<Preset, 'warning' | 'error'>): void {
  describe(`${ruleId}: presets, config and inline disables`, () => {
    const problems = (list: Finding[]) => list.filter((f) => f.severity !== 'info');

    for (const preset of ['recommended', 'strict'] as const) {
      it(`reports ${severities[preset]} in ${preset}`, () => {
        const got = problems(findings(files, ruleId, { preset }));
        expect(got.length).toBeGreaterThan(0);
        for (const f of got) expect(f.severity).toBe(severities[preset]);
      });
    }

    it('is silenced by rules: {id: off} and re-levelled by warn / error', () => {
      const dir = makeRepo(files);
      expect(of(lint(dir, setting(ruleId, 'off')), ruleId)).toEqual([]);
      expect(of(lint(dir, setting(ruleId, 'off', 'strict')), ruleId)).toEqual([]);
      const warned = problems(of(lint(dir, setting(ruleId, 'warn', 'strict')), ruleId));
      expect(warned.length).toBeGreaterThan(0);
      expect(new Set(warned.map((f) => f.severity))).toEqual(new Set(['warning']));
      const errored = problems(of(lint(dir, setting(ruleId, 'error')), ruleId));
      expect(errored.length).toBe(warned.length);
      expect(new Set(errored.map((f) => f.severity))).toEqual(new Set(['error']));
    });

    it('is silenced in the file by an inline disable with a reason, and nowhere else', () => {
      const before = findings(files, ruleId);
      const target = before.find((f) => f.file && typeof files[f.file] === 'string')!.file!;
      const after = findings(withDisable(files, target, ruleId, 'tracked in ISSUE-12'), ruleId);
      expect(after.filter((f) => f.file === target)).toEqual([]);
      expect(after).toEqual(before.filter((f) => f.file !== target));
      expect(findings(withDisable(files, target, ruleId, 'tracked in ISSUE-12'), 'disable/directive')).toEqual([]);
    });

    it('is silenced by an inline disable without a reason, which disable/directive reports', () => {
      const before = findings(files, ruleId);
      const target = before.find((f) => f.file && typeof files[f.file] === 'string')!.file!;
      const dir = makeRepo(withDisable(files, target, ruleId, null));
      const all = lint(dir);
      expect(of(all, ruleId).filter((f) => f.file === target)).toEqual([]);
      expect(of(all, 'disable/directive')).toEqual([
        expect.objectContaining({ file: target, severity: 'warning', message: expect.stringContaining(`${ruleId} gives no reason`) }),
      ]);
    });
  });
}

/** The real CLI (dist/cli/main.js, built by `npm run build`); JSON results of one rule plus the exit code. */
export function cliFindings(files: Files, ruleId: string, args: string[] = []): { code: number | null; results: Finding[] } {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the CLI tests`);
  const dir = makeRepo(files);
  const res = runCli(dir, ['--format', 'json', '--no-history', ...args]);
  const out = JSON.parse(res.stdout) as { results: Finding[] };
  return { code: res.code, results: out.results.filter((r) => r.ruleId === ruleId) };
}
