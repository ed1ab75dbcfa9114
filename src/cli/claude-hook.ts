// The agent-stage hook: Claude Code pipes one JSON payload per hook event into `validate-workflow claude-hook`.
// PreToolUse (Edit/Write/MultiEdit) denies an edit that would check a manual item, rewrite or empty a committed
// handoff, or check a task that has no handoff; Stop and PostToolUse (Bash) judge the working tree against HEAD,
// because `sed -i` or `git rm` never pass an Edit hook; SessionStart hands the agent the recovery view.
// This hook only catches mistakes early. The git hooks and CI are the gates, so every failure here fails open:
// exit 0, no decision, a note on stderr (Claude Code shows stderr of a successful hook only in its debug log).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { loadConfig, type Config } from '../config/config.js';
import { classifier, pathspecs, type Classifier } from '../read/classify.js';
import { discover, repositoryRoot, type Discovered } from '../read/discover.js';
import { ledgerSessionFromName } from '../read/paths.js';
import { fileEvents } from '../history/events.js';
import { gitSync, readBlobs } from '../shared/git.js';
import { parseRaw } from '../history/log.js';
import { severityOf, runSnapshot } from '../engine/snapshot.js';
import { RULES, RULE_IDS } from '../engine/catalog.js';
import { effectiveMode } from '../model/queries.js';
import type { Event } from '../model/history.js';
import type { WorkflowFile, Workspace } from '../model/types.js';
import type { Rule } from '../rules/types.js';
import type { Io } from './io.js';

/**
 * The Markdown parser and the history engine, loaded only once a payload turns out to concern workflow files: most
 * edits an agent makes are to other files, and Claude Code waits for this hook before each one.
 */
async function loadEngine() {
  const [workspace, engine, snapshot, status] = await Promise.all([
    import('../read/workspace.js'),
    import('../history/engine.js'),
    import('../history/snapshot.js'),
    import('./status.js'),
  ]);
  return { ...workspace, ...engine, ...snapshot, ...status };
}
type Engine = Awaited<ReturnType<typeof loadEngine>>;

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

/** Something the git hooks would refuse, with what to do about it, for the edit door and for the tree door. */
interface Violation {
  /** Identity across two judgements (what the edit adds, what a repeated Stop already said). */
  key: string;
  /** The rule the git hooks judge it by, shown so `validate-workflow explain <id>` can be asked. */
  ruleId: string;
  what: string;
  /** The fix when refusing an edit (nothing is on disk yet) and when the change is already in the working tree. */
  fixEdit: string;
  fixTree: string;
}

/** Thrown for payloads that do not look like Claude Code's: reported on stderr, then the hook allows. */
class BadInput extends Error {}

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit']);
const ruleById = (id: string): Rule => RULES.find((r) => r.meta.id === id)!;

