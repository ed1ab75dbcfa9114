// init's CI job: a GitHub Actions workflow that judges history again, since hooks can be skipped, through the action
// this repository ships (action.yml; the hand-written form is in the README).
import { join } from 'node:path';
import { actionRef, homePage, toolVersion } from '../../shared/version.js';
import { put, read, type InitOptions, type Report } from './common.js';

export const WORKFLOW_FILE = '.github/workflows/validate-workflow.yml';

/** The action in this package's repository (action.yml), at the major version's moving tag. */
export function action(): string {
  const home = homePage();
  if (home === null) throw new Error("package.json names no `repository`: init cannot name this tool's action");
  return actionRef(home, toolVersion());
}

const ciWorkflowText =
  (): string => `# Written by \`validate-workflow init\`. Hooks can be skipped (--no-verify, HUSKY=0); this job judges history again
# on every push and pull request, so a skipped hook still cannot land a violation. The action writes annotations and
# the job summary, and keeps one comment with the review report on the pull request.
name: workflow protocol
on: [pull_request, push]
permissions:
  contents: read
  # The action's one review comment, edited in place on every run.
  pull-requests: write
jobs:
  validate-workflow:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          # History rules judge every commit; a shallow clone is reported (history/incomplete), never passed.
          fetch-depth: 0
          # A pull request is judged on its own head, never on the merge commit GitHub synthesizes.
          ref: \${{ github.event.pull_request.head.sha || github.sha }}
      - uses: ${action()}
        with:
          fail-on: error
`;

/** The workflow file: written when absent or still ours; a changed one is kept unless --force. */
export function ciWorkflow(root: string, opts: InitOptions, report: Report): void {
  const workflow = join(root, WORKFLOW_FILE);
  const current = read(workflow);
  const text = ciWorkflowText();
  if (current === null || current === text || opts.force) report.add(put(workflow, text), WORKFLOW_FILE);
  else report.add('kept', WORKFLOW_FILE, 'differs from what init writes; --force replaces it');
}
