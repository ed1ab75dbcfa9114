// init's package.json job: the devDependencies the hooks need and the prepare script that installs husky's hooks.
// It edits the object in memory; init writes package.json once, after the lint-staged job has added its entry.
import { isRecord } from '../../shared/text.js';
import { toolVersion } from '../../shared/version.js';
import type { Report } from './common.js';

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

export interface PackageEdit {
  pkg: Record<string, unknown>;
  changes: string[];
  /** Something a `npm install` has to bring in. */
  needsInstall: boolean;
}

/** devDependencies (husky, lint-staged, this package) and the prepare script that turns husky on. */
export function editPackage(pkg: Record<string, unknown>, report: Report): PackageEdit {
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
  return { pkg, changes, needsInstall };
}
