// The history bench (issue 3): on the deterministic synthetic repository of bench/history-repo.mjs, measured in the
// same run: raw `git log -p --reverse -- thoughts/`; a single-threaded bare remark parse (the same processor) of
// every distinct workflow blob in the history; a cold full validation; a warm one; a `--staged` run with one staged
// plan change against a bare `node -e ''`. Ratios against those baselines, never limits.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { makeHistoryRepo } from './history-repo.mjs';
import { distinctBlobs } from './blobs.mjs';

const cli = new URL('../dist/bundle/main.js', import.meta.url).pathname;
const small = process.argv.includes('--small');
const dir = process.env.BENCH_REPO ?? mkdtempSync(join(tmpdir(), 'vw-history-'));
if (!existsSync(join(dir, '.git'))) await makeHistoryRepo(dir, small ? { small: true } : {});

function timed(cmd, args, opts = {}) {
  const t = performance.now();
  const res = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30, ...opts });
  const ms = performance.now() - t;
  if (res.status !== 0 && res.status !== 1)
    throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return { ms, res };
}

function best(n, fn) {
  let min = Infinity;
  let last;
  for (let i = 0; i < n; i++) {
    last = fn();
    min = Math.min(min, last.ms);
  }
  return { ms: min, res: last.res };
}

const stats = (stderr) =>
  Object.fromEntries(
    [...stderr.matchAll(/^timing (.+?): (\d+) (ms|MB)(?: \(.*\))?$/gm)].map((m) => [
      m[1].replace(/ \(.*\)$/, ''),
      Number(m[2]),
    ]),
  );

// Baseline 1: raw git.
const git = best(3, () =>
  timed('git', ['log', '-p', '--reverse', '--', 'thoughts/'], { stdio: ['ignore', 'ignore', 'pipe'] }),
);

// Baseline 2: every distinct workflow blob of the history, parsed once, single-threaded, with the same processor.
const texts = distinctBlobs(dir);
const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm);
let t = performance.now();
for (const text of texts) processor.parse(text);
const bare = performance.now() - t;

// The tool: cold (no cache), warm (cache from the cold run), --staged (warm) with one staged plan change.
const env = { ...process.env, VALIDATE_WORKFLOW_TIMING: '1' };
rmSync(join(dir, '.git', 'validate-workflow'), { recursive: true, force: true });
const cold = timed(process.execPath, [cli, '--format', 'json'], { env });
const warm = best(3, () => timed(process.execPath, [cli, '--format', 'json'], { env }));
const plan = spawnSync('git', ['ls-files', 'thoughts/shared/plans'], { cwd: dir, encoding: 'utf8' }).stdout.split(
  '\n',
)[0];
const original = readFileSync(join(dir, plan), 'utf8');
writeFileSync(join(dir, plan), `${original}\nA note added by the bench.\n`);
spawnSync('git', ['add', plan], { cwd: dir });
const staged = best(5, () => timed(process.execPath, [cli, '--staged', '--format', 'json'], { env }));
spawnSync('git', ['reset', '-q', '--', plan], { cwd: dir });
writeFileSync(join(dir, plan), original);
const node = best(5, () => timed(process.execPath, ['-e', '']));
// `status` (the SessionStart hook): once to build its index, then warm.
timed(process.execPath, [cli, 'status']);
const status = best(5, () => timed(process.execPath, [cli, 'status']));

const coldOut = JSON.parse(cold.res.stdout);
const s = (ms) => `${(ms / 1000).toFixed(2).padStart(7)} s`;
console.log(
  `history bench: ${coldOut.summary.commits} commits judged, ${coldOut.summary.files} workflow files, ${texts.length} distinct workflow blobs, in ${dir}`,
);
console.log(`raw git log -p --reverse -- thoughts/        ${s(git.ms)}`);
console.log(`bare remark parse of the distinct blobs      ${s(bare)}   (single thread)`);
console.log(`node -e ''                                   ${s(node.ms)}`);
console.log(
  `cold full validation                         ${s(cold.ms)}   ${(cold.ms / (git.ms + bare)).toFixed(2)}x (raw git + bare parse; goal: <= 0.5x)   peak ${stats(cold.res.stderr)['peak rss']} MB`,
);
console.log(`  where it goes: ${JSON.stringify(stats(cold.res.stderr))}`);
console.log(
  `warm full validation                         ${s(warm.ms)}   ${(warm.ms / git.ms).toFixed(2)}x raw git (goal: <= 1.0x)   peak ${stats(warm.res.stderr)['peak rss']} MB`,
);
console.log(
  `--staged, one plan change (warm)             ${s(staged.ms)}   ${(staged.ms / node.ms).toFixed(2)}x bare node`,
);
console.log(
  `status (warm)                                ${s(status.ms)}   ${(status.ms / node.ms).toFixed(2)}x bare node   (goal: <= 0.5 s)`,
);
console.log(`findings on the clean history: ${coldOut.summary.errors} errors, ${coldOut.summary.warnings} warnings`);
if (!process.env.BENCH_REPO) rmSync(dir, { recursive: true, force: true });
