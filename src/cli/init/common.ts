// What every job of `init` shares: its options, the report of what it did, the file helpers that make it idempotent
// (write only what differs, in the file's own indentation), and the pieces of hook scripts more than one job writes.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { gitSync } from '../../shared/git.js';
import { dirname, join, relative, sep } from 'node:path';
import { CONFIG_FILE, DEFAULT_PATHS, type Paths } from '../../config/config.js';
import { isRecord } from '../../shared/text.js';

export interface InitOptions {
  /** Replace files init wrote earlier (or would write) even when they differ; never the config or a user's hook. */
  force: boolean;
  /** Also merge the Claude Code hook into .claude/settings.json. */
  claude: boolean;
  /** A new config gets the strong gate: preset strict, the current identity as confirmer, signed confirmations. */
  strict?: boolean;
}

/** The hooks validate-workflow ships (hooks/<name> in the package). */
export const OUR_HOOKS = ['pre-commit', 'commit-msg', 'pre-push'];
/** Hooks git feeds on stdin: a chain has to hand the same lines to every hook it runs. */
export const STDIN_HOOKS = new Set(['pre-push', 'post-rewrite']);
/** Marks a whole file as ours (a wrapper init may rewrite); blocks mark our lines inside a user's hook. */
export const MARK = 'written by `validate-workflow init`';

export type Status = 'created' | 'updated' | 'unchanged' | 'kept' | 'moved' | 'note';

interface Step {
  status: Status;
  what: string;
  detail?: string;
}

export class Report {
  readonly steps: Step[] = [];
  add(status: Status, what: string, detail?: string): void {
    this.steps.push({ status, what, detail });
  }
  get changed(): boolean {
    return this.steps.some((s) => s.status === 'created' || s.status === 'updated' || s.status === 'moved');
  }
}

// --- small helpers ------------------------------------------------------------------------------------------------

export function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const res = gitSync(cwd, args);
  return { ok: res.ok, out: res.out.trim() };
}

export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function unquote(word: string): string {
  return word.startsWith("'") && word.endsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word;
}

export function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function isExecutableFile(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Write when the content differs; says which. Parent folders are made as needed. */
export function put(path: string, content: string, mode?: number): 'created' | 'updated' | 'unchanged' {
  const before = read(path);
  if (before === content) return 'unchanged';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, mode === undefined ? undefined : { mode });
  return before === null ? 'created' : 'updated';
}

/** JSON written back in the file's own indentation, so a diff shows only what init changed. */
export function jsonIndent(text: string): string | number {
  const m = /^[{[]\r?\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : 2;
}

export function posixRel(from: string, to: string): string {
  return relative(from, to).split(sep).join('/');
}

/** The configured workflow globs (the config file's, package.json's, else the defaults), without loading rules. */
export function workflowPaths(
  root: string,
  pkg: Record<string, unknown>,
): { paths: Paths; raw: Record<string, unknown> } {
  let raw: unknown = null;
  const file = read(join(root, CONFIG_FILE));
  if (file !== null) {
    try {
      raw = JSON.parse(file);
    } catch {
      raw = null;
    }
  } else if (isRecord(pkg.validateWorkflow)) raw = pkg.validateWorkflow;
  const obj = isRecord(raw) ? raw : {};
  const given = isRecord(obj.paths) ? (obj.paths as Partial<Paths>) : {};
  return { paths: { ...structuredClone(DEFAULT_PATHS), ...given }, raw: obj };
}

// --- chained hooks, in .husky/ and in a thoughts repository --------------------------------------------------------

/** How a chained hook is named in a script, and how a person reads it in the report. */
export interface Chain {
  word: string;
  label: string;
}

export function chainLines(chains: Chain[], stdin: boolean): string[] {
  if (chains.length === 0) return [];
  return [
    '# Hooks git ran here before husky took core.hooksPath (git then runs only .husky/_/), chained so both run:',
    stdin
      ? 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then vw_feed | "$vw_h" "$@" || exit $?; fi; }'
      : 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then "$vw_h" "$@" || exit $?; fi; }',
    ...chains.map((c) => `vw_chain ${c.word} "$@"`),
  ];
}

export const STDIN_LINES = [
  '# git writes the ref lines once; every hook below gets its own copy.',
  'vw_in=$(cat)',
  `vw_feed() { if [ -n "$vw_in" ]; then printf '%s\\n' "$vw_in"; fi; }`,
];

export function parseChains(text: string): Chain[] {
  return [...text.matchAll(/^vw_chain (.+) "\$@"$/gm)].map((m) => {
    const word = m[1]!;
    const inGitDir = /^"\$\(git rev-parse --git-common-dir\)\/hooks\/([\w-]+)"$/.exec(word);
    return { word, label: inGitDir ? `.git/hooks/${inGitDir[1]}` : unquote(word) };
  });
}

export function unionChains(a: Chain[], b: Chain[]): Chain[] {
  const out = [...a];
  for (const c of b) if (!out.some((o) => o.word === c.word)) out.push(c);
  return out;
}

/** Where init moves a hook that is not its own, so its wrapper can run it first (a name no other tool uses). */
export const MOVED_SUFFIX = '.pre-validate-workflow';

/**
 * The chains for the wrapper init writes at `path` (the hook `name`, whose text is `text`): the ones our own hook
 * names, or another tool's hook moved aside to `<name>.pre-validate-workflow` and run first. null when that name is
 * taken: the hook is kept and the report says to chain it by hand.
 */
export function chainsOf(
  path: string,
  name: string,
  label: string,
  text: string | null,
  report: Report,
): Chain[] | null {
  if (text === null) return [];
  if (text.includes(MARK)) return parseChains(text);
  const moved = `${path}${MOVED_SUFFIX}`;
  if (existsSync(moved)) {
    report.add('kept', label, `not ours, and ${name}${MOVED_SUFFIX} is taken: chain it by hand`);
    return null;
  }
  renameSync(path, moved);
  report.add('moved', label, `to ${name}${MOVED_SUFFIX}, run first by the new hook`);
  return [{ word: `"$(dirname "$0")/${name}${MOVED_SUFFIX}"`, label: `${name}${MOVED_SUFFIX}` }];
}
