// init's lint-staged job: the entry that runs `validate-workflow --staged .` when a workflow file is staged, in
// whichever lint-staged config the repository has.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, type Paths } from '../../config/config.js';
import { isRecord } from '../../shared/text.js';
import { ALLOWED_SIGNERS_FILE } from '../../history/snapshot.js';
import { jsonIndent, read, type Report } from './common.js';

import { LINT_STAGED_FILES, LINT_STAGED_TASK } from '../lint-staged.js';

export { LINT_STAGED_TASK };

/**
 * The lint-staged glob: the top folder of every workflow glob (so the task runs when any workflow file is staged),
 * plus the files that hold trust settings (config, package.json, baseline, allowed signers), which an agent must
 * not loosen unseen.
 */
export function lintStagedGlob(paths: Paths): string {
  const tops = new Set<string>();
  for (const glob of [...paths.plans, ...paths.handoffs, ...paths.ledgers, ...paths.searchable]) {
    const first = glob.split('/')[0]!;
    tops.add(/[*?[\]{}()!]/.test(first) || !glob.includes('/') ? '**' : `${first}/**`);
  }
  const parts = tops.has('**')
    ? ['**']
    : [...tops, CONFIG_FILE, 'validate-workflow.baseline.json', 'package.json', ALLOWED_SIGNERS_FILE];
  return parts.length === 1 ? parts[0]! : `{${parts.join(',')}}`;
}

function mentionsUs(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('validate-workflow');
  if (Array.isArray(value)) return value.some(mentionsUs);
  return false;
}

/** Add our task to a lint-staged config object; false when one is already there. */
function addLintStagedTask(config: Record<string, unknown>, glob: string): boolean {
  if (Object.values(config).some(mentionsUs)) return false;
  const existing = config[glob];
  config[glob] =
    existing === undefined
      ? LINT_STAGED_TASK
      : [...(Array.isArray(existing) ? existing : [existing]), LINT_STAGED_TASK];
  return true;
}

/**
 * Our task in the lint-staged config: package.json's "lint-staged" (edited in memory; the change is returned for
 * init to list), a JSON .lintstagedrc (written here), or a note for a format init does not edit.
 */
export function addLintStaged(root: string, pkg: Record<string, unknown>, paths: Paths, report: Report): string | null {
  const glob = lintStagedGlob(paths);
  const own = LINT_STAGED_FILES.find((f) => existsSync(join(root, f)));
  if (isRecord(pkg['lint-staged']) || !own) {
    const config = isRecord(pkg['lint-staged']) ? (pkg['lint-staged'] as Record<string, unknown>) : {};
    if (addLintStagedTask(config, glob)) {
      pkg['lint-staged'] = config;
      return `lint-staged: "${glob}": "${LINT_STAGED_TASK}"`;
    }
  } else if (own === '.lintstagedrc.json' || own === '.lintstagedrc') {
    lintStagedFile(root, own, glob, report);
  } else {
    report.add(
      'kept',
      own,
      `init does not edit this format: add "${glob}": "${LINT_STAGED_TASK}" to it yourself (until then pre-commit does not run the workflow check; commit-msg and pre-push still do)`,
    );
  }
  return null;
}

function lintStagedFile(root: string, file: string, glob: string, report: Report): void {
  const path = join(root, file);
  const text = read(path) ?? '';
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    report.add('kept', file, `not JSON (YAML?): add "${glob}": "${LINT_STAGED_TASK}" to it yourself`);
    return;
  }
  if (!isRecord(config)) {
    report.add('kept', file, `not an object of globs: add "${glob}": "${LINT_STAGED_TASK}" to it yourself`);
    return;
  }
  if (!addLintStagedTask(config, glob)) {
    report.add('unchanged', file, 'already runs validate-workflow');
    return;
  }
  writeFileSync(path, `${JSON.stringify(config, null, jsonIndent(text))}\n`);
  report.add('updated', file, `"${glob}": "${LINT_STAGED_TASK}"`);
}
