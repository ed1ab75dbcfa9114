// The agent-stage hook: Claude Code pipes one JSON payload per hook event into `validate-workflow claude-hook`.
// PreToolUse (Edit/Write/MultiEdit) denies an edit that would check a manual item, rewrite or empty a committed
// handoff, or check a task that has no handoff; Stop and PostToolUse (Bash) judge the working tree against HEAD,
// because `sed -i` or `git rm` never pass an Edit hook; SessionStart hands the agent the recovery view.
// This hook only catches mistakes early. The git hooks and CI are the gates, so every failure here fails open:
// exit 0, no decision, a note on stderr (Claude Code shows stderr of a successful hook only in its debug log).
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { CONFIG_FILE, configFromObject, loadConfig, type Config } from '../config/config.js';
import { classifier } from '../read/classify.js';
import { specsOf } from '../history/fold.js';
import { NOTHING_ELSE } from '../history/sight.js';
import { repositoryInfo, repositoryRoot, gitSync, trackedSymlinks } from '../shared/git.js';
import { RULE_IDS } from '../engine/catalog.js';
import type { Finding } from '../model/finding.js';
import type { Io } from './io.js';

/**
 * The engine's door for this hook (engine/agent-door.ts) and the recovery view (status.ts), loaded only once a
 * payload turns out to concern workflow files: most edits an agent makes are to other files, and Claude Code waits
 * for this hook before each one. One module each, its names taken by name where they are used, so no name can
 * stand for another module's.
 */
const agentDoor = () => import('../engine/agent-door.js');
const recoveryView = () => import('./status.js');

/** The fields of Claude Code's hook payload this hook reads (common fields plus the per-event ones). */
interface Payload {
  session_id?: unknown;
  cwd?: unknown;
  hook_event_name?: unknown;
  tool_name?: unknown;
  tool_input?: unknown;
  stop_hook_active?: unknown;
}

interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all: boolean;
}

/** Thrown for payloads that do not look like Claude Code's: reported on stderr, then the hook allows. */
class BadInput extends Error {}

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit']);

/**
 * Claude Code waits for a command hook up to its timeout (30 s for PreToolUse and 60 s for Stop as `init --claude`
 * installs them) and then lets the edit through unseen. The judging runs in a child process with a budget under
 * those; past it, the answer says the edit was not judged in time, never silence. `VALIDATE_WORKFLOW_HOOK_BUDGET_MS`
 * lowers the budget (tests); it can only make the hook give up sooner, and the git hooks judge the commit anyway.
 */
const BUDGET_MS: Record<'PreToolUse' | 'PostToolUse' | 'Stop', number> = {
  PreToolUse: 25_000,
  PostToolUse: 50_000,
  Stop: 50_000,
};

/** The raw payload, for the child that judges within the budget. */
let rawInput = '';

async function withinBudget(
  event: keyof typeof BUDGET_MS,
  what: string,
  io: Io,
  judge: () => Promise<number>,
): Promise<number> {
  // The CLI's own script, through the bin link npm installs (`node_modules/.bin/validate-workflow`).
  let entry = process.argv[1] ?? '';
  try {
    entry = realpathSync(entry);
  } catch {
    // No such file (an embedding host): judged in-process below.
  }
  // In the child itself, or run in-process (the API, the tests): judge here.
  if (io.env.VALIDATE_WORKFLOW_HOOK_CHILD === '1' || !/main\.[cm]?js$/.test(entry)) return judge();
  const asked = Number(io.env.VALIDATE_WORKFLOW_HOOK_BUDGET_MS);
  const budget = Number.isFinite(asked) && asked > 0 ? Math.min(asked, BUDGET_MS[event]) : BUDGET_MS[event];
  const started = Date.now();
  const res = spawnSync(process.execPath, [entry, 'claude-hook'], {
    input: rawInput,
    encoding: 'utf8',
    timeout: budget,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...io.env, VALIDATE_WORKFLOW_HOOK_CHILD: '1' },
  });
  if (res.error || res.signal) {
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    io.stdout(
      `${JSON.stringify({ systemMessage: `validate-workflow: ${what} was not judged in time (${secs} s, the hook's budget is ${budget / 1000} s); the git hooks will judge the commit.` })}\n`,
    );
    return 0;
  }
  io.stdout(res.stdout ?? '');
  io.stderr(res.stderr ?? '');
  return res.status ?? 0;
}

