// Builds a deterministic synthetic git repository shaped like the public monorepo of issue 13: long plans (60 plans
// of 20-55 KB, in the HumanLayer style: phases with "Changes Required" subsections, code blocks whose bash comments
// start with `#`, nested task lists, success criteria, tables), each committed in 10-20 versions that differ in a few
// checkboxes or in one rewritten phase, a handoff now and then, and many commits that touch only src/. One
// `git fast-import` stream; same bytes every run (seeded PRNG, fixed clock).
//
//   import { makeMonorepo } from './bench/monorepo-repo.mjs';
//   await makeMonorepo('/tmp/mono');              // ~7,600 commits, 60 plans
//   node bench/monorepo-repo.mjs <dir> [--plans N] [--commits N] [--seed N] [--concurrency N]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const CLAUDE = { name: 'Claude', email: 'noreply@anthropic.com' };
const ANA = { name: 'Ana Human', email: 'ana@example.com' };
const DEVS = [
  { name: 'Ben Builder', email: 'ben@example.com' },
  { name: 'Chen Coder', email: 'chen@example.com' },
  { name: 'Dana Dev', email: 'dana@example.com' },
];
const START = Date.UTC(2025, 5, 2, 9, 0, 0) / 1000;

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

const TOPICS = [
  'Session daemon',
  'Approval inbox',
  'Thoughts sync',
  'Hook runner',
  'Model routing',
  'Tool permissions',
  'Workspace snapshots',
  'Event stream',
  'Plan linter',
  'Conversation search',
  'Slack bridge',
  'Billing meter',
  'Remote runners',
  'Audit export',
  'Desktop updater',
  'Prompt cache',
];
const COMPONENTS = ['daemon', 'cli', 'web', 'desktop', 'sdk', 'store', 'api', 'worker', 'proto', 'ui'];
const NOUNS = [
  'session',
  'approval',
  'event',
  'snapshot',
  'runner',
  'hook',
  'permission',
  'message',
  'thread',
  'token',
  'config',
  'queue',
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
  'Rename',
  'Harden',
];
const SENTENCES = [
  'The daemon owns the state and every client reads it through the RPC layer.',
  'We keep the wire format backwards compatible until the desktop app ships the new client.',
  'Errors are surfaced to the user with the request id so support can find the logs.',
  'The store writes in a single transaction so a crash never leaves half an update behind.',
  'Existing sessions keep working; only new sessions use the new path.',
  'The migration runs at start-up and is idempotent.',
  'Tests use the in-memory store and a fake clock.',
  'The change is behind a flag that defaults to off until the last phase.',
  'Events are ordered per session, not globally.',
  'The CLI prints the same messages as the web UI, from one table of strings.',
  'Each phase leaves main releasable and is verified before the next starts.',
  'Large payloads are streamed instead of buffered in memory.',
];

function tools(rng) {
  const int = (lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rng() * list.length)];
  const sample = (list, n) => {
    const copy = [...list];
    const out = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rng() * copy.length), 1)[0]);
    return out;
  };
  const prose = (n) => Array.from({ length: n }, () => pick(SENTENCES)).join(' ');
  return { int, pick, sample, prose };
}

const kebab = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const isoDate = (ts) => new Date(ts * 1000).toISOString().slice(0, 10);

