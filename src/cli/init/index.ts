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
//
// One module per job: husky.ts (the .husky/ hooks), package-json.ts, lint-staged.ts, thoughts-hooks.ts (a thoughts
// repository's hooks), skeleton.ts (thoughts/), ci-workflow.ts; this file runs them in order and reports. A
// repository without package.json (Rust, Python) gets plain-hooks.ts instead of the first three: hooks in .git/hooks
// that run the installed package's, or, where the pre-commit framework owns the hooks, what to add to its config.
import { existsSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { CONFIG_FILE } from '../../config/config.js';
import { isRecord } from '../../shared/text.js';
import { EXIT, type Io } from '../io.js';
import { defineCommand } from '../command.js';
import { git, posixRel, put, read, Report, workflowPaths, jsonIndent, type InitOptions } from './common.js';
import { installHuskyHooks } from './husky.js';
import { editPackage } from './package-json.js';
import { addLintStaged } from './lint-staged.js';
import { installThoughtsHooks } from './thoughts-hooks.js';
import { skeleton } from './skeleton.js';
import { ciWorkflow } from './ci-workflow.js';
import { installPlainHooks, PRE_COMMIT_CONFIG, preCommitBlock } from './plain-hooks.js';
import { homePage, toolVersion } from '../../shared/version.js';
import { choiceLines, rawConfig, StrictError, trustSetup } from './trust.js';

export type { InitOptions } from './common.js';
export { DEV_DEPENDENCIES, PREPARE } from './package-json.js';
export { LINT_STAGED_TASK, lintStagedGlob } from './lint-staged.js';
export { WORKFLOW_FILE } from './ci-workflow.js';

export const SCHEMA_REF = './node_modules/validate-workflow/schemas/config.schema.json';

// --- the command --------------------------------------------------------------------------------------------------

function print(report: Report, root: string, io: Io): void {
  const width = Math.max(...report.steps.map((s) => s.status.length));
  const lines = report.steps.map((s) => `  ${s.status.padEnd(width)}  ${s.what}${s.detail ? `: ${s.detail}` : ''}`);
  io.stdout(`validate-workflow init in ${root}\n${lines.join('\n')}\n`);
}

/** The Node.js part: husky hooks, package.json (devDependencies, prepare) and the lint-staged entry. */
function nodeSetup(
  root: string,
  commonDir: string,
  pkg: Record<string, unknown>,
  pkgText: string,
  opts: InitOptions,
  report: Report,
): ReturnType<typeof editPackage> {
  const { userRunsLintStaged } = installHuskyHooks(root, commonDir, opts, report);
  const { paths } = workflowPaths(root, pkg);
  const edit = editPackage(pkg, report);
  const lintStaged = userRunsLintStaged ? null : addLintStaged(root, pkg, paths, report);
  if (lintStaged) edit.changes.push(lintStaged);
  if (edit.changes.length) {
    writeFileSync(join(root, 'package.json'), `${JSON.stringify(edit.pkg, null, jsonIndent(pkgText))}\n`);
    report.add('updated', 'package.json', edit.changes.join('; '));
  } else report.add('unchanged', 'package.json');
  if (userRunsLintStaged)
    report.add(
      'note',
      'lint-staged',
      'your .husky/pre-commit runs lint-staged itself; the validate-workflow block checks directly, no lint-staged entry added',
    );
  return edit;
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
  // No package.json (a Rust or Python repository): no husky, no lint-staged; plain git hooks (plain-hooks.ts).
  let pkg: Record<string, unknown> | null = null;
  if (pkgText !== null) {
    try {
      const parsed: unknown = JSON.parse(pkgText);
      if (!isRecord(parsed)) throw new Error('not an object');
      pkg = parsed;
    } catch (err) {
      io.stderr(
        `validate-workflow init: package.json is not valid JSON (${(err as Error).message}); fix it, then run again.\n`,
      );
      return EXIT.usage;
    }
  }
  const commonDir = resolve(root, git(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']).out || '.git');
  const report = new Report();
  // First what can refuse (--strict needs a human identity), so a refusal writes nothing.
  let trust: ReturnType<typeof trustSetup>;
  try {
    trust = trustSetup(root, opts.strict ?? false, report);
  } catch (err) {
    if (!(err instanceof StrictError)) throw err;
    io.stderr(`validate-workflow init --strict: ${err.message}\n`);
    return EXIT.usage;
  }

  const edit = pkg === null ? null : nodeSetup(root, commonDir, pkg, pkgText ?? '', opts, report);
  if (pkg === null) installPlainHooks(root, report);

  const own = existsSync(join(root, CONFIG_FILE)) || isRecord(pkg?.validateWorkflow);
  const strictKeys = JSON.stringify(trust.config);
  if (existsSync(join(root, CONFIG_FILE)))
    report.add(
      opts.strict ? 'kept' : 'unchanged',
      CONFIG_FILE,
      opts.strict ? `yours, kept as is; for the strong gate set ${strictKeys} in it` : 'yours, kept as is',
    );
  else if (isRecord(pkg?.validateWorkflow))
    report.add(
      opts.strict ? 'kept' : 'unchanged',
      'package.json#validateWorkflow',
      `your config; no config file written (it would take precedence)${opts.strict ? `; for the strong gate set ${strictKeys} in it` : ''}`,
    );
  else {
    report.add(
      put(join(root, CONFIG_FILE), `${JSON.stringify({ $schema: SCHEMA_REF, ...trust.config }, null, 2)}\n`),
      CONFIG_FILE,
    );
    // The commit that adds the config is the adoption point (convention section 6): say so where there is a past.
    const past = git(root, ['rev-list', '--count', 'HEAD']);
    const count = past.ok ? Number(past.out.trim()) : 0;
    if (count > 0) {
      report.add(
        'note',
        'history',
        `the commit that adds ${CONFIG_FILE} is the adoption point: history rules judge it and every later commit; the ${count === 1 ? 'commit before it is' : `${count} commits before it are`} read, not judged (\`npx validate-workflow --since root\` audits them)`,
      );
    }
  }

  // What the settings in force protect against, one line per choice.
  choiceLines(own ? rawConfig(read(join(root, CONFIG_FILE)), pkg ?? {}) : trust.config, report);

  skeleton(root, report);

  ciWorkflow(root, opts, report);

  // A thoughts repository's hooks run this repository's installed package from its node_modules/.
  if (pkg) installThoughtsHooks(root, commonDir, pkg, report);

  if (opts.claude) {
    // Loaded only when asked: the Claude Code settings merge is its own module.
    const { mergeClaudeSettings, ClaudeSettingsError } = await import('../claude-settings.js');
    try {
      const res = mergeClaudeSettings(root);
      report.add(
        res.changed ? 'updated' : 'unchanged',
        posixRel(root, res.path),
        res.changed ? 'the validate-workflow Claude Code hook merged in' : undefined,
      );
    } catch (err) {
      if (!(err instanceof ClaudeSettingsError)) throw err;
      print(report, root, io);
      io.stderr(`validate-workflow init --claude: ${err.message}\n`);
      return EXIT.usage;
    }
  }

  print(report, root, io);
  const next: string[] = [];
  if (edit) {
    const hooksPath = git(root, ['config', 'core.hooksPath']).out;
    const huskyActive = hooksPath === '.husky/_' && existsSync(join(root, '.husky', '_', 'h'));
    if (edit.needsInstall || !huskyActive) {
      next.push(
        'Run `npm install`: it installs what package.json now lists, and its prepare script (husky) points git at .husky/_, which turns the hooks on.',
      );
    }
  } else if (
    read(join(root, PRE_COMMIT_CONFIG)) !== null &&
    !read(join(root, PRE_COMMIT_CONFIG))!.includes('validate-workflow')
  ) {
    next.push(
      `Add validate-workflow to ${PRE_COMMIT_CONFIG} (the hooks and the install types; merge with what is there), then run \`pre-commit install\`:\n${preCommitBlock(toolVersion(), homePage() ?? '<the git URL of validate-workflow>')}`,
    );
  }
  // Only what lives in this repository's work tree is for its next commit (not the thoughts repository's hooks).
  const written = [
    ...new Set(
      report.steps
        .filter(
          (s) =>
            (s.status === 'created' || s.status === 'updated') &&
            !isAbsolute(s.what) &&
            !/^(\.git|\.\.)\//.test(s.what),
        )
        .map((s) => (s.what.includes('/') ? `${s.what.split('/')[0]}/` : s.what)),
    ),
  ];
  if (written.length) next.push(`Commit what init wrote (${written.join(', ')}) so every clone gets the same gates.`);
  io.stdout(report.changed ? '' : 'Nothing to change: this repository is already set up.\n');
  if (next.length) io.stdout(`${next.map((n) => `Next: ${n}`).join('\n')}\n`);
  return EXIT.ok;
}

export const command = defineCommand({
  name: 'init',
  summary: 'set the repository up: husky and lint-staged hooks, config, thoughts/, CI workflow',
  usage: `Usage: validate-workflow init [--force] [--claude] [--strict]

Sets the repository up so the workflow rules are gates: husky hooks (pre-commit, commit-msg, pre-push) chained to
the hooks already there, a lint-staged entry, the config, the thoughts/ skeleton, a CI workflow, and the hooks of a
thoughts repository that thoughts/ links into. Idempotent; never replaces a file it did not write.

Without a package.json (a Rust or Python repository) it writes the three hooks into .git/hooks, running the hooks
of the validate-workflow install that ran it (install it globally first), or, when .pre-commit-config.yaml is
there, says what to add to it for the pre-commit framework.

Options:
  --force     rewrite files init wrote earlier even when they differ (never the config or your own hooks)
  --claude    also merge the Claude Code hook into .claude/settings.json
  --strict    the strong gate for a new config: preset strict, your git identity as the only confirmer, and signed
              confirmations against validate-workflow.allowed-signers (your key) when git signs with an SSH key
  -h, --help  show this help
`,
  options: {
    force: { type: 'boolean' },
    claude: { type: 'boolean' },
    strict: { type: 'boolean' },
  },
  action: ({ values }, io) =>
    init({ force: values.force ?? false, claude: values.claude ?? false, strict: values.strict ?? false }, io),
});
