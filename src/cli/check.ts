// The default command and its history doors: read the workflow files, judge them (snapshot rules over the files,
// transition rules over history, the index or a range), report, and pick the exit code.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { loadConfig, type Config, type Preset } from '../config/config.js';
import { repositoryRoot } from '../read/discover.js';
import { lintRepositoryParallel, snapshotEntry } from '../engine/lint.js';
import { judgePackHistory } from '../packs/run.js';
import { runSnapshot } from '../engine/snapshot.js';
import { compareFindings, type Finding } from '../engine/finding.js';
import { RULES, RULE_IDS } from '../engine/catalog.js';
import type { WorkflowFile, Workspace } from '../model/types.js';
import type { TimelineEntry } from '../model/history.js';
import { cacheFile, cacheKey, loadCache, saveCache } from '../history/cache.js';
import { gitSync } from '../shared/git.js';
import { key } from '../history/store.js';
import { summarize } from '../report/summary.js';
import { formatJson } from '../report/json.js';
import { formatStylish } from '../report/stylish.js';
import { applyBaseline, BASELINE_FILE, writeBaseline } from '../engine/baseline.js';
import { formatSarif } from '../report/sarif.js';
import { formatGithub } from '../report/github.js';
import { formatMarkdown } from '../report/markdown.js';
import type { Summary } from '../report/summary.js';
import { EXIT, UsageError, type Io } from './io.js';

