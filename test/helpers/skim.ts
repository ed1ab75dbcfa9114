// The skim against the whole parse (VALIDATE_WORKFLOW_NO_SKIM=1), for the tests that hold them equal
// (test/read/skim.test.ts for handoffs, test/read/plan-skim.test.ts for plans).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The same read with the skim and without it; the variable is left as the run had it. */
export function bothWays<T>(read: () => T): { skimmed: T; whole: T } {
  const before = process.env.VALIDATE_WORKFLOW_NO_SKIM;
  try {
    delete process.env.VALIDATE_WORKFLOW_NO_SKIM;
    const skimmed = read();
    process.env.VALIDATE_WORKFLOW_NO_SKIM = '1';
    const whole = read();
    return { skimmed, whole };
  } finally {
    if (before === undefined) delete process.env.VALIDATE_WORKFLOW_NO_SKIM;
    else process.env.VALIDATE_WORKFLOW_NO_SKIM = before;
  }
}

/** Every Markdown file below `dir`, outside node_modules. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}
