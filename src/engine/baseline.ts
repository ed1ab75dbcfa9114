// The baseline, for adopting the tool in a repository that already has violations: `--baseline-write` records
// today's findings counted per file and rule (the shape of ESLint's suppressions file), later runs report only what
// goes beyond those counts, and an entry that counts more than remains is itself reported, so the baseline can only
// shrink. Counts rather than lines or messages: a finding's line moves whenever the file above it is edited, and a
// baseline that broke on every edit would be rewritten wholesale, which is how new violations slip into it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config/config.js';
import { BASELINE_FILE, type Snapshot } from '../history/snapshot.js';
import { rule as staleRule } from '../rules/baseline/stale.js';
import { compareFindings, type Finding } from '../model/finding.js';
import { formatMessage, severityOf, toFinding } from './findings.js';
import { isRecord } from '../shared/text.js';
import { gitSync } from '../shared/git.js';

export { BASELINE_FILE };

export const STALE_RULE = staleRule.meta.id;

/** `{ "<file>": { "<ruleId>": { "count": n } } }`, as written to validate-workflow.baseline.json. */
export type Baseline = Record<string, Record<string, { count: number }>>;

export interface BaselineOptions {
  /**
   * Which entries this pass may judge. A run judges snapshot rules and history rules in separate passes; each pass
   * must leave the other's entries alone, or every history entry would look stale to the snapshot pass.
   */
  scope?: (ruleId: string, file: string) => boolean;
  /** For the severity of `baseline/stale` (`rules: {"baseline/stale": "off" | "warn" | "error"}`). */
  config?: Config;
  /** The baseline to apply (a commit's, see baselineAt); the working tree's file when left out. */
  baseline?: Baseline | null;
  /** Commits whose findings no baseline covers: those that change the baseline themselves. */
  exempt?: ReadonlySet<string>;
}

/**
 * What a baseline may hold: a finding about a file, of a problem's severity. Infos are notes, never failures, so
 * there is nothing to suppress; a finding without a file (`history/incomplete`) says the run could not judge at
 * all, which no count of yesterday's findings may excuse; and the baseline does not record its own findings.
 */
function countable(f: Finding): f is Finding & { file: string } {
  return f.file !== null && f.severity !== 'info' && f.ruleId !== STALE_RULE;
}

const keyOf = (file: string, ruleId: string) => `${file}\0${ruleId}`;

