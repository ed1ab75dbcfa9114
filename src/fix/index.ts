// --fix and --fix-dry-run: the fixable rules' fixers, run on the findings of the working tree's snapshot, their
// changes merged per file and either written (text edits, then renames; nothing is staged) or shown as a diff.
// Each change is told as `file: what changed`; each finding a fixer would not touch is told with the reason.
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Config } from '../config/config.js';
import { lintRepositoryParallel } from '../engine/lint.js';
import { gitSync } from '../shared/git.js';
import { plural } from '../shared/text.js';
import { automatedCriteria, manualCriteria } from './criteria.js';
import { unifiedDiff } from './diff.js';
import { handoffChain } from './handoff-chain.js';
import { handoffPath } from './handoff-path.js';
import { ledgerSync } from './ledger-sync.js';
import { forgetInstructions } from '../read/profile.js';
import { applyEdits, overlaps } from './text.js';
import type { Change, FixContext, FixType, Fixer, Skip } from './types.js';

export { FIX_TYPES, type FixType } from './types.js';

/** Every fixer, by the id of the rule it fixes; handoff/path runs before handoff/chain, which names renamed files. */
export const FIXERS: readonly Fixer[] = [ledgerSync, handoffPath, handoffChain, automatedCriteria, manualCriteria];

export interface FixOptions {
  root: string;
  inGit: boolean;
  config: Config;
  /** Which kinds of fix to make (`problem` unless asked otherwise). */
  types: readonly FixType[];
  /** Show the diff and write nothing. */
  dryRun: boolean;
  /** Only findings in files the user named (`validate-workflow --fix <paths>`). */
  inScope: (file: string) => boolean;
  say: (text: string) => void;
}

export interface FixOutcome {
  changes: Change[];
  skipped: Skip[];
  /** The files written (or, in a dry run, that would be), by their path before the run. */
  files: string[];
}

interface FileResult {
  path: string;
  before: string;
  after: string;
  renameTo?: string;
  changes: Change[];
}

/** Changes grouped per file; a change whose edits overlap another's in that file is refused, never merged. */
function merge(changes: Change[], text: (path: string) => string, skipped: Skip[]): FileResult[] {
  const byFile = new Map<string, FileResult>();
  for (const c of changes) {
    const file = byFile.get(c.file) ?? { path: c.file, before: text(c.file), after: '', changes: [] };
    if (file.changes.some((o) => overlaps(o.edits, c.edits)) || (c.renameTo && file.renameTo)) {
      skipped.push({ ruleId: c.ruleId, file: c.file, why: `another fix changes the same lines: ${c.says}` });
      continue;
    }
    file.changes.push(c);
    if (c.renameTo) file.renameTo = c.renameTo;
    byFile.set(c.file, file);
  }
  for (const f of byFile.values())
    f.after = applyEdits(
      f.before,
      f.changes.flatMap((c) => c.edits),
    );
  return [...byFile.values()];
}

export async function fixWorkingTree(opts: FixOptions): Promise<FixOutcome> {
  const { root } = opts;
  forgetInstructions(root);
  // The same snapshot pass as the report's (workers on a large workspace), before anything is changed.
  const lint = await lintRepositoryParallel(root, opts.config, opts.inGit);
  const texts = new Map<string, string>();
  const ctx: FixContext = {
    workspace: lint.workspace,
    text: (path) => {
      if (!texts.has(path)) texts.set(path, readFileSync(join(root, path), 'utf8'));
      return texts.get(path)!;
    },
    committed: (path) => opts.inGit && gitSync(root, ['cat-file', '-e', `HEAD:${path}`]).ok,
    // The exact name, not what the file system resolves it to: on a case-insensitive one `task-03-Add.md` "exists"
    // as `task-03-add.md`, and a rename that only changes case must still be made.
    exists: (path) =>
      existsSync(join(root, dirname(path))) && readdirSync(join(root, dirname(path))).includes(basename(path)),
    renames: new Map(),
  };
  const changes: Change[] = [];
  const skipped: Skip[] = [];
  for (const fixer of FIXERS.filter((f) => opts.types.includes(f.type))) {
    const mine = lint.findings.filter(
      (f) =>
        (f.ruleId === fixer.ruleId || fixer.alsoFixes?.(f) === true) &&
        f.severity !== 'info' &&
        f.file !== null &&
        opts.inScope(f.file),
    );
    if (mine.length === 0) continue;
    // A fixer that fails leaves its findings to the report: a repair is a convenience, the judgement is not.
    try {
      const r = fixer.fix(mine, ctx);
      changes.push(...r.changes);
      skipped.push(...r.skipped);
    } catch (err) {
      const why = `the fix failed (${err instanceof Error ? err.message : String(err)}); nothing of it was written`;
      for (const file of new Set(mine.map((f) => f.file!))) skipped.push({ ruleId: fixer.ruleId, file, why });
    }
  }
  const files = merge(changes, ctx.text, skipped);

  // One write of everything said: a reader that closes the pipe early (`| head`) meets one write, not dozens.
  const said: string[] = [];
  if (opts.dryRun) {
    for (const f of files) said.push(unifiedDiff(f.path, f.renameTo ?? f.path, f.before, f.after));
  } else {
    for (const f of files) {
      try {
        if (f.after !== f.before) writeFileSync(join(root, f.path), f.after);
        if (f.renameTo) renameSync(join(root, f.path), join(root, f.renameTo));
      } catch (err) {
        // A read-only file or folder: said like any fix not made, and the other files are still fixed.
        for (const c of f.changes)
          skipped.push({
            ruleId: c.ruleId,
            file: c.file,
            why: `could not write it (${(err as Error).message}): ${c.says}`,
          });
        f.changes = [];
      }
    }
  }
  const applied = files.flatMap((f) => f.changes);
  for (const c of applied) said.push(`${c.file}: ${c.says}\n`);
  for (const s of skipped) said.push(`${s.file}: not fixed (${s.ruleId}): ${s.why}\n`);
  const touched = files.filter((f) => f.changes.length > 0).length;
  said.push(
    `validate-workflow: ${opts.dryRun ? 'would make' : 'made'} ${plural(applied.length, 'fix', 'fixes')} in ${plural(touched, 'file')}${skipped.length ? `, ${skipped.length} left for a human` : ''}${opts.dryRun ? ' (dry run: nothing written)' : ''}.\n`,
  );
  opts.say(said.join(''));
  return { changes: applied, skipped, files: files.filter((f) => f.changes.length > 0).map((f) => f.path) };
}
