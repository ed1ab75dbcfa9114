// `validate-workflow init`: set a repository up so that the workflow rules are gates, not advice. It adds husky and
// lint-staged, writes the three husky hooks, a lint-staged entry, the config, the thoughts/ skeleton and a CI
// workflow, and installs the hooks in a thoughts repository that thoughts/ links into.
//
// What it promises (docs/hooks.md says the same to users):
// - idempotent: what it would write is computed from what is there, so a second run writes nothing and says so;
// - a user's file is never replaced without --force, and the config and the user's own hooks not even then;
// - hooks that already ran keep running: git runs only core.hooksPath once husky sets it, so every hook git ran
//   before (in .git/hooks or an earlier core.hooksPath) is chained from the husky hook of the same name, and a
//   user's own .husky hook gets a marked block instead of being replaced;
// - non-interactive: it never asks, so it behaves the same in a terminal, a script or an agent's shell;
// - it does not run `npm install` (the network, and the user's package manager, are the user's business); it says
//   when one is needed. Tests and CI get the same files either way.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { CONFIG_FILE, DEFAULT_PATHS, type Paths } from '../config/config.js';
import { EXIT, type Io } from './io.js';

export interface InitOptions {
  /** Replace files init wrote earlier (or would write) even when they differ; never the config or a user's hook. */
  force: boolean;
  /** Also merge the Claude Code hook into .claude/settings.json. */
  claude: boolean;
}

/**
 * Pinned so a fresh clone resolves the same versions: the newest releases that still run on Node 20
 * (lint-staged 17 declares Node 22; husky 9.1 runs on Node 18+).
 */
export const DEV_DEPENDENCIES: Readonly<Record<string, string>> = { husky: '9.1.7', 'lint-staged': '16.4.0' };
/** `husky` alone fails `npm ci --omit=dev` (no husky installed); the guard keeps production installs working. */
export const PREPARE = 'husky || true';
/** `.` keeps the report whole: lint-staged appends the staged files, and paths would narrow the report to them. */
export const LINT_STAGED_TASK = 'validate-workflow --staged .';
export const SCHEMA_REF = './node_modules/validate-workflow/schemas/config.schema.json';
export const WORKFLOW_FILE = '.github/workflows/validate-workflow.yml';

/** The hooks validate-workflow ships (hooks/<name> in the package). */
const OUR_HOOKS = ['pre-commit', 'commit-msg', 'pre-push'];
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

type Status = 'created' | 'updated' | 'unchanged' | 'kept' | 'moved' | 'note';

interface Step {
  status: Status;
  what: string;
  detail?: string;
}

class Report {
  readonly steps: Step[] = [];
  add(status: Status, what: string, detail?: string): void {
    this.steps.push({ status, what, detail });
  }
  get changed(): boolean {
    return this.steps.some((s) => s.status === 'created' || s.status === 'updated' || s.status === 'moved');
  }
}

// --- small helpers ------------------------------------------------------------------------------------------------

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const res = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { ok: res.status === 0, out: (res.stdout ?? '').trim() };
}

