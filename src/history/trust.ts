// Who may vouch for what (convention section 6). A `Confirmed-by` trailer counts only when its identity is not an
// agent's, is allowlisted when `confirmers` is set, and is the commit's author or committer; with
// `requireSignedConfirmations` the commit must also carry a good signature.
import type { Commit, Identity } from '../model/history.js';
import type { Config, Preset } from '../config/config.js';
import { parseIdentity } from '../shared/identity.js';

export { parseIdentity };

function globMatch(pattern: string, value: string): boolean {
  const parts = pattern.toLowerCase().split('*');
  const v = value.toLowerCase();
  if (parts.length === 1) return v === parts[0];
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i === 0) {
      if (!v.startsWith(part)) return false;
      pos = part.length;
    } else if (i === parts.length - 1) {
      return v.length - part.length >= pos && v.endsWith(part);
    } else {
      const at = v.indexOf(part, pos);
      if (at < 0) return false;
      pos = at + part.length;
    }
  }
  return true;
}

/** Patterns with `@` are matched against emails, the others against names; `*` is the only wildcard. */
export function matches(patterns: string[], who: Identity): boolean {
  return patterns.some((p) => (p.includes('@') ? globMatch(p, who.email) : globMatch(p, who.name)));
}

export function coAuthors(commit: Commit): Identity[] {
  return commit.trailers.filter((t) => t.key.toLowerCase() === 'co-authored-by').flatMap((t) => parseIdentity(t.value) ?? []);
}

/** A commit is an agent's when its author, committer or any co-author matches the `agents` patterns. */
export function agentIdentities(commit: Commit, config: Config): Identity[] {
  const seen = new Set<string>();
  return [commit.author, commit.committer, ...coAuthors(commit)].filter((who) => {
    const key = `${who.name}\0${who.email.toLowerCase()}`;
    if (seen.has(key) || !matches(config.agents, who)) return false;
    seen.add(key);
    return true;
  });
}

export interface Confirmation {
  ok: boolean;
  by: Identity | null;
  /** Why it does not count, or a note on why it counts only in `recommended`. */
  reason: string;
}

const same = (a: Identity, b: Identity) => a.email.toLowerCase() === b.email.toLowerCase();

export function confirmation(commit: Commit, config: Config, preset: Preset, signed: () => boolean): Confirmation {
  const trailers = commit.trailers.filter((t) => t.key.toLowerCase() === 'confirmed-by');
  if (trailers.length === 0) return { ok: false, by: null, reason: 'the commit has no `Confirmed-by:` trailer' };
  let last: Confirmation = { ok: false, by: null, reason: '' };
  for (const t of trailers) {
    const by = parseIdentity(t.value);
    if (!by) {
      last = { ok: false, by: null, reason: `\`Confirmed-by: ${t.value}\` is not of the form \`Name <email>\`` };
      continue;
    }
    const label = `${by.name} <${by.email}>`;
    if (matches(config.agents, by)) last = { ok: false, by, reason: `${label} matches the \`agents\` patterns: an agent cannot confirm` };
    else if (config.confirmers && !matches(config.confirmers, by)) last = { ok: false, by, reason: `${label} is not listed in \`confirmers\`` };
    else if (!same(by, commit.author) && !same(by, commit.committer)) last = { ok: false, by, reason: `${label} is neither the author nor the committer of the commit` };
    // Strict: the agent may not even relay the human's word, whether as co-author, author or committer.
    else if (preset === 'strict' && agentIdentities(commit, config).length > 0) last = { ok: false, by, reason: 'in `strict` a confirmation commit may not be authored, committed or co-authored by an agent' };
    else if (config.requireSignedConfirmations && !signed()) last = { ok: false, by, reason: 'the commit has no good signature and `requireSignedConfirmations` is set' };
    else return { ok: true, by, reason: '' };
  }
  return last;
}
