// Every rule's docs page carries a failing and a passing example; this suite runs them, so the docs cannot drift
// from the behaviour and removing a rule fails its page (the remark-lint way).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Code, Heading, RootContent } from 'mdast';
import { parseMarkdown, textOf } from '../src/read/markdown.js';
import { RULES } from '../src/engine/catalog.js';
import { makeRepo } from './helpers/repo.js';
import { loadConfig, type Preset } from '../src/config/config.js';
import { lintRepository } from '../src/engine/lint.js';
import { RULE_IDS } from '../src/engine/catalog.js';
import { parse as parseYaml } from 'yaml';
import { rmSync } from 'node:fs';
import { scratchDir } from './helpers/scratch.js';
import { join } from 'node:path';
import { judgeHistory } from '../src/engine/history.js';
import { git, writeFiles } from './helpers/repo.js';
import type { Finding } from '../src/model/finding.js';
import { verifyRepository } from '../src/verify/index.js';

function configOf(dir: string) {
  return loadConfig(dir, undefined, RULE_IDS);
}

function lintExample(ex: Example): Finding[] {
  const dir = makeRepo(ex.files);
  return lintRepository(dir, { ...configOf(dir), preset: ex.preset }, true).findings;
}

function identity(text: string): { name: string; email: string } {
  const m = /^(.*)<(.*)>$/.exec(text.trim());
  return m ? { name: m[1]!.trim(), email: m[2]!.trim() } : { name: text.trim(), email: 'someone@example.com' };
}

/** Play a history example into a fresh repository and judge its history. */
async function playHistory(ex: Example): Promise<Finding[]> {
  const dir = makeRepo({});
  let run: Extract<Step, { kind: 'run' }> = { kind: 'run' };
  for (const step of ex.steps) {
    if (step.kind === 'write') writeFiles(dir, { [step.path]: step.text });
    else if (step.kind === 'delete') rmSync(join(dir, step.path));
    else if (step.kind === 'run') run = step;
    else {
      const a = identity(step.author ?? 'Test Human <human@example.com>');
      const c = identity(step.committer ?? step.author ?? 'Test Human <human@example.com>');
      git(dir, 'add', '-A');
      git(
        dir,
        '-c',
        `user.name=${c.name}`,
        '-c',
        `user.email=${c.email}`,
        'commit',
        '-q',
        '--allow-empty',
        '--author',
        `${a.name} <${a.email}>`,
        '-m',
        step.message,
      );
    }
  }
  let where = dir;
  if (run.shallow) {
    where = scratchDir('vw-shallow-');
    git(where, 'clone', '-q', '--depth', '1', `file://${dir}`, '.');
  }
  // A verify/ page's example re-runs the ticked commands (plain `node`, no network), as `validate-workflow verify`.
  if (run.verify) return (await verifyRepository({ cwd: where, range: run.range, env: process.env })).report.findings;
  // An example may carry its own validate-workflow.config.json (packs that are off by default need it).
  const config = { ...configOf(dir), preset: ex.preset };
  const [from, to] = run.range ? run.range.split('..') : [undefined, undefined];
  // The one fold judges core and pack history alike.
  const core = (
    await judgeHistory(where, { config, presetOverride: ex.preset, from: from || null, to: to || undefined })
  ).findings;
  return core;
}

interface Example {
  files: Record<string, string>;
  preset: Preset;
  /** History pages: the example as a sequence of steps (write files, delete files, commit, run). */
  steps: Step[];
  /** The failing example's exact findings of the rule, as its ```findings block states them: `file:line messageId`. */
  expected: string[] | null;
}

type Step =
  | { kind: 'write'; path: string; text: string }
  | { kind: 'delete'; path: string }
  | { kind: 'commit'; message: string; author?: string; committer?: string }
  | { kind: 'run'; range?: string; shallow?: boolean; verify?: boolean };

/**
 * Code blocks with `file=<path>` in their meta under a `## Failing example` / `## Passing example` heading, and under
 * an optional `## Note example` (a history or a state the rule reports only as notes, info: its ```findings block
 * states them).
 */