function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function unquote(word: string): string {
  return word.startsWith("'") && word.endsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function isExecutableFile(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Write when the content differs; says which. Parent folders are made as needed. */
function put(path: string, content: string, mode?: number): 'created' | 'updated' | 'unchanged' {
  const before = read(path);
  if (before === content) return 'unchanged';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, mode === undefined ? undefined : { mode });
  return before === null ? 'created' : 'updated';
}

/** JSON written back in the file's own indentation, so a diff shows only what init changed. */
function jsonIndent(text: string): string | number {
  const m = /^[{[]\r?\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : 2;
}

function toolVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function posixRel(from: string, to: string): string {
  return relative(from, to).split(sep).join('/');
}

// --- hooks --------------------------------------------------------------------------------------------------------

/** How a chained hook is named in a script, and how a person reads it in the report. */
interface Chain {
  word: string;
  label: string;
}

/**
 * The hooks git runs today, before husky takes core.hooksPath: .git/hooks, or the folder core.hooksPath names.
 * Null when husky already owns hooksPath (its hooks are the .husky/ files themselves, handled one by one).
 */
function activeHooksDir(root: string, commonDir: string): { dir: string; chain: (name: string) => Chain } | null {
  const configured = git(root, ['config', '--type=path', 'core.hooksPath']).out;
  if (!configured) {
    // Spelled through git so the chain keeps working in a linked worktree, whose .git is a file.
    const dir = join(commonDir, 'hooks');
    return { dir, chain: (name) => ({ word: `"$(git rev-parse --git-common-dir)/hooks/${name}"`, label: `${posixRel(root, dir) || '.'}/${name}` }) };
  }
  const abs = resolve(root, configured);
  const rel = posixRel(root, abs);
  if (rel === '.husky' || rel === '.husky/_') return null;
  // Git runs hooks from the top of the work tree, so a relative hooksPath stays relative.
  return { dir: abs, chain: (name) => ({ word: shQuote(isAbsolute(configured) ? join(configured, name) : posix.join(configured, name)), label: `${configured}/${name}` }) };
}

function chainLines(chains: Chain[], stdin: boolean): string[] {
  if (chains.length === 0) return [];
  return [
    '# Hooks git ran here before husky took core.hooksPath (git then runs only .husky/_/), chained so both run:',
    stdin
      ? 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then vw_feed | "$vw_h" "$@" || exit $?; fi; }'
      : 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then "$vw_h" "$@" || exit $?; fi; }',
    ...chains.map((c) => `vw_chain ${c.word} "$@"`),
  ];
}

const STDIN_LINES = [
  '# git writes the ref lines once; every hook below gets its own copy.',
  'vw_in=$(cat)',
  `vw_feed() { if [ -n "$vw_in" ]; then printf '%s\\n' "$vw_in"; fi; }`,
];

/** .husky/<name> when the file is ours: the chained hooks, then the package's check. */
function huskyWrapper(name: string, chains: Chain[]): string {
  const stdin = STDIN_HOOKS.has(name);
  const check = OUR_HOOKS.includes(name);
  const lines = [`# validate-workflow ${name} hook, ${MARK}. husky 9 layout: a plain script that`, `# .husky/_/${name} runs with \`sh -e\`.`];
  if (check) {
    lines[1] += ` The check is the installed package's hooks/${name}, so upgrading`;
    lines.push(
      '# validate-workflow upgrades it; init leaves this file alone once you change it (--force rewrites it).',
      '# --no-verify and HUSKY=0 skip it; CI does not.',
    );
  } else lines[1] += ' It only runs the hook git ran before husky took core.hooksPath.';
  if (stdin) lines.push(...STDIN_LINES);
  lines.push(...chainLines(chains, stdin));
  if (check) {
    lines.push(
      `vw_hook=node_modules/validate-workflow/hooks/${name}`,
      // Fail closed: a missing package means the checks cannot run, and a gate that silently opens is no gate.
      'if [ ! -f "$vw_hook" ]; then echo "validate-workflow: $vw_hook is missing: run npm install (hooks refuse until it is there)." >&2; exit 1; fi',
      stdin ? 'vw_feed | sh "$vw_hook" "$@"' : 'sh "$vw_hook" "$@"',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Our lines inside a user's own .husky/<name>: they run first, then the user's hook runs as before. */
function huskyBlock(name: string, chains: Chain[], directCheck: boolean): string {
  const stdin = STDIN_HOOKS.has(name);
  const check = OUR_HOOKS.includes(name);
  const lines = [`${BLOCK_START} ${MARK.replace('written', 'added')}; the rest of this hook runs after it.`];
  if (stdin) lines.push(...STDIN_LINES);
  lines.push(...chainLines(chains, stdin));
  if (check) {
    // When this hook already runs lint-staged, running it again would run the user's tasks twice: check directly.
    const env = directCheck ? 'VALIDATE_WORKFLOW_LINT_STAGED=0 ' : '';
    const run = `${env}sh node_modules/validate-workflow/hooks/${name} "$@" || exit $?`;
    lines.push(stdin ? `vw_feed | ${run}` : run);
  }
  if (stdin) {
    // The rest of the user's hook reads the same ref lines git sent; `exec` hands them to this shell's stdin.
    lines.push('if [ -n "$vw_in" ]; then exec <<VW_EOF', '$vw_in', 'VW_EOF', 'else exec </dev/null; fi');
  }
  lines.push(BLOCK_END);
  return `${lines.join('\n')}\n`;
}

function parseChains(text: string): Chain[] {
  return [...text.matchAll(/^vw_chain (.+) "\$@"$/gm)].map((m) => {
    const word = m[1]!;
    const inGitDir = /^"\$\(git rev-parse --git-common-dir\)\/hooks\/([\w-]+)"$/.exec(word);
    return { word, label: inGitDir ? `.git/hooks/${inGitDir[1]}` : unquote(word) };
  });
}

function unionChains(a: Chain[], b: Chain[]): Chain[] {
  const out = [...a];
  for (const c of b) if (!out.some((o) => o.word === c.word)) out.push(c);
  return out;
}

function withoutBlock(text: string): string {
  const start = text.indexOf(BLOCK_START);
  const end = text.indexOf(BLOCK_END);
  if (start < 0 || end < start) return text;
  return text.slice(0, start) + text.slice(text.indexOf('\n', end) + 1);
}

/** After a shebang and husky 4-8's sourcing line, so the block runs in the shell the user's hook runs in. */
function insertBlock(text: string, block: string): string {
  const lines = text.split('\n');
  let at = 0;
  while (at < lines.length && (lines[at]!.startsWith('#!') || /husky\.sh/.test(lines[at]!))) at++;
  return [...lines.slice(0, at), block.trimEnd(), ...lines.slice(at)].join('\n');
}

/** The .husky/ hooks: ours where there is none, a block in the user's own, the old hooks chained from both. */
function installHuskyHooks(root: string, commonDir: string, opts: InitOptions, report: Report): { userRunsLintStaged: boolean } {
  const active = activeHooksDir(root, commonDir);
  const previous = new Map<string, Chain>();
  if (active && existsSync(active.dir)) {
    for (const name of readdirSync(active.dir).sort()) {
      const path = join(active.dir, name);
      // Git runs only executable files named exactly like a hook; `pre-commit.old` and `*.sample` are not hooks.
      if (name.includes('.') || !isExecutableFile(path)) continue;
      if (read(path)?.includes(MARK)) continue;
      if (HUSKY_HOOKS.includes(name)) previous.set(name, active.chain(name));
      else report.add('note', `${active.chain(name).label}`, 'husky does not run this hook name: it stops running once husky sets core.hooksPath');
    }
  }
  let userRunsLintStaged = false;
  const names = [...new Set([...OUR_HOOKS, ...previous.keys()])];
  for (const name of names) {
    const path = join(root, '.husky', name);
    const rel = `.husky/${name}`;
    const fresh = previous.has(name) ? [previous.get(name)!] : [];
    const text = read(path);
    const chainNote = (chains: Chain[]) => (chains.length ? `chains ${chains.map((c) => c.label).join(', ')}` : undefined);
    if (text === null || text.includes(MARK)) {
      // Ours (or nothing yet): the chains it already names stay, so a rerun after husky took hooksPath (when the
      // old hooks folder is no longer the active one) still writes the same file.
      const chains = unionChains(text === null ? [] : parseChains(text), fresh);
      const want = huskyWrapper(name, chains);
      if (text === null) report.add(put(path, want, 0o755), rel, chainNote(chains));
      else if (text === want) report.add('unchanged', rel);
      else if (opts.force || parseChains(text).length < chains.length) report.add(put(path, want, 0o755), rel, chainNote(chains));
      else report.add('kept', rel, 'differs from what init writes (edited?); --force rewrites it');
      continue;
    }
    // The user's own husky hook: theirs stays, our block goes in front of it.
    const theirs = withoutBlock(text);
    if (name === 'pre-commit' && /lint-staged/.test(theirs)) userRunsLintStaged = true;
    const hadBlock = theirs !== text;
    const chains = unionChains(hadBlock ? parseChains(text.slice(text.indexOf(BLOCK_START))) : [], fresh);
    const block = huskyBlock(name, chains, name === 'pre-commit' && userRunsLintStaged);
    const want = insertBlock(theirs, block);
    if (want === text) report.add('unchanged', rel, 'your hook, with the validate-workflow block');
    else if (!hadBlock || opts.force || chains.length > parseChains(text).length) {
      writeFileSync(path, want);
      report.add('updated', rel, `your hook kept; a validate-workflow block runs first${chains.length ? ` (${chainNote(chains)})` : ''}`);
    } else report.add('kept', rel, 'its validate-workflow block differs from what init writes; --force rewrites the block');
  }
  return { userRunsLintStaged };
}

// --- package.json and lint-staged ---------------------------------------------------------------------------------

const LINT_STAGED_FILES = ['.lintstagedrc', '.lintstagedrc.json', '.lintstagedrc.yaml', '.lintstagedrc.yml', '.lintstagedrc.mjs', '.lintstagedrc.mts', '.lintstagedrc.js', '.lintstagedrc.ts', '.lintstagedrc.cjs', '.lintstagedrc.cts', 'lint-staged.config.mjs', 'lint-staged.config.mts', 'lint-staged.config.js', 'lint-staged.config.ts', 'lint-staged.config.cjs', 'lint-staged.config.cts'];

/** The configured workflow globs (the config file's, package.json's, else the defaults), without loading rules. */
function workflowPaths(root: string, pkg: Record<string, unknown>): { paths: Paths; raw: Record<string, unknown> } {
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

/**
 * The lint-staged glob: the top folder of every workflow glob (so the task runs when any workflow file is staged),
 * plus the files that hold trust settings (config, package.json, baseline), which an agent must not loosen unseen.
 */
export function lintStagedGlob(paths: Paths): string {
  const tops = new Set<string>();
  for (const glob of [...paths.plans, ...paths.handoffs, ...paths.ledgers, ...paths.searchable]) {
    const first = glob.split('/')[0]!;
    tops.add(/[*?[\]{}()!]/.test(first) || !glob.includes('/') ? '**' : `${first}/**`);
  }
  const parts = tops.has('**') ? ['**'] : [...tops, CONFIG_FILE, 'validate-workflow.baseline.json', 'package.json'];
  return parts.length === 1 ? parts[0]! : `{${parts.join(',')}}`;
}

function mentionsUs(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('validate-workflow');
  if (Array.isArray(value)) return value.some(mentionsUs);
  return false;
}

/** Add our task to a lint-staged config object; false when one is already there. */
function addLintStagedTask(config: Record<string, unknown>, glob: string): boolean {
  if (Object.values(config).some(mentionsUs)) return false;
  const existing = config[glob];
  config[glob] = existing === undefined ? LINT_STAGED_TASK : [...(Array.isArray(existing) ? existing : [existing]), LINT_STAGED_TASK];
  return true;
}

interface PackageEdit {
  pkg: Record<string, unknown>;
  changes: string[];
  /** Something a `npm install` has to bring in. */
  needsInstall: boolean;
}

function editPackage(root: string, pkg: Record<string, unknown>, report: Report, skipLintStaged: boolean, paths: Paths): PackageEdit {
  const changes: string[] = [];
  let needsInstall = false;
  const has = (name: string) => ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => isRecord(pkg[k]) && name in (pkg[k] as Record<string, unknown>));
  const want: Record<string, string> = { ...DEV_DEPENDENCIES };
  // The hooks run the package from node_modules; someone who ran init through a global or npx copy needs it local.
  want['validate-workflow'] = `^${toolVersion()}`;
  const added: string[] = [];
  for (const [name, version] of Object.entries(want)) {
    if (has(name)) continue;
    const dev = isRecord(pkg.devDependencies) ? (pkg.devDependencies as Record<string, string>) : {};
    dev[name] = version;
    // npm keeps dependency lists sorted; so does init, so npm's next write shows no reordering.
    pkg.devDependencies = Object.fromEntries(Object.entries(dev).sort(([a], [b]) => a.localeCompare(b)));
    added.push(`${name} ${version}`);
  }
  if (added.length) {
    changes.push(`devDependencies: ${added.join(', ')}`);
    needsInstall = true;
  }
  const scripts = isRecord(pkg.scripts) ? (pkg.scripts as Record<string, string>) : {};
  const prepare = scripts.prepare;
  if (prepare === undefined || prepare.trim() === '') {
    scripts.prepare = PREPARE;
    pkg.scripts = scripts;
    changes.push(`scripts.prepare: "${PREPARE}"`);
    needsInstall = true;
  } else if (!/\bhusky\b/.test(prepare)) {
    // Keep the user's prepare step, and its failure: only husky's absence (npm ci --omit=dev) is forgiven.
    scripts.prepare = `${prepare} && (${PREPARE})`;
    changes.push(`scripts.prepare: "${scripts.prepare}" (yours, then husky)`);
    needsInstall = true;
  } else if (/^\s*husky\s*$/.test(prepare)) {
    report.add('note', 'package.json scripts.prepare', `"${prepare}" fails \`npm ci --omit=dev\` (no husky there); "${PREPARE}" does not`);
  }
  if (!skipLintStaged) {
    const glob = lintStagedGlob(paths);
    const own = LINT_STAGED_FILES.find((f) => existsSync(join(root, f)));
    if (isRecord(pkg['lint-staged']) || !own) {
      const config = isRecord(pkg['lint-staged']) ? (pkg['lint-staged'] as Record<string, unknown>) : {};
      if (addLintStagedTask(config, glob)) {
        pkg['lint-staged'] = config;
        changes.push(`lint-staged: "${glob}": "${LINT_STAGED_TASK}"`);
      }
    } else if (own === '.lintstagedrc.json' || own === '.lintstagedrc') {
      lintStagedFile(root, own, glob, report);
    } else {
      report.add('kept', own, `init does not edit this format: add "${glob}": "${LINT_STAGED_TASK}" to it yourself (until then pre-commit does not run the workflow check; commit-msg and pre-push still do)`);
    }
  }
  return { pkg, changes, needsInstall };
}

function lintStagedFile(root: string, file: string, glob: string, report: Report): void {
  const path = join(root, file);
  const text = read(path) ?? '';
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    report.add('kept', file, `not JSON (YAML?): add "${glob}": "${LINT_STAGED_TASK}" to it yourself`);
    return;
  }
  if (!isRecord(config)) {
    report.add('kept', file, `not an object of globs: add "${glob}": "${LINT_STAGED_TASK}" to it yourself`);
    return;
  }
  if (!addLintStagedTask(config, glob)) {
    report.add('unchanged', file, 'already runs validate-workflow');
    return;
  }
  writeFileSync(path, `${JSON.stringify(config, null, jsonIndent(text))}\n`);
  report.add('updated', file, `"${glob}": "${LINT_STAGED_TASK}"`);
}

// --- thoughts/ ----------------------------------------------------------------------------------------------------

interface Link {
  /** The link in the code repository (`thoughts`, or `thoughts/shared` in HumanLayer's layout). */
  link: string;
  /** Where it points, relative to the top of the thoughts repository ('' for its top). */
  target: string;
}

/** thoughts/ itself, or its direct children, when they are symbolic links into another git repository. */
function thoughtsRepos(root: string): Map<string, Link[]> {
  const out = new Map<string, Link[]>();
  const base = join(root, 'thoughts');
  const candidates: string[] = [];
  try {
    if (lstatSync(base).isSymbolicLink()) candidates.push('thoughts');
    else for (const name of readdirSync(base).sort()) if (lstatSync(join(base, name)).isSymbolicLink()) candidates.push(`thoughts/${name}`);
  } catch {
    return out;
  }
  const self = realpathSync(root);
  for (const link of candidates) {
    let real: string;
    try {
      real = realpathSync(join(root, link));
      if (!statSync(real).isDirectory()) continue;
    } catch {
      continue;
    }
    const top = git(real, ['rev-parse', '--show-toplevel']);
    if (!top.ok) continue;
    const repo = realpathSync(top.out);
    if (repo === self) continue;
    const list = out.get(repo) ?? [];
    list.push({ link, target: posixRel(repo, real) });
    out.set(repo, list);
  }
  return out;
}

/** A glob of the code repository as the thoughts repository spells it, or null when it does not reach there. */
function mapGlob(glob: string, links: Link[]): string | null {
  for (const { link, target } of links) {
    if (glob === link || glob.startsWith(`${link}/`)) {
      const rest = glob.slice(link.length).replace(/^\//, '');
      return target ? (rest ? `${target}/${rest}` : target) : rest || '**';
    }
  }
  return null;
}

function thoughtsConfig(raw: Record<string, unknown>, paths: Paths, links: Link[]): Record<string, unknown> {
  const mapAll = (globs: string[]) => globs.map((g) => mapGlob(g, links)).filter((g): g is string => g !== null);
  const out: Record<string, unknown> = {};
  // Everything but where files live carries over: preset, rules, agents, confirmers, signatures, size limit.
  for (const [k, v] of Object.entries(raw)) if (k !== '$schema' && k !== 'paths' && k !== 'ignore') out[k] = v;
  out.paths = { plans: mapAll(paths.plans), handoffs: mapAll(paths.handoffs), ledgers: mapAll(paths.ledgers), searchable: mapAll(paths.searchable) };
  if (Array.isArray(raw.ignore)) out.ignore = mapAll(raw.ignore.filter((g): g is string => typeof g === 'string'));
  return out;
}

function thoughtsWrapper(name: string, chains: Chain[], projects: { root: string; config: string }[]): string {
  const stdin = STDIN_HOOKS.has(name);
  const lines = [
    '#!/bin/sh',
    `# validate-workflow ${name} hook of a thoughts repository, ${MARK}.`,
    "# Each vw_project line is a code repository whose thoughts/ links here: that repository's installed",
    "# validate-workflow judges this repository's commits, with its workflow globs mapped to where the files live",
    '# here (the --config file named).',
  ];
  if (stdin) lines.push(...STDIN_LINES);
  if (chains.length) {
    lines.push(
      stdin
        ? 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then vw_feed | "$vw_h" "$@" || exit $?; fi; }'
        : 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then "$vw_h" "$@" || exit $?; fi; }',
    );
  }
  lines.push(
    'vw_project() {',
    '  vw_root=$1; vw_config=$2; shift 2',
    `  vw_hook=$vw_root/node_modules/validate-workflow/hooks/${name}`,
    // A code repository that is gone (or not installed) must not lock every other project out of this repository.
    '  if [ ! -f "$vw_hook" ]; then echo "validate-workflow: $vw_hook is missing (npm install in $vw_root); its check is skipped here." >&2; return 0; fi',
    `  ${stdin ? 'vw_feed | ' : ''}VALIDATE_WORKFLOW_BIN=$vw_root/node_modules/.bin/validate-workflow VALIDATE_WORKFLOW_CONFIG=$vw_config VALIDATE_WORKFLOW_LINT_STAGED=0 sh "$vw_hook" "$@" || exit $?`,
    '}',
    ...chains.map((c) => `vw_chain ${c.word} "$@"`),
    ...projects.map((p) => `vw_project ${shQuote(p.root)} ${shQuote(p.config)} "$@"`),
    'exit 0',
  );
  return `${lines.join('\n')}\n`;
}

function parseProjects(text: string): { root: string; config: string }[] {
  return [...text.matchAll(/^vw_project ('(?:[^']|'\\'')*') ('(?:[^']|'\\'')*') "\$@"$/gm)].map((m) => ({ root: unquote(m[1]!), config: unquote(m[2]!) }));
}