export const FORMATS = ['stylish', 'json', 'sarif', 'github', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

export interface CheckOptions {
  paths: string[];
  format: Format;
  /** Also append the markdown report to $GITHUB_STEP_SUMMARY. */
  summary: boolean;
  preset?: Preset;
  config?: string;
  maxWarnings?: number;
  quiet: boolean;
  history: boolean;
  /** Record today's findings as the baseline instead of reporting them. */
  baselineWrite?: boolean;
  /** Which door: the whole repository, the index (pre-commit), a message (commit-msg), or a range (pre-push, PRs). */
  door: { kind: 'repository' } | { kind: 'staged' } | { kind: 'commit-msg'; file: string } | { kind: 'range'; from: string | null; to: string };
}

function toRepoPath(root: string, cwd: string, path: string): string {
  const abs = resolve(cwd, path);
  if (!existsSync(abs)) throw new UsageError(`no such file or directory: ${path}`);
  return relative(root, abs).split(sep).join('/');
}

function within(file: string | null, scopes: string[]): boolean {
  if (file === null || scopes.length === 0) return true;
  return scopes.some((s) => s === '' || file === s || file.startsWith(`${s}/`));
}

/** `A..B`, `A...B` or `..B`; a missing or all-zero A means "from the beginning" (a push to an empty remote). */
export function parseRange(range: string): { from: string | null; to: string } {
  const m = /^(.*?)\.\.\.?(.*)$/.exec(range);
  if (!m || !m[2]) throw new UsageError(`--range needs <from>..<to> (got "${range}")`);
  return { from: m[1] || null, to: m[2] };
}

function commentFree(message: string): string {
  // Git strips these lines after the hook runs; they are not part of the message.
  return message
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .trim();
}

interface Judged {
  findings: Finding[];
  /** The workflow files judged (for the summary, and to say so when there are none). */
  files: string[];
  commits: number;
  /** Something was there to judge (files now, or commits in history). */
  anything: boolean;
  /** For the review report: the workspace judged and what history says of its tasks and manual items. */
  workspace?: Workspace;
  timeline?: TimelineEntry[];
}

/** What cached results depend on besides the tool: the hooks must compute the same key the full run wrote. */
function settingsKey(config: Config, opts: CheckOptions): string {
  return cacheKey([config.paths, config.maxFileBytes, opts.preset ?? null]);
}

/**
 * The repository door: the working tree with the snapshot rules, and the history of HEAD, both through the cache
 * under .git/ so an unchanged repository is judged from what the last run learned.
 */
async function judgeRepository(root: string, inGit: boolean, config: Config, opts: CheckOptions): Promise<Judged> {
  const cachePath = inGit ? cacheFile(root) : null;
  const ck = settingsKey(config, opts);
  const cache = loadCache(cachePath, ck);
  const known = new Map(Object.entries(cache?.models ?? {}));
  const lint = await lintRepositoryParallel(root, config, inGit, known, { baseline: !opts.baselineWrite });
  const files = [...lint.discovered.map((d) => d.path), ...lint.packFiles];
  const findings = lint.findings;
  const treeModels = lint.models;
  if (!inGit || !opts.history) {
    saveCache(cachePath, { key: ck, head: cache?.head ?? null, commits: cache?.commits ?? 0, findings: cache?.findings ?? [], timeline: cache?.timeline ?? [], state: cache?.state ?? [], models: Object.fromEntries(treeModels) });
    return { findings, files, commits: 0, anything: files.length > 0, workspace: lint.workspace, timeline: [] };
  }
  const head = gitSync(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  const sha = head.ok ? head.out.trim() : null;
  let hist: { findings: Finding[]; commits: number; state: Map<string, string>; models: Map<string, WorkflowFile>; timeline: TimelineEntry[] };
  if (sha && cache?.head === sha) {
    hist = { findings: cache.findings, commits: cache.commits, state: new Map(cache.state), models: known, timeline: cache.timeline };
  } else {
    const { judgeHistory } = await import('../history/engine.js');
    const since = sha && cache?.head && gitSync(root, ['merge-base', '--is-ancestor', cache.head, sha]).ok ? { sha: cache.head, state: new Map(cache.state), findings: cache.findings, commits: cache.commits, timeline: cache.timeline } : undefined;
    const seed = new Map([...known, ...treeModels]);
    const r = await judgeHistory(root, { config, presetOverride: opts.preset, seed, since });
    // Pack files have their own history rules (append-only, accumulate-only); they join the cached findings.
    if (!r.findings.some((f) => f.ruleId === 'history/incomplete')) {
      const revs = since ? ['HEAD', `^${since.sha}`] : ['HEAD'];
      r.findings.push(...(await judgePackHistory(root, config, revs)));
    }
    hist = { findings: r.findings, commits: r.commits, state: r.state ?? new Map(), models: r.store?.models ?? new Map(), timeline: r.timeline ?? [] };
  }
  // Keep the models of HEAD's files and of the working tree: what the next run is most likely to meet again.
  const keep: Record<string, WorkflowFile> = Object.fromEntries(treeModels);
  for (const [path, blob] of hist.state) {
    const k = key(blob, path);
    const m = hist.models.get(k) ?? known.get(k);
    if (m) keep[k] = m;
  }
  if (!hist.findings.some((f) => f.ruleId === 'history/incomplete')) {
    saveCache(cachePath, { key: ck, head: sha, commits: hist.commits, findings: hist.findings, timeline: hist.timeline, state: [...hist.state], models: keep });
  }
  // The snapshot pass applied its part of the baseline; history entries are judged here, against history findings.
  const histFindings = opts.baselineWrite ? hist.findings : applyBaseline(root, hist.findings, { config, scope: (ruleId) => !snapshotEntry(ruleId) });
  return { findings: [...findings, ...histFindings], files, commits: hist.commits, anything: files.length > 0 || hist.commits > 0, workspace: lint.workspace, timeline: hist.timeline };
}

async function judge(opts: CheckOptions, root: string, inGit: boolean, config: Config): Promise<Judged> {
  const door = opts.door;
  const presetOverride = opts.preset;
  if (door.kind === 'repository') return judgeRepository(root, inGit, config, opts);
  if (!inGit) throw new UsageError(`${door.kind === 'range' ? '--range' : door.kind === 'staged' ? '--staged' : 'commit-msg'} needs a git repository`);
  const engine = await import('../history/engine.js');
  if (door.kind === 'range') {
    const hist = await engine.judgeHistory(root, { config, presetOverride, from: door.from, to: door.to });
    const changed = new Set(hist.changed ?? []);
    const workspace = hist.store ? engine.snapshotAt(root, door.to, config, hist.store).workspace(root) : undefined;
    const snapshot = workspace && changed.size ? runSnapshot(workspace, RULES, config, RULE_IDS, changed).filter((f) => f.file !== null) : [];
    // Only entries of the files the range changed can be judged here; the others would all look stale.
    const packs = hist.findings.some((f) => f.ruleId === 'history/incomplete') ? [] : await judgePackHistory(root, config, door.from && !/^0+$/.test(door.from) ? [door.to, `^${door.from}`] : [door.to]);
    const found = applyBaseline(root, [...hist.findings, ...packs, ...snapshot], { config, scope: (_id, file) => changed.has(file) });
    return { findings: found, files: [...changed], commits: hist.commits, anything: true, workspace, timeline: hist.timeline };
  }
  let message: string | undefined;
  if (door.kind === 'commit-msg') {
    if (!existsSync(door.file)) throw new UsageError(`no such message file: ${door.file}`);
    message = commentFree(readFileSync(door.file, 'utf8'));
  }
  // The hooks read the cache (never write it): unchanged files are not parsed again on every commit.
  const cache = loadCache(cacheFile(root), settingsKey(config, opts));
  const seed = new Map(Object.entries(cache?.models ?? {}));
  const pending = engine.judgePending(root, { config, presetOverride, stage: door.kind, message, seed });
  // The snapshot rules judge the files as the commit would make them, reported for the files it changes.
  const changed = new Set(pending.changed);
  const snapshot = runSnapshot(pending.after.workspace(root), RULES, config, RULE_IDS, changed).filter((f) => f.file !== null);
  const found = applyBaseline(root, [...pending.findings, ...snapshot], { config, scope: (_id, file) => changed.has(file) });
  return { findings: found, files: [...changed], commits: 0, anything: true };
}

/** Where rule pages can be read: the published package's files, at this version. */
export function docsBase(): string {
  return `https://unpkg.com/validate-workflow@${toolVersion()}`;
}

export function toolVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function render(format: Format, findings: Finding[], summary: Summary, io: Io, markdown: () => string): string {
  switch (format) {
    case 'json':
      return formatJson(findings, summary);
    case 'sarif':
      return formatSarif(findings, RULES, { version: toolVersion(), docsBase: docsBase() });
    case 'github':
      return formatGithub(findings, { reportHint: 'run `npx validate-workflow` locally, or see the job summary' });
    case 'markdown':
      return markdown();
    default:
      return formatStylish(findings, summary, { color: io.color });
  }
}

export async function check(opts: CheckOptions, io: Io): Promise<number> {
  const inGit = repositoryRoot(io.cwd);
  const root = inGit ?? io.cwd;
  const config = loadConfig(root, opts.config ? resolve(io.cwd, opts.config) : undefined, RULE_IDS);
  if (opts.preset) config.preset = opts.preset;
  const scopes = opts.paths.map((p) => toRepoPath(root, io.cwd, p));

  const judged = await judge(opts, root, inGit !== null, config);
  if (opts.baselineWrite) {
    if (opts.door.kind !== 'repository' || scopes.length) throw new UsageError('--baseline-write records the whole repository: drop paths, --staged, --range and commit-msg');
    const { entries } = writeBaseline(root, judged.findings);
    io.stdout(`validate-workflow: wrote ${BASELINE_FILE} with ${entries} entr${entries === 1 ? 'y' : 'ies'} (${judged.findings.length} findings); later runs report only what is new.\n`);
    return EXIT.ok;
  }
  const files = judged.files.filter((f) => within(f, scopes));
  if (!judged.anything || (scopes.length > 0 && files.length === 0 && opts.door.kind === 'repository')) {
    const where = [...config.paths.plans, ...config.paths.handoffs, ...config.paths.ledgers].join(', ');
    const note = `validate-workflow: no workflow files found${scopes.length ? ` under ${opts.paths.join(', ')}` : ''} (looked for ${where}).\n`;
    if (opts.format !== 'stylish') {
      io.stderr(note);
      io.stdout(render(opts.format, [], summarize([], 0, 0), io, () => `## validate-workflow review\n\n${note}`));
    } else io.stdout(note);
    return EXIT.ok;
  }
  let findings = judged.findings.filter((f) => within(f.file, scopes)).sort(compareFindings);
  if (opts.quiet) findings = findings.filter((f) => f.severity === 'error');
  const summary = summarize(findings, files.length, judged.commits);
  const markdown = () => formatMarkdown({ findings, summary, workspace: judged.workspace ?? null, timeline: judged.timeline ?? [], rules: RULES, docsBase: docsBase() });
  io.stdout(render(opts.format, findings, summary, io, markdown));
  if (opts.summary) {
    const target = io.env.GITHUB_STEP_SUMMARY;
    if (!target) io.stderr('validate-workflow: --summary: GITHUB_STEP_SUMMARY is not set, no summary written.\n');
    else appendFileSync(target, `${markdown()}\n`);
  }

  if (summary.errors > 0) return EXIT.findings;
  if (opts.maxWarnings !== undefined && summary.warnings > opts.maxWarnings) {
    const note = `validate-workflow: ${summary.warnings} warnings exceed --max-warnings ${opts.maxWarnings}.\n`;
    if (opts.format === 'stylish') io.stdout(note);
    else io.stderr(note);
    return EXIT.findings;
  }
  return EXIT.ok;
}
