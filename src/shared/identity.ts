// `Name <email>` as git writes identities (author, committer, trailers, `git var`).
import type { Identity } from '../model/history.js';

export function parseIdentity(text: string): Identity | null {
  const lt = text.lastIndexOf('<');
  const gt = text.lastIndexOf('>');
  if (lt < 0 || gt < lt) return null;
  return { name: text.slice(0, lt).trim(), email: text.slice(lt + 1, gt).trim() };
}

export function formatIdentity(who: Identity): string {
  return `${who.name} <${who.email}>`;
}
