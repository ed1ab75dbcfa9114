// The settings snippet `init --claude` merges into .claude/settings.json: the user's settings and hooks stay, ours
// are added once, and a second merge writes nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ClaudeSettingsError, claudeSnippet, mergeClaudeSettings } from '../../src/cli/claude-settings.js';
import { makeRepo } from '../helpers/repo.js';

const SCRIPT = 'validate-workflow-hook.sh';
type Group = { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] };
type Settings = Record<string, unknown> & { hooks: Record<string, Group[]> };

function settingsOf(dir: string): Settings {
  return JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')) as Settings;
}

function write(dir: string, value: unknown): void {
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(
    join(dir, '.claude', 'settings.json'),
    typeof value === 'string' ? value : JSON.stringify(value, null, 2),
  );
}

const ourGroups = (s: Settings, event: string) =>
  (s.hooks[event] ?? []).filter((g) => g.hooks.some((h) => h.command.includes(SCRIPT)));

describe('the settings snippet', () => {
  it('has the four hooks of Claude Code settings schema, each a command running the shipped script through sh', () => {
    const snippet = claudeSnippet() as Settings;
    expect(Object.keys(snippet.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop']);
    expect(snippet.hooks.PreToolUse![0]!.matcher).toBe('Edit|Write|MultiEdit');
    expect(snippet.hooks.PostToolUse![0]!.matcher).toBe('Bash');
    expect(snippet.hooks.Stop![0]!.matcher).toBeUndefined();
    for (const groups of Object.values(snippet.hooks)) {
      for (const h of groups.flatMap((g) => g.hooks)) {
        expect(h.type).toBe('command');
        expect(h.command).toBe(
          'sh "$CLAUDE_PROJECT_DIR/node_modules/validate-workflow/hooks/claude/validate-workflow-hook.sh"',
        );
        expect(h.timeout).toBeGreaterThan(0);
      }
    }
    // The path the command names is where the package ships the script (package.json "files" has hooks/).
    expect(existsSync(fileURLToPath(new URL(`../../hooks/claude/${SCRIPT}`, import.meta.url)))).toBe(true);
  });
});

describe('mergeClaudeSettings', () => {
  it('creates .claude/settings.json when there is none, and a second run changes nothing', () => {
    const dir = makeRepo({});
    const first = mergeClaudeSettings(dir);
    expect(first).toEqual({ changed: true, path: join(dir, '.claude', 'settings.json') });
    expect(settingsOf(dir)).toEqual(claudeSnippet());
    const bytes = readFileSync(first.path, 'utf8');
    expect(mergeClaudeSettings(dir)).toEqual({ changed: false, path: first.path });
    expect(readFileSync(first.path, 'utf8')).toBe(bytes);
  });

  it("keeps every setting and hook of the user's, adds ours beside them, and is idempotent", () => {
    const dir = makeRepo({});
    const user = {
      permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] },
      env: { FOO: 'bar' },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '.claude/hooks/no-rm.sh' }] }],
        PostToolUse: [
          { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'npx prettier --write "$FILE"', timeout: 10 }] },
        ],
        Notification: [{ hooks: [{ type: 'command', command: 'notify-send Claude' }] }],
      },
    };
    write(dir, user);
    expect(mergeClaudeSettings(dir).changed).toBe(true);
    const merged = settingsOf(dir);
    expect(merged.permissions).toEqual(user.permissions);
    expect(merged.env).toEqual(user.env);
    expect(merged.hooks.Notification).toEqual(user.hooks.Notification);
    expect(merged.hooks.PreToolUse![0]).toEqual(user.hooks.PreToolUse[0]);
    expect(merged.hooks.PostToolUse![0]).toEqual(user.hooks.PostToolUse[0]);
    for (const event of ['PreToolUse', 'PostToolUse', 'Stop', 'SessionStart'])
      expect(ourGroups(merged, event)).toHaveLength(1);
    const bytes = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(mergeClaudeSettings(dir).changed).toBe(false);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe(bytes);
  });

  it('leaves our entry where the user put it (own matcher, own timeout) and only adds the missing events', () => {
    const dir = makeRepo({});
    const mine = {
      matcher: 'Edit|Write',
      hooks: [
        {
          type: 'command',
          command: 'sh ./node_modules/validate-workflow/hooks/claude/validate-workflow-hook.sh',
          timeout: 5,
        },
      ],
    };
    write(dir, { hooks: { PreToolUse: [mine] } });
    expect(mergeClaudeSettings(dir).changed).toBe(true);
    const merged = settingsOf(dir);
    expect(merged.hooks.PreToolUse).toEqual([mine]);
    expect(ourGroups(merged, 'Stop')).toHaveLength(1);
  });

  it('refuses to touch a settings file it cannot read, and says which', () => {
    const dir = makeRepo({});
    write(dir, '{ "permissions": { "allow": [ } ');
    expect(() => mergeClaudeSettings(dir)).toThrow(ClaudeSettingsError);
    expect(() => mergeClaudeSettings(dir)).toThrow(/settings\.json is not valid JSON/);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{ "permissions": { "allow": [ } ');
    write(dir, { hooks: { Stop: { hooks: [] } } });
    expect(() => mergeClaudeSettings(dir)).toThrow(/hooks\.Stop is not an array/);
  });
});
