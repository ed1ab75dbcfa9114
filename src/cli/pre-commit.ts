// The pre-commit hook's door: hooks/pre-commit runs `validate-workflow pre-commit` once, and this process does what
// the hook's shell did with two node processes (lint-staged, and the check it ran as its task). Where there is no
// lint-staged to run (not installed, or switched off by the hook init wrote), it is the check alone, refusal included:
// one place says why a commit was refused. Where lint-staged's configuration is one JSON or YAML file at the top (cli/lint-staged.ts), the check
// judges the index here, whatever is staged (a deletion too, which lint-staged never lists), while lint-staged runs
// the rest of that configuration in this process, or not at all when the check was its only task (on the bench's
// history shape lint-staged's own start and work cost 169 ms of a 0.76 s commit, the task's node start 88 ms more).
// Anything else runs lint-staged as a program with the check as its task, as the shell did, and judges directly only
// a commit the task never saw.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dropVerdict, verdictLeft } from '../engine/handover.js';
import { gitSync, repositoryAndHeadLent } from '../shared/git.js';
import { importOutside } from './import-outside.js';
import { EXIT, type Io } from './io.js';
import {
  checkAlone,
  configurationsElsewhere,
  lintStagedPlan,
  lintStagedPlanAtTop,
  lintStagedPlanSoon,
  rememberConfigurationsElsewhere,
  type LintStagedPlan,
} from './lint-staged.js';

/** Why the commit was refused, and that skipping the hooks does not help. */
const REFUSED =
  'validate-workflow: commit refused: fix the findings above (`npx validate-workflow explain <rule-id>` says more).\n' +
  '  Skipping hooks (--no-verify, HUSKY=0) does not help: pre-push and CI judge the history again.\n';

/** Why the commit was refused when the tool could not judge it (exit 2): git prints nothing of its own. */
const NOT_JUDGED = 'validate-workflow: commit refused: the check could not run (the error above says why).\n';

/** `pre-commit [--config <file>]`: the config a thoughts repository's hook passes; null for anything else. */
function hookArgs(argv: string[]): string[] | null {
  const [word, ...rest] = argv;
  if (word !== 'pre-commit') return null;
  if (rest.length === 0) return [];
  if (rest.length === 2 && rest[0] === '--config' && rest[1]) return rest;
  return null;
}

/** An Io whose output is held, in order, until flush() writes it where `io` writes (no progress line meanwhile). */
function held(io: Io): { io: Io; flush: () => void } {
  const out: [(text: string) => void, string][] = [];
  return {
    io: {
      ...io,
      stderrTTY: false,
      stdout: (t) => void out.push([io.stdout, t]),
      stderr: (t) => void out.push([io.stderr, t]),
    },
    flush: () => {
      for (const [write, text] of out) write(text);
    },
  };
}

