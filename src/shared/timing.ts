// `VALIDATE_WORKFLOW_TIMING=1` prints where a run spends its time and memory, on stderr, for the bench and for
// profiling a slow repository; silent otherwise (a function that does nothing, so call sites stay unconditional).
import { performance } from 'node:perf_hooks';

/** Report a step that took `ms` milliseconds, with the main thread's resident memory at its end. */
export const timing: (label: string, ms: number) => void = process.env.VALIDATE_WORKFLOW_TIMING
  ? (label, ms) =>
      process.stderr.write(
        `timing ${label}: ${ms.toFixed(0)} ms (rss ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB)\n`,
      )
  : () => {};

/** Milliseconds since `since` (a performance.now() value). */
export const since = (start: number): number => performance.now() - start;
