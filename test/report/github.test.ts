// `--format github`: workflow commands read back the way the Actions runner reads them (split at `::`, `,` and `=`,
// then unescaped), GitHub's 10-errors/10-warnings annotation limit, and a real repository's findings.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { ANNOTATION_LIMIT, escapeData, escapeProperty, formatGithub } from '../../src/report/github.js';
import { STRAY, family, shallowFindings, violations } from './fixtures.js';

const HINT = 'run `npx validate-workflow` or see the job summary';

interface Parsed {
  command: string;
  props: Record<string, string>;
  data: string;
}

// The runner's unescaping (actions/runner ActionCommand), `%25` last so an escaped escape stays literal.
const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (s: string) =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

/** A line as the runner parses it, or null when the line is not a workflow command. */
function parse(line: string): Parsed | null {
  if (!line.startsWith('::')) return null;
  const end = line.indexOf('::', 2);
  if (end < 0) return null;
  const info = line.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  const props: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of info.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      expect(eq, `property without '=' in ${line}`).toBeGreaterThan(0);
      const key = pair.slice(0, eq);
      expect(props, `duplicate property ${key} in ${line}`).not.toHaveProperty(key);
      props[key] = unescapeProperty(pair.slice(eq + 1));
    }
  }
  return { command, props, data: unescapeData(line.slice(end + 2)) };
}

function lines(out: string): string[] {
  expect(out.endsWith('\n')).toBe(true);
  return out.slice(0, -1).split('\n');
}

function commands(out: string): Parsed[] {
  return lines(out)
    .map(parse)
    .filter((p): p is Parsed => p !== null);
}

function finding(over: Partial<Finding> = {}): Finding {
  return {
    ruleId: 'plan/phase-order',
    severity: 'error',
    file: 'thoughts/shared/plans/p.md',
    line: 12,
    column: 3,
    message: 'Task 3 is checked before phase 1 is verified.',
    fix: 'Verify phase 1 first.',
    ...over,
  };
}

const many = (n: number, severity: Finding['severity']) =>
  Array.from({ length: n }, (_, i) => finding({ severity, line: i + 1, message: `${severity} number ${i + 1}.` }));

describe('workflow commands', () => {
  it('writes ::error with file, line, col and the rule id as title, then message and fix', () => {
    expect(formatGithub([finding()], { reportHint: HINT })).toBe(
      '::error file=thoughts/shared/plans/p.md,line=12,col=3,title=plan/phase-order::Task 3 is checked before phase 1 is verified. Verify phase 1 first.\n',
    );
  });

  it('maps warning to ::warning and info to ::notice', () => {
    const out = commands(
      formatGithub([finding({ severity: 'warning' }), finding({ severity: 'info' })], { reportHint: HINT }),
    );
    expect(out.map((c) => c.command)).toEqual(['warning', 'notice']);
  });

  it('leaves out what is unknown: col without a column, line and col without a line, file and line for the repository', () => {
    const out = commands(
      formatGithub(
        [
          finding({ column: null }),
          finding({ line: null, column: null }),
          finding({
            ruleId: 'history/incomplete',
            file: null,
            line: null,
            column: null,
            message: 'This is a shallow clone.',
            fix: 'Use `fetch-depth: 0`.',
          }),
        ],
        { reportHint: HINT },
      ),
    );
    expect(out.map((c) => c.props)).toEqual([
      { file: 'thoughts/shared/plans/p.md', line: '12', title: 'plan/phase-order' },
      { file: 'thoughts/shared/plans/p.md', title: 'plan/phase-order' },
      { title: 'history/incomplete' },
    ]);
    expect(out[2]!.data).toBe('This is a shallow clone. Use `fetch-depth: 0`.');
  });

  it('names the commit of a history finding', () => {
    const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const [c] = commands(
      formatGithub([finding({ ruleId: 'history/manual-confirmation', commit: sha, subject: 'Phase 1 verified' })], {
        reportHint: HINT,
      }),
    );
    expect(c!.data).toBe(
      'Task 3 is checked before phase 1 is verified. (commit a1b2c3d4e5f6 "Phase 1 verified") Verify phase 1 first.',
    );
  });

  it('prints nothing when there is nothing to report', () => {
    expect(formatGithub([], { reportHint: HINT })).toBe('');
  });
});

describe('escaping', () => {
  it('escapes %, CR and LF in data; also : and , in properties', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext%3A a%2C b');
    // `%` first: an existing escape sequence is escaped, not passed through.
    expect(escapeData('%0A')).toBe('%250A');
    expect(escapeProperty('%3A')).toBe('%253A');
  });

  it('round-trips through the runner: file names and rule ids with , : % CR LF, messages with newlines and ::', () => {
    const file = 'thoughts/handoffs/a,b:c 100%\r\nd.md';
    const f = finding({
      file,
      ruleId: 'odd:rule,id',
      message: 'Line one\nline two\r\n::error::not a command %0A 50%',
      fix: 'Fix: a, b.',
    });
    const out = formatGithub([f], { reportHint: HINT });
    expect(lines(out)).toHaveLength(1);
    expect(out).toContain('file=thoughts/handoffs/a%2Cb%3Ac 100%25%0D%0Ad.md,');
    expect(out).toContain('title=odd%3Arule%2Cid::');
    const [c] = commands(out);
    expect(c).toEqual({
      command: 'error',
      props: { file, line: '12', col: '3', title: 'odd:rule,id' },
      data: `${f.message} ${f.fix}`,
    });
  });
});

