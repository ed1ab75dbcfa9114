// Real git histories for the history tests: a repository in a temporary folder, commits made with chosen authors,
// committers and trailers, and the three ways to judge them (the engine in-process, the CLI, the hook doors).
// Not a test file itself.
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { itemsDigest } from '../../src/history/trust.js';
import { pendingCommit } from '../../src/history/fold.js';
import { loadConfig, type Preset } from '../../src/config/config.js';
import type { Finding } from '../../src/model/finding.js';
import { judgeHistory } from '../../src/engine/history.js';
import { lint as lintApi, type LintOptions } from '../../src/api/index.js';
import { RULE_IDS } from '../../src/engine/catalog.js';
import { CLI, makeRepo, runCli, runCliHere, writeFiles, type CliResult } from '../helpers/repo.js';
import { allTracked, commitKey, makeCommit, reuseCommit, stagedDigests } from '../helpers/made-commits.js';
import { scratchDir } from '../helpers/scratch.js';
import { LEDGER, PLAN, handoffPath, ledger, lineOf, md, taskHandoff } from '../rules/fixtures.js';

export { LEDGER, PLAN, handoffPath, ledger, lineOf, md, taskHandoff };

export interface Who {
  name: string;
  email: string;
}

export const ANA: Who = { name: 'Ana Human', email: 'ana@example.com' };
export const BOB: Who = { name: 'Bob Builder', email: 'bob@example.com' };
/** Claude Code as the author of a commit. */
export const CLAUDE: Who = { name: 'Claude', email: 'noreply@anthropic.com' };
export const CONFIG = 'validate-workflow.config.json';

export const ident = (w: Who) => `${w.name} <${w.email}>`;

/** A temporary folder that is not a repository (message files, keys, clones). */
export function tempDir(): string {
  return scratchDir('vw-hist-');
}

export interface CommitOpts {
  author?: Who;
  /** Defaults to the author. */
  committer?: Who;
  coAuthors?: Who[];
  confirmedBy?: Who[];
  /** Further trailer lines (`Key: value`). */
  trailers?: string[];
  /** Paths to delete in this commit. */
  remove?: string[];
  /** `[from, to]` pairs moved with `git mv`. */
  rename?: [string, string][];
  /** Extra arguments for `git commit` (`-S`, `--allow-empty`). */
  args?: string[];
  /** Extra `-c key=value` settings for this commit only. */
  gitConfig?: string[];
  /**
   * With `confirmedBy`, the `Confirmed-items` digest of the manual items the commit checks is added, as `confirm`
   * writes it (strict requires it since issue 12); false leaves it out.
   */
  digest?: boolean;
}

export function message(subject: string, opts: CommitOpts = {}): string {
  const trailers = [
    ...(opts.coAuthors ?? []).map((w) => `Co-authored-by: ${ident(w)}`),
    ...(opts.confirmedBy ?? []).map((w) => `Confirmed-by: ${ident(w)}`),
    ...(opts.trailers ?? []),
  ];
  return trailers.length ? `${subject}\n\nMore words about it.\n\n${trailers.join('\n')}\n` : `${subject}\n`;
}

/** A repository whose commits are made with explicit identities and steadily increasing dates. */
export class Repo {
  private clock = 1_800_000_000;

  constructor(readonly dir: string) {}

  static create(): Repo {
    return new Repo(makeRepo({}));
  }

  /**
   * A copy of this repository in a fresh folder, .git included: the same commits without the git processes that
   * made them, and its clock where this one's is (later commits are dated after them). For a start many tests of a
   * file share: built once, copied per test.
   */
  copy(): Repo {
    const dir = scratchDir('vw-test-');
    cpSync(this.dir, dir, { recursive: true });
    const repo = new Repo(dir);
    repo.clock = this.clock;
    repo.subjects = new Map(this.subjects);
    return repo;
  }

  git(...args: string[]): string {
    return this.gitWith({}, args);
  }

