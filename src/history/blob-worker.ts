// Worker side of ModelStore.loadParallel: read one share of the blobs with its own `git cat-file --batch` and parse
// them, so the cold pass uses every core.
import { parentPort, workerData } from 'node:worker_threads';
import type { Discovered } from '../read/discover.js';
import { readBytes } from '../read/workspace.js';
import { readBlobs } from './git.js';

const { root, refs, maxBytes } = workerData as { root: string; refs: { blob: string; item: Discovered }[]; maxBytes: number };
const blobs = readBlobs(root, [...new Set(refs.map((r) => r.blob))]);
parentPort!.postMessage(refs.map((r) => { const bytes = blobs.get(r.blob); return bytes ? readBytes(r.item, bytes, maxBytes) : null; }));
