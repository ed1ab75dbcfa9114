// The few rule tests that need a real repository and the CLI's own reading of it (exit codes, the config file read
// from disk, files read through the file system). Everything else judges rules in memory. Not a test file itself.
import type { Finding } from '../../src/model/finding.js';
import { makeRepo, runCliHere } from '../helpers/repo.js';
import type { Files } from './fixtures.js';

/**
 * The CLI's run() in this process (runCliHere: the stdout and exit code the built CLI gives), over a real repository;
 * JSON results of one rule plus the exit code. The process itself is the CLI door's subject: test/cli.test.ts exits 1
 * on errors and 2 on usage errors through the built CLI; exit 0 on a warning is the run()'s own mapping, judged here.
 */
export async function cliFindings(
  files: Files,
  ruleId: string,
  args: string[] = [],
): Promise<{ code: number | null; results: Finding[] }> {
  const dir = makeRepo(files);
  const res = await runCliHere(dir, ['--format', 'json', '--no-history', ...args]);
  const out = JSON.parse(res.stdout) as { results: Finding[] };
  return { code: res.code, results: out.results.filter((r) => r.ruleId === ruleId) };
}
