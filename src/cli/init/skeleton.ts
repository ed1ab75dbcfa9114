// init's thoughts/ skeleton: the folders the workflow files go in, each kept in git by a .gitkeep while empty.
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from './common.js';

const SKELETON = ['thoughts/shared/plans', 'thoughts/handoffs', 'thoughts/ledgers'];

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
    let entries: string[] | null;
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
