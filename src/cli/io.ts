// What a command may touch of the outside world, so tests can run commands in-process with their own streams.
export interface Io {
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  env: NodeJS.ProcessEnv;
  /** stderr is a terminal: a long run may draw its progress line there. */
  stderrTTY?: boolean;
}

export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

/**
 * Colours or not, by the conventions other command-line tools follow: a flag (`--color`, `--no-color`) wins; then
 * FORCE_COLOR (Node's and chalk's: set means on, `0` or `false` means off), then NO_COLOR (no-color.org: set and not
 * empty means off); else only a terminal gets them.
 */
export function wantsColor(opts: { flag?: boolean; env: NodeJS.ProcessEnv; tty: boolean }): boolean {
  if (opts.flag !== undefined) return opts.flag;
  const force = opts.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (opts.env.NO_COLOR) return false;
  return opts.tty;
}
