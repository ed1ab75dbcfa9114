// What every job of `init` shares: its options, the report of what it did, the file helpers that make it idempotent
// (write only what differs, in the file's own indentation), and the pieces of hook scripts more than one job writes.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, relative, sep } from 'node:path';
import { CONFIG_FILE, DEFAULT_PATHS, type Paths } from '../../config/config.js';
import { isRecord } from '../../shared/text.js';

export interface InitOptions {
  /** Replace files init wrote earlier (or would write) even when they differ; never the config or a user's hook. */
  force: boolean;
  /** Also merge the Claude Code hook into .claude/settings.json. */
  claude: boolean;
}

/** The hooks validate-workflow ships (hooks/<name> in the package). */
export const OUR_HOOKS = ['pre-commit', 'commit-msg', 'pre-push'];
/** The hooks husky 9 runs (its .husky/_/ stubs); a hook of another name stops running once husky owns hooksPath. */
const HUSKY_HOOKS = ['pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-rebase', 'post-rewrite', 'post-checkout', 'post-merge', 'pre-push', 'pre-auto-gc'];
/** Hooks git feeds on stdin: a chain has to hand the same lines to every hook it runs. */
const STDIN_HOOKS = new Set(['pre-push', 'post-rewrite']);
/** Marks a whole file as ours (a wrapper init may rewrite); blocks mark our lines inside a user's hook. */
const MARK = 'written by `validate-workflow init`';
const BLOCK_START = '# >>> validate-workflow >>>';
const BLOCK_END = '# <<< validate-workflow <<<';
/** Where init moves a thoughts repository's own hook, so its wrapper can run it (a name no other tool uses). */
const MOVED_SUFFIX = '.pre-validate-workflow';
const SKELETON = ['thoughts/shared/plans', 'thoughts/handoffs', 'thoughts/ledgers'];

const CI_WORKFLOW = `# Written by \`validate-workflow init\`. Hooks can be skipped (--no-verify, HUSKY=0); this job judges the whole
# history again on every push and pull request, so a skipped hook still cannot land a violation.
name: workflow protocol
on: [pull_request, push]
permissions:
  contents: read
jobs:
  validate-workflow:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          # History rules judge every commit; a shallow clone is reported (history/incomplete), never passed.
          fetch-depth: 0
          # A pull request is judged on its own head, never on the merge commit GitHub synthesizes.
          ref: \${{ github.event.pull_request.head.sha || github.sha }}
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      # Annotations on the changed files, and the review report (tasks, handoffs, manual items) in the job summary.
      - run: npx validate-workflow --format github --summary
`;
/** Hooks git feeds on stdin: a chain has to hand the same lines to every hook it runs. */
export const STDIN_HOOKS = new Set(['pre-push', 'post-rewrite']);
/** Marks a whole file as ours (a wrapper init may rewrite); blocks mark our lines inside a user's hook. */
const MARK = 'written by `validate-workflow init`';
const BLOCK_START = '# >>> validate-workflow >>>';
const BLOCK_END = '# <<< validate-workflow <<<';
/** Where init moves a thoughts repository's own hook, so its wrapper can run it (a name no other tool uses). */
const MOVED_SUFFIX = '.pre-validate-workflow';
const SKELETON = ['thoughts/shared/plans', 'thoughts/handoffs', 'thoughts/ledgers'];

const CI_WORKFLOW = `# Written by \`validate-workflow init\`. Hooks can be skipped (--no-verify, HUSKY=0); this job judges the whole
# history again on every push and pull request, so a skipped hook still cannot land a violation.
name: workflow protocol
on: [pull_request, push]
permissions:
  contents: read
jobs:
  validate-workflow:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          # History rules judge every commit; a shallow clone is reported (history/incomplete), never passed.
          fetch-depth: 0
          # A pull request is judged on its own head, never on the merge commit GitHub synthesizes.
          ref: \${{ github.event.pull_request.head.sha || github.sha }}
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      # Annotations on the changed files, and the review report (tasks, handoffs, manual items) in the job summary.
      - run: npx validate-workflow --format github --summary
`;
/** Marks a whole file as ours (a wrapper init may rewrite); blocks mark our lines inside a user's hook. */
export const MARK = 'written by `validate-workflow init`';
const BLOCK_START = '# >>> validate-workflow >>>';
const BLOCK_END = '# <<< validate-workflow <<<';
/** Where init moves a thoughts repository's own hook, so its wrapper can run it (a name no other tool uses). */
const MOVED_SUFFIX = '.pre-validate-workflow';
const SKELETON = ['thoughts/shared/plans', 'thoughts/handoffs', 'thoughts/ledgers'];

const CI_WORKFLOW = `# Written by \`validate-workflow init\`. Hooks can be skipped (--no-verify, HUSKY=0); this job judges the whole
# history again on every push and pull request, so a skipped hook still cannot land a violation.
name: workflow protocol
on: [pull_request, push]
permissions:
  contents: read
jobs:
  validate-workflow:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          # History rules judge every commit; a shallow clone is reported (history/incomplete), never passed.
          fetch-depth: 0
          # A pull request is judged on its own head, never on the merge commit GitHub synthesizes.
          ref: \${{ github.event.pull_request.head.sha || github.sha }}
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      # Annotations on the changed files, and the review report (tasks, handoffs, manual items) in the job summary.
      - run: npx validate-workflow --format github --summary
`;

export type Status = 'created' | 'updated' | 'unchanged' | 'kept' | 'moved' | 'note';

interface Step {
  status: Status;
  what: string;
  detail?: string;
}

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
  const res = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { ok: res.status === 0, out: (res.stdout ?? '').trim() };
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
export function workflowPaths(root: string, pkg: Record<string, unknown>): { paths: Paths; raw: Record<string, unknown> } {
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
