// `--format sarif` over a real repository with findings of every rule family (snapshot and history), validated
// against the official SARIF 2.1.0 JSON Schema, plus what GitHub code scanning needs beyond the schema.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { firstSentence, formatSarif, pathToUri } from '../../src/report/sarif.js';
import { RULES } from '../../src/engine/catalog.js';
import type { Rule } from '../../src/rules/types.js';
import { BAD_NAME, STRAY, family, shallowFindings, violations, type Violations } from './fixtures.js';
import { runCliHere } from '../helpers/repo.js';

// The schema as Microsoft publishes it (SARIF 2.1.0 rtm.5, the version code scanning documents), from the dev
// dependency @microsoft/jest-sarif, copied into test/fixtures/sarif/: nothing is fetched at run time.
const SCHEMA_FILE = fileURLToPath(new URL('../fixtures/sarif/sarif-2.1.0-rtm.5.json', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const DOCS = 'https://github.com/example/validate-workflow/blob/main';
const OPTS = { version: VERSION, docsBase: DOCS };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The file declares draft-04 (`$schema` draft-04, `id`), which ajv 8 does not ship. Its keywords are a subset of
 * draft-07's with one draft-04-only form: boolean `exclusiveMinimum`/`exclusiveMaximum`. Refuse to go on if that form
 * appears, then validate as draft-07 with `id` read as `$id`. `strictSchema` (ajv's default) throws on any keyword or format ajv would otherwise
 * ignore, so nothing of the schema is silently dropped; the style checks (`required` inside `anyOf`) stay off. One pattern (`language`) has a stray `]` that is legal
 * in a plain ECMAScript regex but not under the `u` flag ajv 8 adds by default: compile patterns without it.
 */
function sarifValidator(): ValidateFunction {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Json;
  expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
  expect(schema.properties.version.enum).toEqual(['2.1.0']);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === 'exclusiveMinimum' || k === 'exclusiveMaximum')
          expect(typeof v, `${k} in the SARIF schema`).toBe('number');
        walk(v);
      }
    }
  };
  walk(schema);
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({
    allErrors: true,
    strictSchema: true,
    strictRequired: false,
    strictTypes: false,
    strictTuples: false,
    unicodeRegExp: false,
  });
  addFormats.default(ajv);
  return ajv.compile({ $id: id, ...rest });
}

function expectValid(validate: ValidateFunction, log: unknown): void {
  const ok = validate(log);
  expect(validate.errors ?? [], 'SARIF schema errors').toEqual([]);
  expect(ok).toBe(true);
}

let validate: ValidateFunction;
let v: Violations;
let all: Finding[];
let log: Json;

beforeAll(async () => {
  validate = sarifValidator();
  v = await violations();
  all = [...v.findings, ...(await shallowFindings(v.repo))];
  log = JSON.parse(formatSarif(all, RULES, OPTS)) as Json;
});

describe('the fixture repository', () => {
  it('has findings of every rule family, from the snapshot and from history, and one about the repository as a whole', () => {
    expect([...new Set(all.map((f) => family(f.ruleId)))].sort()).toEqual([
      'disable',
      'handoff',
      'history',
      'layout',
      'ledger',
      'plan',
    ]);
    expect(all.some((f) => f.commit && f.ruleId === 'history/manual-confirmation')).toBe(true);
    expect(all.some((f) => f.commit && f.ruleId === 'history/handoff-deleted')).toBe(true);
    expect(all.filter((f) => f.file === null).map((f) => f.ruleId)).toEqual(['history/incomplete']);
    expect(new Set(all.map((f) => f.severity))).toEqual(new Set(['error', 'warning', 'info']));
  });
});

