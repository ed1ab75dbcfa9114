// `validate-workflow verify`: re-run the command of every automated item an agent ticked, at the commit that ticked
// it, and report verify/claim where it fails there (issue 23). The steps: the claims (claims.ts, from the history
// fold), which of their commands the parent commit's config allows (commands.ts), the verdicts already known for
// that tree (cache.ts), and for the rest one temporary worktree per commit (worktrees.ts) where the set-up step and
// then each command run with a time limit and without the environment's secrets (process.ts, environment.ts).
import { relative, resolve, sep } from 'node:path';
import type { Config } from '../config/config.js';
import { compareFindings, type Finding } from '../model/finding.js';
import type { Rerun } from '../model/verification.js';
import type { RawFinding } from '../rules/types.js';
import { ruleById } from '../engine/catalog.js';
import { severityOf, toFinding } from '../engine/findings.js';
import { incomplete } from '../engine/history.js';
import { parseRange, scopeOf, type Report } from '../engine/run.js';
import { checkRangeEnds } from '../engine/doors.js';
import { summarize } from '../engine/summary.js';
import { UsageError } from '../shared/errors.js';
import { gitSync } from '../shared/git.js';
import { verifyCache, type CacheKey } from './cache.js';
import { findClaims, type Claim } from './claims.js';
import { allowingPattern } from './commands.js';
import { commandEnvironment } from './environment.js';
import { lastLines, runCommand, type Ran } from './process.js';
import { addWorktree, removeWorktree } from './worktrees.js';

export { SECRET_NAMES, SECRET_SHAPES } from './environment.js';

export interface VerifyOptions {
  /** The current config: where the workflow files are (what may run comes from each claim's parent commit). */
  config: Config;
  /** `--range A..B`: the claims ticked in it; without it, the items checked at `to` (HEAD). */
  from?: string | null;
  to?: string;
  plan?: string;
  phase?: number;
  /** The environment the commands inherit, less its secrets. */
  env: NodeJS.ProcessEnv;
  onProgress?: (event: VerifyProgress) => void;
}

/** What a long run tells its user as it goes. */
export type VerifyProgress =
  | { kind: 'fold'; commits: number; total: number }
  | { kind: 'claims'; claims: number; toRun: number; commits: number }
  | { kind: 'setup'; commit: string; command: string }
  | { kind: 'start'; commit: string; command: string; index: number; total: number }
  | { kind: 'done'; rerun: Rerun };

export interface VerifyResult {
  findings: Finding[];
  reruns: Rerun[];
  /** Plans and commits the claims come from. */
  files: string[];
  commits: number;
  /** Commands actually run (not from the cache), set-up steps included. */
  ran: number;
  /** Secret variables kept from the commands. */
  removed: string[];
}

const RULE = ruleById('verify/claim')!;
/** The line of output a failed claim's message shows. */
const OUTPUT_LINES = 10;

const short = (sha: string) => sha.slice(0, 7);

/** `2 s`, `10 min`, `1 h 30 min`: a limit as a person says it. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return seconds % 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds / 60} min`;
  const minutes = Math.round((seconds % 3600) / 60);
  return `${Math.floor(seconds / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/** The item as the message names it: as written, with the command after it when the item holds several. */
function claimText(claim: Claim, command: string): string {
  return claim.commands.length > 1 ? `${claim.written} (\`${command}\`)` : claim.written;
}

function outputBlock(lines: string[]): string {
  return lines.length ? ` Last lines of its output:\n${lines.map((l) => `    ${l}`).join('\n')}` : '';
}

interface Job {
  claim: Claim;
  command: string;
  level: 'info' | 'warn' | 'error';
  key: CacheKey;
}

