// The hook round trip (issue 4): what a `git commit` touching one plan costs with the hooks `init` installs, against
// the same commit with hooks off (--no-verify, and HUSKY=0, which still starts husky's runner). The package is
// packed and installed into a fresh repository exactly as a user gets it (`npm i -D <tarball>`, init,
// `npm install`), so the numbers include npx-free bin lookup, lint-staged's stash and both node start-ups.
// Medians of interleaved runs, printed, never asserted: they depend on the machine.
//   node bench/hooks.mjs [--runs N]        (dist/ must be built: `npm run build`)
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const project = new URL('..', import.meta.url).pathname;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 11;
const keep = process.argv.includes('--keep');

// Nothing of an enclosing git or npm process leaks in (GIT_DIR would point git elsewhere, HUSKY=0 turn hooks off).
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) =>
      !/^GIT_/.test(k) && k !== 'HUSKY' && !(/^npm_/.test(k) && !/^npm_config_(cache|registry|userconfig)$/.test(k)),
  ),
);

function sh(cwd, cmd, args, extra = {}) {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...env, ...extra }, maxBuffer: 1 << 28 });
  if (res.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status}):\n${res.stdout}${res.stderr}`);
  return res.stdout;
}

if (!existsSync(join(project, 'dist/bundle/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
const work = mkdtempSync(join(tmpdir(), 'vw-bench-hooks-'));
const packed = JSON.parse(
  sh(project, 'npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work, '--loglevel=error']),
);
const tarball = join(work, packed[0].filename);
const dir = join(work, 'repo');
mkdirSync(dir);
sh(dir, 'git', ['init', '-q', '-b', 'main']);
for (const [k, v] of [
  ['user.name', 'Ana Human'],
  ['user.email', 'ana@example.com'],
  ['commit.gpgsign', 'false'],
])
  sh(dir, 'git', ['config', k, v]);
writeFileSync(join(dir, 'package.json'), '{ "name": "bench", "private": true }\n');
writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
sh(dir, 'npm', ['i', '-D', tarball, ...npmFlags]);
sh(dir, 'npx', ['--no-install', 'validate-workflow', 'init']);
sh(dir, 'npm', ['install', ...npmFlags]);

const PLAN = 'thoughts/shared/plans/2026-11-20-auth.md';
const plan = [
  '# Auth flow Implementation Plan',
  '',
  '## Phase 1: Schema',
  '',
  '- [ ] Task 1: Add the users table',
  '- [ ] Task 2: Add the sessions table',
  '',
  '### Success Criteria:',
  '',
  '#### Automated Verification:',
  '',
  '- [ ] Migrations apply: `npm run migrate`',
  '',
  '#### Manual Verification:',
  '',
  '- [ ] The schema reads well',
  '',
  '## Phase 2: Endpoints',
  '',
  '- [ ] Task 3: Add the login endpoint',
  '',
  '### Success Criteria:',
  '',
  '#### Automated Verification:',
  '',
  '- [ ] Tests pass: `npm test`',
  '',
  '#### Manual Verification:',
  '',
  '- [ ] Login works in the browser',
  '',
  '## Notes',
  '',
].join('\n');
mkdirSync(join(dir, 'thoughts/shared/plans'), { recursive: true });
writeFileSync(join(dir, PLAN), plan);
sh(dir, 'git', ['add', '-A']);
sh(dir, 'git', ['commit', '-q', '-m', 'Set up validate-workflow and plan the auth flow']);

let n = 0;
/** One commit touching only the plan (a note appended: a change every rule lets through), timed end to end. */
function commit(args, extra = {}) {
  appendFileSync(join(dir, PLAN), `- note ${++n}\n`);
  sh(dir, 'git', ['add', PLAN]);
  const t = performance.now();
  sh(dir, 'git', ['commit', '-q', '-m', `Note ${n}`, ...args], extra);
  return performance.now() - t;
}

/**
 * One hook on its own, run the way husky runs it, over the same kind of staged change; `after` hooks run first,
 * untimed (commit-msg after pre-commit takes the verdict pre-commit left).
 */
function hook(name, extra = {}, after = []) {
  appendFileSync(join(dir, PLAN), `- note ${++n}\n`);
  sh(dir, 'git', ['add', PLAN]);
  const msg = join(work, 'MSG');
  writeFileSync(msg, 'A note\n');
  for (const first of after) sh(dir, join(dir, '.husky/_', first), [], extra);
  const t = performance.now();
  sh(dir, join(dir, '.husky/_', name), name === 'commit-msg' ? [msg] : [], extra);
  const ms = performance.now() - t;
  sh(dir, 'git', ['commit', '-q', '--no-verify', '-m', `Note ${n}`]);
  return ms;
}

const cases = {
  'hooks on (pre-commit + commit-msg)': () => commit([]),
  'hooks off: --no-verify': () => commit(['--no-verify']),
  'hooks off: HUSKY=0': () => commit([], { HUSKY: '0' }),
  'pre-commit alone (lint-staged -> --staged)': () => hook('pre-commit'),
  'pre-commit alone, without lint-staged': () => hook('pre-commit', { VALIDATE_WORKFLOW_LINT_STAGED: '0' }),
  'commit-msg alone': () => hook('commit-msg'),
  'commit-msg after pre-commit': () => hook('commit-msg', {}, ['pre-commit']),
  "bare node -e ''": () => {
    const t = performance.now();
    sh(dir, process.execPath, ['-e', '']);
    return performance.now() - t;
  },
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const fn of Object.values(cases)) fn(); // warm-up: file cache, the tool's .git/validate-workflow cache
for (let i = 0; i < RUNS; i++) for (const [k, fn] of Object.entries(cases)) samples[k].push(fn());

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const width = Math.max(...Object.keys(cases).map((k) => k.length));
console.log(
  `hook round trip, one plan changed per commit, median of ${RUNS} interleaved runs (node ${process.version}):`,
);
for (const [k, xs] of Object.entries(samples))
  console.log(
    `  ${k.padEnd(width)}  ${median(xs).toFixed(0).padStart(5)} ms   (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`,
  );
const on = median(samples['hooks on (pre-commit + commit-msg)']);
const off = median(samples['hooks off: --no-verify']);
const node = median(samples["bare node -e ''"]);
console.log(
  `  hooks add ${(on - off).toFixed(0)} ms per commit (${(on / off).toFixed(1)}x the commit without them; ${((on - off) / node).toFixed(1)}x a bare node -e '', goal: <= 3x)`,
);
if (!keep) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${dir}`);
