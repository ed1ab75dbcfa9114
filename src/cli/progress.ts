// The progress line of a long run: a cold run over a long history takes minutes, and a terminal that shows nothing
// for minutes looks hung. On stderr only (stdout is the report, often piped into a file or another tool), only when
// stderr is a terminal, only once the run has taken a second, never with --quiet, and erased before the report.
import type { Io } from './io.js';

export interface ProgressState {
  /** Commits of the history folded so far, and how many there are (null until known). */
  commits: number;
  total: number | null;
  /** Distinct file versions parsed so far. */
  parsed: number;
}

export interface ProgressLine {
  update(state: ProgressState): void;
  /** Erase the line (before anything else is written). */
  done(): void;
}

const QUIET: ProgressLine = { update: () => {}, done: () => {} };
/** A run shorter than this shows nothing; later updates are drawn at most this often. */
const AFTER_MS = 1000;
const EVERY_MS = 200;

export function progressLine(io: Io, opts: { quiet: boolean; now?: () => number }): ProgressLine {
  if (opts.quiet || !io.stderrTTY) return QUIET;
  const now = opts.now ?? Date.now;
  const start = now();
  let drawn = 0;
  let shown = false;
  return {
    update(state) {
      const t = now();
      if (t - start < AFTER_MS || t - drawn < EVERY_MS) return;
      drawn = t;
      shown = true;
      const commits = state.total !== null ? `${state.commits}/${state.total} commits` : `${state.commits} commits`;
      io.stderr(
        `\r\x1b[2Kvalidate-workflow: ${commits} folded, ${state.parsed} file versions parsed, ${((t - start) / 1000).toFixed(1)} s`,
      );
    },
    done() {
      if (shown) io.stderr('\r\x1b[2K');
      shown = false;
    },
  };
}