function makeCode(t, comp, noun, rev) {
  const { int, pick } = t;
  if (pick(['ts', 'ts', 'bash', 'go']) === 'bash') {
    return [
      '```bash',
      `# Rebuild the ${comp} and run its checks (rev ${rev})`,
      `cd ${comp}`,
      'make check',
      `# Then the ${noun} integration tests`,
      `npm run test:integration -- ${noun}`,
      '```',
    ];
  }
  const lang = pick(['typescript', 'go']);
  const out = [`\`\`\`${lang}`];
  const n = int(8, 22);
  if (lang === 'go') {
    out.push(`func (s *${noun[0].toUpperCase()}${noun.slice(1)}Store) Update(ctx context.Context, id string) error {`);
    for (let i = 0; i < n; i++)
      out.push(
        `\t// step ${i + 1}: ${pick(SENTENCES).toLowerCase()}`,
        `\tif err := s.step${i + 1}(ctx, id); err != nil {`,
        '\t\treturn err',
        '\t}',
      );
    out.push('\treturn nil', '}');
  } else {
    out.push(
      `export async function update${noun[0].toUpperCase()}${noun.slice(1)}(id: string, rev = ${rev}): Promise<void> {`,
    );
    for (let i = 0; i < n; i++) out.push(`  // ${pick(SENTENCES)}`, `  await step${i + 1}(id, rev);`);
    out.push('}');
  }
  out.push('```');
  return out;
}

function makePhase(t, number, rev, taskNo) {
  const { int, pick, sample, prose } = t;
  const comp = pick(COMPONENTS);
  const tasks = Array.from({ length: int(3, 7) }, (_, i) => ({
    number: taskNo + i,
    desc: `${pick(VERBS)} the ${pick(NOUNS)} ${pick(['handler', 'model', 'migration', 'endpoint', 'view', 'client', 'test suite'])} in \`${comp}\``,
    subs: sample(['unit tests', 'error paths', 'docs', 'metrics', 'feature flag'], int(0, 2)).map((s) => ({
      text: `Cover ${s}`,
      done: false,
    })),
    done: false,
  }));
  return {
    number,
    title: `${pick(['Data model', 'Core service', 'RPC surface', 'CLI commands', 'Web views', 'Desktop integration', 'Observability', 'Hardening', 'Rollout', 'Cleanup'])} for the ${comp}`,
    comp,
    overview: prose(int(3, 6)),
    changes: Array.from({ length: int(2, 4) }, (_, i) => {
      const noun = pick(NOUNS);
      return {
        title: `${pick(VERBS)} ${noun} ${pick(['storage', 'validation', 'routing', 'rendering', 'sync'])}`,
        file: `${comp}/${noun}/${pick(['store', 'handler', 'view', 'client'])}.${pick(['ts', 'go'])}`,
        text: prose(int(2, 4)),
        code: makeCode(t, comp, noun, rev + i),
      };
    }),
    tasks,
    automated: sample(
      [
        `\`make -C ${comp} check\` passes`,
        '`npm run typecheck` passes',
        '`npm run lint` passes',
        `\`go test ./${comp}/...\` passes`,
        'Migrations apply on a copy of production data',
      ],
      int(2, 4),
    ).map((x) => ({ text: x, done: false })),
    manual: sample(
      [
        'The new flow works end to end in the desktop app',
        'Error messages read well',
        'No regressions in the session list',
        'Performance is acceptable with 1,000 sessions',
        'Logs contain no secrets',
      ],
      int(1, 3),
    ).map((x) => ({ text: x, done: false })),
    note: prose(2),
  };
}

