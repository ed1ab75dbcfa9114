// `--format sarif`: SARIF 2.1.0 for GitHub code scanning (github/codeql-action/upload-sarif) and other SARIF viewers.
// See docs/formats/sarif.md for what each field carries and why.
import type { Finding } from '../model/finding.js';
import type { Rule } from '../rules/types.js';
import type { Formatter } from './formatter.js';

export interface SarifOptions {
  /** The tool's version (package.json). */
  version: string;
  /** Where the project's files are browsable: rule pages are `${docsBase}/docs/rules/<id>.md`. */
  docsBase: string;
}

// The URI GitHub's documentation asks for; consumers only use it to pick a schema.
const SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
// Repository-relative URIs are resolved against this base (SARIF 3.4.4): code scanning reads them from the repo root.
const SRCROOT = '%SRCROOT%';

type Level = 'error' | 'warning' | 'note' | 'none';

const RESULT_LEVEL: Record<Finding['severity'], Level> = { error: 'error', warning: 'warning', info: 'note' };
const DEFAULT_LEVEL: Record<'error' | 'warn' | 'info' | 'off', Level> = {
  error: 'error',
  warn: 'warning',
  info: 'note',
  off: 'none',
};

/**
 * The first sentence of a rule's description. A period inside backticks or parentheses (`N/A ...`, file names such as
 * schemas/plan.schema.json) does not end it.
 */
export function firstSentence(text: string): string {
  let code = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '`') code = !code;
    else if (code) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === '.' || c === '!' || c === '?') && (i + 1 === text.length || /\s/.test(text[i + 1]!)))
      return text.slice(0, i + 1);
  }
  return text.trim();
}

/**
 * A repository-relative path as a URI reference. Each segment is percent-encoded so a space, `#`, `?` or `%` in a file
 * name cannot be read as URI syntax, and a `:` in the first segment cannot be taken for a scheme.
 */
export function pathToUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function withFix(f: Finding): string {
  // The alert sits on the file as it is now; a history finding's line is in the commit named here (also in properties).
  const where = f.commit ? ` (commit ${f.commit.slice(0, 12)}${f.subject ? ` "${f.subject}"` : ''})` : '';
  return `${f.message}${where}${f.fix ? ` ${f.fix}` : ''}`;
}

// Code scanning documents this limit for rule descriptions: keep within it rather than rely on what it does past it.
const DESCRIPTION_MAX = 1024;

function clip(text: string): string {
  return text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`;
}

function trimSlash(base: string): string {
  return base.replace(/\/+$/, '');
}

// The schema requires absolute URIs for these links: a base that is not one (a local checkout, say) drops them
// rather than make the whole log invalid.
function absolute(uri: string): boolean {
  try {
    new URL(uri);
    return true;
  } catch {
    return false;
  }
}

export function formatSarif(findings: Finding[], rules: readonly Rule[], opts: SarifOptions): string {
  const base = trimSlash(opts.docsBase);
  const linked = absolute(base);
  const index = new Map(rules.map((r, i) => [r.meta.id, i]));
  const descriptors = rules.map((r) => {
    const helpUri = `${base}/docs/rules/${r.meta.id}.md`;
    return {
      id: r.meta.id,
      shortDescription: { text: clip(firstSentence(r.meta.description)) },
      fullDescription: { text: clip(r.meta.description) },
      // Code scanning shows `help` beside each alert and treats it as required.
      help: { text: `${r.meta.description}\n\nFix: ${r.meta.fix}${linked ? `\n\n${helpUri}` : ''}` },
      ...(linked ? { helpUri } : {}),
      defaultConfiguration: { level: DEFAULT_LEVEL[r.meta.severities.recommended] },
      properties: { tags: [r.meta.id.split('/')[0]!] },
    };
  });

  const results: Record<string, unknown>[] = [];
  const notifications: Record<string, unknown>[] = [];
  for (const f of findings) {
    const ruleIndex = index.get(f.ruleId);
    if (f.file === null) {
      // A finding about the repository as a whole (history/incomplete: a shallow clone) has no file to point at.
      // Code scanning rejects the whole upload when any result lacks a physical location ("locationFromSarifResult:
      // expected at least one location"), and the shallow clone of a default actions/checkout is exactly when this
      // finding appears. SARIF has a place for conditions of the run itself: the invocation's notifications.
      notifications.push({
        level: RESULT_LEVEL[f.severity],
        message: { text: withFix(f) },
        ...(ruleIndex === undefined ? {} : { associatedRule: { id: f.ruleId, index: ruleIndex } }),
      });
      continue;
    }
    const region: Record<string, number> = { startLine: Math.max(1, f.line ?? 1) };
    if (f.line !== null && f.column !== null && f.column >= 1) region.startColumn = f.column;
    const result: Record<string, unknown> = {
      ruleId: f.ruleId,
      ...(ruleIndex === undefined ? {} : { ruleIndex }),
      level: RESULT_LEVEL[f.severity],
      message: { text: withFix(f) },
      locations: [{ physicalLocation: { artifactLocation: { uri: pathToUri(f.file), uriBaseId: SRCROOT }, region } }],
    };
    if (f.commit) result.properties = { commit: f.commit, subject: f.subject ?? '' };
    results.push(result);
  }

  const driver: Record<string, unknown> = { name: 'validate-workflow', version: opts.version };
  // Code scanning prefers semanticVersion when present; only claim it for a real SemVer string.
  if (/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(opts.version))
    driver.semanticVersion = opts.version;
  if (linked) driver.informationUri = base;
  driver.rules = descriptors;

  const run: Record<string, unknown> = {
    tool: { driver },
    invocations: [
      { executionSuccessful: true, ...(notifications.length ? { toolExecutionNotifications: notifications } : {}) },
    ],
    // Columns come from JavaScript string offsets (micromark, yaml), which count UTF-16 code units.
    columnKind: 'utf16CodeUnits',
    results,
  };
  return `${JSON.stringify({ $schema: SCHEMA_URI, version: '2.1.0', runs: [run] }, null, 2)}\n`;
}

export const sarif: Formatter = {
  name: 'sarif',
  format: (input) => formatSarif(input.findings, input.rules, { version: input.version, docsBase: input.docsBase }),
};
