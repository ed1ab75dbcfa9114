// The repository's promise (convention section 4b): which parts of the protocol this repository asked of its agents.
// Structure rules in `recommended` report departures from it, not from the seed's canonical shape; `strict` keeps
// the canonical shape. Learned, in this order: the config's `protocol` key; the repository's own agent instructions
// (`.claude/commands`, `.claude/agents`, `AGENTS.md`, `CLAUDE.md`, templates); then the majority of its own files
// (two thirds or more). The gate's rules never read the profile: a repository cannot promise its way out of them.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { Code, InlineCode, Root, RootContent } from 'mdast';
import type { Handoff, Plan } from '../model/types.js';
import type { ProtocolConfig } from '../config/config.js';
import { isHeading, lineOf, parseWhole, textOf } from './markdown.js';
import { readPlanText } from './plan.js';
import { criteriaKindOf } from './criteria.js';
import { readFrontmatter, isRecord } from './frontmatter.js';
import { parsers, ParsersNotLoaded } from './lazy.js';
import { isTemplateName } from './paths.js';

/** Where one part of the profile came from: what a message names when the expectation is the profile's. */
export interface ProfileSource {
  from: 'config' | 'instructions' | 'majority' | 'default' | 'strict';
  file?: string;
  line?: number;
  /** What the source says, in a few words: "asks for `#### Manual Verification:`". */
  says: string;
}

export interface Expectation<T> {
  value: T;
  source: ProfileSource;
}

export interface Profile {
  /** Every phase has automated criteria. */
  automatedCriteria: Expectation<boolean>;
  /** Every phase has manual criteria. */
  manualCriteria: Expectation<boolean>;
  /** Task numbers run across the whole plan (the seed's micro plan), or any consistent scheme. */
  taskNumbering: Expectation<'global' | 'any'>;
  /** The repository writes a handoff per task (its instructions name a task handoff, or it has any). */
  taskHandoffs: Expectation<boolean>;
  /** Task handoffs name the handoff before in `previous:`. */
  handoffChain: Expectation<boolean>;
  /** Task handoffs live in session folders, or flat in the handoffs folder. */
  handoffLayout: Expectation<'sessions' | 'flat'>;
  /** The repository's own commands read and write `thoughts/searchable/` (its committed layout, not a stray mirror). */
  searchableLayout: Expectation<boolean>;
  /**
   * The repository's own instructions say that manual items are checked only once a human confirmed them. Words only:
   * history/manual-confirmation asks it of every repository (section 4b) and cites these words where they exist.
   */
  manualConfirmation: Expectation<boolean>;
}

/** The seed's canonical shape: what `strict` holds every repository to. */
export function canonicalProfile(): Profile {
  const source: ProfileSource = { from: 'strict', says: 'the strict preset holds every plan to the canonical shape' };
  return {
    automatedCriteria: { value: true, source },
    manualCriteria: { value: true, source },
    taskNumbering: { value: 'global', source },
    taskHandoffs: { value: true, source },
    handoffChain: { value: true, source },
    handoffLayout: { value: 'sessions', source },
    searchableLayout: { value: false, source },
    manualConfirmation: { value: true, source },
  };
}

/** Where a repository writes what it asks of its agents. */
export const INSTRUCTION_GLOBS = [
  '.claude/commands/**/*.md',
  '.claude/agents/**/*.md',
  '.claude/skills/**/*.md',
  'AGENTS.md',
  'CLAUDE.md',
  '.claude/CLAUDE.md',
  'thoughts/templates/**/*.{md,yaml,yml}',
  // Candidates only: a template among the workflow files is what isTemplateName says it is (the one definition
  // discovery uses too), not any file whose name holds the word (`task-06-templates-and-the-new-command.md`).
  'thoughts/**/*template*.{md,yaml,yml}',
];

/** Where instruction files are looked for besides the top folder, as their globs name them (the walk reads no other). */
export const INSTRUCTION_FOLDERS = ['.claude', 'thoughts'];

/**
 * Every place an instruction file may be, as git pathspecs (any case, like the walk): the globs' files at the top,
 * and the folders the walk looks into, whole. A superset of the globs.
 */
export const INSTRUCTION_PATHSPECS = [
  ...INSTRUCTION_GLOBS.filter((g) => !g.includes('/')).map((g) => `:(glob,icase)${g}`),
  ...INSTRUCTION_FOLDERS.map((f) => `:(icase)${f}`),
];
/** The folders of `.claude/` the globs reach into (its own files are read too): the rest of it (settings, agents' state) is passed over. */
export const CLAUDE_FOLDERS = ['commands', 'agents', 'skills'];
/** The folders the walk skips: nothing under them is an instruction file. */
const SKIPPED = ['**/node_modules/**', 'thoughts/searchable/**'];
/**
 * A folder that cannot be listed for these reasons is passed over, the rest of the tree walked: one unreadable folder
 * under thoughts/ must not take every instruction file (and the promise they make) out of sight.
 */
