// Which lint-staged configuration the pre-commit hook's lint-staged would use, and what it asks besides the workflow
// check. When the repository keeps one JSON or YAML configuration at its top level, hooks/pre-commit judges the index
// itself and hands lint-staged that configuration without the check's entry, in this process (cli/pre-commit.ts):
// one node start instead of three, and none of lint-staged's work when the check was its only task (issue 22). Any
// other layout (a JavaScript configuration, several configurations, one outside the repository, an entry that runs the
// check another way) is lint-staged's own to find: the hook then runs it as a program, as before.
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ask, gitSync, repositoryInfo } from '../shared/git.js';

/** `.` keeps the report whole: lint-staged appends the staged files, and paths would narrow the report to them. */
export const LINT_STAGED_TASK = 'validate-workflow --staged .';

/** The files lint-staged 16 reads its configuration from besides the package manifests (its lib/configFiles.js). */
export const LINT_STAGED_FILES = [
  '.lintstagedrc',
  '.lintstagedrc.json',
  '.lintstagedrc.yaml',
  '.lintstagedrc.yml',
  '.lintstagedrc.mjs',
  '.lintstagedrc.mts',
  '.lintstagedrc.js',
  '.lintstagedrc.ts',
  '.lintstagedrc.cjs',
  '.lintstagedrc.cts',
  'lint-staged.config.mjs',
  'lint-staged.config.mts',
  'lint-staged.config.js',
  'lint-staged.config.ts',
  'lint-staged.config.cjs',
  'lint-staged.config.cts',
];

/** Every file name lint-staged reads its configuration from, in any folder. */
const CONFIG_FILE_NAMES = ['package.json', 'package.yaml', 'package.yml', ...LINT_STAGED_FILES];

/** The files whose whole content is a configuration in JSON or YAML (JSON is YAML). */
const RC_FILES = new Set(['.lintstagedrc', '.lintstagedrc.json', '.lintstagedrc.yaml', '.lintstagedrc.yml']);

/** The package manifests that hold a configuration under the `lint-staged` key. */
const MANIFESTS = new Set(['package.json', 'package.yaml', 'package.yml']);

/** The configuration to hand lint-staged without the check's entry (possibly empty), or null: run lint-staged itself. */
export type LintStagedPlan = { config: Record<string, string | string[]>; source: string } | null;

/** Whether lint-staged's configuration asks nothing besides the check: the hook then judges and runs no lint-staged. */
export function checkAlone(plan: LintStagedPlan): boolean {
  return plan !== null && Object.keys(plan.config).length === 0;
}

/** The check's own entry as init writes it, with or without npx in front. */
function isCheck(command: string): boolean {
  const words = command.trim().split(/\s+/);
  const rest = words[0] === 'npx' ? words.slice(words[1] === '--no-install' ? 2 : 1) : words;
  return rest.join(' ') === LINT_STAGED_TASK;
}

/**
 * What a file holds as lint-staged's configuration, read as lint-staged 16 reads it (its lib/loadConfig.js: JSON for
 * `.json`, YAML for `.yaml`, `.yml` and no extension, a manifest that does not parse holds none): the object,
 * undefined when it holds none, null when this reading may not be lint-staged's (a link, whose target lint-staged
 * reads by the target's extension; a file that does not parse, which lint-staged reports).
 */
