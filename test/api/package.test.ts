// The programmatic API as a user gets it: this package packed as npm would publish it, installed into a fresh
// project from the tarball, imported by name from an .mjs file and from TypeScript. What it returns must be exactly
// what the CLI's `--format json` prints on the same repository, and its types must resolve through `exports`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkInstalled, must, PROJECT, run, tempDir } from '../hooks/setup.js';
import { runCli, runCliHere } from '../helpers/repo.js';
import { violations } from '../report/fixtures.js';

const TSC = join(PROJECT, 'node_modules', 'typescript-7', 'bin', 'tsc');

/** Compiles `files` (name to source) as a consumer in `dir`, without @types/node: the declarations must stand on their own. */
function typeCheck(dir: string, files: Record<string, string>): ReturnType<typeof run> {
  mkdirSync(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      types: [],
    },
    files: Object.keys(files),
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  return run(dir, process.execPath, [TSC, '-p', 'tsconfig.json']);
}

// The consumer: calls the API with each of the option sets given as JSON, one after the other, and prints what it
// got for each (lint's result and the formats the CLI would print for it, or the error) as a JSON array.
const CONSUMER = `import { lint, format, rules, FORMATS, version } from 'validate-workflow';
const answers = [];
for (const options of JSON.parse(process.argv[2])) {
  try {
    const result = await lint(options);
    const formatted = Object.fromEntries(FORMATS.map((name) => [name, format(result, name)]));
    answers.push({ result, formatted, rules, version });
  } catch (err) {
    answers.push({ error: err.message, stack: err.stack });
  }
}
process.stdout.write(JSON.stringify(answers));
`;

// A TypeScript consumer: it compiles only if the package's declarations are found (strict mode refuses an untyped
// import) and say what the API takes; each @ts-expect-error fails the compile if the types were \`any\`.
const TS_CONSUMER = `import { lint, format, rules, type LintResult, type LintMessage } from 'validate-workflow';
const result: LintResult = await lint({ cwd: '.', preset: 'strict', range: 'HEAD~1..HEAD' });
const first: LintMessage | undefined = result.results[0];
const errors: number = result.summary.errors;
const text: string = format(result, 'sarif');
const docs: string[] = rules.map((r) => r.docs);
// @ts-expect-error: not a format
format(result, 'xml');
// @ts-expect-error: not a preset
await lint({ preset: 'lenient' });
// @ts-expect-error: the contract's summary has no such count
result.summary.total;
export { first, errors, text, docs };
`;

// A pack author's TypeScript rule test: the RuleTester and the rule types through `exports`.
const TS_TESTER = `import { RuleTester, type Rule, type RuleTesterCases } from 'validate-workflow';
const rule: Rule = {
  meta: { id: 'soong-plans/x', severities: { recommended: 'warn', strict: 'error' }, formula: '-', description: 'd', fix: 'f', messages: { m: 'M {{path}}' } },
  packSnapshot: (packs) => (packs.get('soong-plans') ?? []).map((file) => ({ file: file.path, line: null, messageId: 'm', data: { path: file.path } })),
};
const cases: RuleTesterCases = { invalid: [{ files: { 'a.md': '' }, errors: ['m', { messageId: 'm', line: 1, severity: 'warning' }] }] };
new RuleTester().run(rule, cases);
// @ts-expect-error: a severity the tool never reports
const wrong: RuleTesterCases = { invalid: [{ files: {}, errors: [{ messageId: 'm', severity: 'fatal' }] }] };
export { wrong };
`;

/**
 * The two TypeScript consumers compiled together, as written (`ok`) and each with a wrong use of the API added
 * (`bad`): a compile is a process of a second or more, and tsc names the file of each error.
 */
let compiled: { ok: ReturnType<typeof run>; bad: ReturnType<typeof run> } | undefined;
function typeChecks(): NonNullable<typeof compiled> {
  return (compiled ??= {
    ok: typeCheck(join(consumer, 'ts'), { 'use.ts': TS_CONSUMER, 'tester.ts': TS_TESTER }),
    bad: typeCheck(join(consumer, 'ts-bad'), {
      'use.ts': `${TS_CONSUMER}const wrong: string = (await lint()).summary.errors;\n`,
      'tester.ts': `${TS_TESTER}const bad: Rule = { meta: rule.meta, snapshot: () => 'none' };\nexport { bad };\n`,
    }),
  });
}

interface Consumed {
  result?: { version: number; results: Record<string, unknown>[]; summary: Record<string, number> };
  formatted?: Record<string, string>;
  rules?: { id: string; severities: Record<string, string>; docs: string }[];
  version?: string;
  error?: string;
}

let consumer: string;
let repo: string;

