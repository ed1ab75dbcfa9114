// Bad input becomes findings, never a crash: a file the tool cannot read or parse is a finding of its kind's schema
// rule at the line where reading failed (CONVENTION.md section 5), with exit 1, not exit 2 and a stack trace. A file
// that is merely unusual (BOM, CRLF, spaces and non-ASCII letters in its path) is read like any other: its planted
// violations are reported at the right lines and nothing else is. Each case is a repository tree in
// test/fixtures/bad-input/<case>/, copied byte for byte into a fresh git repository and judged by the CLI: the
// built CLI in its own process for one case of each family (a crash would show there as a stack trace and exit
// code), the others through the same run() in this process (runCliHere: the same stdout, stderr and exit code).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeRepo, readTree, runCli, runCliHere, type CliResult } from './helpers/repo.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/bad-input/', import.meta.url));

const PLAN = 'thoughts/shared/plans/2026-01-05-auth-flow.md';
const LEDGER = 'thoughts/ledgers/CONTINUITY_CLAUDE-s1.md';
const HANDOFF = 'thoughts/handoffs/s1/task-01-add-users-table.md';
const YAML_HANDOFF = 'thoughts/handoffs/s1/session.yaml';

/** A fixture's files, repository-relative with `/` separators, as bytes: nothing may be decoded or normalized. */
function fixture(name: string): Record<string, Uint8Array> {
  return readTree(join(FIXTURES, name));
}

interface Expected {
  ruleId: string;
  severity?: 'error' | 'warning' | 'info';
  file: string;
  line: number;
  column: number;
  /** A part of the message that says what is wrong in words the user can act on. */
  message: string | RegExp;
  /** Text on that line of the fixture: proves the expected line is the one the violation was planted on. */
  at?: string;
  /** A part of the fix, when it matters: one that fits the problem, not the kind's "Fix the YAML" (issue 24). */
  fix?: string;
}

interface JsonFinding {
  ruleId: string;
  severity: string;
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  fix?: string;
}

/** The fixture's line `n` (1-based), read the way an editor counts lines: by line feeds, a BOM or CR ignored. */
function lineText(bytes: Uint8Array, n: number): string {
  return new TextDecoder('utf-8').decode(bytes).split('\n')[n - 1] ?? '';
}

const byPlace = (a: { file: string | null; line: number | null; ruleId: string }, b: typeof a) =>
  `${a.file}:${String(a.line).padStart(6, '0')}:${a.ruleId}`.localeCompare(
    `${b.file}:${String(b.line).padStart(6, '0')}:${b.ruleId}`,
  );

/**
 * Runs the CLI on the files and asserts: exit 1, no stack trace, exactly the expected findings. Returns stdout.
 * `door`: 'process' runs the built CLI in a node process, 'here' the same run() in this one.
 */
