// The one place git is run: plain `git` processes, never a shell. One-off questions asked where the caller can wait
// (`ask`) run asynchronously; the streamed `git log` and the `cat-file --batch` reader are spawned here so output is
// consumed as it arrives; and `gitSync` answers the questions asked in the middle of a synchronous judgement (a
// parent commit's tree when the fold meets it, a blob a rule's snapshot needs, the index at pre-commit), where an
// await would have to reach into every rule.
//
// `ask` went through simple-git until issue 13: simple-git 4.0.2 waits 50 ms after every process that writes
// nothing (its completion plugin, not configurable), and many questions answer with silence (`merge-base
// --is-ancestor`, a `log --grep` with no match, `rev-parse --verify` of a missing commit). Measured on a small
// repository: `git log --grep` with no match took 55 ms through simple-git and 2.5 ms spawned directly; every door
// asked at least one such question, the hooks on every commit.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { Identity } from '../model/history.js';
import { parseIdentity } from './identity.js';

/**
 * Options every git process gets: paths as they are (no octal quoting), and replace refs ignored: `git replace` can
 * make a commit look like another in every local walk, which would hide a violating commit from the hooks.
 */
const BASE = ['-c', 'core.quotepath=off', '--no-replace-objects'];

/** The variables that change how git reads a pathspec (`git help glossary`, pathspec). */
const PATHSPEC_ENV = ['GIT_LITERAL_PATHSPECS', 'GIT_GLOB_PATHSPECS', 'GIT_NOGLOB_PATHSPECS', 'GIT_ICASE_PATHSPECS'];

/**
 * The environment of every git process but a commit made for the user: the tool writes each pathspec it hands git
 * with its magic spelled out (`:(literal)`, `:(glob,icase)`), and these variables would read them otherwise. With
 * GIT_LITERAL_PATHSPECS=1 set for a `git commit`, `:(literal)plans/auth.md` named no file, and a plan that a ledger
 * names outside the globs left the hooks' sight. undefined (inherit) where none is set.
 */
function gitEnv(): NodeJS.ProcessEnv | undefined {
  if (!PATHSPEC_ENV.some((k) => process.env[k] !== undefined)) return undefined;
  const env = { ...process.env };
  for (const k of PATHSPEC_ENV) delete env[k];
  return env;
}

/**
 * An async one-off question: its output, and whether git exited 0 (a bare exit 1 is a "no", never a "yes"). `input`
 * goes to its stdin. Questions asked together run at once (the hooks ask three, each a process of ~5 ms).
 */
export function ask(root: string, args: string[], input?: string): Promise<{ ok: boolean; out: string }> {
  if (input === undefined) {
    const k = JSON.stringify(args);
    const early = asked.get(root)?.get(k);
    if (early) {
      asked.get(root)!.delete(k);
      return early;
    }
  }
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      [...BASE, ...args],
      { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30, env: gitEnv() },
      (error, stdout) => resolve({ ok: error === null, out: error === null ? stdout : '' }),
    );
    // A git that exits before reading all of it closes the pipe: its answer (or failure) is the exit's.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}

// Questions asked before their answer is needed (askEarly), by repository and question, each taken by the first
// `ask` of the same question.
const asked = new Map<string, Map<string, Promise<{ ok: boolean; out: string }>>>();

/**
 * Start a question now whose answer a later `ask` of the same question takes: its git process runs while the caller
 * works (a pre-commit reads the pending commit meanwhile, its largest step). Only for questions whose answer cannot
 * change while the tool runs (about commits named by their ids); an answer nobody takes is dropped with the process.
 */
export function askEarly(root: string, args: string[]): Promise<unknown> {
  const k = JSON.stringify(args);
  let mine = asked.get(root);
  if (!mine) asked.set(root, (mine = new Map()));
  let early = mine.get(k);
  if (!early) {
    early = ask(root, args);
    mine.set(k, early);
  }
  return early;
}

/**
 * Drop the early questions about `root` that nobody took (the run found another way): a long-lived caller (the API)
 * must not be answered by them later, when the repository has moved on (a fetch that deepened a shallow clone).
 */