const UNREADABLE = new Set(['ENOENT', 'EACCES', 'EPERM', 'ENOTDIR', 'ELOOP']);

let matchers: { file: (path: string) => boolean; skipped: (path: string) => boolean } | undefined;

const instructionMatchers = () =>
  (matchers ??= {
    file: picomatch(INSTRUCTION_GLOBS, { dot: true, nocase: true }),
    skipped: picomatch(SKIPPED, { dot: true, nocase: true }),
  });

/**
 * The files under `root` that INSTRUCTION_GLOBS match, as fast-glob found them with `{ dot: true, onlyFiles: true,
 * caseSensitiveMatch: false, ignore: SKIPPED }`: dot files, any case, a symbolic link followed (its target says
 * whether it is a file or a folder; a broken one is neither). Where fast-glob failed, the walk goes on: a folder that
 * cannot be listed (no permission, gone) is passed over, and a link back to a folder on the path walked (`thoughts/a
 * -> .`) is not followed, so each file is found once and the walk ends (two such links made fast-glob's walk, and
 * this one's before, run for ever: a hook that never returns). One walk of the top folder, `.claude/` and
 * `thoughts/` in any case, with picomatch, fast-glob's matcher: every hook asks for the instruction files (the promise,
 * the snapshot memory's digest), and fast-glob's walk of thoughts/ cost 30 to 50 ms of a pre-commit on the bench
 * shapes, most of it setting itself up (test/read/instruction-walk.test.ts holds the two to the same answers).
 */
export function walkInstructionFiles(root: string): string[] {
  const { file, skipped } = instructionMatchers();
  const out: string[] = [];
  // The folders on the path walked, by device and inode: what a link that loops leads back to.
  const onPath = new Set<string>();
  const visit = (dir: string): void => {
    const full = dir === '' ? root : join(root, dir);
    let entries: Dirent[];
    let id: string;
    try {
      const st = statSync(full, { bigint: true });
      id = `${st.dev}:${st.ino}`;
      if (onPath.has(id)) return;
      entries = readdirSync(full, { withFileTypes: true });
    } catch (err) {
      if (UNREADABLE.has((err as NodeJS.ErrnoException).code ?? '')) return;
      throw err;
    }
    onPath.add(id);
    for (const entry of entries) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      let isFile = entry.isFile();
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(join(root, path));
          isFile = target.isFile();
          isDir = target.isDirectory();
        } catch {
          // A broken link (or one that cannot be followed) is neither a file nor a folder, as fast-glob keeps it.
        }
      }
      if (isFile && candidate(path) && file(path) && !skipped(path)) out.push(path);
      else if (isDir && !skipped(`${path}/`) && reaches(path)) visit(path);
    }
    onPath.delete(id);
  };
  visit('');
  return out;
}

/**
 * Whether a file may match the globs, asked before them. Of thoughts/, only the templates folder and names with
 * `template` in them can match: the rest of its thousands of files are passed over without asking the globs (which
 * is most of the time a walk takes).
 */
function candidate(path: string): boolean {
  const lower = path.toLowerCase();
  return !lower.startsWith('thoughts/') || lower.includes('template');
}

/** Whether a folder may hold a file the globs match: the folders they name at the top and in `.claude/`, any case. */
function reaches(path: string): boolean {
  const parts = path.toLowerCase().split('/');
  if (!INSTRUCTION_FOLDERS.includes(parts[0]!)) return false;
  return parts[0] !== '.claude' || parts.length < 2 || CLAUDE_FOLDERS.includes(parts[1]!);
}

/**
 * Whether the walk of a working tree would find a file at `path` (a path as git lists it), where no folder on its
 * way is a link: every folder above it reached and not skipped, the globs' match, and an instruction file.
 */
export function walkedPath(path: string): boolean {
  const slash = path.indexOf('/');
  // A file at the top is one of the globs' literal names or none (the globs are not compiled for a README).
  if (slash < 0 && TOP_NAMES !== null) return TOP_NAMES.has(path.toLowerCase()) && fileMatch(path);
  return candidate(path) && above(path, slash) && fileMatch(path);
}