async function expectFindings(
  files: Record<string, string | Uint8Array>,
  expected: Expected[],
  door: 'process' | 'here' = 'here',
): Promise<string> {
  for (const e of expected) {
    if (e.at === undefined) continue;
    const bytes = files[e.file];
    expect(bytes, `fixture has ${e.file}`).toBeDefined();
    const content = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes!;
    expect(lineText(content, e.line), `${e.file}:${e.line} is the planted line`).toContain(e.at);
  }

  const args = ['--format', 'json'];
  const dir = makeRepo(files);
  const { code, stdout, stderr }: CliResult = door === 'process' ? runCli(dir, args) : await runCliHere(dir, args);
  // A stack frame looks like "    at fn (file.js:1:2)"; the CLI's own crash banner is "internal error".
  expect(stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(stderr).not.toContain('internal error');
  expect(code, `exit code; stderr: ${stderr}`).toBe(1);

  const report = JSON.parse(stdout) as { results: JsonFinding[] };
  const fixes = new Set(expected.filter((e) => e.fix !== undefined).map((e) => `${e.file}\0${e.ruleId}`));
  const actual = report.results
    .map(({ ruleId, severity, file, line, column, message, fix }) => ({
      ruleId,
      severity,
      file,
      line,
      column,
      message,
      ...(fixes.has(`${file}\0${ruleId}`) ? { fix } : {}),
    }))
    .sort(byPlace);
  const wanted = expected
    .map((e) => ({
      ruleId: e.ruleId,
      severity: e.severity ?? 'error',
      file: e.file,
      line: e.line,
      column: e.column,
      message: typeof e.message === 'string' ? expect.stringContaining(e.message) : expect.stringMatching(e.message),
      ...(e.fix !== undefined ? { fix: expect.stringContaining(e.fix) } : {}),
    }))
    .sort(byPlace);
  expect(actual).toEqual(wanted);
  return stdout;
}

describe('unreadable files are findings of their kind, at a line', () => {
  it('an empty file of each kind (0 bytes, only newlines, only spaces)', async () => {
    await expectFindings(fixture('empty'), [
      { ruleId: 'plan/schema', file: PLAN, line: 1, column: 1, message: 'File is empty.', fix: 'Write the file' },
      { ruleId: 'handoff/schema', file: HANDOFF, line: 1, column: 1, message: 'File is empty.' },
      { ruleId: 'ledger/schema', file: LEDGER, line: 1, column: 1, message: 'File is empty.' },
    ]);
  });

  it('binary files with a .md name, at the line of the first NUL byte', async () => {
    await expectFindings(fixture('binary'), [
      // PNG signature: \x89PNG\r\n, \x1a\n, then the NUL bytes of the IHDR length on line 3.
      {
        ruleId: 'handoff/schema',
        file: 'thoughts/handoffs/s1/task-01-screenshot.md',
        line: 3,
        column: 1,
        message: 'File looks binary',
        fix: 'Move the file out of the workflow folders (or list it under `ignore` in the config)',
      },
      {
        ruleId: 'plan/schema',
        file: 'thoughts/shared/plans/2026-01-05-diagram.md',
        line: 1,
        column: 1,
        message: 'File looks binary',
      },
    ]);
  });

  it('non-UTF-8 bytes (a ledger saved as Latin-1), at the line and column of the bad byte', async () => {
    await expectFindings(fixture('non-utf8'), [
      {
        ruleId: 'ledger/schema',
        file: LEDGER,
        line: 10,
        column: 32,
        message: 'File is not valid UTF-8; re-save it as UTF-8.',
        fix: 'Re-save the file as UTF-8',
        at: 'Add the users table for the caf',
      },
    ]);
  });

  it('UTF-16 text (PowerShell `>`) is named as such, not as binary', async () => {
    await expectFindings(fixture('utf16'), [
      {
        ruleId: 'plan/schema',
        file: PLAN,
        line: 1,
        column: 1,
        message: 'File is UTF-16 text',
        fix: 'Re-save the file as UTF-8 (`iconv -f UTF-16 -t UTF-8`',
      },
    ]);
  });

  it('a 5 MiB plan is not parsed, and one finding says so', async () => {
    const header = [
      '---',
      'mode: direct',
      '---',
      '# Huge Implementation Plan',
      '## Phase 1: Schema',
      '- [ ] Task 1: Add users table',
      '#### Automated Verification:',
      '- [ ] Migration applies: `npm run migrate`',
      '#### Manual Verification:',
      '- [ ] Tables visible in the admin console',
      '',
    ].join('\n');
    const filler = 'Background: this paragraph only makes the plan large; the plan itself is valid.\n\n';
    const huge = header + '\n' + filler.repeat(Math.ceil((5 * 1024 * 1024) / filler.length));
    expect(huge.length).toBeGreaterThan(5 * 1024 * 1024);
    await expectFindings({ ...fixture('large-plan'), 'thoughts/shared/plans/2026-01-05-huge.md': huge }, [
      {
        ruleId: 'plan/schema',
        file: 'thoughts/shared/plans/2026-01-05-huge.md',
        line: 1,
        column: 1,
        message: /larger than maxFileBytes \(1048576\); it was not parsed/,
        fix: 'Split the file into smaller ones, or raise `maxFileBytes`',
      },
    ]);
  });

  it('nesting deep enough to overflow the parsers is a finding, not a crash', async () => {
    await expectFindings(
      {
        ...fixture('deep-nesting'),
        'thoughts/shared/plans/2026-01-05-quoted.md': `# Quoted\n\n${'>'.repeat(10_000)} deep\n`,
        [YAML_HANDOFF]: `status: partial\nnext: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`,
      },
      [
        {
          ruleId: 'plan/schema',
          file: 'thoughts/shared/plans/2026-01-05-quoted.md',
          line: 1,
          column: 1,
          message: 'File could not be parsed',
        },
        { ruleId: 'handoff/schema', file: YAML_HANDOFF, line: 1, column: 1, message: 'File could not be parsed' },
      ],
      // Through the built CLI: an overflow the readers did not catch would crash the process.
      'process',
    );
  });
});

describe('YAML that does not parse is a finding at the line of the mistake', () => {
  it('invalid frontmatter YAML: an unquoted ": " in a value, an unclosed flow list (at its `[`)', async () => {
    await expectFindings(fixture('invalid-yaml'), [
      {
        ruleId: 'plan/schema',
        file: PLAN,
        line: 3,
        column: 8,
        message: /^Invalid YAML: .*a value that contains ": " must be quoted/,
        at: 'topic: Auth: login',
      },
      {
        ruleId: 'handoff/schema',
        file: HANDOFF,
        line: 7,
        column: 17,
        message: /^Invalid YAML: Flow sequence .* end with a \]/,
        at: 'files_modified: [src/db/users.ts,',
      },
    ]);
  });

  it('a YAML handoff with an unclosed quote, at the line where the quote opens', async () => {
    await expectFindings(fixture('yaml-handoff-invalid'), [
      {
        ruleId: 'handoff/schema',
        file: YAML_HANDOFF,
        line: 4,
        column: 7,
        message: 'Invalid YAML: Missing closing "quote',
        at: 'goal: "Add the auth flow',
      },
    ]);
  });

  it('duplicate keys, at the second one, naming the key and the first', async () => {
    await expectFindings(fixture('duplicate-keys'), [
      {
        ruleId: 'handoff/schema',
        file: HANDOFF,
        line: 15,
        column: 1,
        message: 'Invalid YAML: duplicate key `status` (first set on line 2)',
        at: 'status: blocked',
      },
      {
        ruleId: 'plan/schema',
        file: PLAN,
        line: 4,
        column: 1,
        message: 'Invalid YAML: duplicate key `mode` (first set on line 2)',
        at: 'mode: orchestration',
      },
    ]);
  });

  it('frontmatter that is a list or a bare string instead of a mapping, at its first line', async () => {
    await expectFindings(fixture('frontmatter-not-a-mapping'), [
      {
        ruleId: 'plan/schema',
        file: PLAN,
        line: 2,
        column: 1,
        message: 'Frontmatter must be a YAML mapping of keys to values (`key: value` lines), not a YAML list.',
        at: '- mode: direct',
      },
      {
        ruleId: 'ledger/schema',
        file: LEDGER,
        line: 2,
        column: 1,
        message: 'not a single string value',
        at: 'session s1, plan auth flow',
      },
    ]);
  });

  it('an alias without its anchor and an alias bomb, at the alias', async () => {
    await expectFindings(
      fixture('yaml-aliases'),
      [
        {
          ruleId: 'handoff/schema',
          file: HANDOFF,
          line: 11,
          column: 19,
          message: 'alias `*next_context` refers to no anchor `&next_context`',
          at: 'context_for_next: *next_context',
        },
        {
          ruleId: 'handoff/schema',
          file: YAML_HANDOFF,
          line: 3,
          column: 8,
          message: 'aliases expand to too many values',
          at: 'b: &b [*a',
        },
      ],
      // Through the built CLI: an alias bomb the reader did not stop would exhaust the process.
      'process',
    );
  });

  it('a handoff whose `task` is not a number', async () => {
    await expectFindings(fixture('task-not-number'), [
      {
        ruleId: 'handoff/schema',
        file: HANDOFF,
        line: 3,
        column: 1,
        message: '`task` must be integer, not the string "one"',
        at: 'task: one',
      },
    ]);
  });
});