export function dropEarly(root: string): void {
  asked.delete(root);
}

/** A commit's full id, SHA-1 or SHA-256: what may be handed to git as a revision read from a file anything can write. */
export const COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Where a repository keeps itself: its top folder, its git folder (a worktree's own) and the common one. */
export interface RepositoryInfo {
  root: string;
  gitDir: string;
  commonDir: string;
}

// A folder's repository does not change while the tool runs: asked once per folder (the hooks ask it from several
// places, and every git process costs a hook milliseconds).
const infos = new Map<string, RepositoryInfo>();

/** The repository holding `cwd`, in one git process, or null outside one. */
export function repositoryInfo(cwd: string): RepositoryInfo | null {
  const known = infos.get(cwd);
  if (known) return known;
  const res = gitSync(cwd, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir']);
  const [root, gitDir, common] = res.out.split('\n');
  if (!res.ok || !root || !gitDir || !common) return null;
  // Only an answer is kept: a folder outside a repository may become one (`git init`) while a caller still runs.
  const info = { root, gitDir, commonDir: resolvePath(cwd, common) };
  infos.set(cwd, info);
  infos.set(root, info);
  return info;
}

/**
 * The repository holding `cwd`, the commit HEAD names (null without commits) and whether the clone is shallow, in one
 * git process: the first question of every run (engine/run.ts scopeOf, cli/commit-msg.ts), where every process counts
 * (the history fold would otherwise ask the last two again). null outside a repository.
 */
export function repositoryAndHead(cwd: string): { info: RepositoryInfo; head: string | null; shallow: boolean } | null {
  if (lent?.cwd === cwd) {
    const { answer } = lent;
    lent = null;
    return answer;
  }
  // Without commits `--verify` fails (exit 1) after the folders and the shallow answer are printed.
  const res = gitSync(cwd, [
    'rev-parse',
    '--show-toplevel',
    '--absolute-git-dir',
    '--git-common-dir',
    '--is-shallow-repository',
    '--verify',
    '-q',
    'HEAD^{commit}',
  ]);
  const [root, gitDir, common, shallow, head] = res.out.split('\n');
  if (!root || !gitDir || !common) return null;
  const info = infos.get(cwd) ?? { root, gitDir, commonDir: resolvePath(cwd, common) };
  infos.set(cwd, info);
  infos.set(root, info);
  return {
    info,
    head: res.ok && head && /^[0-9a-f]{40,64}$/.test(head) ? head : null,
    shallow: shallow === 'true',
  };
}

let lent: { cwd: string; answer: ReturnType<typeof repositoryAndHead> } | null = null;

/**
 * repositoryAndHead, its answer also kept for the next call from the same folder (once): a door that must know the
 * repository before it runs the command line (cli/pre-commit.ts) spares the command line's own first question. Kept
 * once, not for the process: HEAD moves between the runs of a long-lived caller (the API, the Claude Code hook).
 */
export function repositoryAndHeadLent(cwd: string): ReturnType<typeof repositoryAndHead> {
  const answer = repositoryAndHead(cwd);
  lent = { cwd, answer };
  return answer;
}

/** The commit HEAD names, or null in a repository without commits. */
export function headCommit(root: string): string | null {
  const res = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  return res.ok ? res.out.trim() : null;
}

/** The commits a merge in progress brings in (MERGE_HEAD, read from the worktree's git folder: no process). */
export function mergeHeads(root: string): string[] {
  const info = repositoryInfo(root);
  if (!info) return [];
  try {
    return readFileSync(`${info.gitDir}/MERGE_HEAD`, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  } catch {
    return [];
  }
}

/** The top folder of the repository holding `cwd`, or null outside one. */
export function repositoryRoot(cwd: string): string | null {
  return repositoryInfo(cwd)?.root ?? null;
}

/** The identities git will record for a commit made now (`git var -l`: one process for both). */
export function gitIdentities(root: string): Identities {
  return identitiesIn(gitSync(root, ['var', '-l']).out);
}

/** Who commits: the author and committer git will record, or null where git knows none. */
export interface Identities {
  author: Identity | null;
  committer: Identity | null;
}

/** The identities in the output of `git var -l`. */
export function identitiesIn(vars: string): Identities {
  const pick = (name: string): Identity | null => {
    const line = vars.split('\n').find((l) => l.startsWith(`${name}=`));
    if (!line) return null;
    const raw = line.slice(name.length + 1);
    return parseIdentity(raw.slice(0, raw.lastIndexOf('>') + 1));
  };
  return { author: pick('GIT_AUTHOR_IDENT'), committer: pick('GIT_COMMITTER_IDENT') };
}

/**
 * The identity git will record (`git var`: config and GIT_AUTHOR_* / GIT_COMMITTER_* applied), or null when git does
 * not know one. `git var` prints `Name <email> timestamp zone`; the identity is the part up to the closing `>`.
 */
export function gitIdentity(root: string, variable: 'GIT_AUTHOR_IDENT' | 'GIT_COMMITTER_IDENT'): Identity | null {
  const res = gitSync(root, ['var', variable]);
  if (!res.ok) return null;
  const raw = res.out.trim();
  return parseIdentity(raw.slice(0, raw.lastIndexOf('>') + 1));
}

/** Synchronous one-off, for the hook paths where every millisecond of start-up counts. */
export function gitSync(
  root: string,
  args: string[],
  input?: string,
): { ok: boolean; out: string; status: number | null; err: string } {
  const res = spawnSync('git', [...BASE, ...args], {
    cwd: root,
    encoding: 'utf8',
    input,
    maxBuffer: 1 << 30,
    env: gitEnv(),
  });
  return { ok: res.status === 0, out: res.stdout ?? '', status: res.status, err: res.stderr ?? '' };
}

/** `git commit` with the user's terminal on stdin (a signing key's passphrase prompt must reach them). */
export function gitInteractive(root: string, args: string[]): { ok: boolean; out: string; err: string } {
  const res = spawnSync('git', ['--no-replace-objects', ...args], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  return { ok: res.status === 0, out: res.stdout ?? '', err: res.stderr ?? '' };
}

/** Run git and hand each chunk of stdout to `onData`; resolves when git exits 0. */
export function gitStream(root: string, args: string[], onData: (chunk: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...BASE, ...args], { cwd: root, env: gitEnv() });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git ${args[0]} failed: ${err.trim()}`))));
  });
}

/**
 * A blob's bytes: Buffers, typed without Node's types, because this module's declarations reach the package's
 * (the rule tester's types lead here) and a consumer need not have @types/node.
 */
export type BlobBytes = Uint8Array & { toString(encoding: 'utf8'): string };

/** Contents of many blobs through one `git cat-file --batch` process. */
export function readBlobs(root: string, ids: string[]): Map<string, BlobBytes> {
  const out = new Map<string, BlobBytes>();
  if (ids.length === 0) return out;
  const res = spawnSync('git', ['--no-replace-objects', 'cat-file', '--batch'], {
    cwd: root,
    input: `${ids.join('\n')}\n`,
    maxBuffer: (1 << 31) >>> 0,
    env: gitEnv(),
  });
  const buf = res.stdout as Buffer;
  let pos = 0;
  for (const id of ids) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break;
    const header = buf.subarray(pos, nl).toString('utf8').split(' ');
    pos = nl + 1;
    if (header[1] === 'missing') continue;
    const size = Number(header[2]);
    out.set(id, buf.subarray(pos, pos + size));
    pos += size + 1;
  }
  return out;
}

/**
 * The object ids these names resolve to (`HEAD^{commit}`, `<commit>:<path>`), null where one names nothing, through
 * one `git cat-file --batch-check` process: `rev-parse --verify` for many names at once. A name holding a line break
 * cannot travel on a line; it is asked on its own.
 */
export function resolveAll(root: string, names: string[]): (string | null)[] {
  const out: (string | null)[] = names.map(() => null);
  const batch = names.flatMap((name, i) => (/[\n\r]/.test(name) ? [] : [i]));
  if (batch.length > 0) {
    const res = gitSync(
      root,
      ['cat-file', '--batch-check=%(objectname)'],
      `${batch.map((i) => names[i]).join('\n')}\n`,
    );
    const lines = res.out.split('\n');
    for (const [k, i] of batch.entries()) {
      const line = lines[k] ?? '';
      if (/^[0-9a-f]{40,64}$/.test(line)) out[i] = line;
    }
  }
  for (const [i, name] of names.entries()) {
    if (!/[\n\r]/.test(name)) continue;
    const res = gitSync(root, ['rev-parse', '--verify', '-q', name]);
    out[i] = res.ok ? res.out.trim() : null;
  }
  return out;
}

/** The id git gives these bytes as a blob (`git hash-object`): content and cache keys agree with git's own. */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** `--amend` and every start of it git takes: `--am` is `--amend` to `git commit`. */
const AMEND = /^--am(?:e(?:n(?:d)?)?)?$/;

/**
 * Whether this process runs inside `git commit --amend` (a hook of it): git tells hooks nothing of an amend, but
 * the commit they judge then replaces HEAD, so its "before" is HEAD's parent. Read from the process ancestry
 * (Linux /proc; elsewhere `ps`); false when neither answers.
 */
export function amending(): boolean {
  let pid = process.ppid;
  for (let depth = 0; depth < 12 && pid > 1; depth++) {
    const info = processInfo(pid);
    if (!info) return false;
    const [cmd, ...args] = info.argv;
    if (cmd && /(^|\/)git$/.test(cmd) && args.includes('commit') && args.some((a) => AMEND.test(a))) return true;
    pid = info.ppid;
  }
  return false;
}

/**
 * The nearest ancestor of this process that is git (its name, `comm`, is `git`), as `<pid> <start time>`: the `git
 * commit` whose hooks run this process, which runs both its pre-commit and its commit-msg hooks. The start time (in
 * clock ticks since boot) tells it from a later process given the same pid. hooks/commit-msg finds the same pair by the
 * same walk in sh. Linux /proc only (the shell reads nothing else without starting a process); null where there is
 * none to read or no git within 12 parents.
 */
export function committingGit(): string | null {
  let pid = process.ppid;
  for (let depth = 0; depth < 12 && pid > 1; depth++) {
    const stat = procStat(pid);
    if (!stat) return null;
    if (stat.comm === 'git') return `${pid} ${stat.start}`;
    pid = stat.ppid;
  }
  return null;
}

/** A process's name, parent and start time, from /proc/<pid>/stat; null where it cannot be read. */
function procStat(pid: number): { comm: string; ppid: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ')'. The fields after
    // it are the 3rd onwards: the parent is the 4th, the start time the 22nd.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const ppid = Number(fields[1]);
    const start = fields[19] ?? '';
    if (!Number.isInteger(ppid) || !/^\d+$/.test(start)) return null;
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ppid, start };
  } catch {
    return null;
  }
}

function processInfo(pid: number): { ppid: number; argv: string[] } | null {
  const stat = procStat(pid);
  if (stat) {
    try {
      return { ppid: stat.ppid, argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean) };
    } catch {
      // Gone, or its arguments hidden: ps says what it can.
    }
  }
  const res = spawnSync('ps', ['-o', 'ppid=', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
  const m = /^\s*(\d+)\s+(.*)$/.exec(res.stdout ?? '');
  return m ? { ppid: Number(m[1]), argv: m[2]!.trim().split(/\s+/) } : null;
}

/** Tracked files stored as symbolic links (mode 120000) among `specs`, by repository path. */
export function trackedSymlinks(root: string, specs: string[]): string[] {
  return gitSync(root, ['ls-files', '-s', '-z', '--', ...specs])
    .out.split('\0')
    .flatMap((entry) => (entry.startsWith('120000 ') ? [entry.slice(entry.indexOf('\t') + 1)] : []));
}
