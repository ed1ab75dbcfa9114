// Builds a deterministic synthetic git repository with a large, clean, protocol-following agent history, for
// benchmarks and history-rule tests. One `git fast-import` process is fed from a stream (thousands of `git commit`
// calls would take minutes). Same bytes every run: fixed identities and timestamps, a seeded PRNG, no clock.
//
//   import { makeHistoryRepo } from './bench/history-repo.mjs';
//   await makeHistoryRepo('/tmp/repo');                 // 10,000 commits, 200 plans, 2,000 handoffs
//   await makeHistoryRepo('/tmp/repo', { small: true }); // 300 commits, 10 plans, 60 handoffs
//
//   node bench/history-repo.mjs <dir> [--small] [--commits N] [--plans N] [--handoffs N] [--seed N]
//
// What the history holds, per plan/session (sessions s001, s002, ... are interleaved, several active at once):
//   - one commit creating the plan (mode: orchestration, 2-4 phases, tasks numbered across the plan, automated and
//     manual criteria per phase) and the session ledger (`[→]` on Task 1);
//   - one agent commit per task: checks the task in the plan, adds its handoff (canonical frontmatter, ~3 KB body),
//     updates the ledger (`[x]` for it, `[→]` for the next task of the same phase) and touches the src/ files the
//     handoff lists; the last task sets the ledger's status to complete;
//   - after a phase's tasks: one agent commit checking the phase's automated items, then one commit by Ana Human
//     (author and committer) checking its manual items only, with `Confirmed-by: Ana Human <ana@example.com>`
//     (the last `pendingSessions` plans leave their last phase's manual confirmation pending);
//   - agent commits editing the plan's prose (never a checkbox) and appending to handoff bodies (never frontmatter).
// Agent commits are authored by `Claude <noreply@anthropic.com>`, or by a human developer with a
// `Co-authored-by: Claude <noreply@anthropic.com>` trailer. About 15% of the commits touch only src/.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const FULL = { commits: 10000, plans: 200, handoffs: 2000, concurrency: 6, pendingSessions: 3 };
const SMALL = { commits: 300, plans: 10, handoffs: 60, concurrency: 3, pendingSessions: 1 };

const CLAUDE = { name: 'Claude', email: 'noreply@anthropic.com' };
const ANA = { name: 'Ana Human', email: 'ana@example.com' };
const DEVS = [
  { name: 'Ben Builder', email: 'ben@example.com' },
  { name: 'Chen Coder', email: 'chen@example.com' },
];
const START = Date.UTC(2026, 0, 5, 9, 0, 0) / 1000; // 2026-01-05 09:00 UTC

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tools(rng) {
  const int = (lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rng() * list.length)];
  const sample = (list, n) => {
    const copy = [...list];
    const out = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rng() * copy.length), 1)[0]);
    return out;
  };
  return { int, pick, sample };
}

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary (no `:` or `#` in any of it, so it stays a plain YAML scalar)

