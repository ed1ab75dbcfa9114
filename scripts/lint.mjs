// `npm run lint`: ESLint and Prettier's check side by side (each is one thread; on two cores the pair takes as long
// as the slower one, not the sum), each from its cache in node_modules/.cache, so a second run reads only what
// changed. Each tool's output is printed whole once it ends, never interleaved; the exit code is non-zero when
// either failed.
import { spawn } from 'node:child_process';

const run = (bin, args) =>
  new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (err) => done({ code: 2, out: Buffer.from(`${bin}: ${err.message}\n`) }));
    child.on('close', (code) => done({ code: code ?? 1, out: Buffer.concat(out) }));
  });

const results = await Promise.all([
  run('node_modules/eslint/bin/eslint.js', [
    '--cache',
    '--cache-location',
    'node_modules/.cache/eslint/',
    '--max-warnings',
    '0',
    '.',
  ]),
  run('node_modules/prettier/bin/prettier.cjs', ['--check', '--cache', '.']),
]);
for (const { out } of results) process.stdout.write(out);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