  gitWith(env: NodeJS.ProcessEnv, args: string[], input?: string): string {
    const res = spawnSync('git', args, { cwd: this.dir, encoding: 'utf8', input, env: { ...process.env, ...env } });
    if (res.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${res.stderr}`);
    return res.stdout;
  }

  /** The full sha of `rev`; HEAD's is read from the repository's files where they say it (head()). */
  sha(rev = 'HEAD'): string {
    return rev === 'HEAD' ? this.head() : this.git('rev-parse', rev).trim();
  }

  write(files: Record<string, string>): void {
    writeFiles(this.dir, files);
  }

  /** Write, delete and rename, then stage everything. */
  stage(files: Record<string, string> = {}, opts: Pick<CommitOpts, 'remove' | 'rename'> = {}): void {
    for (const [from, to] of opts.rename ?? []) {
      mkdirSync(dirname(join(this.dir, to)), { recursive: true });
      this.git('mv', from, to);
    }
    for (const path of opts.remove ?? []) this.git('rm', '-q', path);
    this.write(files);
    this.git('add', '-A');
  }

  env(author: Who, committer: Who = author): NodeJS.ProcessEnv {
    const date = `${++this.clock} +0000`;
    return {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: date,
    };
  }

  /**
   * Commit what is staged; returns the full sha. `staged`: the key of the state when everything in the work tree is
   * staged (commit(): `git add -A` just ran), under which the digest of a confirmation is remembered for the test file.
   */
  commitStaged(subject: string, opts: CommitOpts = {}, staged: string | null = null): string {
    const author = opts.author ?? ANA;
    const cfg = (opts.gitConfig ?? []).flatMap((c) => ['-c', c]);
    const digest = () => {
      const amend = opts.args?.includes('--amend') ?? false;
      if (staged === null || amend) return this.stagedDigest(amend);
      let d = stagedDigests.get(staged);
      if (d === undefined) stagedDigests.set(staged, (d = this.stagedDigest()));
      return d;
    };
    const withDigest =
      opts.confirmedBy?.length &&
      opts.digest !== false &&
      !(opts.trailers ?? []).some((t) => /^confirmed-items:/i.test(t))
        ? { ...opts, trailers: [...(opts.trailers ?? []), digest()] }
        : opts;
    this.gitWith(
      this.env(author, opts.committer ?? author),
      [...cfg, 'commit', '-q', ...(opts.args ?? []), '-F', '-'],
      message(subject, withDigest),
    );
    return this.head();
  }

  /** The commit HEAD names, read from the repository's files (no process); `rev-parse` where they do not say. */
  head(): string {
    try {
      const head = readFileSync(join(this.dir, '.git', 'HEAD'), 'utf8').trim();
      const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
      const sha = ref ? readFileSync(join(this.dir, '.git', ref), 'utf8').trim() : head;
      if (/^[0-9a-f]{40}$/.test(sha)) return sha;
    } catch {
      // a packed ref or a worktree's .git file: git answers
    }
    return this.git('rev-parse', 'HEAD').trim();
  }

  /**
   * `Confirmed-items` for the manual items the staged change checks, computed by the engine's own reading. HEAD is
   * read from the repository's files (head()), and the identities the commit will carry are not asked of git: the
   * items a change checks do not depend on who commits it (two git processes fewer per confirmation).
   */
  stagedDigest(amend = false): string {
    const pending = pendingCommit(this.dir, loadConfig(this.dir, undefined, RULE_IDS), {
      amend,
      head: this.headOrNull(),
      who: { author: null, committer: null },
    });
    const items = pending.events.flatMap((e) =>
      e.type === 'item-checked' && e.kind === 'manual' && e.checked
        ? [{ file: e.file, phase: e.phase, text: e.text }]
        : [],
    );
    return `Confirmed-items: ${itemsDigest(items)}`;
  }

  /**
   * Write the files (plus deletions and renames) and commit them; returns the full sha. A plain commit that git
   * already made in this test file, from the same parent, work tree, message, identities and dates, is written
   * from what git made then (test/helpers/made-commits.ts): the same objects, without the processes.
   */
  commit(subject: string, files: Record<string, string> = {}, opts: CommitOpts = {}): string {
    if (opts.remove?.length || opts.rename?.length || opts.args?.length || opts.gitConfig?.length) {
      this.stage(files, opts);
      return this.commitStaged(subject, opts);
    }
    this.write(files);
    const key = commitKey(this.dir, { subject, opts, clock: this.clock });
    const reused = reuseCommit(this.dir, key);
    if (reused !== null) {
      this.clock++; // as env() counts for the commit git would have made
      return this.made(reused, key, subject);
    }
    // The same change confirmed by other people or with other words (a file's cases vary who commits it): the
    // manual items it checks are the same, computed once (stagedDigest's three to six git processes).
    const staged = opts.confirmedBy?.length && key !== null ? commitKey(this.dir, 'staged') : null;
    const sha = makeCommit(this.dir, key, () => {
      // Only tracked files changed: `git commit -a` stages what `git add -A` would, one process fewer (not for a
      // confirmation whose digest is still to be computed: that reads the index before the commit). Not with hooks
      // (no key): a refused `commit -a` leaves the change unstaged where `add -A` left it staged, and the hooks
      // would run on git's temporary index rather than the real one the hook tests are about.
      const digestKnown = staged !== null && stagedDigests.has(staged);
      if (key !== null && (!opts.confirmedBy?.length || digestKnown) && allTracked(this.dir))
        return this.commitStaged(subject, { ...opts, args: ['-a'] }, staged);
      this.git('add', '-A');
      return this.commitStaged(subject, opts, staged);
    });
    return this.made(sha, key, subject);
  }

  /**
   * Subjects of commits this repository made, where git records the subject as given: a commit the key vouches for
   * (no hook could rewrite its message) with a subject of one line that git's cleanup leaves as it is.
   */
  private subjects = new Map<string, string>();

  private made(sha: string, key: string | null, subject: string): string {
    if (
      key !== null &&
      subject !== '' &&
      subject === subject.trim() &&
      !/[\r\n]/.test(subject) &&
      !subject.startsWith('#')
    )
      this.subjects.set(sha, subject);
    return sha;
  }

  /** A commit's subject (`%s`): as this repository made it, else as git reads it. */
  subjectOf(sha: string): string {
    return this.subjects.get(sha) ?? this.git('log', '-1', '--format=%s', sha).trim();
  }

  /** head(), or null before the first commit (`git rev-parse` fails there, as the engine's own question would). */
  private headOrNull(): string | null {
    try {
      return this.head();
    } catch {
      return null;
    }
  }

  /** Content of a file at a commit, to compute the line a finding must carry. */
  show(rev: string, path: string): string {
    return this.git('show', `${rev}:${path}`);
  }
}

// --- Workflow files -------------------------------------------------------------------------------------------

export interface PlanSpec {
  frontmatter?: string[];
  /** Tasks per phase (numbered across the plan); default two phases of two tasks: orchestration mode. */
  phases?: number[];
  /** Checked task numbers. */
  tasks?: number[];
  /** Phases whose automated item is checked. */
  auto?: number[];
  /** Phases whose manual item is checked. */
  manual?: number[];
  /** Phases whose manual item reads `N/A ...`. */
  naManual?: number[];
  /** Phases without a manual item. */
  noManual?: number[];
  /** Phases with a second manual item (`Phase n logs are clean`). */
  secondManual?: number[];
  /** A line appended at the end (a disable comment, say). */
  tail?: string;
}

export const TASK = (n: number) => `Task ${n}: Do step ${n}`;
export const AUTO = (p: number) => `Phase ${p} tests pass`;
export const MANUAL = (p: number) => `Phase ${p} works in the browser`;
export const MANUAL2 = (p: number) => `Phase ${p} logs are clean`;

/** The canonical plan of the convention (section 3), its boxes set as the spec says. */
export function planDoc(s: PlanSpec = {}): string {
  const box = (on: boolean | undefined) => (on ? '[x]' : '[ ]');
  const lines: string[] = [];
  if (s.frontmatter) lines.push('---', ...s.frontmatter, '---');
  lines.push('# Auth flow Implementation Plan', '');
  let task = 0;
  (s.phases ?? [2, 2]).forEach((count, i) => {
    const n = i + 1;
    lines.push(`## Phase ${n}: Part ${n}`, '');
    for (let k = 0; k < count; k++) {
      task++;
      lines.push(`- ${box(s.tasks?.includes(task))} ${TASK(task)}`);
    }
    lines.push(
      '',
      '### Success Criteria:',
      '',
      '#### Automated Verification:',
      '',
      `- ${box(s.auto?.includes(n))} ${AUTO(n)}: \`npm test\``,
      '',
    );
    if (!s.noManual?.includes(n)) {
      lines.push('#### Manual Verification:', '');
      if (s.naManual?.includes(n)) lines.push(`- [ ] N/A: ${MANUAL(n)} (no UI in this phase)`);
      else lines.push(`- ${box(s.manual?.includes(n))} ${MANUAL(n)}`);
      if (s.secondManual?.includes(n)) lines.push(`- ${box(s.manual?.includes(n))} ${MANUAL2(n)}`);
      lines.push('');
    }
  });
  if (s.tail) lines.push(s.tail);
  return md(...lines);
}