function installThoughtsHooks(root: string, commonDir: string, pkg: Record<string, unknown>, report: Report): void {
  const repos = thoughtsRepos(root);
  if (repos.size === 0) return;
  const { paths, raw } = workflowPaths(root, pkg);
  const self = realpathSync(root);
  for (const [repo, links] of repos) {
    const config = thoughtsConfig(raw, paths, links);
    const mapped = config.paths as Paths;
    if (mapped.plans.length + mapped.handoffs.length + mapped.ledgers.length === 0) {
      report.add('note', repo, `thoughts repository: no workflow glob reaches it through ${links.map((l) => l.link).join(', ')}; no hooks installed there`);
      continue;
    }
    const hooksDir = git(repo, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).out;
    if (!hooksDir || posixRel(repo, hooksDir).startsWith('.husky')) {
      report.add('note', repo, 'thoughts repository: its hooks are managed by husky; run `validate-workflow init` there instead');
      continue;
    }
    const id = createHash('sha1').update(repo).digest('hex').slice(0, 12);
    const configPath = join(commonDir, 'validate-workflow', `thoughts-${id}.config.json`);
    const configStatus = put(configPath, `${JSON.stringify(config, null, 2)}\n`);
    if (configStatus !== 'unchanged') report.add(configStatus, configPath, `globs for ${repo} (${links.map((l) => `${l.link} -> ${l.target || '.'}`).join(', ')})`);
    for (const name of OUR_HOOKS) {
      const path = join(hooksDir, name);
      const label = `${repo}: ${posixRel(repo, path)}`;
      let text = read(path);
      let chains = text !== null && text.includes(MARK) ? parseChains(text) : [];
      if (text !== null && !text.includes(MARK)) {
        // The thoughts repository's own hook (any language): moved aside and run first by our wrapper.
        const moved = `${path}${MOVED_SUFFIX}`;
        if (existsSync(moved)) {
          report.add('kept', label, `not ours, and ${name}${MOVED_SUFFIX} is taken: chain it by hand`);
          continue;
        }
        renameSync(path, moved);
        report.add('moved', label, `to ${name}${MOVED_SUFFIX}, run first by the new hook`);
        text = null;
        chains = [{ word: `"$(dirname "$0")/${name}${MOVED_SUFFIX}"`, label: `${name}${MOVED_SUFFIX}` }];
      }
      const projects = text === null ? [] : parseProjects(text).filter((p) => p.root !== self);
      projects.push({ root: self, config: configPath });
      projects.sort((a, b) => a.root.localeCompare(b.root));
      const want = thoughtsWrapper(name, chains, projects);
      const status = put(path, want, 0o755);
      report.add(status, label, status === 'unchanged' ? undefined : `judges commits there with this repository's rules${chains.length ? `; chains ${chains.map((c) => c.label).join(', ')}` : ''}`);
    }
  }
}

