// Worker side of ModelStore.loadParallel: read each share of blobs with `git cat-file --batch` and parse them, so
// the cold pass uses every core. The worker lives across chunks; each message is one share.
import { parentPort, workerData } from 'node:worker_threads';
import type { Discovered } from '../read/discover.js';
import { VersionReader } from '../read/workspace.js';
import { readBlobs } from '../shared/git.js';
import { loadParsers } from '../read/lazy.js';

const { root, maxBytes } = workerData as { root: string; maxBytes: number };
// Messages wait in the port until the handler below is attached.
await loadParsers();
// The worker lives across chunks and gets every version of its paths, in order: it keeps their previous versions.
const versions = new VersionReader();
parentPort!.on('message', (refs: { blob: string; item: Discovered }[]) => {
  const blobs = readBlobs(root, [...new Set(refs.map((r) => r.blob))]);
  const derivedBefore = versions.derived;
  const models = refs.map((r) => {
    const bytes = blobs.get(r.blob);
    return bytes ? versions.read(r.item, bytes, maxBytes) : null;
  });
  parentPort!.postMessage({ models, derived: versions.derived - derivedBefore });
});