export async function verify(root: string, opts: VerifyOptions): Promise<VerifyResult> {
  const found = await findClaims(root, {
    config: opts.config,
    from: opts.from,
    to: opts.to,
    plan: opts.plan,
    phase: opts.phase,
    onProgress: (p) => opts.onProgress?.({ kind: 'fold', commits: p.commits, total: p.total }),
  });
  const { env, removed } = commandEnvironment(opts.env);
  if (found.incomplete)
    return { findings: [incomplete(found.incomplete)], reruns: [], files: [], commits: 0, ran: 0, removed };
  const cache = verifyCache(root);
  const findings: Finding[] = [];
  const reruns: Rerun[] = [];
  // Verdicts come as they are known (from the cache first): the report lists them in the order of the claims.
  const order = new Map<string, number>();
  found.claims.forEach((c, i) => c.commands.forEach((cmd, k) => order.set(`${i}\0${k}`, order.size)));
  const place = new Map<Rerun, number>();
  const report = (
    job: Pick<Job, 'claim' | 'command' | 'level'>,
    raw: Omit<RawFinding, 'file' | 'line'>,
    rerun: Omit<Rerun, 'plan' | 'line' | 'phase' | 'item' | 'command' | 'commit' | 'subject'>,
  ) => {
    const { claim, command } = job;
    const data = { claim: claimText(claim, command), sha: short(claim.commit.sha), command, ...raw.data };
    findings.push(toFinding(RULE, { ...raw, file: claim.plan, line: claim.line, data }, job.level, claim.commit));
    const done: Rerun = {
      plan: claim.plan,
      line: claim.line,
      phase: claim.phase,
      item: claim.written,
      command,
      commit: claim.commit.sha,
      subject: claim.commit.subject,
      ...rerun,
    };
    reruns.push(done);
    place.set(done, order.get(`${found.claims.indexOf(claim)}\0${claim.commands.indexOf(command)}`) ?? 0);
    opts.onProgress?.({ kind: 'done', rerun: done });
  };
  const verdict = (job: Job, ran: Ran, cached: boolean) => {
    const output = ran.outcome === 'passed' ? [] : lastLines(ran.output, OUTPUT_LINES);
    const common = { ms: ran.ms, cached, ...(output.length ? { output } : {}) };
    if (ran.outcome === 'passed')
      report(job, { messageId: 'passes', fixId: 'passesFix', info: true }, { status: 'passed', ...common });
    else if (ran.outcome === 'timed-out')
      report(
        job,
        { messageId: 'timedOut', data: { limit: duration(job.key.timeout), output: outputBlock(output) } },
        { status: 'timed-out', ...common },
      );
    else if (ran.code === null)
      report(
        job,
        { messageId: 'killed', data: { signal: ran.signal ?? 'a signal', output: outputBlock(output) } },
        { status: 'failed', code: null, ...common },
      );
    else
      report(
        job,
        { messageId: 'fails', data: { code: ran.code, output: outputBlock(output) } },
        { status: 'failed', code: ran.code, ...common },
      );
  };

  // Decide every claim's command without running anything: off, not allowed, known, or to run at its commit.
  const toRun = new Map<string, Job[]>();
  const trees = new Map<string, string | null>();
  const treeOf = (sha: string) => {
    if (!trees.has(sha)) {
      const res = gitSync(root, ['rev-parse', '--verify', '-q', `${sha}^{tree}`]);
      trees.set(sha, res.ok ? res.out.trim() : null);
    }
    return trees.get(sha)!;
  };
  const pending: Job[] = [];
  for (const claim of found.claims) {
    const level = severityOf(RULE, claim.trust);
    if (level === 'off') continue;
    for (const command of claim.commands) {
      const { allow, setup, timeout } = claim.trust.verify;
      const pattern = allowingPattern(allow, command);
      if (pattern === null) {
        report(
          { claim, command, level },
          {
            messageId: 'notAllowed',
            fixId: 'notAllowedFix',
            info: true,
            data: { pattern: JSON.stringify(command) },
          },
          { status: 'not-run', reason: 'not-allowed' },
        );
        continue;
      }
      const tree = treeOf(claim.commit.sha);
      if (tree === null) {
        report(
          { claim, command, level },
          {
            messageId: 'unavailable',
            fixId: 'unavailableFix',
            warn: true,
            data: { why: 'the commit is not in this clone' },
          },
          { status: 'not-run', reason: 'unavailable' },
        );
        continue;
      }
      pending.push({ claim, command, level, key: { tree, command, setup, timeout } });
    }
  }
  const known = new Map<Job, Ran>();
  for (const job of pending) {
    const ran = cache.get(job.key);
    if (ran) known.set(job, ran);
    else {
      const list = toRun.get(job.claim.commit.sha) ?? [];
      list.push(job);
      toRun.set(job.claim.commit.sha, list);
    }
  }
  const total = pending.length - known.size;
  opts.onProgress?.({ kind: 'claims', claims: reruns.length + pending.length, toRun: total, commits: toRun.size });
  for (const [job, ran] of known) verdict(job, ran, true);

  let ran = 0;
  let index = 0;
  for (const [sha, jobs] of toRun) {
    const first = jobs[0]!;
    const { setup, timeout } = first.key;
    const setupKey: CacheKey = { tree: first.key.tree, command: `(setup) ${setup ?? ''}`, setup: null, timeout };
    const setupKnown = setup ? cache.get(setupKey) : null;
    if (setupKnown && setupKnown.outcome !== 'passed') {
      for (const job of jobs) setupFailed(job, setup!, setupKnown, true);
      continue;
    }
    const tree = addWorktree(root, sha);
    if ('error' in tree) {
      for (const job of jobs)
        report(
          job,
          { messageId: 'unavailable', fixId: 'unavailableFix', warn: true, data: { why: tree.error } },
          { status: 'not-run', reason: 'unavailable' },
        );
      continue;
    }
    try {
      if (setup) {
        opts.onProgress?.({ kind: 'setup', commit: sha, command: setup });
        const done = await runCommand(setup, { cwd: tree.dir, env, timeoutMs: timeout * 1000 });
        ran++;
        cache.put(setupKey, done);
        if (done.outcome !== 'passed') {
          for (const job of jobs) setupFailed(job, setup, done, false);
          continue;
        }
      }
      // Several commands at one commit run in the order the plan ticked them, in the same worktree: a command
      // that changes files (a build) leaves them for the next, as it would have for the agent.
      for (const job of jobs) {
        opts.onProgress?.({ kind: 'start', commit: sha, command: job.command, index: ++index, total });
        const done = await runCommand(job.command, { cwd: tree.dir, env, timeoutMs: timeout * 1000 });
        ran++;
        cache.put(job.key, done);
        verdict(job, done, false);
      }
    } finally {
      removeWorktree(tree.dir);
    }
  }

  function setupFailed(job: Job, setup: string, done: Ran, cached: boolean): void {
    const output = lastLines(done.output, OUTPUT_LINES);
    const why =
      done.outcome === 'timed-out'
        ? `it did not finish within ${duration(job.key.timeout)}`
        : done.outcome === 'failed' && done.code !== null
          ? `exit ${done.code}`
          : 'killed by a signal';
    report(
      job,
      { messageId: 'setupFails', fixId: 'setupFix', warn: true, data: { setup, why, output: outputBlock(output) } },
      { status: 'not-run', reason: 'setup-failed', cached, ...(output.length ? { output } : {}) },
    );
  }

  reruns.sort((a, b) => place.get(a)! - place.get(b)!);
  const files = [...new Set(reruns.map((r) => r.plan))].sort();
  const commits = new Set(reruns.map((r) => r.commit)).size;
  return { findings, reruns, files, commits, ran, removed };
}

