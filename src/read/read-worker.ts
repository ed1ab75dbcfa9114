// Worker side of read/parallel.ts: read the files the shared counter hands this thread and post their models back.
import { parentPort, workerData } from 'node:worker_threads';
import type { Discovered } from './discover.js';
import { readClaimed } from './parallel.js';
import { loadParsers } from './lazy.js';

await loadParsers();

const { root, items, maxBytes, next } = workerData as {
  root: string;
  items: Discovered[];
  maxBytes: number;
  next: SharedArrayBuffer;
};
parentPort!.postMessage(readClaimed(root, items, maxBytes, next));
