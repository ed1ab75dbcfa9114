#!/usr/bin/env node
// The pre-commit framework's entry (https://pre-commit.com, this repository's .pre-commit-hooks.yaml): runs the git
// hook of this package that the stage names, the same scripts `validate-workflow init` installs, from the package
// pre-commit installed. `validate-workflow-pre-commit <pre-commit|commit-msg|pre-push> [args pre-commit passes]`.
//
// pre-commit reads git's pre-push lines itself and passes what it makes of the first one in PRE_COMMIT_* variables;
// the remote side it computes from remote-tracking refs, local state this tool does not trust (hooks/pre-push says
// why). So the line is rebuilt from the local ref pre-commit names and the remote's own answer (`git ls-remote`),
// and hooks/pre-push judges it as git's line.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [stage, ...args] = process.argv.slice(2);
const DOORS = ['pre-commit', 'commit-msg', 'pre-push'];
if (!DOORS.includes(stage ?? '')) {
  process.stderr.write(`validate-workflow-pre-commit: the first argument is one of ${DOORS.join(', ')} (got ${stage ?? 'none'})\n`);
  process.exit(2);
}
const hook = fileURLToPath(new URL(`./${stage}`, import.meta.url));

function git(...gitArgs) {
  const res = spawnSync('git', gitArgs, { encoding: 'utf8' });
  return res.status === 0 ? res.stdout.trim() : '';
}

let input = '';
let hookArgs = args;
if (stage === 'pre-push') {
  const env = process.env;
  const remote = env.PRE_COMMIT_REMOTE_NAME ?? 'origin';
  const localRef = env.PRE_COMMIT_LOCAL_BRANCH ?? 'HEAD';
  const remoteRef = env.PRE_COMMIT_REMOTE_BRANCH ?? '';
  const localSha = env.PRE_COMMIT_TO_REF || git('rev-parse', '--verify', '-q', `${localRef}^{commit}`);
  if (!localSha) {
    process.stderr.write(`validate-workflow-pre-commit: cannot tell which commit is pushed (${localRef}); push refused.\n`);
    process.exit(1);
  }
  // The remote's sha for the pushed ref, as the remote says; zeros (a new branch) when it has none.
  const listed = remoteRef ? git('ls-remote', remote, remoteRef).split('\n')[0]?.split('\t')[0] : '';
  const remoteSha = listed || '0'.repeat(localSha.length);
  input = `${localRef} ${localSha} ${remoteRef || localRef} ${remoteSha}\n`;
  hookArgs = [remote, env.PRE_COMMIT_REMOTE_URL ?? remote];
}
// No lint-staged here: pre-commit is the runner of this repository's staged-file tasks.
const res = spawnSync('sh', [hook, ...hookArgs], {
  stdio: [stage === 'pre-push' ? 'pipe' : 'ignore', 'inherit', 'inherit'],
  input: stage === 'pre-push' ? input : undefined,
  env: { ...process.env, VALIDATE_WORKFLOW_LINT_STAGED: '0' },
});
process.exit(res.status ?? 2);
