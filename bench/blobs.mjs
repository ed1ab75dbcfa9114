// The distinct workflow blobs of a repository's history, read with one `git log --raw` and one `git cat-file
// --batch`: the texts the benches' bare-parse baselines parse (bench/shapes.mjs, bench/history.mjs,
// bench/parse-reuse.mjs).
import { spawnSync } from 'node:child_process';

/**
 * Texts of every distinct blob under thoughts/ whose path matches `match`, in the order `git log` first shows them
 * (newest first, or oldest first with `reverse`). Deletions (all-zero ids) are left out.
 */
export function distinctBlobs(repo, { match = /\.(md|ya?ml)$/, reverse = false } = {}) {
  const args = ['log', ...(reverse ? ['--reverse'] : []), '--raw', '--no-abbrev', '--format=', '--', 'thoughts/'];
  const raw = spawnSync('git', args, { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
  const ids = new Set();
  for (const line of raw.split('\n')) {
    if (!line.startsWith(':')) continue;
    const [meta, path] = line.split('\t');
    const id = meta.split(' ')[3];
    if (match.test(path ?? '') && !/^0+$/.test(id)) ids.add(id);
  }
  const batch = spawnSync('git', ['cat-file', '--batch'], {
    cwd: repo,
    input: `${[...ids].join('\n')}\n`,
    maxBuffer: (1 << 31) >>> 0,
  }).stdout;
  const texts = [];
  for (let pos = 0; pos < batch.length;) {
    const nl = batch.indexOf(10, pos);
    const size = Number(batch.subarray(pos, nl).toString().split(' ')[2]);
    texts.push(batch.subarray(nl + 1, nl + 1 + size).toString('utf8'));
    pos = nl + 1 + size + 1;
  }
  return texts;
}
