// package.json runs this as `postprepare`, not `prepare`: npm asks a user to approve a git or tarball dependency's
// `prepare` (with preinstall, install and postinstall) before it runs, and lists it on every install, while a root
// install runs `postprepare` like `prepare`. It runs in three places, and never in a consumer's install (the
// package.json that ships has no scripts, see scripts/pack-manifest.mjs):
//
// 1. `npm ci` / `npm install` in a clone of this repository (the pre-commit framework's install of it too): build
//    dist/ so `npx validate-workflow` works, and turn husky's hooks on when husky is installed. Under
//    `npm ci --omit=dev` neither typescript nor husky is there; that must not fail the install.
// 2. `npm i <git url>`: npm clones into a temporary folder under its cache and, because package.json has a `prepack`,
//    runs `npm install` there (with _PACOTE_NO_PREPARE_ set), then packs the folder. This run builds dist/, then
//    makes the clone's package.json the published one, so what npm packs and installs is what `npm pack` ships. Only
//    in npm's own folder: a folder of yours is never rewritten.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { publishedManifest } from './pack-manifest.mjs';

if (existsSync('node_modules/typescript-7') && existsSync('tsconfig.json')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  linkOwnBins();
}

/**
 * This repository depends on itself (`"validate-workflow": "file:."`) so that its own lint-staged config runs
 * `validate-workflow --staged .` as a user's does. npm links that dependency's bins before this script builds dist/,
 * and skips a bin whose file is missing: in a fresh clone the first commit's hook failed with ENOENT. Link what npm
 * skipped, now that the files exist.
 */
function linkOwnBins() {
  if (!existsSync('node_modules/validate-workflow/package.json')) return;
  const { bin = {} } = JSON.parse(readFileSync('package.json', 'utf8'));
  mkdirSync('node_modules/.bin', { recursive: true });
  for (const [name, target] of Object.entries(bin)) {
    const link = `node_modules/.bin/${name}`;
    if (existsSync(link) || !existsSync(target)) continue;
    rmSync(link, { force: true }); // a dangling link left by an earlier install
    symlinkSync(`../validate-workflow/${target}`, link);
    chmodSync(target, 0o755);
  }
}

const gitDependency =
  process.env._PACOTE_NO_PREPARE_ !== undefined && /[\\/]_cacache[\\/]tmp[\\/]git-clone[^\\/]*$/.test(process.cwd());
if (gitDependency) {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  writeFileSync('package.json', `${JSON.stringify(publishedManifest(pkg), null, 2)}\n`);
} else if (existsSync('node_modules/husky') && existsSync('.git')) {
  // husky sets core.hooksPath to .husky/_ for this clone; a failure (git too old, not a work tree) is only reported.
  spawnSync(process.execPath, ['node_modules/husky/bin.js'], { stdio: 'inherit' });
}