describe('the annotation limit', () => {
  const count = (out: string, command: string) => commands(out).filter((c) => c.command === command).length;

  it('adds nothing at exactly 10 errors and 10 warnings', () => {
    const out = formatGithub([...many(10, 'error'), ...many(10, 'warning')], { reportHint: HINT });
    expect(lines(out)).toHaveLength(20);
    expect(commands(out)).toHaveLength(20);
    expect(out).not.toContain('not shown');
  });

  it('over 10 errors: 10 are annotated, the rest stay in the log, and the last line counts them and points to the report', () => {
    const out = formatGithub([...many(13, 'error'), ...many(4, 'warning')], { reportHint: HINT });
    const all = lines(out);
    expect(all).toHaveLength(13 + 4 + 1);
    expect(count(out, 'error')).toBe(ANNOTATION_LIMIT);
    expect(count(out, 'warning')).toBe(4);
    // The three errors past the limit are plain log lines, with their position, severity and rule.
    const plain = all.filter((l) => !l.startsWith('::'));
    expect(plain).toEqual(
      [11, 12, 13].map(
        (n) => `thoughts/shared/plans/p.md:${n}:3 error plan/phase-order: error number ${n}. Verify phase 1 first.`,
      ),
    );
    const last = parse(all.at(-1)!)!;
    expect(last.command).toBe('notice');
    expect(last.props).toEqual({ title: 'validate-workflow' });
    expect(last.data).toBe(
      '3 errors not shown as annotations (GitHub shows 10 errors and 10 warnings per step; they are in the log above). For the full report, run `npx validate-workflow` or see the job summary.',
    );
  });

  it('over 10 warnings and notices: the closing notice keeps a slot so GitHub still shows it', () => {
    const out = formatGithub([...many(2, 'error'), ...many(25, 'warning'), ...many(11, 'info')], {
      reportHint: `${HINT}.`,
    });
    expect(count(out, 'error')).toBe(2);
    expect(count(out, 'warning')).toBe(ANNOTATION_LIMIT);
    expect(count(out, 'notice')).toBe(ANNOTATION_LIMIT);
    const last = parse(lines(out).at(-1)!)!;
    expect(last.data).toMatch(
      /^15 warnings, 2 notices not shown as annotations .* For the full report, run `npx validate-workflow` or see the job summary\.$/,
    );
    expect(lines(out)).toHaveLength(2 + 25 + 11 + 1);
  });

  it('one error over: singular wording', () => {
    const last = parse(lines(formatGithub(many(11, 'error'), { reportHint: HINT })).at(-1)!)!;
    expect(last.data).toMatch(/^1 error not shown as annotations \(.*; it is in the log above\)/);
  });

  it('a message past the limit cannot inject a command: its newlines are escaped too', () => {
    const evil = finding({ message: 'Bad.\n::error file=x.md,line=1::injected' });
    const out = formatGithub([...many(10, 'error'), evil], { reportHint: HINT });
    expect(count(out, 'error')).toBe(ANNOTATION_LIMIT);
    expect(lines(out).filter((l) => l.includes('injected'))).toEqual([
      'thoughts/shared/plans/p.md:12:3 error plan/phase-order: Bad.%0A::error file=x.md,line=1::injected Verify phase 1 first.',
    ]);
  });
});

describe('a repository with findings of every rule family', () => {
  it('annotates each finding at its file and line, history findings with their commit, the shallow clone without a file', async () => {
    const v = await violations();
    const findings = [...v.findings, ...(await shallowFindings(v.repo))];
    expect([...new Set(findings.map((f) => family(f.ruleId)))].sort()).toEqual([
      'disable',
      'handoff',
      'history',
      'layout',
      'ledger',
      'plan',
    ]);
    const out = formatGithub(findings, { reportHint: HINT });
    // Under the limit: every finding is one command, in the order of the findings.
    const parsed = commands(out);
    expect(lines(out)).toHaveLength(findings.length);
    expect(parsed).toHaveLength(findings.length);
    const kind = { error: 'error', warning: 'warning', info: 'notice' } as const;
    findings.forEach((f, i) => {
      const c = parsed[i]!;
      expect(c.command).toBe(kind[f.severity]);
      expect(c.props.title).toBe(f.ruleId);
      if (f.file === null) expect(c.props).toEqual({ title: f.ruleId });
      else expect(c.props).toEqual({ file: f.file, line: String(f.line), col: String(f.column), title: f.ruleId });
      expect(c.data.startsWith(f.message)).toBe(true);
      expect(c.data.endsWith(` ${f.fix}`)).toBe(true);
      if (f.commit) expect(c.data).toContain(`(commit ${f.commit.slice(0, 12)} "${f.subject}")`);
    });
    expect(parsed.find((c) => c.props.file === STRAY)?.command).toBe('warning');
    expect(out).toContain(`file=${STRAY.replace('%', '%25')},`);
    expect(parsed.find((c) => c.props.title === 'history/manual-confirmation')!.data).toContain(
      v.manualCommit.slice(0, 12),
    );
  });
});
