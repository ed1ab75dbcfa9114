#!/usr/bin/env node
// Entry point: parse arguments, dispatch to a command, map every failure to an exit code. Kept thin: the commands
// own their logic, and an unexpected error is a tool failure (exit 2) with a short message, not a stack trace.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Io } from './io.js';
import { ConfigError, type Preset } from '../config/config.js';
import type { CheckOptions } from './check.js';

const HELP = `Usage: validate-workflow [paths...] [options]
       validate-workflow --staged | --range <from>..<to> | commit-msg <message-file>
       validate-workflow init [--force] [--claude]
       validate-workflow confirm <plan> --phase N
       validate-workflow status [--session S] [--format json]
       validate-workflow explain <rule-id>
       validate-workflow new plan "<title>" | new handoff --session <s> [--desc <d>] [--plan <p>] | new ledger --session <s> --plan <p>

Lints AI-agent workflow files (plans, task handoffs, ledgers) against the implement_plan_micro convention.

Options:
  --format <stylish|json|sarif|github|markdown>
                                output format (default: stylish)
  --summary                     also append the markdown review report to $GITHUB_STEP_SUMMARY
  --baseline-write              record today's findings in validate-workflow.baseline.json; later runs report
                                only what is new, and entries that no longer match
  --preset <recommended|strict> rule preset (default: the config's, else recommended)
  --config <file>               config file (default: validate-workflow.config.json, or "validateWorkflow" in package.json)
  --max-warnings <n>            exit 1 when there are more than n warnings
  --quiet                       report errors only
  --no-history                  judge the files as they are now, without replaying git history
  --staged                      pre-commit: judge the change from HEAD to the index (the index, not the working tree)
  --range <from>..<to>          pre-push and pull requests: judge the commits in the range, from merge-base(from, to)
  commit-msg <file>             commit-msg hook: the staged change with the message's trailers (Confirmed-by, ...)
  -h, --help                    show this help
  -v, --version                 show the version

Exit codes: 0 no errors, 1 errors (or too many warnings), 2 usage error or tool failure.
`;

function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (data += chunk));
    process.stdin.on('end', () => resolve(data));
    process.stdin.on('error', () => resolve(data));
  });
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

export async function run(argv: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        preset: { type: 'string' },
        config: { type: 'string' },
        'max-warnings': { type: 'string' },
        quiet: { type: 'boolean' },
        'no-history': { type: 'boolean' },
        staged: { type: 'boolean' },
        summary: { type: 'boolean' },
        'baseline-write': { type: 'boolean' },
        force: { type: 'boolean' },
        claude: { type: 'boolean' },
        phase: { type: 'string' },
        range: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        session: { type: 'string' },
        plan: { type: 'string' },
        desc: { type: 'string' },
        out: { type: 'string' },
      },
    });
    if (values.help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    if (values.version) {
      io.stdout(`${version()}\n`);
      return EXIT.ok;
    }
    if (positionals[0] === 'explain') {
      const { explain } = await import('./explain.js');
      const id = positionals[1];
      if (!id) throw new UsageError('explain needs a rule id: validate-workflow explain plan/phase-order');
      const page = explain(id);
      if (page === null) throw new UsageError(`unknown rule id: ${id}`);
      io.stdout(page.endsWith('\n') ? page : `${page}\n`);
      return EXIT.ok;
    }
    if (positionals[0] === 'init') {
      const { init } = await import('./init.js');
      return await init({ force: values.force ?? false, claude: values.claude ?? false }, io);
    }
    if (positionals[0] === 'confirm') {
      const phase = Number(values.phase);
      if (!positionals[1] || !Number.isInteger(phase) || phase < 1) throw new UsageError('confirm needs a plan and a phase: validate-workflow confirm <plan> --phase N');
      const { confirm } = await import('./confirm.js');
      return await confirm({ plan: positionals[1], phase }, io);
    }
    if (positionals[0] === 'status') {
      const { status } = await import('./status.js');
      return await status({ session: values.session, format: oneOf(values.format, ['stylish', 'json'] as const, '--format') ?? 'stylish' }, io);
    }
    if (positionals[0] === 'claude-hook') {
      const { claudeHook } = await import('./claude-hook.js');
      return await claudeHook(await readStdin(), io);
    }
    if (positionals[0] === 'new') {
      const { newFile } = await import('./new.js');
      return newFile({ kind: positionals[1] ?? '', title: positionals.slice(2).join(' ') || undefined, session: values.session, plan: values.plan, desc: values.desc, out: values.out }, io);
    }
    for (const flag of ['session', 'plan', 'desc', 'out', 'force', 'claude', 'phase'] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} belongs to another command (see --help)`);
    }
    let maxWarnings: number | undefined;
    if (values['max-warnings'] !== undefined) {
      maxWarnings = Number(values['max-warnings']);
      if (!Number.isInteger(maxWarnings) || maxWarnings < 0) throw new UsageError(`--max-warnings needs a whole number (got "${values['max-warnings']}")`);
    }
    // Loaded on demand: --help and --version should not pay for the Markdown parser.
    const { check, parseRange, FORMATS } = await import('./check.js');
    let door: CheckOptions['door'] = { kind: 'repository' };
    let paths = positionals;
    if (positionals[0] === 'commit-msg') {
      if (!positionals[1]) throw new UsageError('commit-msg needs the message file: validate-workflow commit-msg "$1"');
      door = { kind: 'commit-msg', file: positionals[1] };
      paths = positionals.slice(2);
    } else if (values.staged && values.range) throw new UsageError('--staged and --range cannot be combined');
    else if (values.staged) door = { kind: 'staged' };
    else if (values.range) door = { kind: 'range', ...parseRange(values.range) };
    return await check(
      {
        paths,
        history: !values['no-history'],
        baselineWrite: values['baseline-write'] ?? false,
        door,
        format: oneOf(values.format, FORMATS, '--format') ?? 'stylish',
        summary: values.summary ?? false,
        preset: oneOf<Preset>(values.preset, ['recommended', 'strict'], '--preset'),
        config: values.config,
        maxWarnings,
        quiet: values.quiet ?? false,
      },
      io,
    );
  } catch (err) {
    const e = err as Error & { code?: string };
    if (err instanceof UsageError || err instanceof ConfigError || e.code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`validate-workflow: ${e.message}\n${err instanceof ConfigError ? '' : 'Run validate-workflow --help for usage.\n'}`);
      return EXIT.usage;
    }
    io.stderr(`validate-workflow: internal error: ${e.message}\n${io.env.VALIDATE_WORKFLOW_DEBUG ? `${e.stack}\n` : 'Set VALIDATE_WORKFLOW_DEBUG=1 for the stack trace, and please report it.\n'}`);
    return EXIT.usage;
  }
}

const io: Io = {
  cwd: process.cwd(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  env: process.env,
};
process.exitCode = await run(process.argv.slice(2), io);
// The bench reads peak memory this way: the process's own high-water mark, worker threads included.
if (process.env.VALIDATE_WORKFLOW_TIMING) process.stderr.write(`timing peak rss: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`);