export async function claudeHook(input: string, io: Io): Promise<number> {
  try {
    let payload: Payload;
    try {
      payload = JSON.parse(input) as Payload;
    } catch {
      throw new BadInput('stdin is not JSON');
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new BadInput('stdin is not a JSON object');
    const event = payload.hook_event_name;
    if (typeof event !== 'string') throw new BadInput('hook_event_name is missing');
    const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : (io.env.CLAUDE_PROJECT_DIR ?? io.cwd);
    const root = existsSync(cwd) ? repositoryRoot(cwd) : null;
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
        return await treeCheck(root, session, 'post', false, io);
      case 'Stop':
      case 'SubagentStop':
        return await treeCheck(root, session, 'stop', payload.stop_hook_active === true, io);
      case 'SessionStart':
        return await sessionStart(root, session, io);
      default:
        throw new BadInput(`unexpected hook_event_name "${event}"`);
    }
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(`validate-workflow claude-hook: ${err instanceof BadInput ? 'ignored input' : 'internal error'}: ${why}; allowing (the git hooks still judge the commit)\n`);
    if (!(err instanceof BadInput) && io.env.VALIDATE_WORKFLOW_DEBUG && err instanceof Error) io.stderr(`${err.stack}\n`);
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
    return { old_string: str(r.old_string, 'old_string'), new_string: str(r.new_string, 'new_string'), replace_all: r.replace_all === true };
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
    cur = e.replace_all ? cur.split(e.old_string).join(e.new_string) : cur.slice(0, at) + e.new_string + cur.slice(at + e.old_string.length);
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

/**
 * The committed version of a file: from the repository that holds it, which is not the project's own when
 * `thoughts/` links into a separate thoughts repository (HumanLayer's layout).
 */
function headBytes(root: string, rel: string): Buffer | null {
  let repo = root;
  let path = rel;
  const real = realish(join(root, rel));
  const realRoot = realish(root);
  if (!real.startsWith(realRoot + sep)) {
    const other = repositoryRoot(existingDir(dirname(real)));
    if (!other) return null;
    repo = other;
    path = relative(realish(other), real).split(sep).join('/');
  }
  const res = spawnSync('git', ['cat-file', 'blob', `HEAD:${path}`], { cwd: repo, maxBuffer: 1 << 30 });
  return res.status === 0 ? (res.stdout as Buffer) : null;
}

function existingDir(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

function model(h: Engine, item: Discovered, bytes: Buffer | null, config: Config): WorkflowFile | null {
  return bytes === null ? null : h.readBytes(item, bytes, config.maxFileBytes);
}

async function preToolUse(root: string, cwd: string, payload: Payload, io: Io): Promise<number> {
  const tool = payload.tool_name;
  if (typeof tool !== 'string' || !EDIT_TOOLS.has(tool)) return 0;
  const input = payload.tool_input;
  if (!input || typeof input !== 'object') throw new BadInput('tool_input is missing');
  const rec = input as Record<string, unknown>;
  const rel = repoPath(root, cwd, str(rec.file_path, 'file_path'));
  if (rel === null) return 0;
  const config = loadConfig(root, undefined, RULE_IDS);
  const classify = classifier(config.paths);
  const item = classify(rel);
  if (!item || item.kind === 'searchable') return 0;
  const spec = editsOf(tool, rec);
  const nowBytes = readDisk(root, rel);
  const afterText = 'content' in spec ? spec.content : applyEdits(nowBytes === null ? null : nowBytes.toString('utf8'), spec);
  if (afterText === null || (nowBytes !== null && afterText === nowBytes.toString('utf8'))) return 0;

  const h = await loadEngine();
  const trust = trustConfig(h, root, config);
  const head = model(h, item, headBytes(root, rel), config);
  const now = model(h, item, nowBytes, config);
  const after = model(h, item, Buffer.from(afterText, 'utf8'), config)!;
  // Only what this edit adds is refused: a violation already in the working tree (made through Bash, or by a
  // human) is the Stop check's business, and refusing every later edit of the file for it would wedge the agent.
  const ws = lazyWorkspace(h, root, config);
  const already = new Set(judge(rel, head, now, trust, () => ws(rel, now)).map((v) => v.key));
  const added = judge(rel, head, after, trust, () => ws(rel, after)).filter((v) => !already.has(v.key));
  if (added.length === 0) return 0;
  const reason = [
    `validate-workflow refused this ${tool} of ${rel}:`,
    ...added.map((v) => `- ${v.what} ${v.fixEdit} (${v.ruleId})`),
    'Make the edit without these changes; the git hooks would refuse a commit with them.',
  ].join('\n');
  io.stdout(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`);
  return 0;
}

/**
 * The workspace on disk, read once when a task check-off needs it, with one file replaced by the version being
 * judged (null: absent).
 */
function lazyWorkspace(h: Engine, root: string, config: Config): (path: string, replacement: WorkflowFile | null) => Workspace {
  let files: Map<string, WorkflowFile> | null = null;
  const strays: Discovered[] = [];
  return (path, replacement) => {
    if (!files) {
      files = new Map();
      for (const d of discover(root, config, true)) {
        if (d.kind === 'searchable') strays.push(d);
        else files.set(d.path, h.readOne(root, d, config.maxFileBytes));
      }
    }
    const list = [...files.values()].filter((f) => f.path !== path);
    if (replacement) list.push(replacement);
    return h.buildWorkspace(root, list, strays);
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Judging one file's change against HEAD

/** Severities and presets as HEAD holds them, like the engine: a change cannot loosen the rules that judge it. */
function trustConfig(h: Engine, root: string, config: Config): Config {
  const store = h.newStore(root, config);
  const hasHead = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).ok;
  return new h.Snapshot(hasHead ? h.filesAt(root, 'HEAD', config, store.classify) : new Map(), store).config(RULE_IDS);
}

function on(trust: Config, ruleId: string): boolean {
  return severityOf(ruleById(ruleId), trust) !== 'off';
}

/** Sessions whose ledger names this plan, for the `new handoff --session` hint. */
function sessionOf(ws: Workspace, plan: string): string | null {
  const l = ws.ledgers.find((x) => ws.links.get(x.path) === plan && x.session);
  return l?.session ?? null;
}

/**
 * What a change of one file from its HEAD version does that the git hooks refuse: manual items checked, a committed
 * handoff deleted, emptied or with its frontmatter rewritten, and (orchestration mode, per handoff/missing) tasks
 * checked with no handoff in the workspace.
 */
function judge(path: string, head: WorkflowFile | null, now: WorkflowFile | null, trust: Config, workspace: () => Workspace): Violation[] {
  const out: Violation[] = [];
  if (head?.kind === 'handoff' && head.readable && now && !now.readable && on(trust, 'history/handoff-deleted')) {
    out.push({
      key: `emptied|${path}`,
      ruleId: 'history/handoff-deleted',
      what: `The committed handoff ${path} is left empty or unreadable.`,
      fixEdit: 'A committed handoff stays as it is; to add something, append it to its body.',
      fixTree: `Restore it: \`git restore --source=HEAD --staged --worktree -- ${path}\`.`,
    });
    return out;
  }
  const events: Event[] = fileEvents(path, head, now, null);
  const completed: Extract<Event, { type: 'task-completed' }>[] = [];
  for (const e of events) {
    if (e.type === 'item-checked' && e.kind === 'manual' && e.checked && on(trust, 'history/manual-confirmation')) {
      out.push({
        key: `manual|${e.file}|${e.phase}|${e.text}`,
        ruleId: 'history/manual-confirmation',
        what: `The manual verification item "${e.text}" (Phase ${e.phase}) of ${e.file} is checked.`,
        fixEdit: `Manual items are checked by a human, never by an agent: leave it unchecked and tell the user Phase ${e.phase} is ready for manual verification (they confirm with \`npx validate-workflow confirm ${e.file} --phase ${e.phase}\`).`,
        fixTree: `Uncheck it again, and tell the user Phase ${e.phase} is ready for manual verification (they confirm with \`npx validate-workflow confirm ${e.file} --phase ${e.phase}\`).`,
      });
    } else if (e.type === 'handoff-deleted' && on(trust, 'history/handoff-deleted')) {
      out.push({
        key: `deleted|${e.file}`,
        ruleId: 'history/handoff-deleted',
        what: `The committed handoff ${e.file} is deleted or moved.`,
        fixEdit: 'Committed handoffs stay at their path.',
        fixTree: `Restore it at its path: \`git restore --source=HEAD --staged --worktree -- ${e.file}\`.`,
      });
    } else if (e.type === 'handoff-frontmatter-changed' && on(trust, 'history/handoff-rewritten')) {
      for (const k of e.keys) {
        out.push({
          key: `rewritten|${e.file}|${k}`,
          ruleId: 'history/handoff-rewritten',
          what: `The frontmatter key \`${k}\` of the committed handoff ${e.file} is changed.`,
          fixEdit: 'A committed handoff keeps its frontmatter: record what changed in the next handoff, or append a note to this one\'s body.',
          fixTree: `Put the frontmatter back as committed (\`git show HEAD:${e.file}\`); record what changed in the next handoff, or in a note appended to this one's body.`,
        });
      }
    } else if (e.type === 'task-completed' && e.completed) completed.push(e);
  }
  if (completed.length && now?.kind === 'plan' && effectiveMode(now) === 'orchestration' && on(trust, 'handoff/missing')) {
    const ws = workspace();
    // The rule itself decides (linking, mode, inline disables); this only keeps the tasks the change checked.
    const missing = runSnapshot(ws, [ruleById('handoff/missing')], trust, RULE_IDS, new Set([path])).filter((f) => f.severity !== 'info');
    const session = sessionOf(ws, path);
    for (const e of completed) {
      if (!missing.some((f) => f.line === e.line)) continue;
      out.push({
        key: `missing|${e.file}|${e.task}`,
        ruleId: 'handoff/missing',
        what: `Task ${e.task} of ${e.file} is checked complete, but no task handoff covers it (the plan is in orchestration mode).`,
        fixEdit: `Write the task handoff first (\`npx validate-workflow new handoff --session ${session ?? '<session>'}\`), then check the task.`,
        fixTree: `Write the task handoff (\`npx validate-workflow new handoff --session ${session ?? '<session>'}\`), or uncheck the task.`,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Stop and PostToolUse: the working tree against HEAD

/** Workflow files whose working-tree content differs from HEAD (untracked ones included), with their HEAD blobs. */
function changedFiles(root: string, config: Config, classify: Classifier): { path: string; item: Discovered; oldBlob: string | null; deleted: boolean }[] {
  const specs = pathspecs(config.paths);
  if (specs.length === 0) return [];
  const hasHead = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).ok;
  const out: { path: string; item: Discovered; oldBlob: string | null; deleted: boolean }[] = [];
  const add = (path: string, oldBlob: string | null, deleted: boolean) => {
    const item = classify(path);
    if (item && item.kind !== 'searchable') out.push({ path, item, oldBlob, deleted });
  };
  if (hasHead) {
    const raw = gitSync(root, ['diff', '--raw', '-z', '--no-abbrev', '--no-renames', 'HEAD', '--', ...specs]);
    for (const c of parseRaw(raw.out)) add(c.path, c.oldBlob, c.status === 'D');
  } else {
    for (const p of gitSync(root, ['ls-files', '-z', '--', ...specs]).out.split('\0')) if (p) add(p, null, false);
  }
  for (const p of gitSync(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', ...specs]).out.split('\0')) if (p) add(p, null, false);
  return out;
}

async function treeViolations(root: string): Promise<Violation[]> {
  const config = loadConfig(root, undefined, RULE_IDS);
  const classify = classifier(config.paths);
  const changed = changedFiles(root, config, classify);
  if (changed.length === 0) return [];
  const h = await loadEngine();
  const trust = trustConfig(h, root, config);
  const blobs = readBlobs(root, changed.flatMap((c) => (c.oldBlob ? [c.oldBlob] : [])));
  let ws: Workspace | null = null;
  const workspace = () => (ws ??= lazyWorkspace(h, root, config)('', null));
  const out: Violation[] = [];
  for (const c of changed) {
    const head = c.oldBlob ? model(h, c.item, blobs.get(c.oldBlob) ?? null, config) : null;
    const now = c.deleted ? null : model(h, c.item, readDisk(root, c.path), config);
    out.push(...judge(c.path, head, now, trust, workspace));
  }
  return out;
}

interface HookState {
  [session: string]: { stop?: string; post?: string; at: number };
}

function stateFile(root: string): string | null {
  const res = gitSync(root, ['rev-parse', '--git-common-dir']);
  return res.ok ? join(resolve(root, res.out.trim()), 'validate-workflow', 'claude-hook.json') : null;
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
async function treeCheck(root: string, session: string, door: 'stop' | 'post', stopHookActive: boolean, io: Io): Promise<number> {
  const found = await treeViolations(root);
  const file = stateFile(root);
  const state = readState(file);
  const mine = state[session] ?? { at: Date.now() };
  const signature = found.length ? createHash('sha256').update(found.map((v) => v.key).sort().join('\n')).digest('hex').slice(0, 16) : undefined;
  const last = mine[door];
  mine[door] = signature;
  mine.at = Date.now();
  state[session] = mine;
  if (signature !== last) writeState(file, state);
  if (!signature) return 0;
  const list = found.map((v) => `- ${v.what} ${v.fixTree} (${v.ruleId})`);
  if (door === 'post') {
    if (signature === last) return 0;
    const reason = ['validate-workflow: that command left workflow files the git hooks will refuse to commit:', ...list].join('\n');
    io.stdout(`${JSON.stringify({ decision: 'block', reason })}\n`);
    return 0;
  }
  if (stopHookActive && signature === last) {
    const message = `validate-workflow: workflow changes the git hooks will refuse are still in the working tree:\n${list.join('\n')}`;
    io.stdout(`${JSON.stringify({ systemMessage: message })}\n`);
    return 0;
  }
  const reason = ['validate-workflow: before you stop, undo these workflow changes; the git hooks will refuse to commit them:', ...list].join('\n');
  io.stdout(`${JSON.stringify({ decision: 'block', reason })}\n`);
  return 0;
}

// ---------------------------------------------------------------------------------------------------------------
// SessionStart: the recovery view of `validate-workflow status`

const REMINDER =
  'Rules the git hooks enforce: manual verification items are checked only by a human (`npx validate-workflow confirm <plan> --phase N`); in orchestration mode write the task handoff before checking the task; committed handoffs are never rewritten or deleted.';

async function sessionStart(root: string, claudeSession: string, io: Io): Promise<number> {
  const config = loadConfig(root, undefined, RULE_IDS);
  // Claude Code's session id names the workflow session only when a ledger or a handoff folder was named after it;
  // otherwise `status` picks the most recently modified active ledger.
  const named =
    claudeSession !== '' && discover(root, config, true).some((d) => (d.kind === 'ledger' ? ledgerSessionFromName(d.path) === claudeSession : d.kind === 'handoff' && d.path.split('/').slice(0, -1).includes(claudeSession)));
  const h = await loadEngine();
  let data: ReturnType<Engine['statusData']>;
  try {
    data = h.statusData(root, named ? claudeSession : undefined, config);
  } catch {
    // A folder named after the session that holds no readable handoff: recover the latest active session instead.
    data = h.statusData(root, undefined, config);
  }
  // Nothing to recover (no active session, nothing waiting): no context for the agent to read past.
  if (data.session === null && data.manualChecks.length === 0 && data.blocked.length === 0) return 0;
  const additionalContext = `validate-workflow recovery view (the thoughts/ files on disk):\n\n${h.renderStatus(data)}\n${REMINDER}\n`;
  io.stdout(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } })}\n`);
  return 0;
}
