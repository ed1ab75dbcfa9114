// The instruction files are found by a walk of their own (read/profile.ts walkInstructionFiles), in place of
// fast-glob's: every hook asks for them. The walk must find what fast-glob found with the options it was given, in
// every corner a working tree can hold: any case, dot folders, links to files and folders, broken links, the folders
// left out, files beside the globs.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fg from 'fast-glob';
import { afterAll, describe, expect, it } from 'vitest';
import { INSTRUCTION_GLOBS, walkInstructionFiles } from '../../src/read/profile.js';

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

describe('the walk for instruction files', () => {
  it('finds what fast-glob found, in every corner of a tree', () => {
    const root = tree(
      [
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
      ],
      [
        ['.claude/commands/linked', '../../cmds'],
        ['.claude/agents/file-link.md', '../../cmds/linked.md'],
        ['thoughts/link-template.md', '../real/plan-template.md'],
        ['thoughts/broken-template.md', '../nowhere.md'],
        ['thoughts/templates/dir-link', '../../real'],
        ['CLAUDE-link', 'CLAUDE.md'],
        ['AGENTS.md.d', 'real'],
      ],
    );
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

  it('fails where fast-glob failed: a link that loops under thoughts/', () => {
    const root = tree(['thoughts/templates/plan.md'], [['thoughts/loop', '.']]);
    let glob: string[] | Error;
    try {
      glob = globbed(root);
    } catch (err) {
      glob = err as Error;
    }
    let walk: string[] | Error;
    try {
      walk = walkInstructionFiles(root).sort();
    } catch (err) {
      walk = err as Error;
    }
    if (glob instanceof Error) expect(walk).toBeInstanceOf(Error);
    else expect(walk).toEqual(glob);
  });
});
