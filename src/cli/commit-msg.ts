// The commit-msg hook's own door, ahead of the command line: in a `git commit` whose pre-commit left its verdict
// (engine/handover.ts) and whose message has no trailers, commit-msg's answer is that verdict, and taking it needs
// neither the Markdown parser nor the rules nor the schemas. main.ts sends `commit-msg <file>` here first; this
// module loads only git.ts, the config's reader, the handover and the stylish format (the whole engine took ~0.2 s
// to load, more than the rest of the hook). Anything else (trailers, no verdict or another change's, options beyond
// the hooks' own `--config`) answers null, and the full command line judges as it always did: the key this door
// computes is the one judgePending computes (the same function, engine/handover.ts), so both take the same verdicts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfigUnchecked } from '../config/config.js';
import { commentFree, handoverKey, handoverSettings, takeVerdict } from '../engine/handover.js';
import { summarize } from '../engine/summary.js';
import { compareFindings } from '../model/finding.js';
import { stylish } from '../report/stylish.js';
import { repositoryAndHead } from '../shared/git.js';
import { EXIT, type Io } from './io.js';
import { timing } from '../shared/timing.js';

/** The message file and the config the hooks pass (`commit-msg <file> [--config <file>]`), or null for anything else. */
function hookArgs(argv: string[]): { file: string; config?: string } | null {
  const [word, file, ...rest] = argv;
  if (word !== 'commit-msg' || !file || file.startsWith('-')) return null;
  if (rest.length === 0) return { file };
  if (rest.length === 2 && rest[0] === '--config' && rest[1]) return { file, config: rest[1] };
  if (rest.length === 1 && rest[0]!.startsWith('--config=') && rest[0]!.length > '--config='.length)
    return { file, config: rest[0]!.slice('--config='.length) };
  return null;
}

/** pre-commit's verdict reported as the check command reports it (stylish), with its exit code; null: judge. */
export async function commitMsgFromVerdict(argv: string[], io: Io): Promise<number | null> {
  const args = hookArgs(argv);
  if (!args) return null;
  const found = repositoryAndHead(io.cwd);
  if (!found) return null;
  const { root } = found.info;
  let message: string;
  let config;
  try {
    message = commentFree(readFileSync(resolve(io.cwd, args.file), 'utf8'));
    // The check command's reading of --config and of the repository's own (engine/run.ts scopeOf).
    config = loadConfigUnchecked(root, args.config === undefined ? undefined : resolve(io.cwd, args.config));
  } catch {
    return null;
  }
  const { key, trailers } = await handoverKey(
    root,
    handoverSettings(config, undefined, args.config !== undefined),
    found.head,
    message,
  );
  if (key === null || trailers.length > 0) return null;
  // Taken or not, the record is gone: a full judgement after this one finds none, as it would have.
  const verdict = takeVerdict(root, key);
  if (!verdict) return null;
  timing("pre-commit's verdict taken", 0);
  // What engine/run.ts judgeAndReport and cli/check.ts make of the door's verdict: no paths, no --quiet, no note.
  // The repository's own words, as judgeDoor adds them (the record holds findings without them): the Markdown parser
  // is loaded only for a record with a finding that quotes the instructions.
  const cited = verdict.findings.some((f) => f.cite)
    ? await (await import('../engine/findings.js')).citeInstructions(root, verdict.findings)
    : verdict.findings;
  const findings = cited.sort(compareFindings);
  const summary = summarize(findings, verdict.files.length, 0);
  io.stdout(
    stylish.format({
      findings,
      summary,
      workspace: null,
      timeline: [],
      rules: [],
      version: '',
      docsBase: '',
      color: io.color,
    }),
  );
  return summary.errors > 0 ? EXIT.findings : EXIT.ok;
}
