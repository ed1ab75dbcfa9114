// `validate-workflow confirm <plan> --phase N`: the human's way to check off manual verification items (convention
// section 6). It shows the phase's checklist in the seed's "Ready for Manual Verification" form, asks for each item
// on the terminal, and commits only the confirmed checkboxes with a `Confirmed-by:` trailer and the
// `Confirmed-items:` digest of exactly those items, which is what history/manual-confirmation accepts. Everything
// that would make that commit mean less than "a human looked at these items" is refused before anything is written:
// no terminal, an agent's identity, other staged changes, uncommitted edits to the plan, open automated items, an
// unverified earlier phase.
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { gitIdentity, gitInteractive, gitSync, repositoryRoot } from '../shared/git.js';
import { createInterface } from 'node:readline';
import { loadConfig, type Config } from '../config/config.js';
import { classifier } from '../read/classify.js';
import { readPlanText } from '../read/plan.js';
import { decode } from '../read/text.js';
import { phaseVerified } from '../model/queries.js';
import type { CheckItem, Phase, Plan, Position } from '../model/types.js';
import type { Identity } from '../model/history.js';
import { itemsDigest, matches } from '../history/trust.js';
import { RULE_IDS } from '../engine/catalog.js';
import { formatIdentity } from '../shared/identity.js';
import { plural } from '../shared/text.js';
import { EXIT, type Io } from './io.js';
import { UsageError } from '../shared/errors.js';
import { defineCommand } from './command.js';

export interface ConfirmOptions {
  /** Path of the plan, relative to the working directory (or absolute). */
  plan: string;
  phase: number;
}

/** Why confirm will not go on: printed as is, exit 2, nothing written. */
class Refusal extends Error {}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const git = (cwd: string, args: string[], input?: string) => gitSync(cwd, args, input);

/**
 * Author and committer as the commit will record them. `git var` answers with the config and the GIT_AUTHOR_* /
 * GIT_COMMITTER_* variables applied, which is what git commit uses; reading `git config user.*` alone would miss
 * an agent that sets the environment.
 */
function identities(repo: string): { author: Identity; committer: Identity } {
  const a = gitIdentity(repo, 'GIT_AUTHOR_IDENT');
  const c = gitIdentity(repo, 'GIT_COMMITTER_IDENT');
  if (!a || !c || !a.email || !a.name) {
    throw new Refusal(
      'git does not know who you are: set `git config user.name "Your Name"` and `git config user.email you@example.com`, then run confirm again.',
    );
  }
  return { author: a, committer: c };
}

const label = formatIdentity;

/** Offset in `text` of the space inside the `[ ]` of the list item whose bullet is at `pos`. */
function boxOffset(text: string, starts: number[], pos: Position): number {
  const start = starts[pos.line - 1];
  if (start === undefined) throw new Refusal(`line ${pos.line} is not in the plan any more`);
  const end = starts[pos.line] ?? text.length;
  const line = text.slice(start, end);
  // The model gives the list item's start, which is its bullet (`-`, `*`, `+`, `1.`, `1)`); the box follows it.
  const at = pos.column - 1;
  const m = /^(?:[-*+]|\d{1,9}[.)])[ \t]+\[ \]/.exec(line.slice(at));
  if (!m) throw new Refusal(`no unchecked box at line ${pos.line}, column ${pos.column} of the plan`);
  return start + at + m[0].length - 2;
}

/**
 * The text with the boxes of the given items checked: one character each (` ` -> `x`), at its exact position, and
 * nothing else. Line endings, trailing spaces and everything around are the user's and stay as they are.
 */
export function checkItems(text: string, items: readonly Position[]): string {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const offsets = items.map((item) => boxOffset(text, starts, item)).sort((a, b) => b - a);
  let out = text;
  for (const at of offsets) out = `${out.slice(0, at)}x${out.slice(at + 1)}`;
  return out;
}

/** Every checkbox of the plan by position, with its text and state: what must not change except the confirmed ones. */
function boxes(plan: Plan): Map<string, { text: string; checked: boolean }> {
  const out = new Map<string, { text: string; checked: boolean }>();
  const add = (p: Position, text: string, checked: boolean) => out.set(`${p.line}:${p.column}`, { text, checked });
  for (const phase of plan.phases) {
    for (const t of phase.tasks) {
      if (t.source === 'item') add(t, `Task ${t.number}: ${t.title}`, t.checked);
      for (const s of t.steps) add(s, s.text, s.checked);
    }
    for (const i of [...phase.automated, ...phase.manual, ...phase.other]) add(i, i.text, i.checked);
  }
  return out;
}