function renderPlan(p) {
  const out = [
    '---',
    `date: ${p.date}`,
    `researcher: ${p.author}`,
    `status: ${p.status}`,
    `tags: [plan, ${p.comp}]`,
    '---',
    '',
    `# ${p.title} Implementation Plan`,
    '',
  ];
  out.push('## Overview', '', p.overview, '');
  out.push(
    '## Current State Analysis',
    '',
    p.current,
    '',
    '### Key Discoveries:',
    '',
    ...p.discoveries.map((d) => `- ${d}`),
    '',
  );
  out.push('## Desired End State', '', p.endState, '');
  out.push("## What We're NOT Doing", '', ...p.notDoing.map((x) => `- ${x}`), '');
  out.push('## Implementation Approach', '', p.approach, '');
  for (const ph of p.phases) {
    out.push(
      `## Phase ${ph.number}: ${ph.title}`,
      '',
      '### Overview',
      '',
      ph.overview,
      '',
      '### Changes Required:',
      '',
    );
    ph.changes.forEach((c, i) =>
      out.push(`#### ${i + 1}. ${c.title}`, '', `**File**: \`${c.file}\``, `**Changes**: ${c.text}`, '', ...c.code, ''),
    );
    out.push('### Tasks', '');
    for (const task of ph.tasks) {
      out.push(`- [${task.done ? 'x' : ' '}] Task ${task.number}: ${task.desc}`);
      for (const s of task.subs) out.push(`  - [${s.done ? 'x' : ' '}] ${s.text}`);
    }
    out.push(
      '',
      '### Success Criteria:',
      '',
      '#### Automated Verification:',
      '',
      ...ph.automated.map((a) => `- [${a.done ? 'x' : ' '}] ${a.text}`),
      '',
    );
    out.push('#### Manual Verification:', '', ...ph.manual.map((m) => `- [${m.done ? 'x' : ' '}] ${m.text}`), '');
    out.push(`**Implementation Note**: ${ph.note}`, '', '---', '');
  }
  out.push(
    '## Testing Strategy',
    '',
    '### Unit Tests:',
    '',
    ...p.unitTests.map((x) => `- ${x}`),
    '',
    '| Layer | Tool | Runs in CI |',
    '| --- | --- | :-: |',
    ...p.table.map((r) => `| ${r[0]} | ${r[1]} | ${r[2]} |`),
    '',
  );
  out.push('## Performance Considerations', '', p.performance, '', '## Migration Notes', '', p.migration, '');
  out.push(
    '## References',
    '',
    `- Original ticket: \`thoughts/shared/tickets/${p.slug}.md\``,
    `- Related research: \`thoughts/shared/research/${p.date}-${p.slug}.md\``,
    '',
  );
  return out.join('\n');
}

function renderHandoff(p, ph, n) {
  return [
    '---',
    `date: ${p.date}`,
    `plan: thoughts/shared/plans/${p.file}`,
    `phase: ${ph.number}`,
    'status: complete',
    '---',
    '',
    `# Handoff: ${p.title}, Phase ${ph.number}`,
    '',
    '## Task(s)',
    '',
    ...ph.tasks.map((task) => `- [${task.done ? 'x' : ' '}] ${task.desc}`),
    '',
    '## Recent changes',
    '',
    ...ph.changes.map((c) => `- \`${c.file}\`: ${c.text}`),
    '',
    '## Learnings',
    '',
    p.learn[n % p.learn.length],
    '',
    '## Action Items & Next Steps',
    '',
    `1. Continue with Phase ${ph.number + 1} of the plan.`,
    '2. Re-run the automated verification after rebasing.',
    '',
  ].join('\n');
}

/**
 * @param {string} dir
 * @param {{plans?: number, commits?: number, seed?: number, concurrency?: number}} [opts]
 */