/** The API's options and the CLI's flags for the same run: the doors and options compared. */
const OPTIONS: [Record<string, unknown>, string[]][] = [
  [{ range: 'HEAD~3..HEAD', preset: 'strict' }, ['--range', 'HEAD~3..HEAD', '--preset', 'strict']],
  [{ paths: ['thoughts/ledgers'], history: false }, ['thoughts/ledgers', '--no-history']],
  [{ quiet: true, since: 'root' }, ['--quiet', '--since', 'root']],
];
/** Bad options, as the API and the CLI take them. */
const BAD: [Record<string, unknown>, string[]][] = [
  [{ config: 'missing.json' }, ['--config', 'missing.json']],
  [{ range: 'HEAD' }, ['--range', 'HEAD']],
];
const TWO_DOORS = { staged: true, range: 'HEAD~1..HEAD' };

let answers: Map<string, Consumed> | undefined;
/**
 * What the consumer got for `options`. Every option set the tests read is asked of one consumer process, one call
 * after the other: what is tested is the package imported by name, not a process per call, and nothing changes the
 * repository between the calls.
 */
function consume(options: Record<string, unknown>): Consumed {
  if (!answers) {
    const asked = [{}, ...OPTIONS.map(([o]) => o), ...BAD.map(([o]) => o), TWO_DOORS].map((o) => ({ cwd: repo, ...o }));
    const got = JSON.parse(must(consumer, process.execPath, ['consumer.mjs', JSON.stringify(asked)])) as Consumed[];
    answers = new Map(asked.map((o, i) => [JSON.stringify(o), got[i]!]));
  }
  const got = answers.get(JSON.stringify({ cwd: repo, ...options }));
  if (!got) throw new Error(`consume(): ${JSON.stringify(options)} is not asked of the consumer`);
  return got;
}

/** What the consumer got with `{ cwd: repo }` alone. */
const consumePlain = () => consume({});

beforeAll(async () => {
  consumer = tempDir('vw-api-');
  writeFileSync(
    join(consumer, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  // The packed tarball as npm installed it for the run (installed()); the consumer's own files are its own.
  linkInstalled(consumer);
  writeFileSync(join(consumer, 'consumer.mjs'), CONSUMER);
  repo = (await violations()).repo.dir;
  // As long as the shared install may be waited for (test/hooks/setup.ts onceForBuild), or the timer fires first.
}, 240_000);

describe('a fresh project that installed the packed tarball', () => {
  it('gets from lint() exactly the object the CLI prints with --format json', () => {
    // The built CLI in its own process here; the other comparisons run the same CLI in this process (runCliHere).
    const cli = runCli(repo, ['--format', 'json']);
    expect(cli.code).toBe(1);
    const got = consumePlain();
    expect(got.error).toBeUndefined();
    expect(got.result).toEqual(JSON.parse(cli.stdout));
    // The repository breaks rules in its files and in its history: both kinds are in what was compared.
    expect(got.result!.results.some((r) => typeof r.commit === 'string')).toBe(true);
    expect(got.result!.results.some((r) => r.commit === undefined)).toBe(true);
  });

  it("formats the result as the CLI prints each format (markdown's review of the plans included)", async () => {
    const got = consumePlain();
    for (const name of ['stylish', 'json', 'sarif', 'github', 'markdown']) {
      expect(got.formatted![name], name).toBe((await runCliHere(repo, ['--format', name])).stdout);
    }
  });

  it('takes the doors and options of the CLI: a range, a preset, paths, no history', async () => {
    for (const [options, args] of OPTIONS) {
      const cli = await runCliHere(repo, ['--format', 'json', ...args]);
      expect(consume(options).result, args.join(' ')).toEqual(JSON.parse(cli.stdout));
    }
  });

  it('rejects bad options with the message the CLI prints, not a crash', async () => {
    for (const [options, args] of BAD) {
      const cli = await runCliHere(repo, args);
      expect(cli.code).toBe(2);
      const error = consume(options).error;
      expect(error).toMatch(/^(config file not found: \S+missing\.json|--range needs <from>\.\.<to> \(got "HEAD"\))$/);
      expect(cli.stderr.split('\n')[0]).toBe(`validate-workflow: ${error}`);
    }
    expect(consume(TWO_DOORS).error).toMatch(/takes one of staged, range and commitMessage/);
  });

  it("lists the rules with their severities and the pages the CLI's SARIF links, pages the package ships", async () => {
    const got = consumePlain();
    const sarif = JSON.parse((await runCliHere(repo, ['--format', 'sarif'])).stdout) as {
      runs: {
        tool: { driver: { rules: { id: string; helpUri: string; defaultConfiguration: { level: string } }[] } };
      }[];
    };
    const descriptors = sarif.runs[0]!.tool.driver.rules;
    expect(got.rules!.map((r) => r.id)).toEqual(descriptors.map((d) => d.id));
    expect(got.rules!.map((r) => r.docs)).toEqual(descriptors.map((d) => d.helpUri));
    const version = (JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(got.version).toBe(version);
    for (const rule of got.rules!) {
      expect(rule.docs).toBe(
        `https://github.com/validate-workflow/validate-workflow/blob/v${version}/docs/rules/${rule.id}.md`,
      );
      expect(
        existsSync(join(consumer, 'node_modules', 'validate-workflow', 'docs', 'rules', `${rule.id}.md`)),
        rule.id,
      ).toBe(true);
      expect(Object.keys(rule.severities).sort()).toEqual(['recommended', 'strict']);
    }
  });

  it('type-checks a TypeScript consumer against the declarations `exports` names', () => {
    const { ok, bad } = typeChecks();
    expect(ok.out).toBe('');
    expect(ok.code).toBe(0);
    // And the check can fail: a wrong use of the API is a type error.
    expect(bad.code).not.toBe(0);
    expect(bad.out).toMatch(/^use\.ts\(\d+,\d+\): error /m);
    expect(bad.out).toMatch(/Type 'number' is not assignable to type 'string'/);
  });

  it('ships the MIT licence and names its repository', () => {
    const installed = join(consumer, 'node_modules', 'validate-workflow');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) 2026 validate-workflow contributors\n/,
    );
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/validate-workflow/validate-workflow.git',
    });
    expect(pkg.bin).toEqual({
      'validate-workflow': 'dist/bundle/main.js',
      'validate-workflow-pre-commit': 'hooks/pre-commit-framework.mjs',
    });
    // The CLI still runs from the same install: the bin npm linked, the file npx ends up running (e2e.test.ts goes
    // through npx itself).
    expect(run(consumer, join(consumer, 'node_modules', '.bin', 'validate-workflow'), ['--version']).stdout).toBe(
      `${pkg.version}\n`,
    );
  });
});