/** Read the edited text back and compare it box by box: only the chosen items may have changed, and only to checked. */
function verifyEdit(before: Plan, after: Plan, chosen: readonly CheckItem[]): void {
  const a = boxes(before);
  const b = boxes(after);
  const targets = new Set(chosen.map((c) => `${c.line}:${c.column}`));
  const same =
    a.size === b.size &&
    [...a].every(([k, v]) => {
      const w = b.get(k);
      return w !== undefined && w.text === v.text && w.checked === (targets.has(k) ? true : v.checked);
    });
  if (!same)
    throw new Refusal(
      'the plan could not be edited safely (reading it back changed more than the confirmed boxes); nothing was changed',
    );
}

function phaseName(phase: Phase): string {
  return phase.number === null ? 'the plan' : `Phase ${phase.number}`;
}

function findPhase(plan: Plan, n: number): Phase {
  // A plan without phase headings (plan-agent dialect) is one implicit phase: --phase 1.
  const phase =
    plan.phases.find((p) => p.number === n) ??
    (n === 1 && plan.phases.length === 1 && plan.phases[0]!.number === null ? plan.phases[0] : undefined);
  if (!phase) {
    const known = plan.phases.map((p) => p.number).filter((x) => x !== null);
    throw new Refusal(`${plan.path} has no Phase ${n}${known.length ? ` (its phases: ${known.join(', ')})` : ''}.`);
  }
  return phase;
}

/** The plan as committed, read and checked for everything that must hold before a human is asked anything. */
interface Prepared {
  repo: string;
  /** Path of the plan inside `repo` (another repository when thoughts/ links into one). */
  path: string;
  abs: string;
  bom: boolean;
  /** The plan's bytes when it was read: the file must still hold them when the answers are in. */
  bytes: Buffer;
  text: string;
  plan: Plan;
  phase: Phase;
  author: Identity;
  config: Config;
}

function prepare(opts: ConfirmOptions, io: Io): Prepared {
  const root = repositoryRoot(io.cwd);
  if (!root) throw new Refusal('confirm needs a git repository: it records the confirmation as a commit.');
  const config: Config = loadConfig(root, undefined, RULE_IDS);
  const abs = resolve(io.cwd, opts.plan);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new Refusal(`no such plan: ${opts.plan}`);
  const inRoot = relative(root, abs).split(sep).join('/');
  if (classifier(config.paths)(inRoot)?.kind !== 'plan') {
    throw new Refusal(
      `${inRoot} is not a plan: plans live at ${config.paths.plans.join(', ')} (the \`paths.plans\` config), and history judges only those.`,
    );
  }
  // HumanLayer keeps thoughts/ in its own repository behind a symbolic link: the commit belongs there.
  const real = realpathSync(abs);
  const repo = repositoryRoot(dirname(real)) ?? root;
  const path = relative(realpathSync(repo), real).split(sep).join('/');

  const { author, committer } = identities(repo);
  for (const who of [author, committer]) {
    if (matches(config.agents, who)) {
      throw new Refusal(
        `${label(who)} matches the \`agents\` patterns of the config: an agent cannot confirm manual verification. A human runs confirm with their own git identity (git config user.name / user.email).`,
      );
    }
  }
  if (config.confirmers && !matches(config.confirmers, author)) {
    throw new Refusal(
      `${label(author)} is not listed in the config's \`confirmers\`: history would not count this confirmation.`,
    );
  }

  const staged = git(repo, ['diff', '--cached', '--name-only', '-z']);
  const others = staged.out.split('\0').filter(Boolean);
  if (others.length > 0) {
    throw new Refusal(
      `the index holds other staged changes (${others.join(', ')}): the confirmation commit must contain only the confirmed checkboxes. Commit them first, or unstage them with \`git restore --staged <file>\`.`,
    );
  }
  if (!git(repo, ['cat-file', '-e', `HEAD:${path}`]).ok)
    throw new Refusal(`${path} is not committed yet: commit the plan first, then confirm its manual items.`);
  if (!git(repo, ['diff', '--quiet', 'HEAD', '--', path]).ok) {
    throw new Refusal(
      `${path} has uncommitted changes: commit (or stash) them first, so the confirmation commit holds only the confirmed checkboxes.`,
    );
  }

  const bytes = readFileSync(abs);
  const decoded = decode(bytes, config.maxFileBytes);
  if (!decoded.ok) throw new Refusal(`${path} cannot be read: ${decoded.problem.message}`);
  const plan = readPlanText(inRoot, decoded.text);
  const phase = findPhase(plan, opts.phase);

  const open = phase.automated.filter((i) => !i.checked && !i.na);
  if (open.length > 0) {
    throw new Refusal(
      `${phaseName(phase)} is not ready for manual verification: its automated items are not all checked:\n${open.map((i) => `  - [ ] ${i.text} (line ${i.line})`).join('\n')}\nRun them and check them off first; manual verification comes after automated verification passed.`,
    );
  }
  // plan/phase-order: checking an item of phase n while phase n-1 is not verified is itself a violation.
  const earlier = plan.phases.filter(
    (p) => p.number !== null && phase.number !== null && p.number < phase.number && !phaseVerified(p),
  );
  if (earlier.length > 0) {
    const first = earlier[0]!;
    throw new Refusal(
      `${phaseName(first)} is not verified yet: confirm it first (validate-workflow confirm ${opts.plan} --phase ${first.number}).`,
    );
  }
  return {
    repo,
    path,
    abs,
    bom: bytes.subarray(0, 3).equals(BOM),
    bytes,
    text: decoded.text,
    plan,
    phase,
    author,
    config,
  };
}

