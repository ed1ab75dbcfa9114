// The configuration: validate-workflow.config.json (or "validateWorkflow" in package.json), checked with
// schemas/config.schema.json. A bad config is a usage error (exit 2) that names the bad key.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validate } from '../schemas/validate.js';
import { closest, isRecord } from '../shared/text.js';

export type Preset = 'recommended' | 'strict';
export type RuleSetting = 'off' | 'warn' | 'error';

export interface Paths {
  plans: string[];
  handoffs: string[];
  ledgers: string[];
  searchable: string[];
}

/** The config's `protocol` key: the repository's promise stated outright (read/profile.ts learns it otherwise). */
export interface ProtocolConfig {
  automatedCriteria?: boolean;
  manualCriteria?: boolean;
  taskNumbering?: 'global' | 'any';
  taskHandoffs?: boolean;
  handoffChain?: boolean;
  handoffLayout?: 'sessions' | 'flat';
}

/**
 * The config's `verify` key: which commands `validate-workflow verify` may re-run (patterns, `*` the only wildcard),
 * the set-up step run once in each worktree before them (`npm ci`), and the limit per command in seconds. Read from
 * the parent of the commit that ticked the item, like every trust setting: an agent cannot allow its own command.
 */
export interface VerifyConfig {
  allow: string[];
  setup: string | null;
  timeout: number;
}

/** Ten minutes: long enough for a real test suite, short enough that a hung one does not hold CI for hours. */
export const DEFAULT_VERIFY_TIMEOUT = 600;

export interface Config {
  preset: Preset;
  rules: Record<string, RuleSetting>;
  paths: Paths;
  ignore: string[];
  maxFileBytes: number;
  agents: string[];
  confirmers: string[] | null;
  requireSignedConfirmations: boolean;
  /**
   * An allowed-signers file in the repository (ssh-keygen's format): with `requireSignedConfirmations`, a
   * confirmation's signature must be by a key it lists, as the parent commit holds it. Null: git's own configuration.
   */
  allowedSigners: string | null;
  /**
   * Rule packs, by pack id: `false` switches a pack off. Each pack declares its key's JSON Schema and reads it with
   * its own accessor (src/packs/<id>/config.ts); the core does not know their shapes.
   */
  packs: Record<string, unknown>;
  /**
   * History settings. `since`: the adoption point (a commit); history rules judge it and every later commit, and
   * fold the earlier ones without judging them. Without it, the first human commit that adds the config is the
   * adoption point (convention section 6).
   */
  history: { since: string | null };
  /** The protocol the repository promised, stated outright (read/profile.ts); learned when absent. */
  protocol?: ProtocolConfig;
  /** What `verify` may re-run, and how (a trust setting: read from the parent commit). */
  verify: VerifyConfig;
  /** Where the config came from, for messages; null for the defaults. */
  source: string | null;
}

export const DEFAULT_PATHS: Paths = {
  plans: ['thoughts/shared/plans/**/*.md', 'thoughts/plans/**/*.md'],
  handoffs: ['thoughts/handoffs/**/*.{md,yaml,yml}', 'thoughts/shared/handoffs/**/*.{md,yaml,yml}'],
  ledgers: ['thoughts/ledgers/CONTINUITY_*.md'],
  searchable: ['thoughts/searchable/**'],
};

/** Identities of coding agents, so their commits cannot confirm manual verification (used by history rules). */
export const DEFAULT_AGENTS = [
  // Claude Code's `Co-authored-by: Claude <noreply@anthropic.com>` line.
  'noreply@anthropic.com',
  // GitHub Apps and bots (Dependabot, Claude/Codex GitHub apps, Copilot's review bot).
  '*[bot]@users.noreply.github.com',
  // The Copilot coding agent commits as `Copilot <NNN+Copilot@users.noreply.github.com>`.
  '*+Copilot@users.noreply.github.com',
  'codex@openai.com',
  'Claude',
  'Codex',
  'Copilot',
];

export const CONFIG_FILE = 'validate-workflow.config.json';

export class ConfigError extends Error {}

