// Worker side of ModelStore.loadParallel: read each share of blobs with `git cat-file --batch` and parse them, so
// the cold pass uses every core. The worker lives across chunks; each message is one share.
import { parentPort, workerData } from 'node:worker_threads';
import type { Discovered } from '../read/discover.js';
import { readBytes } from '../read/workspace.js';
import { readBlobs } from '../shared/git.js';

const { root, maxBytes } = workerData as { root: string; maxBytes: number };
parentPort!.on('message', (refs: { blob: string; item: Discovered }[]) => {
  const blobs = readBlobs(root, [...new Set(refs.map((r) => r.blob))]);
  parentPort!.postMessage(
    refs.map((r) => {
      const bytes = blobs.get(r.blob);
      return bytes ? readBytes(r.item, bytes, maxBytes) : null;
    }),
  );
});