/** The names INSTRUCTION_GLOBS match at the top, in lower case; null if one of those globs is more than a name. */
const TOP_NAMES = ((tops: string[]) => (tops.some((g) => /[*?[\]{}()!+@]/.test(g)) ? null : new Set(tops)))(
  INSTRUCTION_GLOBS.filter((g) => !g.includes('/')).map((g) => g.toLowerCase()),
);

/** Whether the walk of a working tree would look into a folder at `path` (a path as git lists it). */
export function walkedFolder(path: string): boolean {
  const { skipped } = instructionMatchers();
  return above(path, path.indexOf('/')) && reaches(path) && !skipped(`${path}/`);
}

/** Every folder above `path` (its first `/` at `slash`) is one the walk looks into. */
function above(path: string, slash: number): boolean {
  // Most paths of a repository are passed over here, before any glob (git lists every one).
  if (slash >= 0 && !INSTRUCTION_FOLDERS.includes(path.slice(0, slash).toLowerCase())) return false;
  const { skipped } = instructionMatchers();
  for (let at = slash; at >= 0; at = path.indexOf('/', at + 1)) {
    const folder = path.slice(0, at);
    if (!reaches(folder) || skipped(`${folder}/`)) return false;
  }
  return true;
}

function fileMatch(path: string): boolean {
  const { file, skipped } = instructionMatchers();
  return file(path) && !skipped(path) && isInstructionFile(path);
}

/**
 * The instruction files a door reads from elsewhere than the working tree, with their bytes (or why they cannot be
 * read), in place of the walk until the next forgetInstructions: the commit doors judge the commit being made, so its
 * instructions are the index's (engine/instructions.ts), as a run on a checkout of that commit will read them.
 */
export function useInstructions(root: string, files: [string, Buffer | string][]): void {
  forgetInstructions(root);
  const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  fileCache.set(
    root,
    sorted.map(([file]) => file),
  );
  bytesCache.set(root, sorted.slice(0, MAX_INSTRUCTION_FILES));
}

/** An instruction file: under `thoughts/`, only the templates folder and files named as templates. */
function isInstructionFile(path: string): boolean {
  return !path.startsWith('thoughts/') || path.startsWith('thoughts/templates/') || isTemplateName(path);
}

/** What the instruction files say, each signal with the first place it is said. */
export interface InstructionSignals {
  files: string[];
  automated: ProfileSource | null;
  manual: ProfileSource | null;
  /** A plan template: an instruction file that lays out phases (`## Phase 1`) or success criteria. */
  planTemplate: ProfileSource | null;
  chain: ProfileSource | null;
  /** A plan template whose task numbers run across its phases (the seed's micro plan). */
  globalTasks: ProfileSource | null;
  /** The instructions send files to `thoughts/searchable/`. */
  searchable: ProfileSource | null;
  /** A handoff path template naming a task handoff (`task-NN-<desc>.md`). */
  taskHandoff: ProfileSource | null;
  /** A handoff path template that puts handoffs in a folder per session, or directly in the handoffs folder. */
  sessions: ProfileSource | null;
  flat: ProfileSource | null;
  /** A sentence or list item saying that manual verification items wait for the user's (a human's) confirmation. */
  confirmation: ProfileSource | null;
}

const signalCache = new Map<string, InstructionSignals>();

const MAX_INSTRUCTION_BYTES = 256 * 1024;
/** Instruction files read at most (the first ones in path order). */
const MAX_INSTRUCTION_FILES = 200;

const fileCache = new Map<string, string[]>();

/**
 * The instruction files of a working tree (found once per run: each door forgets them first), sorted; or those the door
 * took from the commit it judges (useInstructions).
 */
function instructionFiles(root: string): string[] {
  const cached = fileCache.get(root);
  if (cached) return cached;
  let files: string[];
  try {
    files = existsSync(root) ? walkInstructionFiles(root).filter(isInstructionFile).sort() : [];
  } catch {
    files = [];
  }
  fileCache.set(root, files);
  return files;
}

/**
 * What instructionSignals reads, without parsing it: each instruction file with its content's hash (or that it
 * cannot be read). The signals are a function of these alone, so a digest of them stands for the signals where only
 * their sameness matters (engine/lint.ts, the cached snapshot verdict), and a warm run parses no instruction file.
 */
export function instructionInputs(root: string): [string, string][] {
  return instructionBytes(root).map(([file, bytes]) => [
    file,
    typeof bytes === 'string' ? bytes : createHash('sha1').update(bytes).digest('hex'),
  ]);
}

const bytesCache = new Map<string, [string, Buffer | string][]>();