describe('unusual but valid files are read like any other', () => {
  // The same planted violations in both fixtures; each one needs the frontmatter read (plan/mode, the handoff's
  // status, the ledger's status), so a BOM or CR that hid the frontmatter would change the findings, and the line
  // numbers inside the messages must count lines as an editor does.
  const planted: Expected[] = [
    {
      ruleId: 'plan/mode',
      severity: 'warning',
      file: PLAN,
      line: 2,
      column: 1,
      message: 'Plan declares `mode: direct` but has 4 tasks',
      at: 'mode: direct',
    },
    {
      ruleId: 'plan/manual-before-automated',
      severity: 'info',
      file: PLAN,
      line: 21,
      column: 1,
      message:
        'Manual item "Tables visible in the admin console" is checked while 1 automated item of Phase 1 (Schema) is not (first: "Migration applies: npm run migrate", line 17)',
      at: '- [x] Tables visible in the admin console',
    },
    {
      ruleId: 'handoff/schema',
      file: HANDOFF,
      line: 2,
      column: 1,
      message: 'not the string "finished"',
      at: 'status: finished',
    },
    {
      ruleId: 'ledger/state',
      file: LEDGER,
      line: 4,
      column: 1,
      message: 'not done (first: "Task 2: Add sessions table", line 15)',
      at: 'status: complete',
    },
    {
      ruleId: 'ledger/state',
      file: LEDGER,
      line: 16,
      column: 1,
      message: 'Second item in progress ("Task 3: Add login endpoint"); "Task 2: Add sessions table" (line 15)',
      at: '- [→] Task 3',
    },
  ];

  it('a UTF-8 BOM: frontmatter recognised, lines right, nothing spurious', async () => {
    await expectFindings(fixture('bom'), planted);
  });

  it('CRLF line endings: frontmatter recognised, lines right, no CR in any value', async () => {
    // task-02's `previous:` names task-01; a CR left on the value would break the chain and add a finding.
    const stdout = await expectFindings(fixture('crlf'), planted);
    expect(stdout).not.toContain('\\r');
  });

  it('paths with spaces and non-ASCII letters are reported exactly, and link', async () => {
    const plan = 'thoughts/shared/plans/Q3 roadmap/2026-01-05 añadir autenticación 認証.md';
    const ledger = 'thoughts/ledgers/CONTINUITY_CLAUDE-sesión 1.md';
    // Through the built CLI: the paths go out on the process's own stdout.
    await expectFindings(
      fixture('paths-with-spaces-unicode'),
      [
        {
          ruleId: 'plan/manual-before-automated',
          severity: 'info',
          file: plan,
          line: 18,
          column: 1,
          message: 'Manual item "Tables visible in the admin console" is checked',
          at: '- [x] Tables visible',
        },
        {
          ruleId: 'handoff/schema',
          file: 'thoughts/handoffs/sesión 1/task-01-add-users-table.md',
          line: 2,
          column: 1,
          message: 'not the string "finished"',
          at: 'status: finished',
        },
        // ledger/sync can only compare when the ledger's `plan:` resolved to the plan through its unicode path.
        {
          ruleId: 'ledger/sync',
          file: ledger,
          line: 14,
          column: 1,
          message: `Ledger marks Task 1 done but the plan has it unchecked (${plan}:8)`,
          at: '- [x] Task 1',
        },
        {
          ruleId: 'ledger/state',
          severity: 'info',
          file: ledger,
          line: 4,
          column: 1,
          message: 'Every item is done',
          at: 'status: active',
        },
      ],
      'process',
    );
  });
});

