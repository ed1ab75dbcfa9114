// `npm ci` runs this: build dist/ so `npx validate-workflow` works in this repository, and set up husky when present.
// Under `npm ci --omit=dev` neither typescript nor husky is installed; that must not fail the install.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (existsSync('node_modules/typescript') && existsSync('tsconfig.json')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
