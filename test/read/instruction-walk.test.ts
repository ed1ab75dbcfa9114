// The instruction files are found by a walk of their own (read/profile.ts walkInstructionFiles), in place of
// fast-glob's: every hook asks for them. The walk must find what fast-glob found with the options it was given, in
// every corner a working tree can hold: any case, dot folders, links to files and folders, broken links, the folders
// left out, files beside the globs.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fg from 'fast-glob';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLAUDE_FOLDERS,
  INSTRUCTION_FOLDERS,
  INSTRUCTION_GLOBS,
  forgetInstructions,
  instructionInputs,
  walkInstructionFiles,
} from '../../src/read/profile.js';
import { instructionsOfIndex } from '../../src/engine/instructions.js';
import { CLI, git, makeRepo } from '../helpers/repo.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tree(files: string[], links: [string, string][] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'vw-walk-'));
  dirs.push(root);
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), '# x\n');
  }
  for (const [link, target] of links) {
    mkdirSync(dirname(join(root, link)), { recursive: true });
    symlinkSync(target, join(root, link));
  }
  return root;
}

/** What instructionFiles asked fast-glob before the walk replaced it. */
const globbed = (root: string) =>
  fg
    .sync(INSTRUCTION_GLOBS, {
      cwd: root,
      dot: true,
      onlyFiles: true,
      caseSensitiveMatch: false,
      ignore: ['**/node_modules/**', 'thoughts/searchable/**'],
    })
    .sort();

/** Files in every corner of a tree the globs can reach, and beside them. */
const CORNERS = [
  'AGENTS.md',
  'agents.MD',
  'CLAUDE.md',
  'Claude.md',
  'src/CLAUDE.md',
  'src/thoughts/x-template.md',
  'node_modules/pkg/CLAUDE.md',
  '.claude/CLAUDE.md',
  '.claude/deeper/CLAUDE.md',
  '.claude/notes.md',
  '.claude/commands/create_plan.md',
  '.claude/commands/nested/deep/implement_plan.MD',
  '.claude/commands/node_modules/x.md',
  '.claude/commands/.hidden/y.md',
  '.claude/commands/readme.txt',
  '.claude/Commands/upper.md',
  '.Claude/commands/upper-dot.md',
  '.claude/agents/planner.md',
  '.claude/skills/plan/SKILL.md',
  'thoughts/templates/plan.md',
  'thoughts/templates/handoff.yaml',
  'thoughts/templates/ledger.yml',
  'thoughts/templates/notes.txt',
  'thoughts/templates/sub/deep.md',
  'thoughts/templates/.hidden.md',
  'thoughts/Templates/upper.md',
  'thoughts/shared/plans/2026-01-01-plan.md',
  'thoughts/shared/plans/plan-template.md',
  'thoughts/shared/handoff_TEMPLATE.MD',
  'thoughts/shared/task-06-templates-and-the-new-command.md',
  'thoughts/shared/template.yaml',
  'thoughts/shared/template.json',
  'thoughts/.drafts/draft-template.md',
  'thoughts/a/node_modules/b-template.md',
  'thoughts/searchable/s-template.md',
  'thoughts/Searchable/t-template.md',
  'thoughts/searchable-not/u-template.md',
  'Thoughts/upper-template.md',
  'THOUGHTS/templates/x.md',
  'elsewhere/thoughts/templates/x.md',
  'cmds/linked.md',
  'real/plan-template.md',
];

describe('the walk for instruction files', () => {
  it('finds what fast-glob found, in every corner of a tree', () => {
    const root = tree(CORNERS, [
      ['.claude/commands/linked', '../../cmds'],
      ['.claude/agents/file-link.md', '../../cmds/linked.md'],
      ['thoughts/link-template.md', '../real/plan-template.md'],
      ['thoughts/broken-template.md', '../nowhere.md'],
      ['thoughts/templates/dir-link', '../../real'],
      ['CLAUDE-link', 'CLAUDE.md'],
      ['AGENTS.md.d', 'real'],
    ]);
    const walked = walkInstructionFiles(root).sort();
    expect(walked).toEqual(globbed(root));
    // The corners are there to be found (the comparison would pass on two empty answers).
    expect(walked).toEqual(
      expect.arrayContaining([
        'agents.MD',
        '.claude/commands/linked/linked.md',
        '.claude/agents/file-link.md',
        'thoughts/link-template.md',
        'thoughts/.drafts/draft-template.md',
        'thoughts/shared/handoff_TEMPLATE.MD',
      ]),
    );
    expect(walked).not.toContain('thoughts/broken-template.md');
    expect(walked).not.toContain('thoughts/searchable/s-template.md');
  });

  it('finds nothing where fast-glob found nothing', () => {
    const root = tree(['src/index.ts', 'thoughts/shared/plans/2026-01-01-plan.md']);
    expect(walkInstructionFiles(root)).toEqual([]);
    expect(globbed(root)).toEqual([]);
    expect(walkInstructionFiles(join(root, 'missing'))).toEqual([]);
  });

  it('ends, with one copy of each file, where links loop back to a folder on the path (fast-glob never ended)', () => {
    const root = tree(
      ['thoughts/templates/plan.md', '.claude/commands/create_plan.md'],
      [
        ['thoughts/a', '.'],
        ['thoughts/b', '.'],
        ['thoughts/templates/up', '..'],
        ['.claude/commands/self', '.'],
        ['.claude/commands/top', '../..'],
      ],
    );
    expect(walkInstructionFiles(root).sort()).toEqual([
      '.claude/commands/create_plan.md',
      'thoughts/templates/plan.md',
    ]);
  });

  it('passes over a folder it cannot list, and finds the rest', () => {
    // Permissions do not bind root: there, nothing can be made unreadable.
    if (process.getuid?.() === 0 || process.platform === 'win32') return;
    const root = tree(['CLAUDE.md', 'thoughts/templates/plan.md', 'thoughts/private/x-template.md']);
    chmodSync(join(root, 'thoughts/private'), 0);
    try {
      expect(walkInstructionFiles(root).sort()).toEqual(['CLAUDE.md', 'thoughts/templates/plan.md']);
    } finally {
      chmodSync(join(root, 'thoughts/private'), 0o755);
    }
  });
});