const TOPICS = [
  'Rate limiting',
  'Audit log',
  'Session refresh',
  'Webhook retries',
  'Search indexing',
  'Invoice export',
  'Password reset',
  'Feature flags',
  'Bulk import',
  'Notification digest',
  'Tenant isolation',
  'Cache warming',
  'File uploads',
  'Usage metering',
  'Role permissions',
  'Email templates',
  'Report scheduling',
  'API pagination',
  'Data retention',
  'Health checks',
  'Background jobs',
  'Single sign-on',
  'Activity feed',
  'Billing proration',
];
const AREAS = [
  'for the public API',
  'for admin users',
  'in the billing service',
  'for mobile clients',
  'in the worker queue',
  'for team workspaces',
  'in the dashboard',
  'for partner integrations',
  'across regions',
  'for the CLI',
];
const VERBS = [
  'Add',
  'Extract',
  'Wire up',
  'Implement',
  'Refactor',
  'Validate',
  'Expose',
  'Persist',
  'Cache',
  'Test',
  'Document',
  'Migrate',
];
const OBJECTS = [
  'the request parser',
  'a retry policy',
  'the storage adapter',
  'the config loader',
  'an index on the lookup column',
  'the event emitter',
  'the permission check',
  'the serializer',
  'the queue consumer',
  'a cleanup job',
  'the error mapper',
  'the metrics counter',
  'the admin endpoint',
  'the migration script',
  'the client helper',
  'the rate window',
  'the token signer',
  'the export writer',
  'the schema guard',
  'the feature toggle',
  'the pagination cursor',
  'the webhook handler',
  'the audit trail',
  'the fallback path',
];
const PHASE_TITLES = [
  'Data model',
  'Core service',
  'API surface',
  'Background processing',
  'Client integration',
  'Observability',
  'Hardening',
  'Migration and rollout',
  'Admin tooling',
  'Documentation and cleanup',
];
const MODULES = [
  'auth',
  'billing',
  'config',
  'queue',
  'storage',
  'search',
  'metrics',
  'http',
  'webhooks',
  'users',
  'tenants',
  'export',
  'import',
  'cache',
  'jobs',
  'audit',
  'flags',
  'mailer',
  'reports',
  'sessions',
  'limits',
  'uploads',
  'permissions',
  'health',
  'pagination',
  'retention',
  'notify',
  'feed',
  'sso',
  'tokens',
];
const AUTO_ITEMS = [
  (m) => `Unit tests pass: \`npm test -- ${m}\``,
  () => 'Type check passes: `npm run typecheck`',
  () => 'Lint passes: `npm run lint`',
  (m) => `Integration tests pass: \`npm run test:integration -- ${m}\``,
  () => 'Migrations apply cleanly: `npm run migrate`',
  () => 'Build succeeds: `npm run build`',
];
const MANUAL_ITEMS = [
  'The new behaviour works end to end from the dashboard',
  'Error messages read well for a user who hits the limit',
  'Performance is acceptable with a production-sized data set',
  'The admin console shows the new records',
  'Logs contain no secrets or personal data',
  'Rollback steps in the runbook were tried on staging',
  'The mobile client still works against the changed endpoints',
];
const DID = [
  'Moved the parsing into a pure function so the handler only deals with transport concerns',
  'Added a guard that rejects malformed input before it reaches the storage layer',
  'Kept the public signature unchanged so existing callers compile without edits',
  'Introduced a small adapter interface to make the dependency replaceable in tests',
  'Replaced the ad-hoc string building with the shared formatter already used elsewhere',
  'Covered the happy path and the three error paths with unit tests',
  'Wired the new code path behind the existing configuration switch',
  'Removed a duplicated lookup that ran twice per request',
  'Documented the invariants of the module in its header comment',
  'Added structured logging with the request id on every line',
  'Made the retry count configurable with the old value as default',
  'Split the long function into three named steps that read in order',
];
const DECISIONS = [
  'Kept the existing error type because callers already match on it',
  'Validated at the boundary and let the inner functions trust their input',
  'Chose an in-memory map over a new dependency since the data set is small',
  'Left the old code path in place until the rollout phase removes it',
  'Used the shared clock helper so tests can control time',
  'Stored timestamps in UTC and convert only when rendering',
];
const ISSUES = [
  'The first attempt kept a module-level cache that leaked between tests; it was replaced by a cache passed in by the caller.',
  'One fixture relied on the order of object keys; the test now sorts before comparing.',
  'The type checker flagged an implicit any in the adapter; an explicit interface fixed it.',
  'A flaky timeout in the integration test came from a real timer; the test now uses the fake clock.',
  'No issues beyond a rename the linter asked for.',
];
const NEXT = [
  'The new helper lives next to the handler; the next task can reuse it instead of writing another one.',
  'Configuration keys are read once at start-up; add new ones to the same loader.',
  'The tests for this module use the shared fixtures folder; keep new fixtures there.',
  'Error codes are listed in one table; extend it rather than throwing ad-hoc errors.',
  'The storage adapter is injected; pass the in-memory one in tests.',
];
const APPROACH = [
  'Started from the failing test the plan describes and worked outwards until it passed.',
  'Read the surrounding module first to follow its naming and error-handling conventions.',
  'Changed one call site at a time and ran the focused tests after each change.',
  'Kept the diff small so the reviewer of the phase can read it in one sitting.',
  'Checked the previous handoff for constraints before touching shared code.',
  'Wrote the types first and let the compiler point at every place that needed a change.',
];
const FOLLOW_UPS = [
  'A later task reused the helper introduced here without changes.',
  'Reviewed again after the phase ended; nothing to change.',
  'The decision on error types was confirmed in review.',
  'A reviewer asked why the cache is passed in; the answer is in the Decisions section above.',
  'The integration test added here caught a regression in a later task.',
  'Renamed a local variable in a follow-up commit for readability; behaviour unchanged.',
];
const PROSE = [
  'The change is additive; nothing existing is removed before the last phase.',
  'Each phase leaves the main branch releasable.',
  'Risky steps are behind a configuration switch that defaults to off.',
  'The plan follows the conventions of the surrounding modules rather than inventing new ones.',
  'Performance is measured before and after the core phase.',
  'Reviewers should read the handoffs of each phase before confirming it.',
];

