// init's package.json job: the devDependencies the hooks need and the prepare script that installs husky's hooks.
// It edits the object in memory; init writes package.json once, after the lint-staged job has added its entry.
import { isRecord } from '../../shared/text.js';
import { toolVersion } from '../../shared/version.js';
import type { Report } from './common.js';

/**
 * Pinned so a fresh clone resolves the same versions: the newest releases that still run on Node 20
 * (lint-staged 17 declares Node 22; husky 9.1 runs on Node 18+).
 */
export const DEV_DEPENDENCIES: Readonly<Record<string, string>> = { husky: '9.1.7', 'lint-staged': '16.4.0' };
/** `husky` alone fails `npm ci --omit=dev` (no husky installed); the guard keeps production installs working. */
export const PREPARE = 'husky || true';

export interface PackageEdit {
  pkg: Record<string, unknown>;
  changes: string[];
  /** Something a `npm install` has to bring in. */
  needsInstall: boolean;
}

/** devDependencies (husky, lint-staged, this package) and the prepare script that turns husky on. */
export function editPackage(pkg: Record<string, unknown>, report: Report): PackageEdit {
  const changes: string[] = [];
  let needsInstall = false;
  const has = (name: string) =>
    ['dependencies', 'devDependencies', 'optionalDependencies'].some(
      (k) => isRecord(pkg[k]) && name in (pkg[k] as Record<string, unknown>),
    );
  const want: Record<string, string> = { ...DEV_DEPENDENCIES };
  // The hooks run the package from node_modules; someone who ran init through a global or npx copy needs it local.
  want['validate-workflow'] = `^${toolVersion()}`;
  const added: string[] = [];
  for (const [name, version] of Object.entries(want)) {
    if (has(name)) continue;
    const dev = isRecord(pkg.devDependencies) ? (pkg.devDependencies as Record<string, string>) : {};
    dev[name] = version;
    // npm keeps dependency lists sorted; so does init, so npm's next write shows no reordering.
    pkg.devDependencies = Object.fromEntries(Object.entries(dev).sort(([a], [b]) => a.localeCompare(b)));
    added.push(`${name} ${version}`);
  }
  if (added.length) {
    changes.push(`devDependencies: ${added.join(', ')}`);
    needsInstall = true;
  }
  const scripts = isRecord(pkg.scripts) ? (pkg.scripts as Record<string, string>) : {};
  const prepare = scripts.prepare;
  if (prepare === undefined || prepare.trim() === '') {
    scripts.prepare = PREPARE;
    pkg.scripts = scripts;
    changes.push(`scripts.prepare: "${PREPARE}"`);
    needsInstall = true;
  } else if (!/\bhusky\b/.test(prepare)) {
    // Keep the user's prepare step, and its failure: only husky's absence (npm ci --omit=dev) is forgiven.
    scripts.prepare = `${prepare} && (${PREPARE})`;
    changes.push(`scripts.prepare: "${scripts.prepare}" (yours, then husky)`);
    needsInstall = true;
  } else if (/^\s*husky\s*$/.test(prepare)) {
    report.add(
      'note',
      'package.json scripts.prepare',
      `"${prepare}" fails \`npm ci --omit=dev\` (no husky there); "${PREPARE}" does not`,
    );
  }
  return { pkg, changes, needsInstall };
}
