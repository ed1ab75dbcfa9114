// init's CI job: a GitHub Actions workflow that judges the whole history again, since hooks can be skipped.
import { join } from 'node:path';
import { put, read, type InitOptions, type Report } from './common.js';

export const WORKFLOW_FILE = '.github/workflows/validate-workflow.yml';

const CI_WORKFLOW = `# Written by \`validate-workflow init\`. Hooks can be skipped (--no-verify, HUSKY=0); this job judges the whole
# history again on every push and pull request, so a skipped hook still cannot land a violation.
name: workflow protocol
on: [pull_request, push]
permissions:
  contents: read
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
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      # Annotations on the changed files, and the review report (tasks, handoffs, manual items) in the job summary.
      - run: npx validate-workflow --format github --summary
`;

/** The workflow file: written when absent or still ours; a changed one is kept unless --force. */
export function ciWorkflow(root: string, opts: InitOptions, report: Report): void {
  const workflow = join(root, WORKFLOW_FILE);
  const current = read(workflow);
  if (current === null || current === CI_WORKFLOW || opts.force) report.add(put(workflow, CI_WORKFLOW), WORKFLOW_FILE);
  else report.add('kept', WORKFLOW_FILE, 'differs from what init writes; --force replaces it');
}
