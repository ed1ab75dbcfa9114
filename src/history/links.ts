// Workflow files committed as symbolic links (git mode 120000; issue 12, bypass 7). git stores a link's text, and
// the working tree shows what it points at: history reads the target's content from the same commit's tree, so
// history and the snapshot see the same plan. In a path -> blob map such a file holds one value that says both:
// `link:<target blob>:<link text>`, or `link::<link text>` when the link leaves the repository or points at another
// link (not followed, not read; still reported). A link whose target is missing dangles: it is not in the map at
// all, as the working tree's globs do not list it either.

export const LINK_MODE = '120000';
/** A submodule's entry in a tree or the index. */
export const GITLINK_MODE = '160000';
const PREFIX = 'link:';

export function linkValue(blob: string | null, text: string): string {
  return `${PREFIX}${blob ?? ''}:${text}`;
}

export function isLinkValue(value: string | undefined | null): value is string {
  return value !== undefined && value !== null && value.startsWith(PREFIX);
}

/** A link value's parts; null for a plain blob id. */
export function parseLink(value: string | undefined | null): { blob: string | null; text: string } | null {
  if (!isLinkValue(value)) return null;
  const colon = value.indexOf(':', PREFIX.length);
  const blob = value.slice(PREFIX.length, colon);
  return { blob: blob || null, text: value.slice(colon + 1) };
}

/** The blob whose bytes a value stands for: itself, a followed link's target, or null for a link not followed. */
export function contentBlob(value: string): string | null {
  return isLinkValue(value) ? parseLink(value)!.blob : value;
}
