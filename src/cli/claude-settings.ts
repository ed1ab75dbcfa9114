// `init --claude`: merge the hook entries of hooks/claude/settings.json into the project's .claude/settings.json.
// The user's settings are theirs: every key and every hook already there stays as it is, our entries are added
// once (recognised by the hook script's name, wherever the user moved them), and a second run writes nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRecord } from '../shared/text.js';

/** The snippet ships with the package, two folders above this module in both src/ and dist/. */
const SNIPPET = new URL('../../hooks/claude/settings.json', import.meta.url);
/** What marks a hook command as ours, whichever way it is spelled (script path, or the CLI called directly). */
const OURS = /validate-workflow-hook\.sh|validate-workflow\s+claude-hook/;

interface HookCommand {
  type?: string;
  command?: string;
  [key: string]: unknown;
}

interface MatcherGroup {
  matcher?: string;
  hooks?: HookCommand[];
  [key: string]: unknown;
}

type Settings = Record<string, unknown> & { hooks?: Record<string, MatcherGroup[]> };

export class ClaudeSettingsError extends Error {}

function ours(group: unknown): boolean {
  return (
    isRecord(group) &&
    Array.isArray(group.hooks) &&
    group.hooks.some((h) => isRecord(h) && typeof h.command === 'string' && OURS.test(h.command))
  );
}

export function claudeSnippet(): Settings {
  return JSON.parse(readFileSync(SNIPPET, 'utf8')) as Settings;
}

export function mergeClaudeSettings(root: string): { changed: boolean; path: string } {
  const path = join(root, '.claude', 'settings.json');
  let settings: Settings = {};
  if (existsSync(path)) {
    const raw = readFileSync(path, 'utf8');
    let parsed: unknown;
    try {
      parsed = raw.trim() ? JSON.parse(raw) : {};
    } catch (err) {
      // Rewriting a file we cannot read would lose the user's settings: stop and say which file to fix.
      throw new ClaudeSettingsError(`${path} is not valid JSON (${(err as Error).message}); fix it, then run again`);
    }
    if (!isRecord(parsed)) throw new ClaudeSettingsError(`${path} does not hold a JSON object`);
    settings = parsed as Settings;
  }
  if (settings.hooks !== undefined && !isRecord(settings.hooks))
    throw new ClaudeSettingsError(`${path}: "hooks" is not an object`);
  const hooks = (settings.hooks ?? {}) as Record<string, unknown>;
  let changed = false;
  for (const [event, groups] of Object.entries(claudeSnippet().hooks ?? {})) {
    const existing = hooks[event];
    if (existing !== undefined && !Array.isArray(existing))
      throw new ClaudeSettingsError(`${path}: hooks.${event} is not an array`);
    const list = (existing ?? []) as unknown[];
    // Ours already there (perhaps with the user's own matcher or timeout): leave it as the user has it.
    if (list.some(ours)) continue;
    hooks[event] = [...list, ...groups];
    changed = true;
  }
  if (!changed) return { changed: false, path };
  settings.hooks = hooks as Record<string, MatcherGroup[]>;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
  return { changed: true, path };
}
