// Parsing dominates a cold run (micromark costs ~5 ms per 3 KB file), so large workspaces are read on every core:
// the main thread takes one share, worker threads the others. Models are plain data and cross threads as-is.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { WorkflowFile } from '../model/types.js';
import type { Discovered } from './discover.js';
import { readOne } from './workspace.js';

/** Below this many files a worker's start-up (~40 ms) costs more than it saves. */
const PARALLEL_FROM = 120;

export function jobs(count: number, env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env.VALIDATE_WORKFLOW_JOBS);
  const cores = Number.isInteger(asked) && asked > 0 ? asked : availableParallelism();
  if (count < PARALLEL_FROM) return 1;
  return Math.max(1, Math.min(cores, 8));
}

/**
 * Models of the files a worker claimed from the shared counter, by their index in `items`. The worker claims one file
 * at a time, as the calling thread does (readAll): whichever thread is free takes the next file.
 */
function inWorker(
  root: string,
  items: Discovered[],
  maxBytes: number,
  next: SharedArrayBuffer,
): Promise<[number, WorkflowFile][]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./read-worker.js', import.meta.url), {
      workerData: { root, items, maxBytes, next },
    });
    worker.once('message', (files: [number, WorkflowFile][]) => resolve(files));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`read worker exited with code ${code}`));
    });
  });
}

/** Reads the files whose index the shared counter hands out, until none is left: one claim per file. */
export function readClaimed(
  root: string,
  items: Discovered[],
  maxBytes: number,
  next: SharedArrayBuffer,
): [number, WorkflowFile][] {
  const counter = new Int32Array(next);
  const out: [number, WorkflowFile][] = [];
  for (let i = Atomics.add(counter, 0, 1); i < items.length; i = Atomics.add(counter, 0, 1))
    out.push([i, readOne(root, items[i]!, maxBytes)]);
  return out;
}

/**
 * Splits batches of file versions over `n` threads so that every version of one path reaches the same thread, in
 * order, where that thread's section cache (read/sections.ts) holds the previous version's sections; and so that the
 * threads get about as many versions each. A path keeps its thread from batch to batch unless that thread is already
 * full; a path that moves costs one cold parse on its new thread.
 */
export class PathShards {
  private readonly home = new Map<string, number>();

  split<T>(items: T[], pathOf: (item: T) => string, n: number): T[][] {
    const shares: T[][] = Array.from({ length: n }, () => []);
    if (n <= 1) {
      shares[0]!.push(...items);
      return shares;
    }
    const byPath = new Map<string, T[]>();
    for (const item of items) {
      const path = pathOf(item);
      let list = byPath.get(path);
      if (!list) byPath.set(path, (list = []));
      list.push(item);
    }
    // Largest groups first, each to its home thread while that stays within a fair share, else to the emptiest.
    const fair = Math.ceil((items.length / n) * 1.05);
    const load = new Array<number>(n).fill(0);
    const target = new Map<string, number>();
    for (const [path, list] of [...byPath].sort((a, b) => b[1].length - a[1].length)) {
      let to = this.home.get(path);
      if (to === undefined || to >= n || load[to]! + list.length > fair) to = load.indexOf(Math.min(...load));
      load[to]! += list.length;
      target.set(path, to);
      this.home.set(path, to);
    }
    // Each share keeps the batch's order.
    for (const item of items) shares[target.get(pathOf(item))!]!.push(item);
    return shares;
  }
}

/**
 * Read files in the order given, over `n` threads (the calling thread included). The threads take the files one at a
 * time from a shared counter rather than fixed shares: a parse costs from under a millisecond to half a second, and
 * the workers start later than the calling thread, so fixed shares left one thread idle for a fifth of a cold
 * `--no-history` run while the other still parsed.
 */
export async function readAll(root: string, items: Discovered[], maxBytes: number, n: number): Promise<WorkflowFile[]> {
  if (n <= 1) return items.map((i) => readOne(root, i, maxBytes));
  const next = new SharedArrayBuffer(4);
  const pending = Array.from({ length: n - 1 }, () => inWorker(root, items, maxBytes, next));
  const mine = readClaimed(root, items, maxBytes, next);
  const out = new Array<WorkflowFile>(items.length);
  for (const part of [mine, ...(await Promise.all(pending))]) for (const [i, model] of part) out[i] = model;
  return out;
}
