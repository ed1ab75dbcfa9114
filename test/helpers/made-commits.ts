// Commits git already made, reused: many history tests build the same first commits (plan, task 1, ...) with the
// same files, identities and dates, and git would make the very same objects again. A commit is a function of its
// parent, its tree (the work tree, which `git add -A` stages), its message, its identities and its dates; the test
// helper (Repo.commit in test/history/helpers.ts) keys each `git add -A && git commit` by exactly those, and when the
// key was met before in this test file it writes the objects, the index and the branch ref git wrote then, without
// the two git processes (on a 2-core machine about 40 ms of CPU per commit). The first time, git makes the commit.
// Anything the key cannot vouch for (hooks, a merge in progress, a shallow or linked repository, extra `git commit`
// arguments) is never reused. VALIDATE_WORKFLOW_TEST_REUSE=0 turns reuse off, to check a doubt.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface Made {
  sha: string;
  /**
   * Every loose object of the repository after the commit (paths under .git/objects): not only the ones it added,
   * since a blob staged earlier and never committed is already there and the commit may use it.
   */
  objects: string[];
  index: Buffer;
}

const made = new Map<string, Made>();
/** The objects' bytes by path, shared by every entry (a path is the object's hash). */
const bytes = new Map<string, Buffer>();

/**
 * `Confirmed-items` trailers the engine computed for a staged change (Repo.stagedDigest), by the key of the state they
 * were computed in (commitKey of HEAD, the work tree as `git add -A` staged it, the config): a pure function of it.
 */
export const stagedDigests = new Map<string, string>();

/** Forget every commit (test/setup.ts, after each test file). */
export function forgetMadeCommits(): void {
  made.clear();
  bytes.clear();
  stagedDigests.clear();
}

const off = () => process.env.VALIDATE_WORKFLOW_TEST_REUSE === '0';

let reused = 0;
/** How many commits were written from what git made before (made-commits.test.ts checks that reuse happens). */
export function reusedCommits(): number {
  return reused;
}

/** The ref HEAD names (`refs/heads/main`), or null when HEAD is detached or the repository is not a plain one. */
function branchRef(gitDir: string): string | null {
  const head = /^ref: (refs\/heads\/\S+)\n?$/.exec(readFileSync(join(gitDir, 'HEAD'), 'utf8'))?.[1];
  return head ?? null;
}

/**
 * The key of committing the work tree of `dir` as it is now, with `inputs` (message, identities, dates), or null
 * when the state holds something the key does not cover.
 */
export function commitKey(dir: string, inputs: unknown): string | null {
  if (off()) return null;
  const gitDir = join(dir, '.git');
  if (!existsSync(gitDir) || !lstatSync(gitDir).isDirectory()) return null;
  for (const f of [
    'MERGE_HEAD',
    'CHERRY_PICK_HEAD',
    'REVERT_HEAD',
    'rebase-merge',
    'rebase-apply',
    'shallow',
    'packed-refs',
  ])
    if (existsSync(join(gitDir, f))) return null;
  const ref = branchRef(gitDir);
  if (ref === null) return null;
  const config = readFileSync(join(gitDir, 'config'), 'utf8');
  if (/hookspath/i.test(config)) return null;
  if (readdirSync(join(gitDir, 'hooks')).some((n) => !n.endsWith('.sample'))) return null;
  const hash = createHash('sha1');
  const add = (text: string | Buffer) => hash.update(text).update('\0');
  add(JSON.stringify(inputs));
  add(ref);
  add(existsSync(join(gitDir, ref)) ? readFileSync(join(gitDir, ref), 'utf8') : 'unborn');
  add(config);
  const exclude = join(gitDir, 'info', 'exclude');
  add(existsSync(exclude) ? readFileSync(exclude) : '');
  let nested = false;
  const walk = (abs: string, rel: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(abs, e.name);
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git') {
        if (rel) nested = true;
        continue;
      }
      if (e.isSymbolicLink()) add(`l ${key} ${readlinkSync(path)}`);
      else if (e.isDirectory()) walk(path, key);
      else if (e.isFile()) {
        add(`f ${key} ${lstatSync(path).mode & 0o111 ? 'x' : '-'}`);
        add(readFileSync(path));
      } else nested = true;
    }
  };
  walk(dir, '');
  return nested ? null : hash.digest('hex');
}

/**
 * The paths of the index of `gitDir` (stage 0), read from the file git writes (format version 2, git's default), or
 * null where the file is another version or holds anything else (a conflict, an extended entry).
 */
export function indexPaths(gitDir: string): Set<string> | null {
  let buf: Buffer;
  try {
    buf = readFileSync(join(gitDir, 'index'));
  } catch {
    return null;
  }
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC' || buf.readUInt32BE(4) !== 2) return null;
  const out = new Set<string>();
  let pos = 12;
  for (let n = buf.readUInt32BE(8); n > 0; n--) {
    if (pos + 62 > buf.length) return null;
    const flags = buf.readUInt16BE(pos + 60);
    if (flags & 0x4000 || (flags >> 12) & 3) return null;
    const end = buf.indexOf(0, pos + 62);
    if (end < 0) return null;
    out.add(buf.toString('utf8', pos + 62, end));
    pos += (62 + (end - (pos + 62)) + 8) & ~7;
  }
  return out;
}

/**
 * Whether every file of the work tree of `dir` (`.git` aside) is in its index: then `git commit -a` stages exactly
 * what `git add -A` would (modified, deleted and re-moded tracked files; nothing untracked is left to add), in one
 * git process instead of two.
 */
export function allTracked(dir: string): boolean {
  const tracked = indexPaths(join(dir, '.git'));
  if (tracked === null) return false;
  const walk = (abs: string, rel: string): boolean => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git') {
        if (rel) return false;
        continue;
      }
      if (e.isDirectory()) {
        if (!walk(join(abs, e.name), key)) return false;
      } else if (!tracked.has(key)) return false;
    }
    return true;
  };
  return walk(dir, '');
}

function looseObjects(gitDir: string): Set<string> {
  const root = join(gitDir, 'objects');
  const out = new Set<string>();
  for (const d of readdirSync(root)) {
    if (!/^[0-9a-f]{2}$/.test(d)) continue;
    for (const f of readdirSync(join(root, d))) out.add(`${d}/${f}`);
  }
  return out;
}

/** The commit made before under `key`, written into `dir`: its objects, the index and the branch; its sha. */
export function reuseCommit(dir: string, key: string | null): string | null {
  const m = key === null ? undefined : made.get(key);
  if (!m) return null;
  const gitDir = join(dir, '.git');
  const there = looseObjects(gitDir);
  for (const path of m.objects) {
    if (there.has(path)) continue;
    const file = join(gitDir, 'objects', path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes.get(path)!, { mode: 0o444 });
  }
  writeFileSync(join(gitDir, 'index'), m.index);
  const ref = join(gitDir, branchRef(gitDir)!);
  mkdirSync(dirname(ref), { recursive: true });
  writeFileSync(ref, `${m.sha}\n`);
  reused++;
  return m.sha;
}

/** Runs `make` (git's own add and commit) and keeps what it wrote under `key`. */
export function makeCommit(dir: string, key: string | null, make: () => string): string {
  if (key === null) return make();
  const gitDir = join(dir, '.git');
  const sha = make();
  const objects = [...looseObjects(gitDir)];
  for (const p of objects) if (!bytes.has(p)) bytes.set(p, readFileSync(join(gitDir, 'objects', p)));
  made.set(key, { sha, objects, index: readFileSync(join(gitDir, 'index')) });
  return sha;
}
