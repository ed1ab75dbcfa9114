// The few rule tests that need a real repository and the real CLI (exit codes, the config file read from disk,
// files read through the file system). Everything else judges rules in memory. Not a test file itself.
import { existsSync } from 'node:fs';
import type { Finding } from '../../src/model/finding.js';
import { CLI, makeRepo, runCli } from '../helpers/repo.js';
import type { Files } from './fixtures.js';

/** The real CLI (dist/bundle/main.js, built by `npm run build`); JSON results of one rule plus the exit code. */
export function cliFindings(
  files: Files,
  ruleId: string,
  args: string[] = [],
): { code: number | null; results: Finding[] } {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the CLI tests`);
  const dir = makeRepo(files);
  const res = runCli(dir, ['--format', 'json', '--no-history', ...args]);
  const out = JSON.parse(res.stdout) as { results: Finding[] };
  return { code: res.code, results: out.results.filter((r) => r.ruleId === ruleId) };
}
