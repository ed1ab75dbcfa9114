// The skim against the whole parse (VALIDATE_WORKFLOW_NO_SKIM=1), for the tests that hold them equal
// (test/read/skim.test.ts for handoffs, test/read/plan-skim.test.ts for plans).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

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

/**
 * A fixed sample of this repository's own workflow files: the first files by name of each folder of thoughts/ (handoffs,
 * plans, ledgers). The names start with their date, so the sample stays the same files as the project's history grows,
 * where every file of thoughts/ made the skim tests slower with each round of work.
 */
export function thoughtsSample(repo: string, folders: string[] = ['handoffs', 'shared/plans', 'ledgers']): string[] {
  const CAP: Record<string, number> = { handoffs: 60, 'shared/plans': 20, ledgers: 20 };
  return folders.flatMap((f) =>
    markdownFiles(join(repo, 'thoughts', f))
      .sort()
      .slice(0, CAP[f] ?? 20),
  );
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

/**
 * Generated Markdown documents of one family (plans, handoffs): optional frontmatter lines, a preamble, an optional
 * level-1 title, then headings of the given titles and depths over bodies drawn from `bodies`, with LF or CRLF endings.
 */
export function generatedDocument(o: {
  frontmatter: string[];
  titles: string[];
  h1s: string[];
  bodies: string[];
  depth: { min: number; max: number };
  maxSections: number;
}): fc.Arbitrary<string> {
  return fc
    .record({
      frontmatter: fc.option(fc.subarray(o.frontmatter), { nil: null }),
      preamble: fc.array(fc.constantFrom(...o.bodies), { maxLength: 2 }),
      h1: fc.option(fc.constantFrom(...o.h1s), { nil: null }),
      sections: fc.array(
        fc.record({
          depth: fc.integer(o.depth),
          title: fc.constantFrom(...o.titles),
          body: fc.array(fc.constantFrom(...o.bodies), { maxLength: 3 }),
        }),
        { maxLength: o.maxSections },
      ),
      crlf: fc.boolean(),
    })
    .map((d) => {
      const parts: string[] = [];
      if (d.frontmatter) parts.push(`---\n${d.frontmatter.join('\n')}\n---`);
      parts.push(...d.preamble);
      if (d.h1) parts.push(`# ${d.h1}`);
      for (const s of d.sections) parts.push(`${'#'.repeat(s.depth)} ${s.title}`, ...s.body);
      const text = `${parts.join('\n\n')}\n`;
      return d.crlf ? text.replace(/\n/g, '\r\n') : text;
    });
}