/**
 * Each instruction file's bytes (or why it cannot be read), read once per run: the digest of what was read
 * (instructionInputs) and the signals parsed from it (instructionSignals) come from the same bytes, though a file may
 * change between the two (an editor saving it, a formatter of another lint-staged task). Two reads would let a
 * cached verdict pair one content's digest with findings judged under the other.
 */
function instructionBytes(root: string): [string, Buffer | string][] {
  const cached = bytesCache.get(root);
  if (cached) return cached;
  const read = instructionFiles(root)
    .slice(0, MAX_INSTRUCTION_FILES)
    .map((file): [string, Buffer | string] => {
      try {
        return [file, readFileSync(join(root, file))];
      } catch (err) {
        return [file, `unreadable: ${(err as NodeJS.ErrnoException).code ?? String(err)}`];
      }
    });
  bytesCache.set(root, read);
  return read;
}

/** Reads the instruction files of a working tree once per run. */
export function instructionSignals(root: string): InstructionSignals {
  const cached = signalCache.get(root);
  if (cached) return cached;
  const signals: InstructionSignals = {
    files: [],
    automated: null,
    manual: null,
    planTemplate: null,
    chain: null,
    globalTasks: null,
    searchable: null,
    taskHandoff: null,
    sessions: null,
    flat: null,
    confirmation: null,
  };
  for (const [file, buf] of instructionBytes(root)) {
    if (typeof buf === 'string' || buf.length > MAX_INSTRUCTION_BYTES) continue;
    const text = buf.toString('utf8');
    signals.files.push(file);
    if (/\.ya?ml$/i.test(file)) yamlSignals(file, text, 1, signals);
    else markdownSignals(file, text, 0, signals);
  }
  signalCache.set(root, signals);
  return signals;
}

/**
 * Forgets what was read of a tree's instruction files: every run starts with this (engine/doors.ts judgeDoor, the fix
 * command), since a process may judge again after they changed.
 */
export function forgetInstructions(root?: string): void {
  if (root === undefined) {
    signalCache.clear();
    fileCache.clear();
    bytesCache.clear();
  } else {
    signalCache.delete(root);
    fileCache.delete(root);
    bytesCache.delete(root);
  }
}

/**
 * Whether criteria headings in this text promise the plans' shape: a command that writes plans (`create_plan.md`),
 * a template, or a plan skeleton inside a fence. A command that carries plans out (`implement_plan.md`'s "Ready for
 * Manual Verification" message), a review command's `Manual testing` section, an agent definition's `CI
 * Integration:` or a workflow guide with its own `## Phase` steps promises nothing about how plans are written.
 */