export function defaultConfig(): Config {
  return {
    preset: 'recommended',
    rules: {},
    paths: structuredClone(DEFAULT_PATHS),
    ignore: [],
    maxFileBytes: 1024 * 1024,
    agents: [...DEFAULT_AGENTS],
    confirmers: null,
    requireSignedConfirmations: false,
    allowedSigners: null,
    packs: {},
    history: { since: null },
    verify: { allow: [], setup: null, timeout: DEFAULT_VERIFY_TIMEOUT },
    source: null,
  };
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${where}: not valid JSON (${(err as Error).message})`);
  }
}

/** Raw config object and where it came from, or null when the repository has none. */
function findRaw(root: string, explicit: string | undefined): { raw: unknown; where: string } | null {
  if (explicit) {
    const file = resolve(explicit);
    if (!existsSync(file)) throw new ConfigError(`config file not found: ${explicit}`);
    return { raw: parseJson(readFileSync(file, 'utf8'), explicit), where: explicit };
  }
  const file = join(root, CONFIG_FILE);
  if (existsSync(file)) return { raw: parseJson(readFileSync(file, 'utf8'), CONFIG_FILE), where: CONFIG_FILE };
  const pkg = join(root, 'package.json');
  if (existsSync(pkg)) {
    const data = parseJson(readFileSync(pkg, 'utf8'), 'package.json') as Record<string, unknown> | null;
    if (data && typeof data === 'object' && 'validateWorkflow' in data)
      return { raw: data.validateWorkflow, where: 'package.json#validateWorkflow' };
  }
  return null;
}

export function configFromObject(raw: unknown, where: string, knownRules: ReadonlySet<string>): Config {
  // Every mistake at once (the schema's and the unknown rule ids), each with the key or value it most likely meant.
  const problems = validate('config', raw).map((e) => {
    // A rule id written as a top-level key (`"handoff/chain": "warn"`) belongs under `rules`.
    const top = /^\/([^/]+)$/.exec(e.pointer)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    const hint =
      e.message.startsWith('unknown key') && top && knownRules.has(top)
        ? `\`rules[${JSON.stringify(top)}]\``
        : e.suggestion;
    return `  - ${e.message}${hint ? `; did you mean ${hint}?` : ''}`;
  });
  const rules = isRecord(raw) && isRecord(raw.rules) ? Object.keys(raw.rules) : [];
  for (const id of rules.filter((r) => !knownRules.has(r))) {
    const near = closest(id, [...knownRules]);
    problems.push(`  - \`rules[${JSON.stringify(id)}]\`: unknown rule id${near ? `; did you mean "${near}"?` : ''}`);
  }
  if (problems.length) throw new ConfigError(`invalid configuration in ${where}:\n${problems.join('\n')}`);
  return configOf(raw, where);
}

/** A config object the schema accepted, with every default filled in. */
function configOf(raw: unknown, where: string): Config {
  const data = raw as Partial<Omit<Config, 'paths' | 'verify'>> & {
    paths?: Partial<Paths>;
    verify?: Partial<VerifyConfig>;
  };
  const base = defaultConfig();
  return {
    preset: data.preset ?? base.preset,
    rules: data.rules ?? {},
    paths: { ...base.paths, ...data.paths },
    ignore: data.ignore ?? [],
    maxFileBytes: data.maxFileBytes ?? base.maxFileBytes,
    agents: data.agents ?? base.agents,
    confirmers: data.confirmers ?? null,
    requireSignedConfirmations: data.requireSignedConfirmations ?? false,
    allowedSigners: data.allowedSigners ?? null,
    packs: data.packs ?? {},
    history: { since: data.history?.since ?? null },
    ...(data.protocol ? { protocol: data.protocol } : {}),
    verify: {
      allow: data.verify?.allow ?? base.verify.allow,
      setup: data.verify?.setup ?? null,
      timeout: data.verify?.timeout ?? base.verify.timeout,
    },
    source: where,
  };
}

export function loadConfig(root: string, explicit: string | undefined, knownRules: ReadonlySet<string>): Config {
  const found = findRaw(root, explicit);
  if (!found) return defaultConfig();
  return configFromObject(found.raw, found.where, knownRules);
}

/**
 * The config as loadConfig reads it, not validated: for the commit-msg hook (cli/commit-msg.ts), which only compares
 * it with the one pre-commit loaded and validated (engine/handover.ts); any other use must call loadConfig. Throws
 * what loadConfig throws on a file that is missing or no JSON, and maybe a TypeError on one the schema refuses.
 */
export function loadConfigUnchecked(root: string, explicit: string | undefined): Config {
  const found = findRaw(root, explicit);
  return found ? configOf(found.raw, found.where) : defaultConfig();
}