export async function claudeHook(input: string, io: Io): Promise<number> {
  rawInput = input;
  try {
    let payload: Payload;
    try {
      payload = JSON.parse(input) as Payload;
    } catch {
      throw new BadInput('stdin is not JSON');
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload))
      throw new BadInput('stdin is not a JSON object');
    const event = payload.hook_event_name;
    if (typeof event !== 'string') throw new BadInput('hook_event_name is missing');
    const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : (io.env.CLAUDE_PROJECT_DIR ?? io.cwd);
    // An edit names its file: the repository that holds the file judges it, wherever the session started (a cwd
    // outside the repository with an absolute path into it is the same edit).
    const target = event === 'PreToolUse' ? editedFile(payload, cwd) : null;
    const root =
      (target ? repositoryRoot(existingDir(dirname(realish(target)))) : null) ??
      (existsSync(cwd) ? repositoryRoot(cwd) : null);
    // Outside a git repository there is no HEAD to judge against and no workflow to recover.
    if (!root) return 0;
    const session = typeof payload.session_id === 'string' ? payload.session_id : '';
    // Awaited, so a failure inside a door lands in the catch below and fails open.
    switch (event) {
      case 'PreToolUse':
        return await preToolUse(root, cwd, payload, io);
      case 'PostToolUse':
        // Edits through Edit/Write/MultiEdit were judged before they ran; Bash is the way around that.
        if (payload.tool_name !== 'Bash') return 0;
        return await withinBudget('PostToolUse', 'what that command changed', io, () =>
          treeCheck(root, session, 'post', false, io),
        );
      case 'Stop':
      case 'SubagentStop':
        return await withinBudget('Stop', 'the working tree', io, () =>
          treeCheck(root, session, 'stop', payload.stop_hook_active === true, io),
        );
      case 'SessionStart':
        return await sessionStart(root, session, io);
      default:
        throw new BadInput(`unexpected hook_event_name "${event}"`);
    }
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(
      `validate-workflow claude-hook: ${err instanceof BadInput ? 'ignored input' : 'internal error'}: ${why}; allowing (the git hooks still judge the commit)\n`,
    );
    if (!(err instanceof BadInput) && io.env.VALIDATE_WORKFLOW_DEBUG && err instanceof Error)
      io.stderr(`${err.stack}\n`);
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// PreToolUse

function str(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new BadInput(`tool_input.${what} is not a string`);
  return value;
}

function editsOf(tool: string, input: Record<string, unknown>): EditSpec[] | { content: string } {
  if (tool === 'Write') return { content: str(input.content, 'content') };
  const one = (e: unknown, where: string): EditSpec => {
    if (!e || typeof e !== 'object') throw new BadInput(`${where} is not an object`);
    const r = e as Record<string, unknown>;
    return {
      old_string: str(r.old_string, 'old_string'),
      new_string: str(r.new_string, 'new_string'),
      replace_all: r.replace_all === true,
    };
  };
  if (tool === 'Edit') return [one(input, 'tool_input')];
  if (!Array.isArray(input.edits)) throw new BadInput('tool_input.edits is not an array');
  return input.edits.map((e, i) => one(e, `tool_input.edits[${i}]`));
}

/**
 * The file's text after the edits, as the tools apply them: in order, each on the result of the previous one, the
 * first occurrence unless replace_all. Null when an edit cannot apply (the tool itself will fail, nothing to judge).
 * Plain slicing, not String.replace, so `$&` in a new_string stays literal.
 */
export function applyEdits(text: string | null, edits: EditSpec[]): string | null {
  let cur = text;
  for (const e of edits) {
    if (cur === null) {
      // Edit with an empty old_string creates the file.
      if (e.old_string !== '') return null;
      cur = e.new_string;
      continue;
    }
    if (e.old_string === '') {
      if (cur !== '') return null;
      cur = e.new_string;
      continue;
    }
    const at = cur.indexOf(e.old_string);
    if (at < 0) return null;
    cur = e.replace_all
      ? cur.split(e.old_string).join(e.new_string)
      : cur.slice(0, at) + e.new_string + cur.slice(at + e.old_string.length);
  }
  return cur;
}

function realish(path: string): string {
  // The deepest part of the path that exists, resolved: a new file's folder may not exist yet, and tmp or home
  // folders are often reached through a symbolic link (macOS /var -> /private/var).
  let head = path;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail.reverse());
    } catch {
      const up = dirname(head);
      if (up === head) return path;
      tail.push(head.slice(up.length).replace(/^[/\\]/, ''));
      head = up;
    }
  }
}

