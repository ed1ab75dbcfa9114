// The package's own facts, read once from its package.json (two folders up from dist/shared/ and dist/bundle/): its
// version, and its public home. package.json's `repository` is the one place that names the home: rule links,
// SARIF's helpUri, the API's `docs`, the action `init` writes into a CI workflow and the pre-commit framework's
// `repo:` are all derived from it, so a fork that changes it points every one of them at itself. Until the package
// is published those links name the intended home; the pages also ship in the package (docs/rules/, and `explain`).
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

/** The public home (package.json `repository` as a browser address), or null when package.json names none. */
export function homePage(): string | null {
  return repositoryPage(facts().repository);
}

/**
 * How a GitHub workflow names the action of the repository at `home` for `version`: `owner/name@v<major>`, the tag
 * that moves with each release of a major version.
 */
export function actionRef(home: string, version: string): string {
  const path = new URL(home).pathname.replace(/^\/+|\/+$/g, '');
  return `${path}@v${version.split('.')[0]}`;
}