function examples(page: string): { failing: Example; passing: Example; note: Example } {
  const root = parseMarkdown(page);
  const out = {
    failing: { files: {}, preset: 'recommended', steps: [], expected: null } as Example,
    passing: { files: {}, preset: 'recommended', steps: [], expected: null } as Example,
    note: { files: {}, preset: 'recommended', steps: [], expected: null } as Example,
  };
  let current: Example | null = null;
  for (const node of root.children as RootContent[]) {
    if (node.type === 'heading' && (node as Heading).depth === 2) {
      const title = textOf(node).toLowerCase();
      current = title.startsWith('failing example')
        ? out.failing
        : title.startsWith('passing example')
          ? out.passing
          : title.startsWith('note example')
            ? out.note
            : null;
      continue;
    }
    if (!current || node.type !== 'code') continue;
    const code = node as Code;
    const meta = code.meta ?? '';
    const file = /(?:^|\s)file=(\S+)/.exec(meta)?.[1];
    const preset = /(?:^|\s)preset=(\S+)/.exec(meta)?.[1];
    if (preset === 'strict') current.preset = 'strict';
    if (code.lang === 'findings') {
      current.expected = code.value
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      continue;
    }
    if (code.lang === 'commit' || code.lang === 'run') {
      const data = (parseYaml(code.value) ?? {}) as Record<string, unknown>;
      current.steps.push(
        code.lang === 'commit'
          ? {
              kind: 'commit',
              message: String(data.message ?? 'change'),
              author: data.author as string | undefined,
              committer: data.committer as string | undefined,
            }
          : {
              kind: 'run',
              range: data.range as string | undefined,
              shallow: data.shallow === true,
              verify: data.verify === true,
            },
      );
      continue;
    }
    if (!file) continue;
    if (/(?:^|\s)delete(?:\s|$)/.test(meta)) current.steps.push({ kind: 'delete', path: file });
    else {
      current.files[file] = `${code.value}\n`;
      current.steps.push({ kind: 'write', path: file, text: `${code.value}\n` });
    }
  }
  return out;
}

/** Findings as a page states them (remark-lint pins rule, line and message the same way). */
function stated(findings: Finding[]): string[] {
  return findings.map((f) => `${f.file ?? '(repository)'}:${f.line ?? 0} ${f.messageId ?? ''}`).sort();
}

describe('docs/rules pages', () => {
  for (const rule of RULES) {
    const id = rule.meta.id;
    const path = new URL(`../docs/rules/${id}.md`, import.meta.url);
    describe(id, () => {
      it('has a docs page with the id, the rule in one line and both examples', () => {
        expect(existsSync(path), `docs/rules/${id}.md`).toBe(true);
        const page = readFileSync(path, 'utf8');
        expect(page).toContain(`# ${id}`);
        expect(page).toContain(rule.meta.formula);
        const ex = examples(page);
        expect(ex.failing.steps.length).toBeGreaterThan(0);
        expect(ex.passing.steps.length).toBeGreaterThan(0);
      });
      it('failing example is reported by the rule, passing example is not', async () => {
        if (!existsSync(path)) return expect.fail(`docs/rules/${id}.md is missing`);
        const ex = examples(readFileSync(path, 'utf8'));
        if (
          id.startsWith('history/') ||
          id.startsWith('verify/') ||
          RULES.find((r) => r.meta.id === id)?.packTransition
        ) {
          expect(
            ex.failing.steps.some((s) => s.kind === 'commit') || ex.failing.steps.some((s) => s.kind === 'run'),
            'a history example commits',
          ).toBe(true);
          const failingH = (await playHistory(ex.failing)).filter((f) => f.ruleId === id && f.severity !== 'info');
          expect(failingH.length, `failing example of ${id} produced no ${id} finding`).toBeGreaterThan(0);
          expect(stated(failingH), `the findings the failing example of ${id} states`).toEqual(ex.failing.expected);
          const passingH = (await playHistory(ex.passing)).filter((f) => f.ruleId === id && f.severity !== 'info');
          expect(passingH, `passing example of ${id}`).toEqual([]);
          if (ex.note.steps.length > 0) {
            const noteH = (await playHistory(ex.note)).filter((f) => f.ruleId === id);
            expect(
              noteH.filter((f) => f.severity !== 'info'),
              `note example of ${id}`,
            ).toEqual([]);
            expect(stated(noteH), `the notes the note example of ${id} states`).toEqual(ex.note.expected);
          }
          return;
        }
        // A snapshot rule that reports some states as notes shows one in a note example: notes only, as stated.
        if (ex.note.steps.length > 0) {
          const note = lintExample(ex.note).filter((f) => f.ruleId === id);
          expect(
            note.filter((f) => f.severity !== 'info'),
            `note example of ${id}`,
          ).toEqual([]);
          expect(stated(note), `the notes the note example of ${id} states`).toEqual(ex.note.expected);
        }
        // A rule whose findings are notes in recommended (its level there is `info`) shows them in its examples.
        const notes = rule.meta.severities.recommended === 'info';
        const failing = lintExample(ex.failing).filter((f) => f.ruleId === id && (notes || f.severity !== 'info'));
        expect(failing.length, `failing example of ${id} produced no ${id} finding`).toBeGreaterThan(0);
        expect(stated(failing), `the findings the failing example of ${id} states`).toEqual(ex.failing.expected);
        const passing = lintExample(ex.passing).filter((f) => f.ruleId === id && (notes || f.severity !== 'info'));
        expect(passing, `passing example of ${id}`).toEqual([]);
      });
    });
  }
});
