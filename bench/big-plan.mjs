#!/usr/bin/env node
// Every door on one large plan (about 860 KB, 70,000 checkboxes) with one changed line, as a ratio of a bare remark
// parse of that file measured in the same run (issue 20: within 2x). Doors: pre-commit (--staged), commit-msg, the
// full run (cold: no cache), --range over the commit, and the Claude Code hook's PreToolUse (Edit).
//
//   node bench/big-plan.mjs
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CLI = join(root, 'dist', 'bundle', 'main.js');
const PLAN = 'thoughts/shared/plans/2026-11-20-big.md';

const dir = mkdtempSync(join(tmpdir(), 'vw-big-plan-'));
const git = (...args) => {
  const res = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
};
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Ana Human');
git('config', 'user.email', 'ana@example.com');
const lines = ['# Big Implementation Plan', ''];
for (let p = 1; p <= 1000; p++) {
  lines.push(`## Phase ${p}: P${p}`);
  for (let i = 0; i < 50; i++) lines.push(`- [ ] s ${i}`);
  lines.push('#### Automated Verification:');
  for (let i = 0; i < 10; i++) lines.push(`- [ ] \`m ${i}\``);
  lines.push('#### Manual Verification:');
  for (let i = 0; i < 10; i++) lines.push(`- [ ] look ${i}`);
}
const text = `${lines.join('\n')}\n`;
mkdirSync(join(dir, 'thoughts/shared/plans'), { recursive: true });
writeFileSync(join(dir, PLAN), text);
writeFileSync(join(dir, 'validate-workflow.config.json'), '{ "preset": "recommended" }\n');
git('add', '-A');
git('commit', '-q', '-m', 'The big plan');

let t = performance.now();
unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).parse(text);
const bare = performance.now() - t;

const changed = text.replace('- [ ] s 5\n', '- [x] s 5\n');
const rows = [];
const door = (name, args, input) => {
  const start = performance.now();
  const res = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', input, maxBuffer: 1 << 26 });
  const ms = performance.now() - start;
  if (res.status !== 0 && res.status !== 1) throw new Error(`${name}: exit ${res.status}: ${res.stderr}`);
  rows.push([name, ms]);
};
writeFileSync(join(dir, PLAN), changed);
git('add', '-A');
door('pre-commit (--staged)', ['--staged']);
writeFileSync(join(dir, '.git', 'BENCH_MSG'), 'One line\n');
door('commit-msg', ['commit-msg', join(dir, '.git', 'BENCH_MSG')]);
git('commit', '-q', '--no-verify', '-m', 'One line');
rmSync(join(dir, '.git', 'validate-workflow'), { recursive: true, force: true });
door('full run (cold)', []);
door('--range HEAD~1..HEAD', ['--range', 'HEAD~1..HEAD']);
const payload = JSON.stringify({
  session_id: 'bench',
  cwd: dir,
  hook_event_name: 'PreToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: join(dir, PLAN), old_string: '- [ ] s 9\n', new_string: '- [x] s 9\n' },
});
door('Claude Code PreToolUse (Edit)', ['claude-hook'], payload);
rmSync(dir, { recursive: true, force: true });

console.log(
  `big plan: ${(text.length / 1024).toFixed(0)} KB, 70,000 checkboxes; bare remark parse ${(bare / 1000).toFixed(1)} s (the baseline)`,
);
console.log('| door | seconds | x bare parse |');
console.log('| --- | --- | --- |');
for (const [name, ms] of rows) console.log(`| ${name} | ${(ms / 1000).toFixed(1)} | ${(ms / bare).toFixed(2)} |`);