function kebab(text, max = 48) {
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/);
  let out = '';
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > max && out) break;
    out = next;
  }
  return out;
}

const pad = (n, width) => String(n).padStart(width, '0');

function isoDate(ts) {
  return new Date(ts * 1000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------------------------
// Plan, handoff, ledger and source renderers

function renderPlan(p) {
  const out = [];
  out.push('---', 'mode: orchestration', 'context_critical: false', '---', `# ${p.title} Implementation Plan`, '');
  out.push('## Overview', '', p.overview.join(' '), '');
  out.push('## Current State Analysis', '', p.current, '');
  out.push("## What We're NOT Doing", '', ...p.notDoing.map((x) => `- ${x}`), '');
  out.push('## Implementation Approach', '', p.approach.join(' '), '');
  for (const ph of p.phases) {
    out.push(`## Phase ${ph.number}: ${ph.title}`, '');
    out.push('### Overview', '', ph.prose.join(' '), '');
    out.push('### Tasks', '');
    for (const t of ph.tasks) out.push(`- [${t.done ? 'x' : ' '}] Task ${t.number}: ${t.desc}`);
    out.push('', '### Success Criteria:', '', '#### Automated Verification:', '');
    for (const a of ph.automated) out.push(`- [${ph.autoDone ? 'x' : ' '}] ${a}`);
    out.push('', '#### Manual Verification:', '');
    for (const m of ph.manual) out.push(`- [${ph.manualDone ? 'x' : ' '}] ${m}`);
    out.push('', '---', '');
  }
  out.push('## Testing Strategy', '', p.testing, '');
  out.push(
    '## References',
    '',
    `- Session ledger: \`thoughts/ledgers/CONTINUITY_CLAUDE-${p.session}.md\``,
    `- Handoffs: \`thoughts/handoffs/${p.session}/\``,
    '',
  );
  return out.join('\n');
}

function renderLedger(p) {
  const out = [
    '---',
    `session: ${p.session}`,
    `plan: ${p.path}`,
    `status: ${p.ledgerStatus}`,
    '---',
    `# Session: ${p.session}`,
    '',
  ];
  out.push(
    '## Goal',
    '',
    `${p.title} ${p.area}, one task per agent with a handoff per task, phases verified in order.`,
    '',
  );
  out.push('## State', '');
  for (const ph of p.phases) {
    for (const t of ph.tasks) out.push(`- [${t.done ? 'x' : t.current ? '→' : ' '}] Task ${t.number}: ${t.desc}`);
  }
  out.push('', '## Open Questions', '', '## Working Set', '', `- Plan \`${p.path}\``);
  if (p.lastHandoff) out.push(`- Last handoff \`${p.lastHandoff}\``);
  out.push('');
  return out.join('\n');
}

function renderHandoff(p, t, h) {
  const fm = [
    '---',
    'status: complete',
    `task: ${t.number}`,
    `task_total: ${p.taskTotal}`,
    `task_desc: ${t.desc}`,
    `plan: ${p.path}`,
  ];
  if (h.previous) fm.push(`previous: ${h.previous}`);
  fm.push(`files_modified: [${h.files.join(', ')}]`, 'verification_results:');
  for (const v of h.checks) fm.push(`  - check: ${JSON.stringify(v)}`, '    result: pass');
  fm.push(`context_for_next: ${JSON.stringify(h.next)}`, 'blocker: null');
  fm.push(h.decisions.length ? 'decisions:' : 'decisions: []');
  for (const d of h.decisions) fm.push(`  - ${JSON.stringify(d)}`);
  fm.push('open_questions: []', '---');
  const body = [`# Task Handoff: ${t.desc}`, ''];
  body.push(
    '## Context Read',
    '',
    h.previous
      ? `Read \`${h.previous}\`, the ledger and Phase ${t.phase} of the plan before starting.`
      : `Read the plan and the ledger before starting; this is the first task of the session.`,
    '',
  );
  body.push(
    '## Summary',
    '',
    `Task ${t.number} of ${p.taskTotal} in Phase ${t.phase} (${p.phases[t.phase - 1].title}) of the ${p.title.toLowerCase()} plan. ${h.summary}`,
    '',
  );
  body.push('## Approach', '', h.approach, '');
  body.push('## What Was Done', '', ...h.did.map((d) => `- ${d}.`), '');
  body.push('## Files Modified', '', ...h.files.map((f, i) => `- \`${f}\` - ${h.fileNotes[i]}`), '');
  body.push('## Decisions Made', '');
  if (h.decisions.length) h.decisions.forEach((d, i) => body.push(`${i + 1}. **Decision ${i + 1}** - ${d}.`));
  else body.push('No decisions beyond those in the plan.');
  body.push('', '## Verification', '', ...h.checks.map((c) => `- \`${c}\` - pass`), '');
  body.push('## Issues Encountered', '', h.issues, '');
  body.push('## Next Task Context', '', h.next, h.nextMore, '');
  return [...fm, ...body].join('\n') + h.followUps.join('');
}

function renderSource(s) {
  return [`// ${s.path}: ${s.module} module`, `export const MODULE = '${s.module}';`, '', ...s.lines, ''].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// fast-import stream writer with backpressure

function streamWriter(stdin) {
  let chunks = [];
  let size = 0;
  let bytes = 0;
  const push = (s) => {
    const b = Buffer.from(s, 'utf8');
    chunks.push(b);
    size += b.length;
    bytes += b.length;
  };
  return {
    cmd: (line) => push(`${line}\n`),
    data: (text) => {
      const b = Buffer.from(text, 'utf8');
      push(`data ${b.length}\n`);
      chunks.push(b, Buffer.from('\n'));
      size += b.length + 1;
      bytes += b.length + 1;
    },
    async maybeFlush(limit = 1 << 20) {
      if (size < limit) return;
      const buf = Buffer.concat(chunks);
      chunks = [];
      size = 0;
      if (!stdin.write(buf)) await new Promise((res) => stdin.once('drain', res));
    },
    bytes: () => bytes,
  };
}

function git(dir, args) {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

// ---------------------------------------------------------------------------------------------------------------
// The generator

/**
 * Build the synthetic repository in `dir` (created if missing; must be empty).
 * @param {string} dir
 * @param {{small?: boolean, commits?: number, plans?: number, handoffs?: number, seed?: number,
 *          concurrency?: number, pendingSessions?: number, quiet?: boolean}} [opts]
 * @returns {Promise<object>} counts, the HEAD sha and the time taken in ms
 */
export async function makeHistoryRepo(dir, opts = {}) {
  const t0 = performance.now();
  const base = opts.small ? SMALL : FULL;
  const N = opts.commits ?? base.commits;
  const P = opts.plans ?? base.plans;
  const H = opts.handoffs ?? base.handoffs;
  const concurrency = Math.max(1, opts.concurrency ?? base.concurrency);
  const pendingSessions = Math.min(P, opts.pendingSessions ?? base.pendingSessions);
  const rng = mulberry32(opts.seed ?? 20260105);
  const { int, pick, sample } = tools(rng);
  if (P < 1 || H < P) throw new Error(`need at least one plan and one handoff per plan (plans ${P}, handoffs ${H})`);

  dir = resolve(dir);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty`);
  mkdirSync(dir, { recursive: true });

  // --- plans: task counts sum exactly to H, varied in pairs around the mean
  const counts = Array.from({ length: P }, (_, i) => Math.floor(H / P) + (i < H % P ? 1 : 0));
  for (let i = 0; i + 1 < P; i += 2) {
    const d = Math.min(int(0, 2), counts[i + 1] - 1);
    counts[i] += d;
    counts[i + 1] -= d;
  }
  const sessionWidth = Math.max(3, String(P).length);
  const usedSlugs = new Set();
  const plans = counts.map((taskTotal, i) => {
    let title = pick(TOPICS);
    const area = pick(AREAS);
    const module = pick(MODULES);
    const nPhases = Math.min(taskTotal, int(2, 4));
    const titles = sample(PHASE_TITLES, nPhases);
    const phases = [];
    let number = 1;
    for (let k = 0; k < nPhases; k++) {
      const size = Math.floor(taskTotal / nPhases) + (k < taskTotal % nPhases ? 1 : 0);
      const used = new Set();
      const tasks = [];
      for (let j = 0; j < size; j++) {
        let desc;
        do desc = `${pick(VERBS)} ${pick(OBJECTS)}`;
        while (used.has(desc));
        used.add(desc);
        tasks.push({ number: number++, desc, phase: k + 1, done: false, current: false });
      }
      phases.push({
        number: k + 1,
        title: titles[k],
        prose: [
          `This phase covers the ${titles[k].toLowerCase()} work for ${title.toLowerCase()} ${area}.`,
          pick(PROSE),
        ],
        tasks,
        automated: sample(AUTO_ITEMS, int(2, 3)).map((f) => f(module)),
        manual: sample(MANUAL_ITEMS, int(1, 2)),
        autoDone: false,
        manualDone: false,
      });
    }
    let slug = kebab(`${title} ${area}`);
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${kebab(`${title} ${area}`)}-${n}`;
    usedSlugs.add(slug);
    return {
      index: i,
      session: `s${pad(i + 1, sessionWidth)}`,
      title,
      area,
      module,
      slug,
      path: null,
      taskTotal,
      phases,
      overview: [`We add ${title.toLowerCase()} ${area}.`, pick(PROSE), pick(PROSE)],
      current: `Today the ${module} module has no support for ${title.toLowerCase()}; callers work around it in ad-hoc ways that differ between services.`,
      notDoing: [
        'No changes to the public data format',
        'No new runtime dependencies',
        `No rewrite of the ${module} module beyond what the tasks need`,
      ],
      approach: [`Phases build on each other, starting with ${phases[0].title.toLowerCase()}.`, pick(PROSE)],
      testing: `Unit tests per task, integration tests per phase (see the automated criteria), and a manual pass by a human before the next phase starts.`,
      ledgerStatus: 'active',
      revision: 0,
      lastHandoff: null,
      handoffs: [], // { path, task, h }
      steps: [],
      stepIndex: 0,
    };
  });

  // --- per-plan scripts: create, then per phase: tasks, automated check, manual confirmation
  let fixed = 0;
  for (const p of plans) {
    p.steps.push({ kind: 'create' });
    p.phases.forEach((ph, k) => {
      for (const t of ph.tasks) p.steps.push({ kind: 'task', task: t });
      p.steps.push({ kind: 'auto', phase: ph });
      const lastPhase = k === p.phases.length - 1;
      if (!(lastPhase && p.index >= P - pendingSessions)) p.steps.push({ kind: 'manual', phase: ph });
    });
    fixed += p.steps.length;
  }
  // --- budget: ~15% of the commits (the first included) touch no workflow file; extras fill the rest
  const nonThoughts = Math.round(N * 0.15);
  const extras = Math.max(0, N - nonThoughts - fixed);
  const srcCommits = Math.max(0, N - 1 - fixed - extras);
  let cumulative = 0;
  plans.forEach((p) => {
    const before = Math.floor((extras * cumulative) / H);
    cumulative += p.taskTotal;
    const share = Math.floor((extras * cumulative) / H) - before;
    // extras go after the first task (a handoff exists to append to), at random points of the script
    for (let e = 0; e < share; e++) p.steps.splice(int(2, p.steps.length), 0, { kind: 'extra' });
  });

  // --- source files
  const sources = new Map(
    MODULES.map((m) => [`src/${m}.ts`, { path: `src/${m}.ts`, module: m, lines: [], counter: 0 }]),
  );
  const touchSource = (path) => {
    const s = sources.get(path);
    s.counter++;
    const line = `export function ${s.module}Step${s.counter}(input: number): number {\n  return input * ${int(2, 97)} + ${s.counter};\n}\n`;
    if (s.lines.length < 24) s.lines.push(line);
    else s.lines[int(0, s.lines.length - 1)] = line;
    return renderSource(s);
  };
  for (const s of sources.values()) for (let k = 0; k < 3; k++) touchSource(s.path);

  // --- fast-import
  const gitInit = spawnSync('git', ['init', '-q', '-b', 'main', dir], { encoding: 'utf8' });
  if (gitInit.status !== 0) throw new Error(`git init failed: ${gitInit.stderr}`);
  const proc = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((res) => proc.on('close', res));
  const w = streamWriter(proc.stdin);

  let ts = START;
  let mark = 0;
  const stats = {
    commits: 0,
    thoughtsCommits: 0,
    srcOnlyCommits: 0,
    planCreations: 0,
    taskCommits: 0,
    automatedChecks: 0,
    manualConfirmations: 0,
    planProseEdits: 0,
    handoffAppends: 0,
  };

  const tick = () => (ts += int(300, 3600));
  const commit = ({ author, committer = author, subject, body = [], trailers = [], files }) => {
    mark++;
    const msg =
      [subject, ...(body.length ? ['', ...body] : []), ...(trailers.length ? ['', ...trailers] : [])].join('\n') + '\n';
    w.cmd('commit refs/heads/main');
    w.cmd(`mark :${mark}`);
    w.cmd(`author ${author.name} <${author.email}> ${ts} +0000`);
    w.cmd(`committer ${committer.name} <${committer.email}> ${ts} +0000`);
    w.data(msg);
    for (const [path, content] of files) {
      w.cmd(`M 100644 inline ${path}`);
      w.data(content);
    }
    w.cmd('');
    stats.commits++;
    if (files.some(([path]) => path.startsWith('thoughts/'))) stats.thoughtsCommits++;
    else stats.srcOnlyCommits++;
  };
  /** An agent's identity for one commit: Claude itself, or a developer working with Claude (trailer). */
  const agent = () => {
    if (rng() < 0.75) return { author: CLAUDE, trailers: [] };
    return { author: pick(DEVS), trailers: [`Co-authored-by: ${CLAUDE.name} <${CLAUDE.email}>`] };
  };

  // first commit: config, README, sources (by a human)
  tick();
  commit({
    author: ANA,
    subject: 'Initial commit: project skeleton and validate-workflow config',
    files: [
      ['validate-workflow.config.json', '{}\n'],
      [
        'README.md',
        '# Synthetic project\n\nA generated repository with a long agent workflow history (plans, handoffs, ledgers in `thoughts/`).\n',
      ],
      ...[...sources.values()].map((s) => [s.path, renderSource(s)]),
    ],
  });

  const runStep = (p) => {
    tick();
    const step = p.steps[p.stepIndex++];
    const planPath = () => p.path;
    const ledgerPath = `thoughts/ledgers/CONTINUITY_CLAUDE-${p.session}.md`;
    if (step.kind === 'create') {
      p.path = `thoughts/shared/plans/${isoDate(ts)}-${p.slug}.md`;
      p.phases[0].tasks[0].current = true;
      const a = agent();
      commit({
        ...a,
        subject: `${p.session}: plan ${p.title.toLowerCase()} ${p.area}`,
        body: [`${p.phases.length} phases, ${p.taskTotal} tasks, orchestration mode. Ledger started.`],
        files: [
          [planPath(), renderPlan(p)],
          [ledgerPath, renderLedger(p)],
        ],
      });
      stats.planCreations++;
    } else if (step.kind === 'task') {
      const t = step.task;
      const ph = p.phases[t.phase - 1];
      t.done = true;
      t.current = false;
      const next = ph.tasks.find((x) => x.number === t.number + 1);
      if (next) next.current = true;
      if (t.number === p.taskTotal) p.ledgerStatus = 'complete';
      const name = `task-${pad(t.number, 2)}-${kebab(t.desc)}.md`;
      const hpath = `thoughts/handoffs/${p.session}/${name}`;
      const srcFiles = sample(
        [`src/${p.module}.ts`, ...sample(MODULES, 3).map((m) => `src/${m}.ts`)].filter((v, i, a) => a.indexOf(v) === i),
        int(1, 3),
      ).sort();
      const h = {
        previous: p.handoffs.length ? p.handoffs[p.handoffs.length - 1].name : null,
        files: srcFiles,
        fileNotes: srcFiles.map(() => pick(DID).toLowerCase()),
        checks: sample([`npm test -- ${p.module}`, 'npm run typecheck', 'npm run lint', 'npm run build'], int(2, 3)),
        ...(([n1, n2]) => ({
          next:
            t.number === p.taskTotal ? `All ${p.taskTotal} tasks are done; Phase ${t.phase} verification is next.` : n1,
          nextMore: n2,
        }))(sample(NEXT, 2)),
        decisions: sample(DECISIONS, int(0, 2)),
        summary: `${sample(DID, 2).join('. ')}.`,
        did: sample(DID, int(7, 9)),
        approach: sample(APPROACH, 3).join(' '),
        issues: sample(ISSUES, 2).join(' '),
        followUps: [],
      };
      p.handoffs.push({ name, path: hpath, task: t, h });
      p.lastHandoff = hpath;
      const a = agent();
      commit({
        ...a,
        subject: `${p.session}: Task ${t.number}/${p.taskTotal} done - ${t.desc}`,
        body: [`Handoff ${hpath}; plan and ledger updated.`],
        trailers: a.trailers,
        files: [
          [planPath(), renderPlan(p)],
          [hpath, renderHandoff(p, t, h)],
          [ledgerPath, renderLedger(p)],
          ...srcFiles.map((f) => [f, touchSource(f)]),
        ],
      });
      stats.taskCommits++;
    } else if (step.kind === 'auto') {
      step.phase.autoDone = true;
      const a = agent();
      commit({
        ...a,
        subject: `${p.session}: Phase ${step.phase.number} automated verification passed`,
        body: step.phase.automated.map((x) => `- ${x}`),
        trailers: a.trailers,
        files: [[planPath(), renderPlan(p)]],
      });
      stats.automatedChecks++;
    } else if (step.kind === 'manual') {
      step.phase.manualDone = true;
      commit({
        author: ANA,
        subject: `${p.session}: confirm Phase ${step.phase.number} manual verification`,
        body: step.phase.manual.map((x) => `- ${x}`),
        trailers: [`Confirmed-by: ${ANA.name} <${ANA.email}>`],
        files: [[planPath(), renderPlan(p)]],
      });
      stats.manualConfirmations++;
    } else {
      const a = agent();
      if (rng() < 0.25) {
        // plan prose edit: rewrite a sentence of the overview or of a phase overview (never a checkbox)
        const target = rng() < 0.4 ? p.overview : pick(p.phases).prose;
        const at = int(1, target.length - 1);
        p.revision++;
        target[at] = pick(PROSE).replace(/\.$/, ` (revision ${p.revision}, ${isoDate(ts)}).`);
        if (target.length < 6 && rng() < 0.5) target.push(pick(PROSE));
        commit({
          ...a,
          subject: `${p.session}: clarify plan wording`,
          trailers: a.trailers,
          files: [[planPath(), renderPlan(p)]],
        });
        stats.planProseEdits++;
      } else {
        const ho = pick(p.handoffs);
        ho.h.followUps.push(
          `\n## Follow-up ${ho.h.followUps.length + 1} (${isoDate(ts)})\n\n${sample(FOLLOW_UPS, 2).join(' ')}\n`,
        );
        commit({
          ...a,
          subject: `${p.session}: note on task ${ho.task.number} handoff`,
          trailers: a.trailers,
          files: [[ho.path, renderHandoff(p, ho.task, ho.h)]],
        });
        stats.handoffAppends++;
      }
    }
    return p.stepIndex >= p.steps.length;
  };

  const srcCommit = () => {
    tick();
    const files = sample([...sources.keys()], int(1, 2)).sort();
    const human = rng() < 0.8;
    const a = human ? { author: pick([ANA, ...DEVS]), trailers: [] } : agent();
    commit({
      ...a,
      subject: `${files[0].slice(4, -3)}: ${pick(['tidy', 'small fix in', 'extend', 'speed up', 'rename in'])} ${files.map((f) => f.slice(4)).join(', ')}`,
      trailers: a.trailers,
      files: files.map((f) => [f, touchSource(f)]),
    });
  };

  // --- interleave: up to `concurrency` sessions active at once, src commits spread evenly
  let remainingSrc = srcCommits;
  let remaining = srcCommits + plans.reduce((n, p) => n + p.steps.length, 0);
  const active = [];
  let nextPlan = 0;
  while (remaining > 0) {
    while (active.length < concurrency && nextPlan < P) active.push(plans[nextPlan++]);
    if (active.length === 0 || (remainingSrc > 0 && rng() < remainingSrc / remaining)) {
      srcCommit();
      remainingSrc--;
    } else {
      const k = Math.floor(rng() * active.length);
      if (runStep(active[k])) active.splice(k, 1);
    }
    remaining--;
    await w.maybeFlush();
  }
  w.cmd('done');
  await w.maybeFlush(0);
  proc.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import failed (${code}): ${stderr}`);

  git(dir, ['reset', '-q', '--hard', 'main']);
  const head = git(dir, ['rev-parse', 'HEAD']);
  const ms = Math.round(performance.now() - t0);
  return {
    dir,
    head,
    ms,
    streamBytes: w.bytes(),
    plans: P,
    handoffs: plans.reduce((n, p) => n + p.handoffs.length, 0),
    ledgers: P,
    sessions: plans.map((p) => p.session),
    pendingManual: pendingSessions,
    ...stats,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Script entry

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const opts = {};
  let dir = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--small') opts.small = true;
    else if (['--commits', '--plans', '--handoffs', '--seed', '--concurrency'].includes(a))
      opts[a.slice(2)] = Number(args[++i]);
    else if (!a.startsWith('--') && dir === null) dir = a;
    else {
      console.error(`unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (!dir) {
    console.error(
      'usage: node bench/history-repo.mjs <dir> [--small] [--commits N] [--plans N] [--handoffs N] [--seed N]',
    );
    process.exit(2);
  }
  try {
    const r = await makeHistoryRepo(dir, opts);
    console.log(
      `${r.dir}: ${r.commits} commits (${r.thoughtsCommits} touch thoughts/, ${r.srcOnlyCommits} do not), ${r.plans} plans, ${r.handoffs} handoffs, ${r.ledgers} ledgers`,
    );
    console.log(
      `  ${r.planCreations} plan creations, ${r.taskCommits} task commits, ${r.automatedChecks} automated checks, ${r.manualConfirmations} manual confirmations (${r.pendingManual} pending), ${r.planProseEdits} plan prose edits, ${r.handoffAppends} handoff appends`,
    );
    console.log(
      `  HEAD ${r.head}; ${(r.streamBytes / 1e6).toFixed(1)} MB fast-import stream; ${(r.ms / 1000).toFixed(2)} s`,
    );
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
