// Worker side of read/parallel.ts: read one share of the files and post the models back.
import { parentPort, workerData } from 'node:worker_threads';
import type { Discovered } from './discover.js';
import { readOne } from './workspace.js';

const { root, items, maxBytes } = workerData as { root: string; items: Discovered[]; maxBytes: number };
parentPort!.postMessage(items.map((i) => readOne(root, i, maxBytes)));
