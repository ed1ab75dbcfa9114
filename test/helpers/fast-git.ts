// `git add -A` and `git commit` of a plain test repository written in this process: the same loose objects, index,
// ref and reflog git writes, without two or three git processes per commit (add, commit, and the `maintenance run
// --auto` a commit starts). Git reads every repository afterwards; nothing here answers in its place.
//
// Each function does its work only where the result is certain to be git's own: no hooks, no attributes or ignore
// files, no merge in progress, loose refs and objects, plain files, no GIT_* variable pointing git elsewhere, and
// no setting in the repository's or the user's config that changes what add or commit write. Anywhere else it
// returns false or null and the caller runs git. test/helpers/fast-git.test.ts builds the same history both ways
// and compares the commit ids, which covers every byte of every object.
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  appendFileSync,
  writeFileSync,
  type BigIntStats,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

/**
 * The settings that may be set where this file writes: git init's own, the identity and the switches the test
 * helpers write, and what only reaches a remote. Any other key, or another value of these, and git runs.
 */
const ALLOWED: Record<string, RegExp> = {
  'core.repositoryformatversion': /^0$/,
  'core.filemode': /^true$/,
  'core.bare': /^false$/,
  'core.logallrefupdates': /^true$/,
  'core.hookspath': /./, // checked apart: a commit with hooks goes to git
  'user.name': /./,
  'user.email': /./,
  'commit.gpgsign': /^false$/,
  'maintenance.auto': /^false$/,
  'gc.auto': /^0$/,
  'init.defaultbranch': /./,
  'safe.directory': /./,
};
const ALLOWED_SECTIONS = /^(credential|remote|branch|url|http)(\.|$)/;

/** Every `section.key` of a config file (subsections kept in the section), or null where it cannot be read simply. */
function configKeys(text: string): [string, string][] | null {
  const out: [string, string][] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s+|\s+$/g, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\]$/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || !section) return null;
    out.push([`${section}.${kv[1]!.toLowerCase()}`, kv[2] ?? 'true']);
  }
  return out;
}

function configSafe(file: string): boolean {
  if (!existsSync(file)) return true;
  const keys = configKeys(readFileSync(file, 'utf8'));
  return (
    keys !== null && keys.every(([k, v]) => ALLOWED[k]?.test(v) || ALLOWED_SECTIONS.test(k.replace(/\.[^.]*$/, '')))
  );
}

/** Variables that would point git at other folders, files or settings than the repository's own. */
const FOREIGN_ENV =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|CONFIG|NAMESPACE|COMMON_DIR|CEILING|REPLACE|GRAFT|NO_REPLACE|LITERAL|GLOB|NOGLOB|ICASE|REFLOG|AUTHOR|COMMITTER|EDITOR|SEQUENCE)/;

let userConfigSafe: boolean | undefined;
function userSafe(): boolean {
  if (userConfigSafe === undefined) {
    const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
    const configs = [join(homedir(), '.gitconfig'), join(xdg, 'git', 'config'), '/etc/gitconfig'];
    const others = [join(xdg, 'git', 'ignore'), join(xdg, 'git', 'attributes')];
    userConfigSafe = configs.every(configSafe) && others.every((f) => !existsSync(f));
  }
  if (!userConfigSafe) return false;
  return !Object.keys(process.env).some((k) => FOREIGN_ENV.test(k));
}

/** The repository's own config and info files say nothing that changes add or commit (hooks are checked apart). */
function repoSafe(gitDir: string): boolean {
  if (!configSafe(join(gitDir, 'config'))) return false;
  if (existsSync(join(gitDir, 'info', 'attributes')) || existsSync(join(gitDir, 'index.lock'))) return false;
  const exclude = join(gitDir, 'info', 'exclude');
  if (
    existsSync(exclude) &&
    readFileSync(exclude, 'utf8')
      .split('\n')
      .some((l) => l.trim() && !l.startsWith('#'))
  )
    return false;
  return true;
}

/** A hook git would run for a commit: a core.hooksPath, or a hook file in .git/hooks. */
function hasHooks(gitDir: string): boolean {
  if (/^\s*hookspath\s*=/im.test(readFileSync(join(gitDir, 'config'), 'utf8'))) return true;
  const hooks = join(gitDir, 'hooks');
  return existsSync(hooks) && readdirSync(hooks).some((f) => !f.endsWith('.sample'));
}

/** How often each function did the work itself: a test shows the fast path is taken, not always left to git. */
export const written = { staged: 0, committed: 0 };

// --- objects --------------------------------------------------------------------------------------------------

function writeObject(gitDir: string, type: string, body: Buffer): string {
  const data = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const sha = createHash('sha1').update(data).digest('hex');
  const dir = join(gitDir, 'objects', sha.slice(0, 2));
  const file = join(dir, sha.slice(2));
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `tmp_obj_${process.pid}_${sha.slice(2, 10)}`);
    writeFileSync(tmp, deflateSync(data), { mode: 0o444 });
    renameSync(tmp, file);
  }
  return sha;
}