describe('the fixtures keep their bytes (git must not convert them)', () => {
  const all = (name: string) => Object.entries(fixture(name));

  it('bom: every file starts with a UTF-8 BOM', () => {
    for (const [path, bytes] of all('bom')) expect([...bytes.subarray(0, 3)], path).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('crlf: every line ends in CR LF', () => {
    for (const [path, bytes] of all('crlf')) {
      const lf = bytes.reduce((n, b) => (b === 0x0a ? n + 1 : n), 0);
      const crlf = bytes.reduce((n, b, i) => (b === 0x0a && bytes[i - 1] === 0x0d ? n + 1 : n), 0);
      expect(lf, path).toBeGreaterThan(0);
      expect(crlf, path).toBe(lf);
    }
  });

  it('binary: NUL bytes; non-utf8: rejected by a strict decoder; utf16: a UTF-16LE BOM; empty: nothing but blanks', () => {
    for (const [path, bytes] of all('binary')) expect(bytes.includes(0), path).toBe(true);
    for (const [path, bytes] of all('non-utf8')) {
      if (path === LEDGER) expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), path).toThrow();
    }
    for (const [path, bytes] of all('utf16')) expect([...bytes.subarray(0, 2)], path).toEqual([0xff, 0xfe]);
    for (const [path, bytes] of all('empty')) expect(new TextDecoder().decode(bytes).trim(), path).toBe('');
  });
});