/** Whether two paths name one folder (a link in either path aside). */
function samePlace(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Whether the hook has a lint-staged to run, as the shell asked before it handed the choice here: an executable
 * `node_modules/.bin/lint-staged` where the hook runs, and `VALIDATE_WORKFLOW_LINT_STAGED` not `0` (set by the hooks
 * init writes for a thoughts repository and the pre-commit framework). The variable can switch lint-staged's other
 * tasks off, never the check.
 */
function lintStagedToRun(cwd: string): boolean {
  if (process.env.VALIDATE_WORKFLOW_LINT_STAGED === '0') return false;
  try {
    accessSync(join(cwd, 'node_modules', '.bin', 'lint-staged'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The check on the index, as `validate-workflow --staged` reports it; its exit code, the refusal said on failure. */
async function check(config: string[], io: Io): Promise<number> {
  const code = await (await import('./run.js')).run(['--staged', ...config], io);
  if (code === EXIT.findings) io.stderr(REFUSED);
  return code;
}

/** lint-staged, installed in the repository, run in this process with `config`: whether its tasks passed. */
type LintStaged = (options: { config: object; cwd: string }) => Promise<boolean>;

/**
 * lint-staged's Node API, installed in the repository, or null when it cannot be loaded here (the program may still
 * run). Resolved from inside node_modules: a package.json at the top that does not parse (lint-staged ignores one)
 * must not stop the lookup, and resolving from beside it would read it.
 */
async function lintStagedApi(root: string): Promise<LintStaged | null> {
  try {
    const entry = createRequire(join(root, 'node_modules', '_.js')).resolve('lint-staged');
    const api = ((await importOutside(pathToFileURL(entry).href)) as { default?: unknown }).default;
    return typeof api === 'function' ? (api as LintStaged) : null;
  } catch {
    return null;
  }
}

/**
 * The hook's verdict: 0 to commit, 1 refused (by the check or by lint-staged's tasks), 2 the tool's own failure; null
 * for arguments the hook never passes (the command line reads them: `pre-commit` may be a folder to check).
 */
export async function preCommit(argv: string[], io: Io): Promise<number | null> {
  const code = await hookVerdict(argv, io);
  if (code === EXIT.usage) io.stderr(NOT_JUDGED);
  return code;
}

async function hookVerdict(argv: string[], io: Io): Promise<number | null> {
  const config = hookArgs(argv);
  if (config === null) return null;
  if (!lintStagedToRun(io.cwd)) return check(config, io);
  // Asked as the check's first question is (engine/run.ts scopeOf), which takes this answer: one git process fewer.
  const root = repositoryAndHeadLent(io.cwd)?.info.root ?? io.cwd;
  // A hook run from a subfolder (the package is not at the top) leaves lint-staged's search to lint-staged.
  const atTop = samePlace(io.cwd, root);
  // Where the configuration at the top holds the check and nothing else (init's, and the usual case), the check runs
  // while git lists lint-staged's configurations (lintStagedPlanSoon): what the listing says decides, as before.
  // Should it find more (a configuration in a subfolder), the check's report is dropped unread when lint-staged must
  // run as a program, which judges again (a verdict is never left twice: dropVerdict below); the repository is then
  // remembered as one whose listing finds more, and its next commits list first, as before (a monorepo whose
  // packages keep their own configurations would otherwise judge every commit twice).
  const guess = atTop ? lintStagedPlanAtTop(root) : null;
  const guessedAlone = checkAlone(guess);
  const elsewhere = guessedAlone && configurationsElsewhere(root);
  let plan: LintStagedPlan;
  let early: { report: ReturnType<typeof held>; code: number } | null = null;
  if (guessedAlone && !elsewhere) {
    const listing = lintStagedPlanSoon(root);
    const report = held(io);
    early = { report, code: await check(config, report.io) };
    plan = await listing;
  } else plan = atTop ? lintStagedPlan(root) : null;
  const alone = checkAlone(plan);
  if (guessedAlone && alone === elsewhere) rememberConfigurationsElsewhere(root, !alone);
  if (alone) {
    if (!early) return check(config, io);
    early.report.flush();
    return early.code;
  }
  const lintStaged = plan ? await lintStagedApi(root) : null;
  if (plan && lintStaged) {
    // The repository's tasks run beside the check, as they ran beside it as lint-staged's task: a slow linter and the
    // check overlap. The check's report waits for lint-staged's, which may redraw its lines on a terminal meanwhile.
    const tasks = lintStaged({ config: plan.config, cwd: root }).then(
      (passed) => (passed ? EXIT.ok : EXIT.findings),
      (err: Error) => {
        io.stderr(`validate-workflow: lint-staged could not run (${err.message}).\n`);
        return EXIT.usage;
      },
    );
    const report = early?.report ?? held(io);
    const code = early?.code ?? (await check(config, report.io));
    const theirs = await tasks;
    report.flush();
    return code !== EXIT.ok ? code : theirs;
  }
  // lint-staged finds its configuration itself and runs the check as its task, which leaves its verdict when it passes.
  // The lint-staged the hook found, where it found it (hooks/pre-commit runs this where it looked: the hook's folder).
  // (Run otherwise, from a workspace folder where lint-staged is installed only at the top, the top's.)
  dropVerdict(root);
  const here = join(io.cwd, 'node_modules', '.bin', 'lint-staged');
  const res = spawnSync(existsSync(here) ? here : join(root, 'node_modules', '.bin', 'lint-staged'), [], {
    cwd: io.cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (res.error) {
    io.stderr(`validate-workflow: lint-staged could not run (${res.error.message}).\n`);
    return EXIT.usage;
  }
  if (res.status !== 0) return EXIT.findings;
  // lint-staged lists no deleted file (--diff-filter=ACMR): a commit that only deletes never reaches the task.
  if (verdictLeft(root)) return EXIT.ok;
  const deletes = gitSync(root, ['diff', '--cached', '--name-only', '--diff-filter=D']);
  return deletes.out.trim() === '' && deletes.ok ? EXIT.ok : check(config, io);
}
