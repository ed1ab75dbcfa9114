// init's trust job: the config it writes (`recommended`, or with --strict the strong gate: preset strict, the
// current git identity as the only confirmer, and signed confirmations against an allowed-signers file in the
// repository when git signs with an SSH key), and one line per choice saying what it protects against.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_AGENTS } from '../../config/config.js';
import type { Identity } from '../../model/history.js';
import { matches } from '../../history/trust.js';
import { ALLOWED_SIGNERS_FILE } from '../../history/snapshot.js';
import { gitIdentity, gitSync } from '../../shared/git.js';
import { formatIdentity } from '../../shared/identity.js';
import { isRecord } from '../../shared/text.js';
import { put, read, type Report } from './common.js';

/** Why `init --strict` cannot set the strong gate up: printed, exit 2. */
export class StrictError extends Error {}

/** The git identity commits are made with (`git var`: config and GIT_AUTHOR_* variables applied). */
export function authorIdentity(root: string): Identity | null {
  const who = gitIdentity(root, 'GIT_AUTHOR_IDENT');
  return who && who.email ? who : null;
}

/** `keytype base64` of the SSH public key git signs with, or null when commit signing is not set up with SSH. */
export function signingPublicKey(root: string): string | null {
  const config = (key: string) => gitSync(root, ['config', '--get', key]).out.trim();
  if (config('gpg.format').toLowerCase() !== 'ssh') return null;
  const key = config('user.signingkey');
  if (!key) return null;
  const text = key.startsWith('key::') ? key.slice(5) : publicKeyFile(root, key);
  const m = text ? /^\s*((?:ssh|ecdsa|sk)-[\w@.-]+)\s+([A-Za-z0-9+/=]+)/m.exec(text) : null;
  return m ? `${m[1]} ${m[2]}` : null;
}

function publicKeyFile(root: string, key: string): string | null {
  const path = key.startsWith('~/') ? join(homedir(), key.slice(2)) : isAbsolute(key) ? key : resolve(root, key);
  for (const candidate of path.endsWith('.pub') ? [path] : [`${path}.pub`, path]) {
    if (!existsSync(candidate)) continue;
    const text = readFileSync(candidate, 'utf8');
    // A private key file: its public half is next to it (`.pub`), or not readable without a passphrase here.
    if (!text.includes('PRIVATE KEY')) return text;
  }
  return null;
}

/** The allowed-signers line for one person: ssh-keygen's format, the key limited to git's signatures. */
export function signersLine(who: Identity, publicKey: string): string {
  return `${who.email} namespaces="git" ${publicKey}`;
}

export interface TrustSetup {
  /** The config init writes when there is none. */
  config: Record<string, unknown>;
}

/**
 * The settings `init` writes: `recommended`, or with --strict preset strict, `confirmers` set to the current git
 * identity, and (when git signs with an SSH key) `requireSignedConfirmations` with the allowed-signers file, which
 * is written here.
 */
export function trustSetup(root: string, strict: boolean, report: Report): TrustSetup {
  if (!strict) return { config: { preset: 'recommended' } };
  const who = authorIdentity(root);
  if (!who)
    throw new StrictError(
      'git does not know who you are: set `git config user.name` and `git config user.email` (the identity that will confirm manual items), then run `init --strict` again.',
    );
  if (matches(DEFAULT_AGENTS, who)) {
    throw new StrictError(
      `${formatIdentity(who)} is an agent's identity: run \`init --strict\` as the human who confirms manual items (their git identity becomes the only confirmer).`,
    );
  }
  const config: Record<string, unknown> = { preset: 'strict', confirmers: [who.email] };
  const key = signingPublicKey(root);
  if (key) {
    const line = signersLine(who, key);
    const path = join(root, ALLOWED_SIGNERS_FILE);
    const existing = read(path);
    if (existing === null) report.add(put(path, `${line}\n`), ALLOWED_SIGNERS_FILE, `${who.email}'s signing key`);
    else if (existing.includes(key))
      report.add('unchanged', ALLOWED_SIGNERS_FILE, `already lists ${who.email}'s signing key`);
    else report.add('kept', ALLOWED_SIGNERS_FILE, `yours, kept as is; add your key to it: ${line}`);
    config.requireSignedConfirmations = true;
    config.allowedSigners = ALLOWED_SIGNERS_FILE;
  }
  return { config };
}

/** One line per trust choice of a config (the one init wrote, or the repository's own): what it protects against. */
export function choiceLines(raw: Record<string, unknown>, report: Report): void {
  const strict = raw.preset === 'strict';
  report.add(
    'note',
    `preset ${strict ? 'strict' : 'recommended'}`,
    strict
      ? 'a confirmation needs `Confirmed-by` and the `Confirmed-items` digest in a commit no agent took part in, so an agent cannot relay, amend or squash an item into it; it can still forge a human author and trailer'
      : "an agent's unconfirmed check-off is refused; a human's `Confirmed-by` (or their own checkbox-only commit) is trusted as written, so an agent that forges a human author gets through",
  );
  if (Array.isArray(raw.confirmers)) {
    report.add(
      'note',
      'confirmers',
      'an agent can no longer invent a confirmer, but can still name a listed human (author and committer are free text)',
    );
  } else if (strict) {
    report.add('note', 'confirmers', 'not set: any human identity may confirm, including one an agent invents');
  }
  if (raw.requireSignedConfirmations === true) {
    report.add(
      'note',
      'requireSignedConfirmations',
      typeof raw.allowedSigners === 'string'
        ? `only a commit signed by a key listed in ${raw.allowedSigners} (as its parent commit holds it) confirms: keep that signing key out of the agent's environment`
        : "only a signed commit confirms, by any key this machine's git trusts: set `allowedSigners` so the keys are the repository's",
    );
  } else if (strict) {
    report.add(
      'note',
      'requireSignedConfirmations',
      'not set (git signs with no SSH key: user.signingkey with gpg.format ssh): without a signature a confirmation proves only what the commit says',
    );
  }
}

/** The config's trust keys as the repository holds them (the config file, else package.json's key). */
export function rawConfig(text: string | null, pkg: Record<string, unknown>): Record<string, unknown> {
  if (text !== null) {
    try {
      const parsed: unknown = JSON.parse(text);
      return isRecord(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isRecord(pkg.validateWorkflow) ? pkg.validateWorkflow : {};
}