// A pack author's rule test, run as one would: the README's example file, importing RuleTester from the installed
// package, under `node --test`. It passes as written, and each wrong expectation fails it with what differs.
describe("a pack author's rule test, against the packed tarball", () => {
  const readme = readFileSync(join(PROJECT, 'README.md'), 'utf8');
  const example = /### Testing a rule\n[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const nodeTest = (source: string) => {
    writeFileSync(join(consumer, 'no-draft.test.mjs'), source);
    return run(consumer, process.execPath, ['--test', '--test-reporter=tap', 'no-draft.test.mjs']);
  };

  it("passes on the README's example as written", () => {
    expect(example).toMatch(/import \{ RuleTester \} from 'validate-workflow';/);
    const ok = nodeTest(example);
    expect(ok.out).toMatch(/^# pass 3$/m);
    expect(ok.out).toMatch(/^# fail 0$/m);
    expect(ok.code).toBe(0);
  });

  it('fails on a wrong expectation, saying which finding and what differs', () => {
    const wrongSeverity = example.replace("severity: 'warning'", "severity: 'error'");
    expect(wrongSeverity).not.toBe(example);
    const bad = nodeTest(wrongSeverity);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^# pass 2$/m);
    expect(bad.out).toMatch(/^ {4}not ok 2 - invalid: a draft plan$/m);
    expect(bad.out).toContain(
      'soong-plans/no-draft: finding 1 (.soong-agent/plans/draft-login.md draft: Plan .soong-agent/plans/draft-login.md is still a draft.): expected severity "error", got "warning"',
    );
    // What the README says such a failure prints.
    expect(readme.replace(/\s+/g, ' ')).toContain('expected severity "error", got "warning"');

    const flagged = nodeTest(
      example.replace("'.soong-agent/plans/login-flow.md'", "'.soong-agent/plans/draft-flow.md'"),
    );
    expect(flagged.code).toBe(1);
    // TAP escapes the # of the title.
    expect(flagged.out).toMatch(/^ {4}not ok 1 - valid: \\#1$/m);
    expect(flagged.out).toContain('soong-plans/no-draft: expected no finding, got 1:');

    const missing = nodeTest(
      example.replace(
        "errors: [{ messageId: 'draft', severity: 'error'",
        "errors: ['draft', { messageId: 'draft', severity: 'error'",
      ),
    );
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('soong-plans/no-draft: expected 2 finding(s) [draft, draft], got 1:');
  });

  it('type-checks a TypeScript rule test against the declarations `exports` names', () => {
    const { ok, bad } = typeChecks();
    expect(ok.out).toBe('');
    expect(ok.code).toBe(0);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toMatch(/^tester\.ts\(\d+,\d+\): error /m);
    expect(bad.out).toMatch(/Type 'string' is not assignable to type 'RawFinding\[\]'/);
  });
});