export async function makeMonorepo(dir, opts = {}) {
  const t0 = performance.now();
  const P = opts.plans ?? 60;
  const N = opts.commits ?? 7600;
  const concurrency = opts.concurrency ?? 4;
  const rng = mulberry32(opts.seed ?? 20250602);
  const t = tools(rng);
  const { int, pick, sample, prose } = t;
  dir = resolve(dir);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty`);
  mkdirSync(dir, { recursive: true });

  const plans = Array.from({ length: P }, (_, i) => {
    const title = `${pick(TOPICS)} ${pick(['v2', 'for teams', 'in the desktop app', 'over RPC', 'with retries', 'at scale'])}`;
    const target = int(20, 55) * 1000;
    const p = {
      index: i,
      title,
      slug: `${kebab(title)}-${i + 1}`,
      comp: pick(COMPONENTS),
      author: pick(['ana', 'ben', 'chen', 'dana']),
      status: 'draft',
      date: null,
      file: null,
      overview: prose(5),
      current: prose(6),
      discoveries: Array.from(
        { length: int(3, 6) },
        () => `\`${pick(COMPONENTS)}/${pick(NOUNS)}.ts:${int(10, 400)}\` - ${pick(SENTENCES)}`,
      ),
      endState: prose(4),
      notDoing: sample(
        [
          'No new runtime dependencies',
          'No change to the public wire format',
          'No UI redesign',
          'No data backfill',
          'No multi-region support yet',
        ],
        3,
      ),
      approach: prose(4),
      phases: [],
      unitTests: sample(
        ['Store round trips', 'Handler error paths', 'CLI output snapshots', 'Permission matrix', 'Clock edge cases'],
        3,
      ),
      table: [
        ['unit', 'vitest', 'yes'],
        ['integration', 'go test', 'yes'],
        ['e2e', 'playwright', 'nightly'],
      ],
      performance: prose(3),
      migration: prose(3),
      learn: [prose(3), prose(3), prose(3)],
      versions: int(10, 20),
      made: 0,
      handoffs: 0,
    };
    let taskNo = 1;
    while (renderPlan(p).length < target) {
      const ph = makePhase(t, p.phases.length + 1, 1, taskNo);
      taskNo += ph.tasks.length;
      p.phases.push(ph);
    }
    // Stay within 20-55 KB at creation (revisions may grow a plan a little).
    while (renderPlan(p).length > 55_000 && p.phases.length > 1) p.phases.pop();
    return p;
  });

  spawnSync('git', ['init', '-q', '-b', 'main', dir]);
  const proc = spawn('git', ['fast-import', '--quiet', '--done'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((res) => proc.on('close', res));
  let chunks = [];
  let size = 0;
  const push = (b) => {
    chunks.push(b);
    size += b.length;
  };
  const cmd = (line) => push(Buffer.from(`${line}\n`));
  const data = (text) => {
    const b = Buffer.from(text, 'utf8');
    cmd(`data ${b.length}`);
    push(b);
    push(Buffer.from('\n'));
  };
  const flush = async (limit = 1 << 20) => {
    if (size < limit) return;
    const buf = Buffer.concat(chunks);
    chunks = [];
    size = 0;
    if (!proc.stdin.write(buf)) await new Promise((res) => proc.stdin.once('drain', res));
  };

  let ts = START;
  const stats = { commits: 0, thoughtsCommits: 0, planVersions: 0, handoffs: 0 };
  const commit = (author, subject, files, trailers = []) => {
    ts += int(120, 2400);
    cmd('commit refs/heads/main');
    cmd(`author ${author.name} <${author.email}> ${ts} +0000`);
    cmd(`committer ${author.name} <${author.email}> ${ts} +0000`);
    data(`${subject}\n${trailers.length ? `\n${trailers.join('\n')}\n` : ''}`);
    for (const [path, content] of files) {
      cmd(`M 100644 inline ${path}`);
      data(content);
    }
    cmd('');
    stats.commits++;
    if (files.some(([path]) => path.startsWith('thoughts/'))) stats.thoughtsCommits++;
  };
  const agent = () => (rng() < 0.7 ? [CLAUDE, []] : [pick(DEVS), [`Co-authored-by: ${CLAUDE.name} <${CLAUDE.email}>`]]);

  commit(ANA, 'Initial commit', [
    ['validate-workflow.config.json', '{}\n'],
    ['README.md', '# Synthetic monorepo\n\nGenerated: long plans with many versions (see bench/monorepo-repo.mjs).\n'],
  ]);

  /** One more version of a plan: a few checkboxes, a confirmation, or one phase rewritten. */
  const step = (p) => {
    const path = () => `thoughts/shared/plans/${p.file}`;
    if (p.made === 0) {
      p.date = isoDate(ts);
      p.file = `${p.date}-${p.slug}.md`;
      const [a, tr] = agent();
      commit(a, `plan: ${p.title}`, [[path(), renderPlan(p)]], tr);
    } else {
      const open = p.phases.find(
        (ph) => ph.tasks.some((x) => !x.done) || ph.automated.some((x) => !x.done) || ph.manual.some((x) => !x.done),
      );
      const r = rng();
      if (open && r < 0.62) {
        p.status = 'in_progress';
        const boxes = [...open.tasks.flatMap((x) => [x, ...x.subs]), ...open.automated]
          .filter((x) => !x.done)
          .slice(0, int(1, 4));
        for (const b of boxes) b.done = true;
        const files = [[path(), renderPlan(p)]];
        if (rng() < 0.15) {
          p.handoffs++;
          stats.handoffs++;
          files.push([
            `thoughts/shared/handoffs/${p.slug}/${isoDate(ts)}-phase-${open.number}-${p.handoffs}.md`,
            renderHandoff(p, open, p.handoffs),
          ]);
        }
        const [a, tr] = agent();
        commit(a, `${p.slug}: progress on phase ${open.number}`, files, tr);
      } else if (open && r < 0.78 && open.tasks.every((x) => x.done) && open.automated.every((x) => x.done)) {
        for (const m of open.manual) m.done = true;
        commit(
          ANA,
          `${p.slug}: confirm phase ${open.number} manual verification`,
          [[path(), renderPlan(p)]],
          [`Confirmed-by: ${ANA.name} <${ANA.email}>`],
        );
      } else {
        // Rewrite one phase: new overview, one change reworked (prose and code), maybe one more task.
        const ph = pick(p.phases);
        ph.overview = prose(int(3, 6));
        const c = pick(ph.changes);
        c.text = prose(int(2, 4));
        c.code = makeCode(t, ph.comp, pick(NOUNS), p.made + 2);
        if (rng() < 0.4)
          ph.tasks.push({
            number: ph.tasks[ph.tasks.length - 1].number + 0.5,
            desc: `${pick(VERBS)} the follow-up for ${pick(NOUNS)}`,
            subs: [],
            done: false,
          });
        ph.tasks.forEach((x, i) => (x.number = i === 0 ? x.number : ph.tasks[i - 1].number + 1));
        const [a, tr] = agent();
        commit(a, `${p.slug}: revise phase ${ph.number}`, [[path(), renderPlan(p)]], tr);
      }
    }
    p.made++;
    stats.planVersions++;
    return p.made >= p.versions;
  };

  const planSteps = plans.reduce((n, p) => n + p.versions, 0);
  let srcLeft = Math.max(0, N - 1 - planSteps);
  let left = srcLeft + planSteps;
  const active = [];
  let next = 0;
  let srcCounter = 0;
  while (left > 0) {
    while (active.length < concurrency && next < P) active.push(plans[next++]);
    if (active.length === 0 || (srcLeft > 0 && rng() < srcLeft / left)) {
      srcCounter++;
      const comp = pick(COMPONENTS);
      commit(pick([ANA, ...DEVS]), `${comp}: change ${srcCounter}`, [
        [`${comp}/src/file-${srcCounter % 40}.ts`, `export const CHANGE = ${srcCounter};\n`],
      ]);
      srcLeft--;
    } else {
      const k = Math.floor(rng() * active.length);
      if (step(active[k])) active.splice(k, 1);
    }
    left--;
    await flush();
  }
  cmd('done');
  await flush(0);
  proc.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import failed (${code}): ${stderr}`);
  spawnSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir });
  return { dir, ms: Math.round(performance.now() - t0), plans: P, ...stats };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const opts = {};
  let dir = null;
  for (let i = 0; i < args.length; i++) {
    if (['--plans', '--commits', '--seed', '--concurrency'].includes(args[i]))
      opts[args[i].slice(2)] = Number(args[++i]);
    else if (!args[i].startsWith('--') && dir === null) dir = args[i];
    else {
      console.error(`unknown argument ${args[i]}`);
      process.exit(2);
    }
  }
  if (!dir) {
    console.error('usage: node bench/monorepo-repo.mjs <dir> [--plans N] [--commits N] [--seed N] [--concurrency N]');
    process.exit(2);
  }
  console.log(JSON.stringify(await makeMonorepo(dir, opts)));
}
