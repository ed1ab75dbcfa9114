// One call from a repository root to findings: discovery, reading and the snapshot rules. The CLI, the tests and
// (later) the hooks all come through here.
import type { Config } from '../config/config.js';
import { discover, type Discovered } from '../read/discover.js';
import { buildWorkspace, readOne } from '../read/workspace.js';
import { jobs, readAll } from '../read/parallel.js';
import { RULES, RULE_IDS } from '../rules/index.js';
import type { WorkflowFile, Workspace } from '../model/types.js';
import { runSnapshot } from './snapshot.js';
import type { Finding } from './finding.js';

export interface LintResult {
  discovered: Discovered[];
  workspace: Workspace;
  findings: Finding[];
}

function judge(root: string, discovered: Discovered[], files: WorkflowFile[], config: Config): LintResult {
  const strays = discovered.filter((d) => d.kind === 'searchable');
  const workspace = buildWorkspace(root, files, strays);
  return { discovered, workspace, findings: runSnapshot(workspace, RULES, config, RULE_IDS) };
}

const readable = (discovered: Discovered[]) => discovered.filter((d) => d.kind !== 'searchable');

/** Single-threaded: for tests and small workspaces. */
export function lintRepository(root: string, config: Config, inGit: boolean): LintResult {
  const discovered = discover(root, config, inGit);
  return judge(root, discovered, readable(discovered).map((d) => readOne(root, d, config.maxFileBytes)), config);
}

/** Reads on every core when the workspace is large enough to pay for the workers. */
export async function lintRepositoryParallel(root: string, config: Config, inGit: boolean): Promise<LintResult> {
  const discovered = discover(root, config, inGit);
  const items = readable(discovered);
  return judge(root, discovered, await readAll(root, items, config.maxFileBytes, jobs(items.length)), config);
}