function aboutPlans(file: string, text: string, fenced: boolean): boolean {
  const name = file.split('/').pop() ?? file;
  // A command that carries plans out (its fenced "## Phase 2 Complete" report is a message, not a plan skeleton).
  const carriesOut = /implement|validat|review|resume|execut|run|debug|handoff/i.test(name);
  if (carriesOut) return false;
  return (
    /plan/i.test(name) ||
    file.startsWith('thoughts/templates/') ||
    isTemplateName(file) ||
    (fenced && /^#{2,4}\s+phase\b/im.test(text))
  );
}

function markdownSignals(file: string, text: string, offset: number, into: InstructionSignals, fenced = false): void {
  let root: Root;
  try {
    root = parseWhole(text);
  } catch (err) {
    if (err instanceof ParsersNotLoaded) throw err;
    return;
  }
  const fm = readFrontmatter(root);
  if (fm.data) keySignals(file, fm.data, offset + fm.line, into);
  if (/plan/i.test(file) && !into.globalTasks) {
    // A plan skeleton in the instructions, read as a plan: does it number tasks across its phases?
    const skeleton = readPlanText(file, text);
    if (numbersGlobally(skeleton) === true) {
      const second = skeleton.phases.filter((p) => !p.outside && p.tasks.length > 0)[1]!.tasks[0]!;
      into.globalTasks = {
        from: 'instructions',
        file,
        line: offset + second.line,
        says: `numbers tasks across phases (\`Task ${second.label}\` opens a later phase)`,
      };
    }
  }
  const plans = aboutPlans(file, text, fenced);
  const visit = (nodes: RootContent[]): void => {
    for (const node of nodes) {
      const line = offset + lineOf(node).line;
      if (plans && (isHeading(node) || node.type === 'strong')) {
        const label = textOf(node);
        const kind = criteriaKindOf(label);
        if (kind === 'manual') into.manual ??= { from: 'instructions', file, line, says: `asks for \`${label}\`` };
        if (kind === 'automated')
          into.automated ??= { from: 'instructions', file, line, says: `asks for \`${label}\`` };
        if (isHeading(node) && /plan/i.test(file) && (kind !== null || /^phase\s+\d/i.test(label)))
          into.planTemplate ??= { from: 'instructions', file, line, says: `lays out \`${label}\`` };
      }
      if (node.type === 'paragraph' && !into.confirmation) confirmationSignal(file, textOf(node), line, into);
      if (node.type === 'code') codeSignals(file, node, line, into);
      if (node.type === 'inlineCode' || node.type === 'text') pathSignals(file, (node as InlineCode).value, line, into);
      if ('children' in node) visit(node.children as RootContent[]);
    }
  };
  visit(root.children);
}

/** A template inside a fence: Markdown (a plan or handoff skeleton) or YAML (a handoff's keys). */
function codeSignals(file: string, code: Code, line: number, into: InstructionSignals): void {
  const lang = (code.lang ?? '').toLowerCase();
  pathSignals(file, code.value, line, into);
  // The fence's own line comes first; the content starts on the next.
  if (lang === 'yaml' || lang === 'yml') yamlSignals(file, code.value, line + 1, into);
  else if (lang === '' || lang === 'markdown' || lang === 'md') markdownSignals(file, code.value, line, into, true);
}

function yamlSignals(file: string, text: string, line: number, into: InstructionSignals): void {
  try {
    for (const doc of [parsers().parseDocument(text, { uniqueKeys: false })]) {
      const data = doc.toJS() as unknown;
      if (isRecord(data)) keySignals(file, data, line, into);
    }
  } catch (err) {
    if (err instanceof ParsersNotLoaded) throw err;
    // A template with placeholders is often no valid YAML; it then says nothing of keys.
  }
}

function keySignals(file: string, data: Record<string, unknown>, line: number, into: InstructionSignals): void {
  for (const key of ['previous', 'previous_handoff', 'prev_handoff']) {
    if (key in data) into.chain ??= { from: 'instructions', file, line, says: `writes \`${key}:\` in its handoffs` };
  }
}

/** Manual (human) verification or testing items, steps or checks, as instructions name them. */
const MANUAL_ITEMS = String.raw`\b(?:manual(?:ly)?|human)\s+(?:verification|testing|tests?|checks?|qa|items?|steps?|checkboxes|criteria)\b`;
const MANUAL = new RegExp(MANUAL_ITEMS);
/** Ticking a box, and nothing else: `check off`, `tick`, `mark`, never `checkout` or `markdown`. */
const VERB = String.raw`(?:check(?:ed|ing|s)?(?:\s+off)?|tick|mark)\b`;
const PARTICIPLE = String.raw`(?:checked|ticked|marked)(?:\s+off)?\b`;
/**
 * The negation right before the verb (`ever` alone may stand between): "do not hesitate to check them yourself" or
 * "do not forget to tick them" tells the agent to tick.
 */
const NEGATION = String.raw`\b(?:do not|don't|never|must not|mustn't|should not|shouldn't|may not|cannot|can't|can not)\s+(?:ever\s+)?`;
/** The items named where the verb takes them: the phrase itself, or a pronoun for the phrase said before. */
const PRONOUN = /^\s*(?:them|these|those|these items|those items|it|any of them)\b/;
/**
 * The agent held back until a person confirmed, with the object of the held verb (`obj`), what the clause said
 * before it (`pre`) and the words after `until` / `once` (`rest`):
 * "do not check off <items> until", "only check off <items> once", "check off <items> only after",
 * "leave <items> unchecked until".
 */
const HELD = [
  new RegExp(String.raw`^(?<pre>.*?)${NEGATION}${VERB}(?<obj>.*?)\buntil\b(?<rest>.*)$`),
  new RegExp(String.raw`^(?<pre>.*?)\bonly\s+${VERB}(?<obj>.*?)\b(?:once|after|when)\b(?<rest>.*)$`),
  new RegExp(String.raw`^(?<pre>.*?)\b${VERB}(?<obj>.*?)\bonly\s+(?:after|once|when|if)\b(?<rest>.*)$`),
  new RegExp(String.raw`^(?<pre>.*?)\b(?:leave|keep)\b(?<obj>.*?)\bunchecked\s+until\b(?<rest>.*)$`),
];
/**
 * Or the items the subject of a passive, a few words before its verb at most: "manual verification items must not be
 * checked until ..." ("manual tests run in CI, and tasks are only marked done after ..." is about tasks).
 */
const PASSIVE = new RegExp(
  String.raw`${MANUAL_ITEMS}(?:\s+(?!(?:and|or|but|then)\b)[\w'-]+){0,4}?\s+(?:must|should|may|can|are|is|will)\s+(?:not\s+|never\s+|only\s+)(?:ever\s+)?(?:be\s+)?${PARTICIPLE}.*?\b(?:until|once|after|when)\b(?<rest>.*)$`,
);
const PERSON = String.raw`(?:(?:the|a|an|your|our)\s+)?(?:users?|humans?|maintainers?|reviewers?|person|people|developers?|owners?|operators?)\b|\bi\b|\bme\b`;
/**
 * A person's confirmation, right after `until` / `once` ("the user confirms", "i have verified", "confirmed by the
 * user"): the clause begins with it, so "only when the tests pass, not when the user confirms" is none.
 */
const BY_A_PERSON = new RegExp(
  String.raw`^\s*(?:after\s+)?(?:(?:${PERSON})[^,;]*?\b(?:confirm|verif|approv|sign)\w*|(?:(?:they|it|these|those)\s+(?:are|is|have been|has been|were|was)\s+)?(?:explicitly\s+)?(?:confirm|verifi|approv)\w*\s+by\s+(?:${PERSON}))`,
);

/** Whether one clause says the agent leaves manual items unchecked until a person confirmed them. */
function holdsManualItems(clause: string): boolean {
  if (!MANUAL.test(clause)) return false;
  for (const held of HELD) {
    const m = held.exec(clause)?.groups;
    if (!m) continue;
    const named = MANUAL.test(m.obj!) || (PRONOUN.test(m.obj!) && MANUAL.test(m.pre!));
    if (named && BY_A_PERSON.test(m.rest!)) return true;
  }
  const passive = PASSIVE.exec(clause)?.groups;
  return !!passive && BY_A_PERSON.test(passive.rest!);
}

/** A paragraph's sentences, with where each starts; an abbreviation's stop ("e.g.", "i.e.") ends none. */
function sentencesOf(text: string): { sentence: string; start: number }[] {
  const out: { sentence: string; start: number }[] = [];
  let start = 0;
  for (const m of text.matchAll(/(?<=[.!?])\s+/g)) {
    if (/\b(?:e\.g|i\.e|etc|vs|cf)\.$/i.test(text.slice(start, m.index))) continue;
    out.push({ sentence: text.slice(start, m.index), start });
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push({ sentence: text.slice(start), start });
  return out;
}

/**
 * The instruction that manual items wait for a person (`Do not check off manual verification items until the user
 * confirms them`): both halves in one clause of a sentence of a paragraph (a list item's text is its paragraph), the
 * items the object of the held verb. Conservative, as a file that tells the agent to check boxes itself must not be
 * cited as promising the opposite: a clause ends at `;`, `, and` and `, but`, so "never mark a phase complete until
 * the user confirms; you may tick manual items yourself" promises nothing of manual items.
 */
function confirmationSignal(file: string, text: string, line: number, into: InstructionSignals): void {
  for (const { sentence, start } of sentencesOf(text)) {
    const words = sentence
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\s+/g, ' ');
    if (!words.split(/;|,\s+(?:and|but)\b/).some(holdsManualItems)) continue;
    // The sentence's own line: a paragraph's soft breaks stay in its text.
    const own = line + (text.slice(0, start).match(/\n/g)?.length ?? 0);
    into.confirmation = { from: 'instructions', file, line: own, says: `says "${quoted(sentence)}"` };
    return;
  }
}

/** Quotes are about a line of a report at most, cut at a word. */
const QUOTE_MAX = 160;

/**
 * A sentence as a message quotes it: on one line, without its closing stop, its own double quotes made single (it
 * stands inside ours), cut at a word boundary when longer than about a line of a report.
 */
function quoted(sentence: string): string {
  const flat = sentence
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '')
    .replace(/["\u201c\u201d]/g, "'");
  if (flat.length <= QUOTE_MAX) return flat;
  const cut = flat.slice(0, QUOTE_MAX).replace(/\s+\S*$/, '');
  return `${cut.replace(/[\s,;:]+$/, '')}…`;
}

/**
 * A handoff path as the instructions write it (`thoughts/shared/handoffs/{session}/task-NN-<desc>.md`, or
 * `thoughts/shared/handoffs/YYYY-MM-DD_<desc>.md`): whether a folder stands between the handoffs folder and the file.
 */
function pathSignals(file: string, text: string, line: number, into: InstructionSignals): void {
  if (text.includes('thoughts/searchable/'))
    into.searchable ??= { from: 'instructions', file, line, says: 'reads and writes `thoughts/searchable/`' };
  if (!text.includes('handoffs/')) return;
  for (const word of text.split(/[\s`'"()]+/)) {
    const at = word.indexOf('handoffs/');
    if (at < 0) continue;
    const rest = word.slice(at + 'handoffs/'.length);
    if (!/\.(?:md|ya?ml)$/i.test(rest)) continue;
    const where = `handoffs/${rest}`;
    if (/(?:^|\/)task-/i.test(rest))
      into.taskHandoff ??= { from: 'instructions', file, line, says: `writes a handoff per task to \`${where}\`` };
    if (rest.includes('/'))
      into.sessions ??= { from: 'instructions', file, line, says: `writes handoffs to \`${where}\`` };
    else into.flat ??= { from: 'instructions', file, line, says: `writes handoffs to \`${where}\`` };
  }
}

/**
 * Two thirds or more of a population share the shape. Below three, every one of them must: one plan that writes
 * criteria in its phases promised them for its other phases too.
 */
function majority(count: number, of: number): boolean {
  return of >= 3 ? count * 3 >= of * 2 : of > 0 && count === of;
}

function hasKind(plan: Plan, kind: 'automated' | 'manual'): boolean {
  return plan.phases.some((p) => p[kind].length > 0);
}

/** Whether a plan numbers its tasks across phases (no phase starts again at a number already used). */
function numbersGlobally(plan: Plan): boolean | null {
  const phases = plan.phases.filter((p) => !p.outside && p.tasks.length > 0);
  if (phases.length < 2) return null;
  let last = -Infinity;
  for (const p of phases) {
    const first = p.tasks[0]!.number;
    if (first <= last) return false;
    last = Math.max(...p.tasks.map((t) => t.number));
  }
  return true;
}

export interface ProfileInput {
  protocol?: ProtocolConfig;
  configSource?: string | null;
  signals: InstructionSignals;
  plans: readonly Plan[];
  handoffs: readonly Handoff[];
  /** How many session ledgers the repository keeps. */
  ledgers?: number;
}

/** The promise, learned from the config, the instructions, then the majority. */
export function learnProfile(input: ProfileInput): Profile {
  const { protocol = {}, signals } = input;
  const fromConfig = (key: keyof ProtocolConfig): ProfileSource => ({
    from: 'config',
    file: input.configSource ?? undefined,
    says: `sets \`protocol.${key}\``,
  });
  const plans = input.plans.filter((p) => p.readable && !p.notAPlan);
  const tasks = input.handoffs.filter((h) => h.isTask && h.readable);

  const criteria = (kind: 'automated' | 'manual'): Expectation<boolean> => {
    const key = kind === 'automated' ? 'automatedCriteria' : 'manualCriteria';
    if (protocol[key] !== undefined) return { value: protocol[key], source: fromConfig(key) };
    const count = plans.filter((p) => hasKind(p, kind)).length;
    const said = signals[kind];
    // An instruction the repository's own plans have long stopped following is not the protocol it works by (47
    // plans, one with manual items, under an iterate_plan that asks for them): the practice wins. Only with six
    // plans or more: in a young repository the plans that lack them are the departures the instruction is for.
    if (said && plans.length >= 6 && majority(plans.length - count, plans.length))
      return {
        value: false,
        source: {
          from: 'majority',
          says: `${count} of its ${plans.length} plans have ${kind} criteria, though ${whereOf(said) ?? 'an instruction'} ${said.says}`,
        },
      };
    if (said) return { value: true, source: said };
    if (signals.planTemplate)
      return {
        value: false,
        source: { ...signals.planTemplate, says: `${signals.planTemplate.says} without ${kind} criteria` },
      };
    if (majority(count, plans.length))
      return {
        value: true,
        source: { from: 'majority', says: `${count} of its ${plans.length} plans have ${kind} criteria` },
      };
    return {
      value: false,
      source: {
        from: 'default',
        says: `${count} of its ${plans.length} plans have ${kind} criteria, and no instruction asks for them`,
      },
    };
  };

  const numbering = ((): Expectation<'global' | 'any'> => {
    if (protocol.taskNumbering) return { value: protocol.taskNumbering, source: fromConfig('taskNumbering') };
    if (signals.globalTasks) return { value: 'global', source: signals.globalTasks };
    const judged = plans.map(numbersGlobally).filter((x): x is boolean => x !== null);
    const global = judged.filter(Boolean).length;
    if (majority(global, judged.length))
      return {
        value: 'global',
        source: {
          from: 'majority',
          says: `${global} of its ${judged.length} plans with tasks in several phases number them across the plan`,
        },
      };
    return {
      value: 'any',
      source: {
        from: 'default',
        says: `${global} of its ${judged.length} plans with tasks in several phases number them across the plan`,
      },
    };
  })();

  const chain = ((): Expectation<boolean> => {
    if (protocol.handoffChain !== undefined)
      return { value: protocol.handoffChain, source: fromConfig('handoffChain') };
    if (signals.chain) return { value: true, source: signals.chain };
    const later = tasks.filter((h) => (h.task ?? h.fileTask ?? 0) > 1);
    const named = later.filter((h) => h.previous !== null).length;
    if (majority(named, later.length))
      return {
        value: true,
        source: {
          from: 'majority',
          says: `${named} of its ${later.length} task handoffs after the first name \`previous:\``,
        },
      };
    return {
      value: false,
      source: {
        from: 'default',
        says: `${named} of its ${later.length} task handoffs after the first name \`previous:\`, and no instruction asks for it`,
      },
    };
  })();

  const layout = ((): Expectation<'sessions' | 'flat'> => {
    if (protocol.handoffLayout) return { value: protocol.handoffLayout, source: fromConfig('handoffLayout') };
    if (signals.flat && !signals.sessions) return { value: 'flat', source: signals.flat };
    if (signals.sessions) return { value: 'sessions', source: signals.sessions };
    const all = input.handoffs.filter((h) => h.readable);
    const flat = all.filter((h) => h.session === null).length;
    if (majority(flat, all.length))
      return {
        value: 'flat',
        source: { from: 'majority', says: `${flat} of its ${all.length} handoffs sit directly in the handoffs folder` },
      };
    return {
      value: 'sessions',
      source: { from: 'default', says: `${all.length - flat} of its ${all.length} handoffs sit in session folders` },
    };
  })();

  const taskHandoffs = ((): Expectation<boolean> => {
    if (protocol.taskHandoffs !== undefined)
      return { value: protocol.taskHandoffs, source: fromConfig('taskHandoffs') };
    if (signals.taskHandoff) return { value: true, source: signals.taskHandoff };
    if (tasks.length > 0)
      return { value: true, source: { from: 'majority', says: `it has ${tasks.length} task handoffs` } };
    // A session ledger is the same workflow's record: its sessions hand off task by task.
    if ((input.ledgers ?? 0) > 0)
      return { value: true, source: { from: 'majority', says: `it keeps ${input.ledgers} session ledgers` } };
    return {
      value: false,
      source: { from: 'default', says: 'it has no task handoff, and no instruction asks for one' },
    };
  })();

  const searchableLayout: Expectation<boolean> = signals.searchable
    ? { value: true, source: signals.searchable }
    : { value: false, source: { from: 'default', says: 'no instruction names `thoughts/searchable/`' } };

  return {
    searchableLayout,
    manualConfirmation: manualConfirmationOf(signals),
    taskHandoffs,
    automatedCriteria: criteria('automated'),
    manualCriteria: criteria('manual'),
    taskNumbering: numbering,
    handoffChain: chain,
    handoffLayout: layout,
  };
}

/**
 * Whether the instructions say manual items wait for a person's confirmation: a part of the profile that needs only
 * the instructions (no plans, no config), so each door can word the findings that cite it (engine/findings.ts
 * citeInstructions).
 */
export function manualConfirmationOf(signals: Pick<InstructionSignals, 'confirmation'>): Expectation<boolean> {
  return signals.confirmation
    ? { value: true, source: signals.confirmation }
    : {
        value: false,
        source: {
          from: 'default',
          says: "no instruction says manual items wait for the user's confirmation (history/manual-confirmation asks it all the same)",
        },
      };
}

/** `.claude/commands/create_plan.md (line 40)`: the file a source names, with its line; null when it names none. */
function whereOf(source: ProfileSource): string | null {
  return source.file ? `${source.file}${source.line ? ` (line ${source.line})` : ''}` : null;
}

/** "this repository's .claude/commands/create_plan.md (line 40) asks for `#### Manual Verification:`". */
export function describeSource(source: ProfileSource): string {
  const where = whereOf(source);
  switch (source.from) {
    case 'config':
      return `${where ?? 'the config'} ${source.says}`;
    case 'instructions':
      return `this repository's ${where} ${source.says}`;
    case 'majority':
      return `this repository's own files: ${source.says}`;
    case 'strict':
      return source.says;
    default:
      return source.says;
  }
}