/** What the `verify` command asks for: the repository by a folder in it, and the claims it wants re-run. */
export interface VerifyRequest {
  cwd: string;
  /** `--range A..B` as given. */
  range?: string;
  /** `--plan P`, relative to `cwd`. */
  plan?: string;
  phase?: number;
  /** `--config <file>`: where the workflow files are (never what may run: that is each parent commit's). */
  config?: string;
  env: NodeJS.ProcessEnv;
  /** Report errors only. */
  quiet?: boolean;
  onProgress?: (event: VerifyProgress) => void;
}

/** The whole run, for the CLI and the Action: the repository, the claims, the verdicts as a report. */
export async function verifyRepository(req: VerifyRequest): Promise<{ report: Report; result: VerifyResult }> {
  const scope = scopeOf({ paths: [], config: req.config }, req.cwd);
  if (!scope.inGit)
    throw new UsageError(
      `verify re-runs commands at the commits that ticked them: ${req.cwd} is not in a git repository`,
    );
  const range = req.range === undefined ? null : parseRange(req.range);
  await checkRangeEnds(scope.root, range?.from ?? null, range?.to ?? null);
  const plan =
    req.plan === undefined ? undefined : relative(scope.root, resolve(req.cwd, req.plan)).split(sep).join('/');
  if (plan !== undefined && (plan.startsWith('../') || plan === '..'))
    throw new UsageError(`--plan ${req.plan} is outside the repository at ${scope.root}`);
  const result = await verify(scope.root, {
    config: scope.config,
    from: range?.from ?? null,
    to: range?.to,
    plan,
    phase: req.phase,
    env: req.env,
    onProgress: req.onProgress,
  });
  const findings = result.findings.filter((f) => !req.quiet || f.severity === 'error').sort(compareFindings);
  return {
    report: {
      findings,
      summary: summarize(findings, result.files.length, result.commits),
      workspace: null,
      timeline: [],
      verifications: result.reruns,
    },
    result,
  };
}
