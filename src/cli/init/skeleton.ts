// init's thoughts/ skeleton: the folders the workflow files go in, each kept in git by a .gitkeep while empty.
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from './common.js';

const SKELETON = ['thoughts/shared/plans', 'thoughts/handoffs', 'thoughts/ledgers'];

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

export function skeleton(root: string, report: Report): void {
  // In HumanLayer's layout thoughts/ belongs to another repository (and its hook refuses staged thoughts/ files):
  // creating folders there is that repository's business.
  const base = join(root, 'thoughts');
  try {
    if (lstatSync(base).isSymbolicLink() || readdirSync(base).some((n) => lstatSync(join(base, n)).isSymbolicLink())) {
      report.add('note', 'thoughts/', 'links into another repository: no skeleton created here');
      return;
    }
  } catch {
    // No thoughts/ yet: create it below.
  }
  for (const dir of SKELETON) {
    const abs = join(root, dir);
    let entries: string[] | null = null;
    try {
      entries = readdirSync(abs);
    } catch {
      entries = null;
    }
    // Git keeps no empty folder; a .gitkeep only where the folder would otherwise vanish from a clone.
    if (entries === null || entries.length === 0) {
      mkdirSync(abs, { recursive: true });
      writeFileSync(join(abs, '.gitkeep'), '');
      report.add('created', `${dir}/.gitkeep`);
    } else report.add('unchanged', `${dir}/`);
  }
}
