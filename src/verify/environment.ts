// The environment the re-run commands get: the tool's own, less every secret it may hold. In GitHub Actions the
// job's token is in the environment of every step's process (`GITHUB_TOKEN` when the workflow passes it,
// `ACTIONS_RUNTIME_TOKEN` and `ACTIONS_ID_TOKEN_REQUEST_TOKEN` always for the runner's own use), and a command ticked
// by an agent is code the agent wrote: a test script that posts them somewhere must find nothing to post. The
// README lists these names (section "Verifying what the agent claimed").

/** Removed by name: what GitHub Actions, the gh CLI and package registries keep credentials in. */
export const SECRET_NAMES: readonly string[] = [
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL',
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
];

/**
 * Removed by the shape of the name: every action input (`INPUT_TOKEN`, `INPUT_GITHUB-TOKEN`; the Action passes its
 * inputs this way), and any variable whose name says it holds a secret.
 */
export const SECRET_SHAPES: readonly RegExp[] = [
  /^INPUT_/i,
  /TOKEN/i,
  /SECRET/i,
  /PASSWORD|PASSWD/i,
  /CREDENTIAL/i,
  /API_?KEY/i,
  /PRIVATE_?KEY/i,
  /ACCESS_?KEY/i,
];

/**
 * Removed so the command works on the worktree it runs in: a git hook or a `git rebase --exec` sets these, and
 * they would point the command's own git calls at another repository or index.
 */
const GIT_LOCATIONS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_PREFIX',
];

export function isSecret(name: string): boolean {
  return SECRET_NAMES.includes(name.toUpperCase()) || SECRET_SHAPES.some((shape) => shape.test(name));
}

/** `env` without secrets and git locations; `CI=true` so test runners do not wait for a terminal (watch modes). */
export function commandEnvironment(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; removed: string[] } {
  const out: NodeJS.ProcessEnv = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecret(name)) removed.push(name);
    else if (!GIT_LOCATIONS.includes(name)) out[name] = value;
  }
  out.CI ??= 'true';
  return { env: out, removed: removed.sort() };
}
