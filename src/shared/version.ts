// The package's own facts, read once from its package.json (two folders up from dist/shared/): its version, and
// where its rule pages live. The repository field is the one source of the docs address, so a fork that changes it
// links its own pages.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface PackageFacts {
  version: string;
  repository?: string | { url?: string };
}

let cached: PackageFacts | null = null;

function facts(): PackageFacts {
  cached ??= JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageFacts;
  return cached;
}

/** The folder of this package (the repository in development, the installed package's folder otherwise). */
export function packageRoot(): string {
  return fileURLToPath(new URL('../..', import.meta.url));
}

export function toolVersion(): string {
  return facts().version;
}

/** npm's repository URL as a browser address: `git+https://host/o/r.git` -> `https://host/o/r`; null when absent. */
export function repositoryPage(repository: PackageFacts['repository']): string | null {
  const url = typeof repository === 'string' ? repository : repository?.url;
  if (!url) return null;
  return url
    .replace(/^git\+/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
}

/**
 * Where rule pages can be read: the repository's docs at this version's tag (`${docsBase()}/docs/rules/<id>.md`).
 * Not a CDN of the published package: the pages are there before (and whether or not) it is published.
 */
export function docsBase(): string {
  const page = repositoryPage(facts().repository);
  return page ? `${page}/blob/v${toolVersion()}` : '';
}
