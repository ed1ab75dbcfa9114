// One call from a repository root to findings: discovery, reading and the snapshot rules. The CLI, the tests and
// (later) the hooks all come through here.
import type { Config } from '../config/config.js';
import { discover, type Discovered } from '../read/discover.js';
import { readWorkspace } from '../read/workspace.js';
import { RULES, RULE_IDS } from '../rules/index.js';
import type { Workspace } from '../model/types.js';
import { runSnapshot } from './snapshot.js';
import type { Finding } from './finding.js';

export interface LintResult {
  discovered: Discovered[];
  workspace: Workspace;
  findings: Finding[];
}

export function lintRepository(root: string, config: Config, inGit: boolean): LintResult {
  const discovered = discover(root, config, inGit);
  const workspace = readWorkspace(root, discovered, config);
  return { discovered, workspace, findings: runSnapshot(workspace, RULES, config, RULE_IDS) };
}
