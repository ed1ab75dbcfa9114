// `npm pack` and `npm publish` run this around packing (prepack, postpack): the package.json that ships is the one a
// consumer needs, without what only this repository uses. Its `prepare` script above all: npm lists a dependency's
// `prepare` among the install scripts it asks the user to approve (for a tarball or git dependency), and the file it
// runs is not in the package. Also left out: the other scripts, devDependencies (the bundle holds every runtime
// dependency), npm `overrides` (they only apply to the root project) and this repository's lint-staged tasks.
//
//   prepack:  build when dist/ is missing or older than its sources, then write the published package.json, keeping
//             the repository's own in .package.json.prepack;
//   postpack: put the repository's package.json back.
//
// test/hooks/setup.ts packs through publishedManifest() too, in a copy, so parallel test files never rewrite this
// repository's package.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The keys only this repository uses. */
const DEV_ONLY = ['scripts', 'devDependencies', 'overrides', 'lint-staged'];

export function publishedManifest(pkg) {
  const out = { ...pkg };
  for (const key of DEV_ONLY) delete out[key];
  return out;
}

const BACKUP = '.package.json.prepack';

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function stale() {
  if (!existsSync('dist/bundle/BUILD_ID') || !existsSync('dist/types/api/index.d.ts')) return true;
  const built = statSync('dist/bundle/BUILD_ID').mtimeMs;
  return ['src', 'scripts', 'tsconfig.json', 'package-lock.json'].some((p) => existsSync(p) && newest(p) > built);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === 'prepack') {
    if (existsSync(BACKUP))
      throw new Error(`${BACKUP} is there: an earlier pack did not finish; move it back to package.json first`);
    if (stale()) {
      const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
      if (build.status !== 0) process.exit(build.status ?? 1);
    }
    const text = readFileSync('package.json', 'utf8');
    writeFileSync(BACKUP, text);
    writeFileSync('package.json', `${JSON.stringify(publishedManifest(JSON.parse(text)), null, 2)}\n`);
  } else if (step === 'postpack') {
    if (existsSync(BACKUP)) renameSync(BACKUP, 'package.json');
  } else {
    console.error('usage: node scripts/pack-manifest.mjs prepack|postpack');
    process.exit(2);
  }
}
