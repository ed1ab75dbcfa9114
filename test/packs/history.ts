// The history door over a real repository, for the pack tests: pack rules judged by the engine's one runner, each
// commit by its parent's settings (so a pack that config switches on needs its config committed first).
import { defaultConfig, type Config } from '../../src/config/config.js';
import { judgeHistory } from '../../src/engine/history.js';
import type { Finding } from '../../src/model/finding.js';

/** Every finding of the history of HEAD (core and pack rules), as the history door reports them. */
export async function packHistory(dir: string, config: Config = defaultConfig()): Promise<Finding[]> {
  return (await judgeHistory(dir, { config })).findings;
}
