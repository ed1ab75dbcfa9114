// `validate-workflow verify`: parse the options, run the verify door (src/verify/), print the report in the format
// asked for, and say on stderr what runs as it runs (a test suite at each ticked commit takes minutes).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FORMATS, render } from '../report/index.js';
import { UsageError } from '../shared/errors.js';
import { plural } from '../shared/text.js';
import { verifyRepository, type VerifyProgress } from '../verify/index.js';
import { defineCommand, oneOf } from './command.js';
import { EXIT, wantsColor, type Io } from './io.js';
import { progressLine } from './progress.js';

const OPTIONS = {
  range: { type: 'string' },
  plan: { type: 'string' },
  phase: { type: 'string' },
  format: { type: 'string' },
  summary: { type: 'boolean' },
  config: { type: 'string' },
  quiet: { type: 'boolean' },
  'output-file': { type: 'string', short: 'o' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
} as const;

const USAGE = `Usage: validate-workflow verify [--range <from>..<to>] [--plan <file>] [--phase <n>] [options]

Re-runs the command in backticks of every ticked automated item (\`- [x] Tests pass: \\\`npm test\\\`\`) at the commit that
ticked it, in a temporary git worktree, and reports verify/claim where it fails there. Only commands the config's
verify.allow allows run, as the parent of that commit holds the config; verify.setup runs first in each worktree
and verify.timeout limits each command. Verdicts are kept per tree and command in .git/validate-workflow/verify/.
The commands get the environment without its secrets (GITHUB_TOKEN and the like; the README lists them).

Options:
  --range <from>..<to>          the items ticked in these commits (default: the items checked at HEAD)
  --plan <file>                 only this plan's items
  --phase <n>                   only this phase's items
  --format <${FORMATS.join('|')}>
                                output format (default: stylish)
  --summary                     also append the markdown report to $GITHUB_STEP_SUMMARY
  --config <file>               config file for where the workflow files are (what may run is always the
                                parent commit's config)
  --quiet                       report errors only, and say nothing on stderr while commands run
  -o, --output-file <path>      write the report to this file (folders are created) instead of stdout
  --color, --no-color           force colours on or off
  -h, --help                    show this help

Exit codes: 0 every claim re-run passed or was not run, 1 a claim fails at its commit, 2 usage error or tool failure.
`;

const seconds = (ms: number | undefined) => (ms === undefined ? '' : `${(ms / 1000).toFixed(1)} s`);

/** One line on stderr per step of the run: what runs, and each verdict. */
function progressReporter(io: Io, quiet: boolean): (event: VerifyProgress) => void {
  const fold = progressLine(io, { quiet });
  const say = (text: string) => io.stderr(`validate-workflow verify: ${text}\n`);
  return (event) => {
    if (quiet) return;
    if (event.kind === 'fold') return fold.update({ commits: event.commits, total: event.total, parsed: 0 });
    fold.done();
    const at = (sha: string) => sha.slice(0, 7);
    if (event.kind === 'claims')
      say(
        `${plural(event.claims, 'claimed command')}; ${event.toRun ? `${event.toRun} to run at ${plural(event.commits, 'commit')}` : 'nothing to run'}`,
      );
    else if (event.kind === 'setup') say(`${at(event.commit)} set-up: ${event.command}`);
    else if (event.kind === 'start') say(`[${event.index}/${event.total}] ${at(event.commit)} ${event.command} ...`);
    else {
      const r = event.rerun;
      const how = r.cached ? ', known from an earlier run' : r.ms !== undefined ? `, ${seconds(r.ms)}` : '';
      const what =
        r.status === 'passed'
          ? `passed${how ? ` (${how.slice(2)})` : ''}`
          : r.status === 'failed'
            ? `failed (${r.code === null ? 'killed' : `exit ${r.code}`}${how})`
            : r.status === 'timed-out'
              ? `stopped at the time limit${how ? ` (${how.slice(2)})` : ''}`
              : `not run (${r.reason === 'not-allowed' ? 'not in verify.allow' : r.reason === 'setup-failed' ? 'the set-up step failed' : 'the commit cannot be checked out'})`;
      say(`${at(r.commit)} ${r.command}: ${what}`);
    }
  };
}

export const command = defineCommand({
  name: 'verify',
  summary: 're-run the commands of ticked automated items at the commits that ticked them (verify/claim)',
  usage: USAGE,
  options: OPTIONS,
  action: async ({ values, positionals }, io) => {
    if (positionals.length) throw new UsageError(`verify takes no paths (got "${positionals[0]}"); use --plan`);
    if (values.color && values['no-color']) throw new UsageError('--color and --no-color cannot be combined');
    let phase: number | undefined;
    if (values.phase !== undefined) {
      phase = Number(values.phase);
      if (!Number.isInteger(phase) || phase < 0)
        throw new UsageError(`--phase needs a phase number (got "${values.phase}")`);
    }
    const format = oneOf(values.format, FORMATS, '--format') ?? 'stylish';
    const quiet = values.quiet ?? false;
    const { report } = await verifyRepository({
      cwd: io.cwd,
      range: values.range,
      plan: values.plan,
      phase,
      config: values.config,
      env: io.env,
      quiet,
      onProgress: progressReporter(io, quiet),
    });
    const outputFile = values['output-file'];
    const color =
      values.color === true
        ? true
        : values['no-color'] === true
          ? false
          : outputFile === undefined
            ? io.color
            : wantsColor({ env: io.env, tty: false });
    const text = render(format, report, color);
    if (outputFile === undefined) io.stdout(text);
    else {
      const file = resolve(io.cwd, outputFile);
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      } catch (err) {
        throw new UsageError(`cannot write --output-file ${outputFile}: ${(err as Error).message}`);
      }
      io.stderr(`validate-workflow: wrote the ${format} report to ${file}\n`);
    }
    if (values.summary) {
      const target = io.env.GITHUB_STEP_SUMMARY;
      if (!target) io.stderr('validate-workflow: --summary: GITHUB_STEP_SUMMARY is not set, no summary written.\n');
      else appendFileSync(target, `${render('markdown', report, false)}\n`);
    }
    return report.summary.errors > 0 ? EXIT.findings : EXIT.ok;
  },
});
