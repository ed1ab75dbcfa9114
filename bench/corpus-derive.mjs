#!/usr/bin/env node
// The derivation of plan versions without a parse (src/read/derive.ts), checked on the real corpus: every pair of
// consecutive versions of every plan in each repository's history (bench/corpus/repos.json, fetched as for
// bench/corpus.mjs), derived from the previous version's model where deriveVersion derives, and compared with a full
// read of the new text. Prints, per repository and in total, how many pairs were derived (box marks, appended prose)
// and how many parsed, the appends it declined with their first lines, and every mismatch (there must be none: exit 1).
//
//   npm run build && node bench/corpus-derive.mjs [--only a/b,c/d]
//
// Plans are the Markdown files under a `plans/` folder of the repository's workflow paths; renames are not followed
// (each path's versions in the order of `git log --reverse`). Nothing of the repositories is written here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { loadParsers } = await load('read/lazy.js');
await loadParsers();
const { readPlanText } = await load('read/plan.js');
const { deriveVersion } = await load('read/derive.js');

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;
const repos = JSON.parse(readFileSync(join(root, 'bench/corpus/repos.json'), 'utf8')).filter(
  (r) => existsSync(r.gitdir) && (!only || only.includes(r.repo)),
);
const git = (dir, args, input) => spawnSync('git', ['--git-dir', dir, ...args], { input, maxBuffer: 2 ** 30 });
const RAW = /^:\d+ \d+ [0-9a-f]{40} ([0-9a-f]{40}) \w+\t(.+)$/;

/** Each plan path's distinct versions, oldest first. */
function planVersions(r) {
  const log = git(r.gitdir, ['log', '--reverse', '--format=', '--raw', '--no-abbrev', '--no-renames', r.head, '--'])
    .stdout.toString()
    .split('\n');
  const versions = new Map();
  for (const line of log) {
    const m = RAW.exec(line);
    if (!m) continue;
    const [, blob, path] = m;
    if (!r.workflowPaths.some((p) => path.startsWith(p)) || !/(^|\/)plans\/.*\.md$/.test(path)) continue;
    if (/^0+$/.test(blob)) continue;
    const list = versions.get(path) ?? [];
    if (list.at(-1) !== blob) list.push(blob);
    versions.set(path, list);
  }
  return versions;
}

/** The texts of `blobs`, by one `git cat-file --batch`. */
function texts(gitdir, blobs) {
  const out = git(gitdir, ['cat-file', '--batch'], `${blobs.join('\n')}\n`).stdout;
  const byBlob = new Map();
  let at = 0;
  for (const blob of blobs) {
    const nl = out.indexOf(10, at);
    const size = Number(out.subarray(at, nl).toString().split(' ')[2]);
    byBlob.set(blob, out.subarray(nl + 1, nl + 1 + size).toString('utf8'));
    at = nl + 1 + size + 1;
  }
  return byBlob;
}

const total = { pairs: 0, boxes: 0, appended: 0, parsed: 0, appendsDeclined: 0 };
const mismatches = [];
for (const r of repos) {
  const versions = planVersions(r);
  const text = texts(r.gitdir, [...new Set([...versions.values()].flat())]);
  const counts = { pairs: 0, boxes: 0, appended: 0, parsed: 0, appendsDeclined: 0 };
  const declined = [];
  for (const [path, list] of versions) {
    for (let i = 1; i < list.length; i++) {
      const [before, after] = [text.get(list[i - 1]), text.get(list[i])];
      counts.pairs++;
      const derived = deriveVersion(readPlanText(path, before), before, after);
      if (derived === null) {
        counts.parsed++;
        if (after.length > before.length && after.startsWith(before)) {
          counts.appendsDeclined++;
          const lines = after.slice(before.length).split('\n');
          declined.push(
            lines
              .filter((l) => l.trim() !== '')
              .slice(0, 2)
              .join(' | ')
              .slice(0, 120),
          );
        }
        continue;
      }
      counts[after.length === before.length ? 'boxes' : 'appended']++;
      // As the cache would keep it: JSON, so an absent key and an undefined one read alike.
      const same = isDeepStrictEqual(
        JSON.parse(JSON.stringify(derived)),
        JSON.parse(JSON.stringify(readPlanText(path, after))),
      );
      if (!same) mismatches.push(`${r.repo} ${path} ${list[i - 1]} -> ${list[i]}`);
    }
  }
  for (const k of Object.keys(total)) total[k] += counts[k];
  if (counts.pairs === 0) continue;
  console.log(`${r.repo.padEnd(48)} ${JSON.stringify(counts)}`);
  for (const d of declined.slice(0, 5)) console.log(`    append parsed: ${d}`);
}
const share = total.pairs ? ((100 * (total.boxes + total.appended)) / total.pairs).toFixed(1) : '0';
console.log(`\n${repos.length} repositories: ${JSON.stringify(total)}; ${share}% of version pairs derived`);
console.log(`mismatches: ${mismatches.length}`);
for (const m of mismatches) console.log(`  ${m}`);
process.exitCode = mismatches.length ? 1 : 0;