/** The seed's "Manual Verification Pause" template, filled in from the plan. */
export function readyForVerification(phase: Phase): string {
  const n = phase.number ?? 1;
  const auto = phase.automated.map((i) => `- ${i.text}`);
  const manual = phase.manual
    .filter((i) => !i.na)
    .map((i) => `- [${i.checked ? 'x' : ' '}] ${i.text}${i.checked ? ' (already confirmed)' : ''}`);
  return [
    `Phase ${n} Complete - Ready for Manual Verification`,
    '',
    'Automated passed:',
    ...(auto.length ? auto : ['- (the phase lists no automated items)']),
    '',
    'Please verify:',
    ...manual,
    '',
    'Let me know when done: answer for each item below, y = verified (check it), n = not verified, s = skip for now.',
    '',
  ].join('\n');
}

type Answer = 'y' | 'n' | 's';

/**
 * One answer per item, read as lines from the terminal (the terminal echoes and edits them). Lines typed ahead are
 * kept: the iterator is created before the first prompt. End of input (Ctrl-D) answers nothing.
 */
async function ask(items: CheckItem[], io: Io): Promise<Answer[] | null> {
  const rl = createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
  const lines = rl[Symbol.asyncIterator]();
  const answers: Answer[] = [];
  try {
    for (const [i, item] of items.entries()) {
      for (;;) {
        io.stdout(`[${i + 1}/${items.length}] ${item.text}\n  verified? [y]es / [n]o / [s]kip: `);
        const next = await lines.next();
        if (next.done) return null;
        const a = String(next.value).trim().toLowerCase();
        const answer: Answer | undefined =
          a === 'y' || a === 'yes' ? 'y' : a === 'n' || a === 'no' ? 'n' : a === 's' || a === 'skip' ? 's' : undefined;
        if (answer) {
          answers.push(answer);
          break;
        }
        io.stdout('  please answer y, n or s.\n');
      }
    }
    return answers;
  } finally {
    rl.close();
    // A paused TTY stream still holds the event loop on some platforms; the answers are all read.
    process.stdin.pause();
    if (typeof process.stdin.unref === 'function') process.stdin.unref();
  }
}

/**
 * `Confirmed-items: <digest>` of the items confirmed: the plan's path in its repository, the phase as history numbers
 * it (a plan without phase headings is phase 1), the item's text (src/history/trust.ts defines the identity).
 */
export function confirmedItems(path: string, phase: Phase, items: readonly CheckItem[]): string {
  return itemsDigest(items.map((i) => ({ file: path, phase: phase.number ?? 1, text: i.text })));
}

function commitMessage(path: string, phase: Phase, confirmed: CheckItem[], by: Identity): string {
  return [
    `Confirm ${phase.number === null ? 'Phase 1' : `Phase ${phase.number}`} manual verification`,
    '',
    'Verified by hand (validate-workflow confirm):',
    ...confirmed.map((i) => `- ${i.text}`),
    '',
    `Confirmed-by: ${label(by)}`,
    `Confirmed-items: ${confirmedItems(path, phase, confirmed)}`,
    '',
  ].join('\n');
}