/** Repository-relative path of a tool's file_path, or null when it lies outside the repository. */
function repoPath(root: string, cwd: string, filePath: string): string | null {
  const abs = isAbsolute(filePath) ? filePath : resolve(cwd, filePath);
  for (const candidate of [abs, realish(abs)]) {
    const rel = relative(root, candidate);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return null;
}

function readDisk(root: string, rel: string): Buffer | null {
  try {
    return readFileSync(join(root, rel));
  } catch {
    return null;
  }
}

/** HEAD's config (its file, or package.json's key), or null when HEAD has none; a broken one counts as none. */
function committedConfig(root: string): Config | null {
  try {
    const own = gitSync(root, ['show', `HEAD:${CONFIG_FILE}`]);
    if (own.ok) return configFromObject(JSON.parse(own.out), CONFIG_FILE, RULE_IDS);
    const pkg = gitSync(root, ['show', 'HEAD:package.json']);
    if (pkg.ok) {
      const data = JSON.parse(pkg.out) as Record<string, unknown>;
      if (data && typeof data === 'object' && 'validateWorkflow' in data)
        return configFromObject(data.validateWorkflow, 'package.json', RULE_IDS);
    }
  } catch {
    // Unreadable: the engine's own reading (headSettings) decides below.
  }
  return null;
}

/** The absolute path of the file an Edit, Write or MultiEdit names, or null. */
function editedFile(payload: Payload, cwd: string): string | null {
  const input = payload.tool_input;
  if (!input || typeof input !== 'object') return null;
  const path = (input as Record<string, unknown>).file_path;
  if (typeof path !== 'string' || path === '') return null;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/**
 * A file outside the repository that is a hard link to one of its workflow files: the same bytes under another
 * name, so the edit is an edit of that workflow file.
 */
function hardLinkTarget(root: string, abs: string, specs: string[], isRead: (path: string) => boolean): string | null {
  let st;
  try {
    st = statSync(abs);
  } catch {
    return null;
  }
  if (st.nlink < 2) return null;
  const same: string[] = [];
  for (const p of gitSync(root, ['ls-files', '-z', '--', ...specs]).out.split('\0')) {
    if (!p) continue;
    try {
      const other = statSync(join(root, p));
      if (other.ino === st.ino && other.dev === st.dev) same.push(p);
    } catch {
      // A tracked file missing from the working tree is no link target.
    }
  }
  // `specs` may list the whole tree: a workflow or trust file among them first.
  return same.find(isRead) ?? same[0] ?? null;
}

/**
 * The tracked workflow file that is a symbolic link to this path, or null: its target is the same file. Of several
 * links to it, one `isRead` takes (a workflow or trust file) before any other: `specs` may list the whole tree.
 */
function symlinkTo(root: string, abs: string, specs: string[], isRead: (path: string) => boolean): string | null {
  const target = realish(abs);
  const to = trackedSymlinks(root, specs).filter((p) => realish(join(root, p)) === target);
  return to.find(isRead) ?? to[0] ?? null;
}

function existingDir(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

const line = (f: Finding) => `- ${f.message} ${f.fix ?? ''} (${f.ruleId})`.replace(/ +\(/, ' (');

async function preToolUse(root: string, cwd: string, payload: Payload, io: Io): Promise<number> {
  const tool = payload.tool_name;
  if (typeof tool !== 'string' || !EDIT_TOOLS.has(tool)) return 0;
  const input = payload.tool_input;
  if (!input || typeof input !== 'object') throw new BadInput('tool_input is missing');
  const rec = input as Record<string, unknown>;
  const filePath = str(rec.file_path, 'file_path');
  // The committed settings decide what is a workflow file: a working-tree config that moved the globs away from a
  // plan must not let an edit of that plan pass unjudged.
  const loose = committedConfig(root) ?? loadConfig(root, undefined, RULE_IDS);
  const abs = isAbsolute(filePath) ? filePath : resolve(cwd, filePath);
  // The doors' own pathspecs (none, the whole tree, where a glob names no folder: `**/plans/*.md`).
  const specs = specsOf(loose, NOTHING_ELSE);
  const direct = repoPath(root, cwd, filePath);
  // Only workflow, trust and pack files concern the engine.
  const concerns = (path: string) => {
    const kind = classifier(loose.paths)(path);
    return (
      (kind !== null && kind.kind !== 'searchable') ||
      path === CONFIG_FILE ||
      path === 'validate-workflow.baseline.json' ||
      path === 'package.json' ||
      mayBePackFile(path)
    );
  };
  // A workflow file committed as a symbolic link is edited through its target: the edit is the link's.
  const rel =
    (direct !== null && classifier(loose.paths)(direct) === null ? symlinkTo(root, abs, specs, concerns) : null) ??
    direct ??
    hardLinkTarget(root, abs, specs, concerns);
  if (rel === null) return 0;
  const spec = editsOf(tool, rec);
  // Cheap test first.
  if (!concerns(rel)) return 0;
  const nowBytes = readDisk(root, rel);
  const afterText =
    'content' in spec ? spec.content : applyEdits(nowBytes === null ? null : nowBytes.toString('utf8'), spec);
  if (afterText === null || (nowBytes !== null && afterText === nowBytes.toString('utf8'))) return 0;
  return withinBudget('PreToolUse', `this ${tool} of ${rel}`, io, () => judgeEdit(root, rel, afterText, tool, io));
}

async function judgeEdit(root: string, rel: string, afterText: string, tool: string, io: Io): Promise<number> {
  const { judgeAgentEdit } = await agentDoor();
  const denied = await judgeAgentEdit(root, rel, afterText);
  if (denied.length === 0) return 0;
  const reason = [
    `validate-workflow refused this ${tool} of ${rel}:`,
    ...denied.map(line),
    'Make the edit without these changes; the git hooks would refuse a commit with them.',
  ].join('\n');
  io.stdout(
    `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`,
  );
  return 0;
}

/** Pack files live in folders of their own; the engine decides, this only avoids loading it for ordinary files. */
function mayBePackFile(rel: string): boolean {
  return (
    rel.startsWith('.workflow/') || rel.startsWith('.soong-agent/') || rel.endsWith('.jsonl') || rel.endsWith('.ndjson')
  );
}

/**
 * Where the session's own commits begin: HEAD as SessionStart recorded it, else the upstream branch (commits not yet
 * pushed); null when HEAD is still there, or nothing says where the session began.
 */
function sessionBase(root: string, recorded: string | undefined): string | null {
  const head = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  if (!head.ok) return null;
  const start =
    recorded && gitSync(root, ['cat-file', '-e', `${recorded}^{commit}`]).ok
      ? recorded
      : gitSync(root, ['rev-parse', '--verify', '-q', '@{upstream}']).out.trim() || null;
  return start && start !== head.out.trim() ? start : null;
}

interface HookState {
  [session: string]: { stop?: string; post?: string; at: number; head?: string };
}

function stateFile(root: string): string | null {
  // The common git folder as the hook already asked git for it (repositoryInfo answers once per folder).
  const info = repositoryInfo(root);
  return info ? join(info.commonDir, 'validate-workflow', 'claude-hook.json') : null;
}

function readState(file: string | null): HookState {
  if (!file) return {};
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as HookState) : {};
  } catch {
    return {};
  }
}

function writeState(file: string | null, state: HookState): void {
  if (!file) return;
  // Sessions end without telling anyone: forget the ones not heard from in a week, so the file stays small.
  const week = Date.now() - 7 * 24 * 3600 * 1000;
  for (const [k, v] of Object.entries(state)) if (!v || typeof v.at !== 'number' || v.at < week) delete state[k];
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(state)}\n`);
  } catch {
    // A read-only .git only costs the loop guard its memory; Claude Code caps repeated Stop blocks itself.
  }
}

/**
 * Stop: block while a violation remains. When the agent was already sent back once (`stop_hook_active`) and the
 * violations are exactly the ones it was sent back for, it could not or would not fix them: let it stop, tell the
 * user, and leave the rest to the git hooks instead of looping. PostToolUse: report after a Bash command only when
 * the set of violations changed, so unrelated commands are not answered with the same complaint each time.
 */
async function treeCheck(
  root: string,
  session: string,
  door: 'stop' | 'post',
  stopHookActive: boolean,
  io: Io,
): Promise<number> {
  const file = stateFile(root);
  const state = readState(file);
  const mine = state[session] ?? { at: Date.now() };
  const { judgeAgentTree, findingKey } = await agentDoor();
  const found = await judgeAgentTree(root, sessionBase(root, mine.head));
  const signature = found.length
    ? createHash('sha256').update(found.map(findingKey).sort().join('\n')).digest('hex').slice(0, 16)
    : undefined;
  const last = mine[door];
  mine[door] = signature;
  mine.at = Date.now();
  state[session] = mine;
  if (signature !== last) writeState(file, state);
  if (!signature) return 0;
  const list = found.map(line);
  if (door === 'post') {
    if (signature === last) return 0;
    const reason = [
      'validate-workflow: that command left workflow files the git hooks will refuse to commit:',
      ...list,
    ].join('\n');
    io.stdout(`${JSON.stringify({ decision: 'block', reason })}\n`);
    return 0;
  }
  if (stopHookActive && signature === last) {
    const message = `validate-workflow: workflow changes the git hooks will refuse are still in the working tree:\n${list.join('\n')}`;
    io.stdout(`${JSON.stringify({ systemMessage: message })}\n`);
    return 0;
  }
  const reason = [
    'validate-workflow: before you stop, undo these workflow changes; the git hooks will refuse to commit them:',
    ...list,
  ].join('\n');
  io.stdout(`${JSON.stringify({ decision: 'block', reason })}\n`);
  return 0;
}

// ---------------------------------------------------------------------------------------------------------------
// SessionStart: the recovery view of `validate-workflow status`

const REMINDER =
  'Rules the git hooks enforce: manual verification items are checked only by a human (`npx validate-workflow confirm <plan> --phase N`); in orchestration mode write the task handoff before checking the task; committed handoffs are never rewritten or deleted.';

async function sessionStart(root: string, claudeSession: string, io: Io): Promise<number> {
  // Where this session's commits begin: PostToolUse and Stop judge the commits made since (a commit made inside a
  // Bash call leaves nothing in the working tree to judge).
  const head = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  if (head.ok && claudeSession !== '') {
    const file = stateFile(root);
    const state = readState(file);
    // Recorded once per session: a resumed or compacted session keeps the start it had.
    if (!state[claudeSession]?.head) {
      state[claudeSession] = { ...(state[claudeSession] ?? {}), at: Date.now(), head: head.out.trim() };
      writeState(file, state);
    }
  }
  const config = loadConfig(root, undefined, RULE_IDS);
  const { renderStatus, sessionNamed, statusData } = await recoveryView();
  // Claude Code's session id names the workflow session only when a ledger or a handoff folder was named after it;
  // otherwise `status` picks the most recently modified active ledger.
  const named = claudeSession !== '' && sessionNamed(root, config, claudeSession);
  let data: Awaited<ReturnType<typeof statusData>>;
  try {
    data = await statusData(root, named ? claudeSession : undefined, config);
  } catch {
    // A folder named after the session that holds no readable handoff: recover the latest active session instead.
    data = await statusData(root, undefined, config);
  }
  // Nothing to recover (no active session, nothing waiting): no context for the agent to read past.
  if (data.session === null && data.manualChecks.length === 0 && data.blocked.length === 0) return 0;
  const additionalContext = `validate-workflow recovery view (the thoughts/ files on disk):\n\n${renderStatus(data)}\n${REMINDER}\n`;
  io.stdout(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } })}\n`);
  return 0;
}

// --- the command (imports here, at the end, keep this block apart from the hook's logic above) ---------------------
import { defineCommand, readStdin } from './command.js';

export const command = defineCommand({
  name: 'claude-hook',
  summary: "the Claude Code hook: reads the hook's JSON payload on standard input (see docs/claude-hook.md)",
  usage:
    'Usage: validate-workflow claude-hook < payload.json\n\nRun by Claude Code (init --claude installs it); see docs/claude-hook.md.\n',
  options: {},
  action: async (_parsed, io) => claudeHook(await readStdin(), io),
});
