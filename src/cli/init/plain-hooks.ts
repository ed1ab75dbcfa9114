// init's hooks job in a repository without package.json (Rust, Python, ...): no husky and no node_modules/ there, so
// the hooks go where git looks for them, .git/hooks/, and run the hooks of the validate-workflow install that ran
// init (a global install: `npm i -g validate-workflow`), by its absolute path. A hook that was there is moved aside
// and run first. A repository that uses the pre-commit framework keeps its hooks: pre-commit owns .git/hooks/ there,
// and init says what to add to .pre-commit-config.yaml instead (this repository's .pre-commit-hooks.yaml).
import { join } from 'node:path';
import { packageRoot } from '../../shared/version.js';
import {
  chainLines,
  chainsOf,
  git,
  MARK,
  OUR_HOOKS,
  posixRel,
  put,
  read,
  shQuote,
  STDIN_HOOKS,
  STDIN_LINES,
  type Chain,
  type Report,
} from './common.js';

export const PRE_COMMIT_CONFIG = '.pre-commit-config.yaml';

/** What to add to .pre-commit-config.yaml: the hooks of the repository at `home` (package.json), at this version's tag. */
export function preCommitBlock(version: string, home: string): string {
  return [
    'default_install_hook_types: [pre-commit, commit-msg, pre-push]',
    'repos:',
    `  - repo: ${home}`,
    `    rev: v${version}`,
    '    hooks:',
    '      - id: validate-workflow',
    '      - id: validate-workflow-commit-msg',
    '      - id: validate-workflow-pre-push',
  ].join('\n');
}

function plainWrapper(name: string, hook: string, chains: Chain[]): string {
  const stdin = STDIN_HOOKS.has(name);
  const lines = [
    '#!/bin/sh',
    `# validate-workflow ${name} hook, ${MARK} in a repository without package.json. It runs the`,
    '# hook of the validate-workflow install that ran init (its path below); after moving or upgrading that install,',
    '# run `validate-workflow init` again. --no-verify skips it; CI does not.',
  ];
  if (stdin) lines.push(...STDIN_LINES);
  lines.push(...chainLines(chains, stdin));
  lines.push(
    `vw_hook=${shQuote(hook)}`,
    // Fail closed: a gate whose check is gone refuses, it does not open.
    'if [ ! -f "$vw_hook" ]; then echo "validate-workflow: $vw_hook is missing: install validate-workflow again and run \\`validate-workflow init\\` (hooks refuse until then)." >&2; exit 1; fi',
    `${stdin ? 'vw_feed | ' : ''}sh "$vw_hook" "$@"`,
  );
  return `${lines.join('\n')}\n`;
}

/** The hooks of a repository without package.json, or the notes that say why none were written. */
export function installPlainHooks(root: string, report: Report): void {
  const mentions = read(join(root, PRE_COMMIT_CONFIG));
  if (mentions !== null) {
    if (mentions.includes('validate-workflow'))
      report.add('unchanged', PRE_COMMIT_CONFIG, 'runs validate-workflow through the pre-commit framework');
    else
      report.add(
        'note',
        PRE_COMMIT_CONFIG,
        'the pre-commit framework owns the git hooks here: add validate-workflow to it (see below), then `pre-commit install`',
      );
    return;
  }
  const hooksPath = git(root, ['config', 'core.hooksPath']).out;
  if (hooksPath) {
    report.add(
      'note',
      `core.hooksPath ${hooksPath}`,
      `git runs the hooks of that folder: add \`sh ${shQuote(join(packageRoot(), 'hooks'))}/<name> "$@"\` to its pre-commit, commit-msg and pre-push (pre-push: with git's stdin)`,
    );
    return;
  }
  const hooksDir = git(root, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).out;
  const pkgRoot = packageRoot();
  for (const name of OUR_HOOKS) {
    const path = join(hooksDir, name);
    const label = posixRel(root, path);
    const chains = chainsOf(path, name, label, read(path), report);
    if (chains === null) continue;
    report.add(put(path, plainWrapper(name, join(pkgRoot, 'hooks', name), chains), 0o755), label);
  }
  if (/[\\/]_npx[\\/]/.test(pkgRoot))
    report.add(
      'note',
      'hooks',
      `they run validate-workflow from npx's cache (${pkgRoot}), which npm may clean: install it globally and run init again`,
    );
}