function skeleton(root: string, report: Report): void {
  // In HumanLayer's layout thoughts/ belongs to another repository (and its hook refuses staged thoughts/ files):
  // creating folders there is that repository's business.
  const base = join(root, 'thoughts');
  try {
    if (lstatSync(base).isSymbolicLink() || readdirSync(base).some((n) => lstatSync(join(base, n)).isSymbolicLink())) {
      report.add('note', 'thoughts/', 'links into another repository: no skeleton created here');
      return;
    }
  } catch {
    // No thoughts/ yet: create it below.
  }
  for (const dir of SKELETON) {
    const abs = join(root, dir);
    let entries: string[] | null = null;
    try {
      entries = readdirSync(abs);
    } catch {
      entries = null;
    }
    // Git keeps no empty folder; a .gitkeep only where the folder would otherwise vanish from a clone.
    if (entries === null || entries.length === 0) {
      mkdirSync(abs, { recursive: true });
      writeFileSync(join(abs, '.gitkeep'), '');
      report.add('created', `${dir}/.gitkeep`);
    } else report.add('unchanged', `${dir}/`);
  }
}

// --- the command --------------------------------------------------------------------------------------------------

function print(report: Report, root: string, io: Io): void {
  const width = Math.max(...report.steps.map((s) => s.status.length));
  const lines = report.steps.map((s) => `  ${s.status.padEnd(width)}  ${s.what}${s.detail ? `: ${s.detail}` : ''}`);
  io.stdout(`validate-workflow init in ${root}\n${lines.join('\n')}\n`);
}