/** The body of a loose object of this type, or null (packed, missing, another type). */
function readObject(gitDir: string, sha: string, type: string): Buffer | null {
  const file = join(gitDir, 'objects', sha.slice(0, 2), sha.slice(2));
  if (!existsSync(file)) return null;
  const data = inflateSync(readFileSync(file));
  const nul = data.indexOf(0);
  return data.subarray(0, nul).toString().startsWith(`${type} `) ? data.subarray(nul + 1) : null;
}

// --- the index ------------------------------------------------------------------------------------------------

interface Entry {
  path: Buffer;
  mode: number;
  sha: string;
  stat?: BigIntStats;
}

/** The entries of .git/index (none when there is no index), or null where it holds what this file does not write. */
function readIndex(gitDir: string): Entry[] | null {
  const file = join(gitDir, 'index');
  if (!existsSync(file)) return [];
  const buf = readFileSync(file);
  if (buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return null;
  const count = buf.readUInt32BE(8);
  const entries: Entry[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flags = buf.readUInt16BE(at + 60);
    if (flags & 0x4000 || (flags >> 12) & 3) return null; // extended flags (intent-to-add, skip-worktree) or a conflict
    const start = at + 62;
    const end = buf.indexOf(0, start);
    entries.push({
      path: Buffer.from(buf.subarray(start, end)),
      mode: buf.readUInt32BE(at + 24),
      sha: buf.toString('hex', at + 40, at + 60),
    });
    at += (62 + (end - start) + 8) & ~7;
  }
  // Extensions: optional ones (an upper-case signature: the cached tree, untracked cache) are dropped on rewrite as
  // git allows; a required one (split index, sparse) means this index is not for us.
  while (at < buf.length - 20) {
    const sig = buf[at]!;
    if (sig < 0x41 || sig > 0x5a) return null;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return entries;
}

function u32(n: bigint | number): number {
  return Number(BigInt(n) & 0xffffffffn);
}

function writeIndex(gitDir: string, entries: Entry[]): void {
  const parts: Buffer[] = [];
  const head = Buffer.alloc(12);
  head.write('DIRC', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(entries.length, 8);
  parts.push(head);
  for (const e of entries) {
    const s = e.stat!;
    const len = (62 + e.path.length + 8) & ~7;
    const b = Buffer.alloc(len);
    b.writeUInt32BE(u32(s.ctimeNs / 1_000_000_000n), 0);
    b.writeUInt32BE(u32(s.ctimeNs % 1_000_000_000n), 4);
    b.writeUInt32BE(u32(s.mtimeNs / 1_000_000_000n), 8);
    b.writeUInt32BE(u32(s.mtimeNs % 1_000_000_000n), 12);
    b.writeUInt32BE(u32(s.dev), 16);
    b.writeUInt32BE(u32(s.ino), 20);
    b.writeUInt32BE(e.mode, 24);
    b.writeUInt32BE(u32(s.uid), 28);
    b.writeUInt32BE(u32(s.gid), 32);
    b.writeUInt32BE(u32(s.size), 36);
    b.write(e.sha, 40, 'hex');
    b.writeUInt16BE(Math.min(e.path.length, 0xfff), 60);
    e.path.copy(b, 62);
    parts.push(b);
  }
  const body = Buffer.concat(parts);
  const lock = join(gitDir, 'index.lock');
  writeFileSync(lock, Buffer.concat([body, createHash('sha1').update(body).digest()]));
  renameSync(lock, join(gitDir, 'index'));
}

/**
 * `git add -A` in `dir`: the index becomes the working tree, every file's blob written. False, having changed
 * nothing, where git must do it (see the top of this file).
 */
export function stageAll(dir: string): boolean {
  const gitDir = join(dir, '.git');
  if (!userSafe() || !lstatSync(gitDir).isDirectory() || !repoSafe(gitDir) || readIndex(gitDir) === null) return false;
  const files: { path: string; abs: string; stat: BigIntStats }[] = [];
  const walk = (abs: string, prefix: string): boolean => {
    for (const name of readdirSync(abs)) {
      if (prefix === '' && name === '.git') continue;
      if (name === '.git' || name === '.gitignore' || name === '.gitattributes') return false;
      const path = join(abs, name);
      const stat = lstatSync(path, { bigint: true });
      if (stat.isDirectory()) {
        if (!walk(path, `${prefix}${name}/`)) return false;
      } else if (stat.isFile()) files.push({ path: `${prefix}${name}`, abs: path, stat });
      else return false;
    }
    return true;
  };
  if (!walk(dir, '')) return false;
  const entries: Entry[] = files.map((f) => ({
    path: Buffer.from(f.path),
    mode: f.stat.mode & 0o100n ? 0o100755 : 0o100644,
    sha: writeObject(gitDir, 'blob', readFileSync(f.abs)),
    stat: f.stat,
  }));
  entries.sort((a, b) => Buffer.compare(a.path, b.path));
  writeIndex(gitDir, entries);
  written.staged++;
  return true;
}

// --- commits --------------------------------------------------------------------------------------------------

/** The tree objects of the index entries; returns the root tree. */
function writeTrees(gitDir: string, entries: { name: Buffer; mode: number; sha: string }[]): string {
  const here: { name: Buffer; mode: string; sha: string }[] = [];
  const dirs = new Map<string, { name: Buffer; mode: number; sha: string }[]>();
  for (const e of entries) {
    const slash = e.name.indexOf(0x2f);
    if (slash < 0) here.push({ name: e.name, mode: e.mode.toString(8), sha: e.sha });
    else {
      const dir = e.name.subarray(0, slash).toString('latin1');
      const list = dirs.get(dir) ?? [];
      list.push({ ...e, name: e.name.subarray(slash + 1) });
      dirs.set(dir, list);
    }
  }
  for (const [dir, list] of dirs)
    here.push({ name: Buffer.from(dir, 'latin1'), mode: '40000', sha: writeTrees(gitDir, list) });
  // git's order: a folder sorts as if its name ended in '/'.
  const key = (e: { name: Buffer; mode: string }) =>
    e.mode === '40000' ? Buffer.concat([e.name, Buffer.from('/')]) : e.name;
  here.sort((a, b) => Buffer.compare(key(a), key(b)));
  return writeObject(
    gitDir,
    'tree',
    Buffer.concat(
      here.flatMap((e) => [Buffer.from(`${e.mode} `), e.name, Buffer.from([0]), Buffer.from(e.sha, 'hex')]),
    ),
  );
}

/** `git commit -F -`'s default clean-up of a message it does not open in an editor ("whitespace"). */
function cleanup(message: string): string {
  const lines = message.split('\n').map((l) => l.replace(/[ \t\v\f\r]+$/, ''));
  const out: string[] = [];
  for (const line of lines) {
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.length ? `${out.join('\n')}\n` : '';
}

export interface CommitIdentity {
  name: string;
  email: string;
  /** `<seconds> <+hhmm>`, as GIT_AUTHOR_DATE gives it. */
  date: string;
}

const NAME = /^[A-Za-z0-9](?:[^<>\n]*[A-Za-z0-9)])?$/;
const EMAIL = /^[A-Za-z0-9][^<>\s]*$/;

/**
 * `git commit -q -F -` of what the index holds, by these identities: returns the new commit, or null, having changed
 * nothing, where git must do it (see the top of this file; also an empty commit, which git refuses).
 */
export function commitIndex(
  dir: string,
  opts: { message: string; author: CommitIdentity; committer: CommitIdentity },
): string | null {
  const gitDir = join(dir, '.git');
  if (!userSafe() || !lstatSync(gitDir).isDirectory() || !repoSafe(gitDir) || hasHooks(gitDir)) return null;
  for (const busy of ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'sequencer', 'rebase-merge', 'rebase-apply'])
    if (existsSync(join(gitDir, busy))) return null;
  if (existsSync(join(gitDir, 'packed-refs'))) return null;
  for (const who of [opts.author, opts.committer])
    if (!NAME.test(who.name) || !EMAIL.test(who.email) || !/^\d+ [+-]\d{4}$/.test(who.date)) return null;
  const message = cleanup(opts.message);
  if (!message || /[\0\r]/.test(message)) return null;
  const ref = /^ref: (refs\/heads\/[^\s]+)\n$/.exec(readFileSync(join(gitDir, 'HEAD'), 'utf8'))?.[1];
  if (!ref) return null;
  const refFile = join(gitDir, ref);
  const parent = existsSync(refFile) ? readFileSync(refFile, 'utf8').trim() : null;
  if (parent !== null && !/^[0-9a-f]{40}$/.test(parent)) return null;
  const entries = readIndex(gitDir);
  if (entries === null || entries.length === 0) return null;
  const tree = writeTrees(
    gitDir,
    entries.map((e) => ({ name: e.path, mode: e.mode, sha: e.sha })),
  );
  if (parent !== null) {
    const body = readObject(gitDir, parent, 'commit');
    if (body === null) return null;
    if (body.toString('latin1', 5, 45) === tree) return null; // nothing to commit: git says so
  }
  const ident = (w: CommitIdentity) => `${w.name} <${w.email}> ${w.date}`;
  const text = [
    `tree ${tree}`,
    ...(parent ? [`parent ${parent}`] : []),
    `author ${ident(opts.author)}`,
    `committer ${ident(opts.committer)}`,
    '',
    message,
  ].join('\n');
  const sha = writeObject(gitDir, 'commit', Buffer.from(text));
  mkdirSync(join(refFile, '..'), { recursive: true });
  writeFileSync(`${refFile}.lock`, `${sha}\n`);
  renameSync(`${refFile}.lock`, refFile);
  const subject = message.slice(0, message.indexOf('\n')); // git's reflog names a commit by its first line
  const log = `${parent ?? '0'.repeat(40)} ${sha} ${ident(opts.committer)}\tcommit${parent ? '' : ' (initial)'}: ${subject}\n`;
  for (const name of ['HEAD', ref]) {
    const file = join(gitDir, 'logs', name);
    mkdirSync(join(file, '..'), { recursive: true });
    appendFileSync(file, log);
  }
  writeFileSync(join(gitDir, 'COMMIT_EDITMSG'), message);
  written.committed++;
  return sha;
}