/** The session ledger for a four-task plan: `done` tasks checked, `doing` in progress. */
export function ledgerDoc(done: number[] = [], doing: number | null = null, total = 4, status = 'active'): string {
  const state: string[] = [];
  for (let t = 1; t <= total; t++) state.push(`- [${done.includes(t) ? 'x' : doing === t ? '→' : ' '}] ${TASK(t)}`);
  return ledger({ state, status });
}

/** A human plans the auth flow, then an agent does task 1 with its handoff: the start most history tests share. */
export function taskOneDone(): Repo {
  const repo = Repo.create();
  repo.commit('Plan the auth flow', { [PLAN]: planDoc(), [LEDGER]: ledgerDoc() }, { author: ANA });
  repo.commit(
    'Task 1: Do step 1',
    { [PLAN]: planDoc({ tasks: [1] }), [handoffPath(1)]: taskHandoff(1), [LEDGER]: ledgerDoc([1]) },
    { author: CLAUDE },
  );
  return repo;
}

// --- Judging --------------------------------------------------------------------------------------------------

/** The engine in-process over the repository's history (its config read as the CLI reads it). */
export async function judge(
  dir: string,
  opts: { preset?: Preset; from?: string | null; to?: string } = {},
): Promise<{ findings: Finding[]; commits: number }> {
  const config = loadConfig(dir, undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  return judgeHistory(dir, { config, presetOverride: opts.preset, from: opts.from, to: opts.to });
}

export async function historyFindings(dir: string, ruleId: string, preset?: Preset): Promise<Finding[]> {
  return (await judge(dir, { preset })).findings.filter((f) => f.ruleId === ruleId);
}

export interface CliJson {
  code: number | null;
  results: Finding[];
  summary: { errors: number; warnings: number; infos: number; files: number; commits: number };
  stderr: string;
}

/** The real CLI with `--format json`. */
export function cli(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): CliJson {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  return cliJson(runCli(dir, ['--format', 'json', ...args], env), args);
}

/**
 * What `cli()` gives, from the CLI run in this process (runCliHere): every flag the CLI takes, its exit code and
 * stderr, without a node process. For tests where the process is not the point; `cli()` keeps one per door.
 */
export async function cliHere(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<CliJson> {
  return cliJson(await runCliHere(dir, ['--format', 'json', ...args], env), args);
}

function cliJson(res: CliResult, args: string[]): CliJson {
  let out: { results: Finding[]; summary: CliJson['summary'] };
  try {
    out = JSON.parse(res.stdout);
  } catch {
    throw new Error(
      `no JSON from validate-workflow ${args.join(' ')} (exit ${res.code}):\n${res.stdout}\n${res.stderr}`,
    );
  }
  return { code: res.code, results: out.results, summary: out.summary, stderr: res.stderr };
}

/**
 * The same judgement as `cli()` through the public API, in this process: the one code path the CLI runs
 * (judgeAndReport), without a node process per call. For tests where the process boundary is not the point; each
 * file keeps real-process `cli()` calls for its doors. `args` are the CLI's (`--staged`, `commit-msg <file>`,
 * `--range`, `--since`, `--preset`, `--no-history`, `--config`); `env` is set in process.env for the call, as git
 * hands the committing identity to a hook. `code` is the CLI's exit rule (1 when there are errors: no
 * `--max-warnings` here), which `cli()` tests assert through the real process.
 */
export async function door(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<CliJson> {
  const options: LintOptions = { cwd: dir };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`door(): ${a} needs a value`);
      return v;
    };
    if (a === '--staged') options.staged = true;
    else if (a === 'commit-msg') options.commitMessage = value();
    else if (a === '--range') options.range = value();
    else if (a === '--since') options.since = value();
    else if (a === '--preset') options.preset = value() as Preset;
    else if (a === '--config') options.config = value();
    else if (a === '--no-history') options.history = false;
    else throw new Error(`door(): no API option for ${a}; use cli()`);
  }
  const saved = new Map(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const out = await lintApi(options);
    return {
      code: out.summary.errors > 0 ? 1 : 0,
      results: out.results as Finding[],
      summary: out.summary,
      stderr: '',
    };
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A commit message written to a file, as git hands it to the commit-msg hook. */
export function messageFile(subject: string, opts: CommitOpts = {}): string {
  const file = join(tempDir(), 'COMMIT_EDITMSG');
  writeFileSync(file, `${message(subject, opts)}# Please enter the commit message for your changes.\n`);
  return file;
}

/** Findings that are problems (errors and warnings), without infos. */
export const problems = (list: Finding[]) => list.filter((f) => f.severity !== 'info');
export const errors = (list: Finding[]) => list.filter((f) => f.severity === 'error');
export const historyOnly = (list: Finding[]) => list.filter((f) => f.ruleId.startsWith('history/'));
export const ids = (list: Finding[]) => [...new Set(list.map((f) => f.ruleId))].sort();

/** Exactly one finding of the rule: at this commit, file and line, with the commit's own subject. */
export function expectOne(
  list: Finding[],
  ruleId: string,
  where: { repo: Repo; commit: string; file: string; line: number; severity?: Finding['severity'] },
): Finding {
  const hits = list.filter((f) => f.ruleId === ruleId);
  expect(hits, `findings of ${ruleId} in ${JSON.stringify(list, null, 1)}`).toHaveLength(1);
  const subject = where.repo.subjectOf(where.commit);
  expect(hits[0]).toMatchObject({
    ruleId,
    commit: where.commit,
    subject,
    file: where.file,
    line: where.line,
    ...(where.severity ? { severity: where.severity } : {}),
  });
  expect(where.commit).toMatch(/^[0-9a-f]{40}$/);
  return hits[0]!;
}

/** The `Confirmed-items` trailer `confirm` writes for the manual items of these phases (strict requires it). */
export function confirmedItems(
  phases: number[],
  file = PLAN,
  texts: (p: number) => string[] = (p) => [MANUAL(p)],
): string {
  return `Confirmed-items: ${itemsDigest(phases.flatMap((phase) => texts(phase).map((text) => ({ file, phase, text }))))}`;
}

/**
 * A repository whose commits run the built CLI as the pre-commit (`--staged`) and commit-msg hooks, the way git runs
 * them (core.hooksPath). Ana is the one at the keyboard; an agent shows up through --author or a Co-authored-by line.
 */
export function hookedRepo(): Repo {
  return installHooks(Repo.create());
}

/**
 * The hooks of hookedRepo installed in an existing repository: a history built before runs no hook (a file that
 * needs the same setup in many tests builds it hook-free and shows once, through hookedRepo, that the hooks accept
 * it).
 */
export function installHooks(repo: Repo): Repo {
  const dir = tempDir();
  const hook = (name: string, args: string) => {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" ${args}\n`);
    chmodSync(file, 0o755);
  };
  hook('pre-commit', '--staged');
  hook('commit-msg', 'commit-msg "$1"');
  // Written to the repository's config file in git's format (later keys win over makeRepo's identity), not by three
  // `git config` processes.
  appendFileSync(
    join(repo.dir, '.git', 'config'),
    `[core]\n\thooksPath = ${dir}\n[user]\n\tname = ${ANA.name}\n\temail = ${ANA.email}\n`,
  );
  expect(repo.git('config', 'user.name').trim()).toBe(ANA.name);
  return repo;
}

/** An agent's commit as Claude Code makes it: the human's identity, Claude as co-author. */
export const AGENT: CommitOpts = { author: ANA, coAuthors: [CLAUDE] };

/** Phase 1 done and verified by automation (`mode: direct`), only its manual item open. */
export const phaseOneReady = (s: PlanSpec = {}) =>
  planDoc({ frontmatter: ['mode: direct'], tasks: [1, 2], auto: [1], ...s });

/** phaseOneReady with its manual item checked: the change only a human may make. */
export const phaseOneCheckedOff = () => phaseOneReady({ manual: [1] });

/** A second plan beside PLAN. */
export const OTHER_PLAN = 'thoughts/shared/plans/2026-11-21-other.md';

/** PLAN and OTHER_PLAN, committed by the human, promising no manual checks. */
export function unpromisedPlans(): Repo {
  const repo = Repo.create();
  repo.commit(
    'Plan two flows',
    { [PLAN]: planDoc({ noManual: [1, 2] }), [OTHER_PLAN]: planDoc({ noManual: [1, 2] }) },
    { author: ANA },
  );
  return repo;
}