// The walk reads only the folders INSTRUCTION_FOLDERS and CLAUDE_FOLDERS name, and under thoughts/ only names its
// pre-filter lets through: all written by hand from INSTRUCTION_GLOBS. A glob added later must not be passed over.
describe('the walk and the globs it stands for', () => {
  /** A file each glob matches: every `**` one folder deep, every `*` a letter, every `{a,b}` each of its words. */
  const samples = (glob: string): string[] => {
    const braces = /\{([^}]*)\}/.exec(glob);
    if (braces)
      return braces[1]!
        .split(',')
        .flatMap((word) => samples(glob.slice(0, braces.index) + word + glob.slice(braces.index + braces[0].length)));
    return [glob.replaceAll('**', 'deep').replaceAll('*', 'a')];
  };

  it('reaches every folder a glob names', () => {
    for (const glob of INSTRUCTION_GLOBS) {
      const parts = glob.split('/');
      if (parts.length > 1) expect(INSTRUCTION_FOLDERS, glob).toContain(parts[0]);
      if (parts[0] === '.claude' && parts.length > 2) expect(CLAUDE_FOLDERS, glob).toContain(parts[1]);
    }
  });

  it('finds a file of every glob, as the globs find it', () => {
    const files = INSTRUCTION_GLOBS.flatMap(samples);
    const root = tree(files);
    expect(globbed(root)).toEqual([...new Set(files)].sort());
    expect(walkInstructionFiles(root).sort()).toEqual(globbed(root));
  });
});

describe('a repository whose thoughts/ links loop', () => {
  // Through the built CLI, with a time limit: a walk that never ends is a hook that never returns.
  const run = (dir: string, args: string[]) =>
    spawnSync(process.execPath, [CLI, '--format', 'json', ...args], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1' },
    });

  it('is judged, by a full run and by the pre-commit hook, and the runs end', () => {
    const dir = makeRepo({ 'thoughts/templates/plan.md': '# Plan template\n', 'CLAUDE.md': '# Rules\n' });
    symlinkSync('.', join(dir, 'thoughts/a'));
    symlinkSync('.', join(dir, 'thoughts/b'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'Links that loop');
    writeFileSync(join(dir, 'CLAUDE.md'), '# Rules, edited\n');
    git(dir, 'add', '-A');
    for (const args of [[], ['--staged']]) {
      const res = run(dir, args);
      expect(res.error, `validate-workflow ${args.join(' ')} did not end`).toBeUndefined();
      expect([0, 1], res.stderr).toContain(res.status);
      expect(JSON.parse(res.stdout).results).toEqual([]);
    }
  }, 150_000);
});

// The commit doors read the index's instruction files in place of the walk (engine/instructions.ts): what git lists
// must name the files the walk finds in a checkout of it, and leave to the walk whatever git lists as a link.
describe("the index's instruction files", () => {
  const indexOf = (root: string) => {
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    return git(root, 'ls-files', '--stage', '-z');
  };

  it('are the files the walk finds in a checkout of the index, where git lists no link on the way', () => {
    const root = tree(CORNERS);
    const index = indexOf(root);
    forgetInstructions(root);
    const walked = instructionInputs(root);
    expect(instructionsOfIndex(root, index)).toBe(true);
    expect(instructionInputs(root)).toEqual(walked);
    // The corners are there (the comparison would pass on two empty answers).
    expect(walked.map(([file]) => file)).toEqual(
      expect.arrayContaining(['agents.MD', '.claude/skills/plan/SKILL.md', 'thoughts/shared/handoff_TEMPLATE.MD']),
    );
    forgetInstructions(root);
  });

  it('are left to the walk where git lists a link it would follow, and taken where it would not', () => {
    for (const [link, target, followed] of [
      ['.claude/commands/linked', '../../cmds', true],
      ['.claude/agents/file-link.md', '../../cmds/linked.md', true],
      ['thoughts/templates/dir-link', '../../real', true],
      ['thoughts/shared', '../real', true],
      ['CLAUDE.md', 'real/AGENTS.md', true],
      ['.claude', 'real', true],
      ['src/linked', '../real', false],
      // Under thoughts/, any link may lead to a folder of templates: git's listing cannot say which it is.
      ['thoughts/shared/plans/linked.md', '../../../real/plan.md', true],
      ['docs/linked.md', '../real/plan.md', false],
    ] as const) {
      const root = tree(['real/AGENTS.md', 'real/plan.md', 'cmds/linked.md', 'AGENTS.md'], [[link, target]]);
      expect(instructionsOfIndex(root, indexOf(root)), link).toBe(!followed);
      forgetInstructions(root);
    }
  });
});