describe('formatSarif', () => {
  it('validates against the official SARIF 2.1.0 schema', () => {
    expectValid(validate, log);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.runs).toHaveLength(1);
  });

  it('still validates with no findings, and with only the repository-wide one', async () => {
    expectValid(validate, JSON.parse(formatSarif([], RULES, OPTS)));
    expectValid(validate, JSON.parse(formatSarif(await shallowFindings(v.repo), RULES, OPTS)));
  });

  it('the validator is live: it rejects what the schema forbids', () => {
    const broken = structuredClone(log);
    broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    expect(validate(broken)).toBe(false);
    const badLevel = structuredClone(log);
    badLevel.runs[0].results[0].level = 'info';
    expect(validate(badLevel)).toBe(false);
    // The raw path is not a URI reference (space, `#`, a `%` not followed by hex digits): why URIs are encoded.
    const raw = structuredClone(log);
    const stray = raw.runs[0].results.find((r: Json) => r.ruleId === 'layout/paths');
    stray.locations[0].physicalLocation.artifactLocation.uri = STRAY;
    expect(validate(raw)).toBe(false);
  });

  it('names the tool, its version and where to read about it', () => {
    const driver = log.runs[0].tool.driver;
    expect(driver).toMatchObject({
      name: 'validate-workflow',
      version: VERSION,
      semanticVersion: VERSION,
      informationUri: DOCS,
    });
    // A trailing slash on the base does not double up in the links.
    const slashed = JSON.parse(formatSarif([], RULES, { version: VERSION, docsBase: `${DOCS}/` })) as Json;
    expect(slashed.runs[0].tool.driver.rules[0].helpUri).toBe(`${DOCS}/docs/rules/${RULES[0]!.meta.id}.md`);
    // A version that is not SemVer is not claimed as one.
    const dev = JSON.parse(formatSarif([], RULES, { version: 'dev build', docsBase: DOCS })) as Json;
    expect(dev.runs[0].tool.driver.version).toBe('dev build');
    expect(dev.runs[0].tool.driver).not.toHaveProperty('semanticVersion');
    // A base that is not an absolute URI would make the links invalid: they are left out, the log stays valid.
    const local = JSON.parse(formatSarif(all, RULES, { version: VERSION, docsBase: 'docs here' })) as Json;
    expectValid(validate, local);
    expect(local.runs[0].tool.driver).not.toHaveProperty('informationUri');
    expect(local.runs[0].tool.driver.rules[0]).not.toHaveProperty('helpUri');
  });

  it('describes every rule: id, first sentence, full description, help page that exists, default level', () => {
    const rules = log.runs[0].tool.driver.rules as Json[];
    expect(rules.map((r) => r.id)).toEqual(RULES.map((r) => r.meta.id));
    const level = { error: 'error', warn: 'warning', info: 'note', off: 'none' } as const;
    RULES.forEach((rule, i) => {
      const d = rules[i]!;
      expect(d.shortDescription.text).toBe(firstSentence(rule.meta.description));
      expect(rule.meta.description.startsWith(d.shortDescription.text)).toBe(true);
      // Within code scanning's 1024-character limit, so nothing had to be clipped.
      expect(d.fullDescription.text).toBe(rule.meta.description);
      expect(d.fullDescription.text.length).toBeLessThanOrEqual(1024);
      expect(d.helpUri).toBe(`${DOCS}/docs/rules/${rule.meta.id}.md`);
      expect(existsSync(`${ROOT}docs/rules/${rule.meta.id}.md`), `docs page of ${rule.meta.id}`).toBe(true);
      expect(d.help.text).toContain(rule.meta.fix);
      expect(d.defaultConfiguration.level).toBe(level[rule.meta.severities.recommended]);
    });
    const byId = new Map(rules.map((r) => [r.id as string, r]));
    expect(byId.get('handoff/path')!.defaultConfiguration.level).toBe('warning');
    expect(byId.get('plan/schema')!.defaultConfiguration.level).toBe('error');
  });

  it('keeps rule descriptions within the 1024 characters code scanning allows', () => {
    const long: Rule = { meta: { ...RULES[0]!.meta, id: 'plan/long', description: `${'word '.repeat(300)}end.` } };
    const d = (JSON.parse(formatSarif([], [long], OPTS)) as Json).runs[0].tool.driver.rules[0];
    expect(d.shortDescription.text).toHaveLength(1024);
    expect(d.fullDescription.text).toHaveLength(1024);
    expect(d.fullDescription.text.endsWith('…')).toBe(true);
  });

  it('cuts the short description at the first sentence, not at a period inside code or parentheses', () => {
    expect(
      firstSentence(
        'The plan parses (its frontmatter is valid YAML) and satisfies schemas/plan.schema.json. More here.',
      ),
    ).toBe('The plan parses (its frontmatter is valid YAML) and satisfies schemas/plan.schema.json.');
    expect(firstSentence('An item reading `N/A ...` counts. Second.')).toBe('An item reading `N/A ...` counts.');
    expect(firstSentence('Words (see a. b. c.) end here. Next.')).toBe('Words (see a. b. c.) end here.');
    expect(firstSentence('No period at all')).toBe('No period at all');
  });

  it('reports each located finding as a result with rule, level, message and fix, file and position', () => {
    const results = log.runs[0].results as Json[];
    const located = all.filter((f) => f.file !== null);
    expect(results).toHaveLength(located.length);
    const rules = log.runs[0].tool.driver.rules as Json[];
    const level = { error: 'error', warning: 'warning', info: 'note' } as const;
    located.forEach((f, i) => {
      const r = results[i]!;
      expect(r.ruleId).toBe(f.ruleId);
      expect(rules[r.ruleIndex]!.id).toBe(f.ruleId);
      expect(r.level).toBe(level[f.severity]);
      expect(r.message.text.startsWith(f.message)).toBe(true);
      expect(r.message.text.endsWith(` ${f.fix}`)).toBe(true);
      const loc = r.locations[0].physicalLocation;
      expect(decodeURIComponent(loc.artifactLocation.uri)).toBe(f.file);
      expect(loc.artifactLocation.uri).not.toMatch(/^\/|\\/);
      expect(loc.region.startLine).toBe(f.line);
      expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
      expect(loc.region.startColumn).toBe(f.column);
    });
    expect(results.map((r) => r.level)).toEqual(expect.arrayContaining(['error', 'warning', 'note']));
  });

  it('encodes paths as URI references', () => {
    const results = log.runs[0].results as Json[];
    const uriOf = (ruleId: string) =>
      results.find((r) => r.ruleId === ruleId)!.locations[0].physicalLocation.artifactLocation.uri;
    expect(uriOf('layout/paths')).toBe('thoughts/handoffs/stray%20notes%20%231%20100%25.md');
    expect(uriOf('handoff/path')).toBe(BAD_NAME);
    expect(pathToUri('a:b/c d.md')).toBe('a%3Ab/c%20d.md');
  });

  it('gives history findings their commit and subject, in properties and in the message', () => {
    const results = log.runs[0].results as Json[];
    const manual = results.find((r) => r.ruleId === 'history/manual-confirmation')!;
    expect(manual.properties).toEqual({ commit: v.manualCommit, subject: 'Phase 1 verified' });
    expect(manual.message.text).toContain(`commit ${v.manualCommit.slice(0, 12)} "Phase 1 verified"`);
    const deleted = results.find((r) => r.ruleId === 'history/handoff-deleted')!;
    expect(deleted.properties).toEqual({ commit: v.deleteCommit, subject: 'Tidy up old handoffs' });
    for (const r of results.filter((x) => !String(x.ruleId).startsWith('history/')))
      expect(r).not.toHaveProperty('properties');
  });

  it('gives every result a physical location with a URI, as code scanning requires of all of them', () => {
    for (const r of log.runs[0].results as Json[]) {
      expect(r.locations).toHaveLength(1);
      expect(r.locations[0].physicalLocation.artifactLocation.uri).toMatch(/^\S+$/);
    }
  });

  it('reports a repository-wide finding as a notification of the run, not as a result without a location', () => {
    const results = log.runs[0].results as Json[];
    expect(results.some((r) => r.ruleId === 'history/incomplete')).toBe(false);
    const notes = log.runs[0].invocations[0].toolExecutionNotifications as Json[];
    const index = RULES.findIndex((r) => r.meta.id === 'history/incomplete');
    expect(notes).toEqual([
      {
        level: 'error',
        message: { text: expect.stringMatching(/shallow clone.*fetch-depth: 0/) },
        associatedRule: { id: 'history/incomplete', index },
      },
    ]);
    expect(log.runs[0].invocations[0].executionSuccessful).toBe(true);
  });

  it('uses line 1 for a finding with a file but no line, and leaves out an unknown column', () => {
    const f: Finding = {
      ruleId: 'handoff/schema',
      severity: 'error',
      file: 'thoughts/x.md',
      line: null,
      column: null,
      message: 'Unreadable.',
      fix: 'Fix it.',
    };
    const out = JSON.parse(formatSarif([f], RULES, OPTS)) as Json;
    expectValid(validate, out);
    expect(out.runs[0].results[0].locations[0].physicalLocation.region).toEqual({ startLine: 1 });
    expect(out.runs[0].results[0].message.text).toBe('Unreadable. Fix it.');
  });
});

describe('validate-workflow --format sarif', () => {
  it('prints a log of a history with violations that validates against the official schema, commits included', async () => {
    const res = await runCliHere(v.repo.dir, ['--format', 'sarif']);
    expect(res.code).toBe(1);
    const log = JSON.parse(res.stdout);
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const results = log.runs[0].results as { ruleId: string; properties?: { commit?: string } }[];
    const manual = results.find((r) => r.ruleId === 'history/manual-confirmation');
    expect(manual?.properties?.commit).toBe(v.manualCommit);
    expect(results.find((r) => r.ruleId === 'history/handoff-deleted')?.properties?.commit).toBe(v.deleteCommit);
  });
});
