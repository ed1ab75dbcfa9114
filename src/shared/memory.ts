// A cold run over a long history parses tens of thousands of versions and keeps only a few hundred models: nearly all
// it allocates is garbage. V8 collects old-generation garbage lazily, growing the heap to several times what is live
// (measured on the 10,000-commit bench: 70 MB live, 450 MB resident), so a long run's peak memory is set by the
// collector's patience, not by the data. Between chunks of work, a full collection once the heap has grown past a
// budget keeps the peak near the budget; a run that never reaches it never pays for one.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Heap (used bytes) above which a run collects between chunks. */
const BUDGET = 160 * 2 ** 20;

let collect: (() => void) | undefined;

/** A full garbage collection when the heap has grown past the budget; nothing otherwise. */
export function relieveMemory(): void {
  if (getHeapStatistics().used_heap_size < BUDGET) return;
  if (!collect) {
    // `gc` is exposed to contexts created after the flag is set; the function keeps working in this one.
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
