// init's first job: the .husky/ hooks. Ours where there is none, a marked block in the user's own, and every hook
// git ran before husky took core.hooksPath chained from the husky hook of the same name.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, posix, resolve } from 'node:path';
import {
  chainLines,
  git,
  isExecutableFile,
  MARK,
  OUR_HOOKS,
  parseChains,
  posixRel,
  put,
  read,
  shQuote,
  STDIN_HOOKS,
  STDIN_LINES,
  unionChains,
  type Chain,
  type InitOptions,
  type Report,
} from './common.js';

/** The hooks husky 9 runs (its .husky/_/ stubs); a hook of another name stops running once husky owns hooksPath. */
const HUSKY_HOOKS = [
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-rebase',
  'post-rewrite',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-auto-gc',
];
const BLOCK_START = '# >>> validate-workflow >>>';
const BLOCK_END = '# <<< validate-workflow <<<';

/**
 * The hooks git runs today, before husky takes core.hooksPath: .git/hooks, or the folder core.hooksPath names.
 * Null when husky already owns hooksPath (its hooks are the .husky/ files themselves, handled one by one).
 */
function activeHooksDir(root: string, commonDir: string): { dir: string; chain: (name: string) => Chain } | null {
  const configured = git(root, ['config', '--type=path', 'core.hooksPath']).out;
  if (!configured) {
    // Spelled through git so the chain keeps working in a linked worktree, whose .git is a file.
    const dir = join(commonDir, 'hooks');
    return {
      dir,
      chain: (name) => ({
        word: `"$(git rev-parse --git-common-dir)/hooks/${name}"`,
        label: `${posixRel(root, dir) || '.'}/${name}`,
      }),
    };
  }
  const abs = resolve(root, configured);
  const rel = posixRel(root, abs);
  if (rel === '.husky' || rel === '.husky/_') return null;
  // Git runs hooks from the top of the work tree, so a relative hooksPath stays relative.
  return {
    dir: abs,
    chain: (name) => ({
      word: shQuote(isAbsolute(configured) ? join(configured, name) : posix.join(configured, name)),
      label: `${configured}/${name}`,
    }),
  };
}

/** .husky/<name> when the file is ours: the chained hooks, then the package's check. */
function huskyWrapper(name: string, chains: Chain[]): string {
  const stdin = STDIN_HOOKS.has(name);
  const check = OUR_HOOKS.includes(name);
  const lines = [
    `# validate-workflow ${name} hook, ${MARK}. husky 9 layout: a plain script that`,
    `# .husky/_/${name} runs with \`sh -e\`.`,
  ];
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
export function installHuskyHooks(
  root: string,
  commonDir: string,
  opts: InitOptions,
  report: Report,
): { userRunsLintStaged: boolean } {
  const active = activeHooksDir(root, commonDir);
  const previous = new Map<string, Chain>();
  if (active && existsSync(active.dir)) {
    for (const name of readdirSync(active.dir).sort()) {
      const path = join(active.dir, name);
      // Git runs only executable files named exactly like a hook; `pre-commit.old` and `*.sample` are not hooks.
      if (name.includes('.') || !isExecutableFile(path)) continue;
      if (read(path)?.includes(MARK)) continue;
      if (HUSKY_HOOKS.includes(name)) previous.set(name, active.chain(name));
      else
        report.add(
          'note',
          `${active.chain(name).label}`,
          'husky does not run this hook name: it stops running once husky sets core.hooksPath',
        );
    }
  }
  let userRunsLintStaged = false;
  const names = [...new Set([...OUR_HOOKS, ...previous.keys()])];
  for (const name of names) {
    const path = join(root, '.husky', name);
    const rel = `.husky/${name}`;
    const fresh = previous.has(name) ? [previous.get(name)!] : [];
    const text = read(path);
    const chainNote = (chains: Chain[]) =>
      chains.length ? `chains ${chains.map((c) => c.label).join(', ')}` : undefined;
    if (text === null || text.includes(MARK)) {
      // Ours (or nothing yet): the chains it already names stay, so a rerun after husky took hooksPath (when the
      // old hooks folder is no longer the active one) still writes the same file.
      const chains = unionChains(text === null ? [] : parseChains(text), fresh);
      const want = huskyWrapper(name, chains);
      if (text === null) report.add(put(path, want, 0o755), rel, chainNote(chains));
      else if (text === want) report.add('unchanged', rel);
      else if (opts.force || parseChains(text).length < chains.length)
        report.add(put(path, want, 0o755), rel, chainNote(chains));
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
      report.add(
        'updated',
        rel,
        `your hook kept; a validate-workflow block runs first${chains.length ? ` (${chainNote(chains)})` : ''}`,
      );
    } else
      report.add('kept', rel, 'its validate-workflow block differs from what init writes; --force rewrites the block');
  }
  return { userRunsLintStaged };
}
