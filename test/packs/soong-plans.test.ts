// The soong-plans pack: plan file names under .soong-agent/plans/ as the soong agent core validates them (seed 003).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lint, makeRepo, of, readTree } from '../helpers/repo.js';
import { brokenChecks } from '../../src/packs/soong-plans/rules/file-name.js';

const ID = 'soong-plans/file-name';

function fixture(name: string): Record<string, string> {
  return readTree(fileURLToPath(new URL(`../fixtures/packs/soong-plans/${name}`, import.meta.url)), 'utf8');
}

describe('soong-plans pack', () => {
  it('a clean plans folder has no findings', () => {
    expect(of(lint(makeRepo(fixture('clean'))), ID)).toEqual([]);
  });

  it('reports one finding per broken name, naming the check it breaks', () => {
    const findings = of(lint(makeRepo(fixture('violations'))), ID);
    const byFile = new Map(findings.map((f) => [f.file, f.message]));
    expect(findings).toHaveLength(6);
    expect(byFile.get('.soong-agent/plans/Implement-Auth.md')).toMatch(/characters/);
    expect(byFile.get('.soong-agent/plans/notes.txt')).toMatch(/"\.md" suffix/);
    expect(byFile.get('.soong-agent/plans/.draft.md')).toMatch(/hidden name/);
    expect(byFile.get('.soong-agent/plans/a..b.md')).toMatch(/"\.\."/);
    expect(byFile.get('.soong-agent/plans/sub/plan.md')).toMatch(/"\/" \(no subfolders\)/);
    expect(byFile.get(`.soong-agent/plans/${'a'.repeat(98)}.md`)).toMatch(/length \(101 > 100 characters\)/);
    expect(byFile.has('.soong-agent/plans/fine-plan.md')).toBe(false);
    expect(findings.every((f) => f.severity === 'error')).toBe(true);
  });

  it('takes the length limit from config', () => {
    const dir = makeRepo({ '.soong-agent/plans/implement-auth-flow.md': '# x\n' });
    expect(of(lint(dir), ID)).toEqual([]);
    const f = of(lint(dir, { packs: { 'soong-plans': { maxNameLength: 10 } } }), ID);
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/length \(22 > 10 characters\)/);
  });

  it('can be switched off in config', () => {
    expect(of(lint(makeRepo(fixture('violations')), { packs: { 'soong-plans': false } }), ID)).toEqual([]);
  });

  it('checks what a repository cannot hold: absolute paths and empty names', () => {
    expect(brokenChecks('/etc/plan.md', 100)).toContain('absolute path');
    expect(brokenChecks('C:\\plans\\x.md', 100)).toContain('absolute path');
    expect(brokenChecks('.md', 100)).toContain('empty name');
    expect(brokenChecks('../escape.md', 100)).toContain('".."');
    expect(brokenChecks('implement-auth-flow.md', 100)).toEqual([]);
  });
});
