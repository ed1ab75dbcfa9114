// What a run found, counted: the engine counts it once, every format prints the same numbers.
import type { Finding } from '../model/finding.js';

export interface Summary {
  errors: number;
  warnings: number;
  infos: number;
  files: number;
  commits: number;
  /** How the judged commits were chosen (the adoption point); not part of the JSON contract's summary. */
  judgedFrom?: string;
}

export function summarize(findings: Finding[], files: number, commits: number): Summary {
  const count = (s: Finding['severity']) => findings.filter((f) => f.severity === s).length;
  return { errors: count('error'), warnings: count('warning'), infos: count('info'), files, commits };
}