function sortedKeys<T>(record: Record<string, T>): string[] {
  // Code-unit order, not localeCompare: the file must come out byte-identical on every machine and locale.
  return Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Counts per file and rule, with sorted keys so the written file is stable (diffs show only real changes). */
export function countFindings(findings: readonly Finding[]): Baseline {
  const counts: Baseline = {};
  for (const f of findings) {
    if (!countable(f)) continue;
    const byRule = (counts[f.file] ??= {});
    byRule[f.ruleId] = { count: (byRule[f.ruleId]?.count ?? 0) + 1 };
  }
  const sorted: Baseline = {};
  for (const file of sortedKeys(counts)) {
    const byRule = counts[file]!;
    sorted[file] = {};
    for (const ruleId of sortedKeys(byRule)) sorted[file][ruleId] = { count: byRule[ruleId]!.count };
  }
  return sorted;
}

export function formatBaseline(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

/** Records the findings as the repository's baseline. @returns the number of (file, rule) entries written */
export function writeBaseline(root: string, findings: Finding[]): { entries: number } {
  const baseline = countFindings(findings);
  writeFileSync(join(root, BASELINE_FILE), formatBaseline(baseline));
  return { entries: Object.values(baseline).reduce((n, byRule) => n + Object.keys(byRule).length, 0) };
}

/** The repository's baseline, or null when it has none. A malformed file is a usage error (exit 2) that says where. */
export function readBaseline(root: string): Baseline | null {
  const path = join(root, BASELINE_FILE);
  if (!existsSync(path)) return null;
  return parseBaseline(readFileSync(path, 'utf8'));
}

/**
 * The baseline as a commit holds it (the hooks and a range read the parent's, never the working tree's: an entry
 * nobody committed must not excuse the commit being judged). Null when that commit has none.
 */
export function baselineAt(root: string, rev: string): Baseline | null {
  const res = gitSync(root, ['show', `${rev}:${BASELINE_FILE}`]);
  return res.ok ? parseBaseline(res.out) : null;
}

/** The baseline a snapshot holds (HEAD's, listed already by the door that asks): no git process of its own. */
export function baselineIn(snapshot: Snapshot): Baseline | null {
  const blob = snapshot.files.get(BASELINE_FILE);
  return blob ? parseBaseline(snapshot.store.text(blob)) : null;
}

function parseBaseline(text: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(
      `${BASELINE_FILE}: not valid JSON (${(err as Error).message}); rewrite it with \`validate-workflow --baseline-write\`.`,
    );
  }
  const bad = (where: string, what: string) =>
    new ConfigError(
      `${BASELINE_FILE}: ${where} ${what}; the file is \`{ "<file>": { "<ruleId>": { "count": n } } }\`, rewrite it with \`validate-workflow --baseline-write\`.`,
    );
  if (!isRecord(data)) throw bad('the top level', 'is not an object');
  for (const [file, byRule] of Object.entries(data)) {
    if (!isRecord(byRule)) throw bad(`"${file}"`, 'is not an object of rule ids');
    for (const [ruleId, entry] of Object.entries(byRule)) {
      const count = isRecord(entry) ? entry.count : undefined;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
        throw bad(`"${file}" -> "${ruleId}"`, 'has no whole-number `count`');
    }
  }
  return data as Baseline;
}

/**
 * The findings the baseline does not cover, plus one `baseline/stale` finding per entry that counts more findings
 * than remain. Without a baseline file the findings come back unchanged.
 *
 * When a file has more findings of a rule than its entry counts, every finding of that rule in that file is
 * reported, as ESLint does with its suppressions: which of them are the new ones cannot be told (lines move, texts
 * repeat), and reporting an arbitrary `n - count` of them could show old ones while hiding the new one. Each says
 * how many the baseline allows, so the reader knows most of them are known.
 */
export function applyBaseline(root: string, findings: Finding[], opts: BaselineOptions = {}): Finding[] {
  const baseline = opts.baseline !== undefined ? opts.baseline : readBaseline(root);
  if (!baseline) return findings;
  const exempt = opts.exempt ?? new Set<string>();
  const inScope = opts.scope ?? (() => true);
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    // A commit that changes the baseline cannot have its own findings covered by it.
    if (!countable(f) || !inScope(f.ruleId, f.file) || (f.commit && exempt.has(f.commit))) continue;
    const k = keyOf(f.file, f.ruleId);
    const group = groups.get(k);
    if (group) group.push(f);
    else groups.set(k, [f]);
  }
  const suppressed = new Set<Finding>();
  const grown = new Map<Finding, { allowed: number; now: number }>();
  const stale: Finding[] = [];
  const level = staleLevel(opts.config);
  for (const file of sortedKeys(baseline)) {
    for (const ruleId of sortedKeys(baseline[file]!)) {
      if (!inScope(ruleId, file)) continue;
      const allowed = baseline[file]![ruleId]!.count;
      const now = groups.get(keyOf(file, ruleId)) ?? [];
      if (now.length <= allowed) for (const f of now) suppressed.add(f);
      else for (const f of now) grown.set(f, { allowed, now: now.length });
      if (now.length < allowed && level !== 'off') stale.push(staleFinding(file, ruleId, allowed, now.length, level));
    }
  }
  const out: Finding[] = [];
  for (const f of findings) {
    if (suppressed.has(f)) continue;
    const g = grown.get(f);
    out.push(
      g
        ? {
            ...f,
            message: formatMessage(staleRule.meta.messages.grown!, {
              message: f.message,
              allowed: g.allowed,
              rule: f.ruleId,
              findings: g.allowed === 1 ? 'finding' : 'findings',
              now: g.now,
            }),
          }
        : f,
    );
  }
  return [...out, ...stale].sort(compareFindings);
}

function staleLevel(config: Config | undefined): 'off' | 'info' | 'warn' | 'error' {
  return config ? severityOf(staleRule, config) : staleRule.meta.severities.recommended;
}

function staleFinding(
  file: string,
  ruleId: string,
  allowed: number,
  now: number,
  level: 'info' | 'warn' | 'error',
): Finding {
  const remains = now === 0 ? 'none remains' : `${now} remain${now === 1 ? 's' : ''}`;
  return toFinding(
    staleRule,
    {
      file,
      line: null,
      messageId: 'stale',
      data: { allowed, rule: ruleId, findings: allowed === 1 ? 'finding' : 'findings', remains },
    },
    level,
  );
}