function configIn(root: string, path: string): unknown {
  const name = basename(path);
  if (!MANIFESTS.has(name) && !RC_FILES.has(name)) return null;
  const file = join(root, path);
  let data: unknown;
  try {
    if (lstatSync(file).isSymbolicLink()) return null;
    const text = readFileSync(file, 'utf8');
    data = name.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch {
    return MANIFESTS.has(name) ? undefined : null;
  }
  if (RC_FILES.has(name)) return data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  // lint-staged takes a manifest's key only when it holds something (`json[CONFIG_NAME]`, then `?? null`).
  return (data as Record<string, unknown>)['lint-staged'] || undefined;
}

/** A manifest that holds no lint-staged configuration (a package.json without the key): nothing lint-staged reads. */
function isManifestWithout(root: string, name: string): boolean {
  return MANIFESTS.has(name) && configIn(root, name) === undefined;
}

/** What lint-staged lists to find its configurations: `git ls-files`' answer, read by planFrom. */
const LISTING_ARGS = [
  'ls-files',
  '-z',
  '--full-name',
  '-t',
  '--cached',
  '--others',
  '--exclude-standard',
  '--',
  ...CONFIG_FILE_NAMES.map((f) => `:(glob)**/${f}`),
];

/**
 * lint-staged's configuration without the check's entry, when the repository keeps exactly one, at its top level,
 * in JSON or YAML, of globs and commands; null for anything else. The files are those lint-staged itself lists (git's
 * tracked and untracked files that are not ignored, by name, in any folder); none found, lint-staged looks in the
 * folders above, which is its own business too.
 */
export function lintStagedPlan(root: string): LintStagedPlan {
  const listed = gitSync(root, LISTING_ARGS);
  return listed.ok ? planFrom(root, listed.out.split('\0')) : null;
}

/**
 * lintStagedPlan, its git process running while the caller works: the listing walks the whole working tree for
 * untracked files (28 ms of a commit on the bench's wide shape), time the hook spends judging the index meanwhile.
 */
export async function lintStagedPlanSoon(root: string): Promise<LintStagedPlan> {
  const listed = await ask(root, LISTING_ARGS);
  return listed.ok ? planFrom(root, listed.out.split('\0')) : null;
}

/**
 * What lintStagedPlan will most likely say, from the top folder alone (no git process): the configurations lying
 * there, each as if git listed it. Only a guess of the order to work in (cli/pre-commit.ts): the listing decides.
 */
export function lintStagedPlanAtTop(root: string): LintStagedPlan {
  return planFrom(
    root,
    CONFIG_FILE_NAMES.filter((name) => existsSync(join(root, name))).map((name) => `H ${name}`),
  );
}

/** Where the pre-commit hook remembers that lint-staged's listing found more than the top's configuration. */
function elsewhereMark(root: string): string | null {
  const info = repositoryInfo(root);
  return info ? join(info.gitDir, 'validate-workflow', 'lint-staged-elsewhere') : null;
}

/**
 * Whether the last listing found configurations besides the top's, where the top's holds the check alone: the hook
 * then lists before it judges (cli/pre-commit.ts). Only the order of the hook's work depends on it, never a verdict.
 */
export function configurationsElsewhere(root: string): boolean {
  const mark = elsewhereMark(root);
  return mark !== null && existsSync(mark);
}

/** Remember what the listing found (written only when it changed: most commits write nothing). */
export function rememberConfigurationsElsewhere(root: string, found: boolean): void {
  const mark = elsewhereMark(root);
  if (!mark) return;
  try {
    if (found) {
      mkdirSync(dirname(mark), { recursive: true });
      writeFileSync(mark, '');
    } else rmSync(mark, { force: true });
  } catch {
    // A git folder this user cannot write: the hook keeps judging first, which costs time, never a verdict.
  }
}

/** The plan from `git ls-files -t` records (`<tag> <path>`) of the configuration files. */
function planFrom(root: string, records: string[]): LintStagedPlan {
  const found: { path: string; config: unknown }[] = [];
  for (const line of records) {
    // `S `: a file git skips in the worktree, which lint-staged skips too.
    if (line === '' || line.startsWith('S ')) continue;
    const path = line.replace(/^[HSMRCK?U] /, '');
    const config = configIn(root, path);
    if (config === null) return null;
    if (config !== undefined) found.push({ path, config });
  }
  // A file at the top that git does not list (ignored) is still lint-staged's: it looks on disk there too.
  const listedNames = new Set(found.map((f) => f.path));
  if (
    CONFIG_FILE_NAMES.some(
      (name) => !listedNames.has(name) && existsSync(join(root, name)) && !isManifestWithout(root, name),
    )
  )
    return null;
  if (found.length !== 1 || dirname(found[0]!.path) !== '.') return null;
  const { path, config } = found[0]!;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return null;
  // An empty configuration is one lint-staged refuses; a `__proto__` glob is not a key an object keeps.
  if (Object.keys(config).length === 0 || Object.hasOwn(config, '__proto__')) return null;
  const kept: Record<string, string | string[]> = {};
  for (const [glob, value] of Object.entries(config)) {
    const commands: unknown[] = Array.isArray(value) ? value : [value];
    if (!commands.every((c): c is string => typeof c === 'string')) return null;
    // The check in another form (its own options, another config) is not the entry this hook stands in for.
    if (commands.some((c) => !isCheck(c) && /\bvalidate-workflow\b/.test(c))) return null;
    const rest = commands.filter((c) => !isCheck(c));
    if (rest.length > 0) kept[glob] = Array.isArray(value) ? rest : rest[0]!;
  }
  return { config: kept, source: path };
}