export async function confirm(opts: ConfirmOptions, io: Io): Promise<number> {
  try {
    // First: an agent's tool call or a script has a pipe here, and a prompt it answers itself is no confirmation.
    if (!process.stdin.isTTY) {
      throw new Refusal(
        'standard input is not a terminal. confirm records that a human verified the items by hand, so it only runs interactively; an agent or a script cannot confirm.',
      );
    }
    if (!Number.isInteger(opts.phase) || opts.phase < 1)
      throw new Refusal(`--phase needs a phase number (got ${opts.phase})`);
    const p = prepare(opts, io);
    const pending = p.phase.manual.filter((i) => !i.checked && !i.na);
    if (p.phase.manual.filter((i) => !i.na).length === 0) {
      io.stdout(`${phaseName(p.phase)} of ${p.path} has no manual verification items: nothing to confirm.\n`);
      return EXIT.ok;
    }
    if (pending.length === 0) {
      io.stdout(`Every manual item of ${phaseName(p.phase)} in ${p.path} is already checked: nothing to confirm.\n`);
      return EXIT.ok;
    }
    const openTasks = p.phase.tasks.filter((t) => !t.checked);
    io.stdout(`${p.path}\n\n${readyForVerification(p.phase)}`);
    if (openTasks.length)
      io.stdout(`Note: tasks of this phase are still open: ${openTasks.map((t) => `Task ${t.number}`).join(', ')}.\n`);
    io.stdout('\n');

    const answers = await ask(pending, io);
    if (answers === null) {
      io.stdout('\n');
      io.stderr('validate-workflow confirm: input ended before every item was answered: nothing was changed.\n');
      return EXIT.usage;
    }
    const confirmed = pending.filter((_, i) => answers[i] === 'y');
    const failed = pending.filter((_, i) => answers[i] === 'n');
    const skipped = pending.filter((_, i) => answers[i] === 's');
    io.stdout('\n');
    if (failed.length)
      io.stdout(
        `Not verified (tell the agent what failed; the items stay unchecked):\n${failed.map((i) => `  - ${i.text}`).join('\n')}\n`,
      );
    if (skipped.length)
      io.stdout(`Skipped (still waiting for you):\n${skipped.map((i) => `  - ${i.text}`).join('\n')}\n`);
    if (confirmed.length === 0) {
      io.stdout('Nothing confirmed: no commit made.\n');
      return EXIT.ok;
    }

    const edited = checkItems(p.text, confirmed);
    verifyEdit(p.plan, readPlanText(p.plan.path, edited), confirmed);
    const original = readFileSync(p.abs);
    // The questions can take a while; an edit made meanwhile (by the agent, or in an editor) must not be overwritten.
    if (!original.equals(p.bytes))
      throw new Refusal(`${p.path} changed while you were answering: nothing was changed. Run confirm again.`);
    writeFileSync(p.abs, p.bom ? Buffer.concat([BOM, Buffer.from(edited, 'utf8')]) : edited);
    const restore = () => {
      writeFileSync(p.abs, original);
      git(p.repo, ['reset', '-q', '--', p.path]);
    };
    const added = git(p.repo, ['add', '--', p.path]);
    const staged = git(p.repo, ['diff', '--cached', '--name-only', '-z']).out.split('\0').filter(Boolean);
    if (!added.ok || staged.length !== 1 || staged[0] !== p.path) {
      restore();
      throw new Refusal(`staging ${p.path} failed${added.err ? `: ${added.err.trim()}` : ''}; nothing was committed.`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'vw-confirm-'));
    try {
      const msgFile = join(dir, 'COMMIT_MSG');
      writeFileSync(msgFile, commitMessage(p.path, p.phase, confirmed, p.author));
      // Hooks run (they judge this commit too) and may talk to the terminal; a signing agent may ask for a passphrase.
      // Signing as configuration rather than `-S`: the commit-msg hook can only see the promise in git's config.
      const res = gitInteractive(p.repo, [
        ...(p.config.requireSignedConfirmations ? ['-c', 'commit.gpgsign=true'] : []),
        'commit',
        '-q',
        '--cleanup=whitespace',
        '-F',
        msgFile,
      ]);
      if (res.out) io.stdout(res.out);
      if (!res.ok) {
        restore();
        throw new Refusal(`git commit failed, nothing was committed:\n${res.err.trim()}`);
      }
      if (res.err) io.stderr(res.err);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const sha = git(p.repo, ['rev-parse', '--short', 'HEAD']).out.trim();
    io.stdout(
      `Committed ${sha} "Confirm ${phaseName(p.phase).replace('the plan', 'Phase 1')} manual verification": ${plural(confirmed.length, 'item')} checked, Confirmed-by: ${label(p.author)}, Confirmed-items: ${confirmedItems(p.path, p.phase, confirmed)}.\n`,
    );
    return EXIT.ok;
  } catch (err) {
    if (err instanceof Refusal) {
      io.stderr(`validate-workflow confirm: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}

export const command = defineCommand({
  name: 'confirm',
  summary: "a human confirms a phase's manual verification items (commits them with Confirmed-by)",
  usage: `Usage: validate-workflow confirm <plan> --phase N

Shows the phase's manual verification items, asks about each on the terminal, and commits only the confirmed
checkboxes with Confirmed-by: and Confirmed-items: trailers. Runs only interactively: an agent or a script cannot confirm.

Options:
  --phase <N>  the phase whose manual items to confirm
  -h, --help   show this help
`,
  options: {
    phase: { type: 'string' },
  },
  action: ({ values, positionals }, io) => {
    const phase = Number(values.phase);
    if (!positionals[0] || !Number.isInteger(phase) || phase < 1)
      throw new UsageError('confirm needs a plan and a phase: validate-workflow confirm <plan> --phase N');
    return confirm({ plan: positionals[0], phase }, io);
  },
});
