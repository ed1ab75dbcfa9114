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

/** A usage error: the user asked for something the tool cannot do as asked. Exit code 2. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;