export async function init(opts: InitOptions, io: Io): Promise<number> {
  const top = git(io.cwd, ['rev-parse', '--show-toplevel']);
  if (!top.ok) {
    io.stderr('validate-workflow init: not in a git repository; run `git init` first.\n');
    return EXIT.usage;
  }
  const root = top.out;
  const pkgPath = join(root, 'package.json');
  const pkgText = read(pkgPath);
  if (pkgText === null) {
    // husky installs from the folder that holds .git; a package.json elsewhere would need its own husky setup.
    io.stderr(`validate-workflow init: no package.json at the repository root (${root}); run \`npm init -y\` and \`npm i -D validate-workflow\` there first.\n`);
    return EXIT.usage;
  }
  let pkg: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(pkgText);
    if (!isRecord(parsed)) throw new Error('not an object');
    pkg = parsed;
  } catch (err) {
    io.stderr(`validate-workflow init: package.json is not valid JSON (${(err as Error).message}); fix it, then run again.\n`);
    return EXIT.usage;
  }
  const commonDir = resolve(root, git(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']).out || '.git');
  const report = new Report();

  const { userRunsLintStaged } = installHuskyHooks(root, commonDir, opts, report);
  const { paths } = workflowPaths(root, pkg);
  const edit = editPackage(root, pkg, report, userRunsLintStaged, paths);
  if (edit.changes.length) {
    writeFileSync(pkgPath, `${JSON.stringify(edit.pkg, null, jsonIndent(pkgText))}\n`);
    report.add('updated', 'package.json', edit.changes.join('; '));
  } else report.add('unchanged', 'package.json');
  if (userRunsLintStaged) report.add('note', 'lint-staged', 'your .husky/pre-commit runs lint-staged itself; the validate-workflow block checks directly, no lint-staged entry added');

  if (existsSync(join(root, CONFIG_FILE))) report.add('unchanged', CONFIG_FILE, 'yours, kept as is');
  else if (isRecord(pkg.validateWorkflow)) report.add('unchanged', 'package.json#validateWorkflow', 'your config; no config file written (it would take precedence)');
  else report.add(put(join(root, CONFIG_FILE), `${JSON.stringify({ $schema: SCHEMA_REF, preset: 'recommended' }, null, 2)}\n`), CONFIG_FILE);

  skeleton(root, report);

  const workflow = join(root, WORKFLOW_FILE);
  const current = read(workflow);
  if (current === null || current === CI_WORKFLOW || opts.force) report.add(put(workflow, CI_WORKFLOW), WORKFLOW_FILE);
  else report.add('kept', WORKFLOW_FILE, 'differs from what init writes; --force replaces it');

  installThoughtsHooks(root, commonDir, pkg, report);

  if (opts.claude) {
    // Loaded only when asked: the Claude Code settings merge is its own module.
    const { mergeClaudeSettings, ClaudeSettingsError } = await import('./claude-settings.js');
    try {
      const res = mergeClaudeSettings(root);
      report.add(res.changed ? 'updated' : 'unchanged', posixRel(root, res.path), res.changed ? 'the validate-workflow Claude Code hook merged in' : undefined);
    } catch (err) {
      if (!(err instanceof ClaudeSettingsError)) throw err;
      print(report, root, io);
      io.stderr(`validate-workflow init --claude: ${err.message}\n`);
      return EXIT.usage;
    }
  }

  print(report, root, io);
  const hooksPath = git(root, ['config', 'core.hooksPath']).out;
  const huskyActive = hooksPath === '.husky/_' && existsSync(join(root, '.husky', '_', 'h'));
  const next: string[] = [];
  if (edit.needsInstall || !huskyActive) {
    next.push('Run `npm install`: it installs what package.json now lists, and its prepare script (husky) points git at .husky/_, which turns the hooks on.');
  }
  // Only what lives in this repository's work tree is for its next commit (not the thoughts repository's hooks).
  const written = [...new Set(report.steps.filter((s) => (s.status === 'created' || s.status === 'updated') && !isAbsolute(s.what)).map((s) => (s.what.includes('/') ? `${s.what.split('/')[0]}/` : s.what)))];
  if (written.length) next.push(`Commit what init wrote (${written.join(', ')}) so every clone gets the same gates.`);
  io.stdout(report.changed ? '' : 'Nothing to change: this repository is already set up.\n');
  if (next.length) io.stdout(`${next.map((n) => `Next: ${n}`).join('\n')}\n`);
  return EXIT.ok;
}
