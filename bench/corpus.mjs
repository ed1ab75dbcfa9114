#!/usr/bin/env node
// The real corpus: public repositories that keep agent workflow files, run as a maintainer would run the tool
// (`--since root`, the recommended preset), with every error and warning matched against hand-judged labels.
// Precision = real / judged errors and warnings, per rule, for the tuning set and the held-out set apart; and, where a
// blind second judge judged the same findings (second-judge.json, instruction-judge.json), each judge's count of real
// ones, their agreement, and the precision with that judge's labels in place.
//
//   node bench/corpus.mjs                 run every repository (bench/corpus/repos.json), print the table
//   node bench/corpus.mjs --only a/b,c/d  a subset
//   node bench/corpus.mjs --unjudged out.json   also write the findings no label covers (for the judges)
//   node bench/corpus.mjs --reuse         judge the outputs of the last run again (no tool run)
//   node bench/corpus.mjs --cli /tmp/before/dist/bundle/main.js --tag before   the build before a change
//
// The repositories themselves are fetched by the search tool into /work/.mirror (or any bare git directory named
// in repos.json) and cloned into a scratch folder here; none of their files is ever committed. What is committed:
// the list (repos.json), the labels (labels/<owner>+<name>.json) and this script.
//
// A label names a finding by repository, rule, file, line and commit (null for a snapshot finding) and says what
// a maintainer of that repository would call it: `real` (a violation they would fix), `misread` (the tool read
// the file wrongly) or `noise` (read right, but not a violation in this repository's own protocol).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const corpusDir = join(here, 'corpus');
const scratch = process.env.CORPUS_SCRATCH ?? '/tmp/vw-corpus';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

// `--cli <main.js>` runs another build (the one before a change, built in a worktree); `--tag` keeps its outputs apart.
const cli = resolve(value('--cli') ?? join(root, 'dist', 'bundle', 'main.js'));
const tag = value('--tag') ?? 'current';
const repos = JSON.parse(readFileSync(join(corpusDir, 'repos.json'), 'utf8'));
const only = value('--only')?.split(',');
const selected = repos.filter((r) => !only || only.includes(r.repo));
const slug = (repo) => repo.replace('/', '+');

function labelsOf(repo) {
  const file = join(corpusDir, 'labels', `${slug(repo)}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
}

/** A clean clone at the listed head, so the tool sees the history exactly as published. */
function checkout(r) {
  const dir = join(scratch, 'repos', slug(r.repo));
  if (!existsSync(join(dir, '.git'))) {
    mkdirSync(dirname(dir), { recursive: true });
    execFileSync('git', ['clone', '-q', '--no-checkout', r.gitdir, dir]);
  }
  // The fetched snapshots lack their largest files: leave every blob the snapshot does not hold out of the work
  // tree (sparse checkout marks them skip-worktree, so the tool sees a clean tree). None of them is a workflow file.
  const entries = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '--full-tree', r.head], { maxBuffer: 1 << 28 })
    .toString()
    .split('\n')
    .flatMap((line) => {
      const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/.exec(line);
      return m ? [{ blob: m[1], path: m[2] }] : [];
    });
  const answers = execFileSync('git', ['-C', dir, 'cat-file', '--batch-check'], {
    input: entries.map((e) => e.blob).join('\n') + '\n',
    maxBuffer: 1 << 28,
  })
    .toString()
    .split('\n');
  const absent = entries.filter((e, i) => (answers[i] ?? '').endsWith('missing')).map((e) => e.path);
  const glob = (p) => p.replace(/([*?[\]!\\#])/g, '\\$1');
  execFileSync('git', ['-C', dir, 'config', 'core.sparseCheckout', 'true']);
  writeFileSync(
    join(dir, '.git', 'info', 'sparse-checkout'),
    ['/*', ...absent.map((p) => `!/${glob(p)}`)].join('\n') + '\n',
  );
  execFileSync('git', ['-C', dir, 'checkout', '-q', '--force', '--detach', r.head]);
  execFileSync('git', ['-C', dir, 'clean', '-qfdx']);
  return dir;
}

function runTool(r, dir) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(process.execPath, [cli, '--since', 'root', '--format', 'json', '--no-color'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      let report;
      try {
        report = JSON.parse(out);
      } catch {
        report = null;
      }
      done({ repo: r.repo, code, ms: Date.now() - started, report, stderr: err.slice(-2000) });
    });
  });
}

/** The key of a finding as labels name it. */
const keyOf = (f) => `${f.ruleId}|${f.file}|${f.line}|${f.commit ?? ''}`;

async function main() {
  const outDir = join(scratch, 'out', tag);
  mkdirSync(outDir, { recursive: true });
  const runs = [];
  if (flag('--reuse')) {
    for (const r of selected) {
      const file = join(outDir, `${slug(r.repo)}.json`);
      if (existsSync(file)) runs.push(JSON.parse(readFileSync(file, 'utf8')));
    }
  } else {
    const queue = [...selected];
    const jobs = Number(value('--jobs') ?? 2);
    await Promise.all(
      Array.from({ length: jobs }, async () => {
        for (let r = queue.shift(); r; r = queue.shift()) {
          let run;
          try {
            run = await runTool(r, checkout(r));
          } catch (err) {
            run = { repo: r.repo, code: null, ms: 0, report: null, stderr: String(err.message ?? err).slice(0, 2000) };
          }
          writeFileSync(join(outDir, `${slug(r.repo)}.json`), JSON.stringify(run));
          process.stderr.write(
            `${r.repo}: exit ${run.code}, ${(run.ms / 1000).toFixed(1)} s, ${run.report?.results.length ?? 'no report'} findings\n`,
          );
          runs.push(run);
        }
      }),
    );
  }

  // A held-out repository added in a later round (`addedIn`) is its own set: judged before that round's changes,
  // it says how the tool does on repositories nobody had looked at, apart from the older held-out set.
  const setOf = (meta) => (meta?.holdout ? (meta.addedIn ? `held out (${meta.addedIn})` : 'holdout') : 'tuning');
  const SETS = ['tuning', 'holdout', ...new Set(repos.filter((r) => r.holdout && r.addedIn).map(setOf))];
  const table = Object.fromEntries(SETS.map((s) => [s, new Map()]));
  const unjudged = [];
  const perRepo = [];
  for (const run of runs.sort((a, b) => a.repo.localeCompare(b.repo))) {
    const meta = repos.find((r) => r.repo === run.repo);
    const set = setOf(meta);
    const labels = new Map(
      labelsOf(run.repo).map((l) => [keyOf({ ruleId: l.rule, file: l.file, line: l.line, commit: l.commit }), l]),
    );
    const results = (run.report?.results ?? []).filter((f) => f.severity === 'error' || f.severity === 'warning');
    const counts = {
      repo: run.repo,
      set,
      exit: run.code,
      seconds: +(run.ms / 1000).toFixed(1),
      errors: 0,
      warnings: 0,
      real: 0,
      misread: 0,
      noise: 0,
      unjudged: 0,
    };
    for (const f of results) {
      counts[f.severity === 'error' ? 'errors' : 'warnings']++;
      const label = labels.get(keyOf(f));
      const row = table[set].get(f.ruleId) ?? { findings: 0, real: 0, misread: 0, noise: 0, unjudged: 0 };
      row.findings++;
      if (label) {
        row[label.label]++;
        counts[label.label]++;
      } else {
        row.unjudged++;
        counts.unjudged++;
        unjudged.push({
          repo: run.repo,
          rule: f.ruleId,
          severity: f.severity,
          file: f.file,
          line: f.line,
          commit: f.commit ?? null,
          message: f.message,
        });
      }
      table[set].set(f.ruleId, row);
    }
    perRepo.push(counts);
  }

  const pct = (a, b) => (b === 0 ? '—' : `${Math.round((100 * a) / b)}%`);
  const lines = [];
  for (const set of SETS) {
    if (!selected.some((r) => setOf(r) === set)) continue;
    const rows = [...table[set].entries()].sort((a, b) => b[1].findings - a[1].findings);
    const total = rows.reduce(
      (t, [, r]) => ({
        findings: t.findings + r.findings,
        real: t.real + r.real,
        misread: t.misread + r.misread,
        noise: t.noise + r.noise,
        unjudged: t.unjudged + r.unjudged,
      }),
      { findings: 0, real: 0, misread: 0, noise: 0, unjudged: 0 },
    );
    lines.push(`\n${set} set (${perRepo.filter((r) => r.set === set).length} repositories)`);
    lines.push('| rule | errors+warnings | real | misread | noise | unjudged | precision |');
    lines.push('| --- | --- | --- | --- | --- | --- | --- |');
    for (const [id, r] of rows)
      lines.push(
        `| ${id} | ${r.findings} | ${r.real} | ${r.misread} | ${r.noise} | ${r.unjudged} | ${pct(r.real, r.real + r.misread + r.noise)} |`,
      );
    lines.push(
      `| **all** | ${total.findings} | ${total.real} | ${total.misread} | ${total.noise} | ${total.unjudged} | **${pct(total.real, total.real + total.misread + total.noise)}** |`,
    );
    // Where only a sample of a rule's findings is judged, its precision stands for all of them: weigh each rule's
    // precision by its count of findings (rules with no judged finding are left out of both sides).
    let weighted = 0;
    let weight = 0;
    for (const [, r] of rows) {
      const judged = r.real + r.misread + r.noise;
      if (judged === 0) continue;
      weighted += (r.findings * r.real) / judged;
      weight += r.findings;
    }
    lines.push(
      `\nestimated precision over all ${set} findings (each rule's judged precision weighed by its count): **${pct(weighted, weight)}** (${Math.round(weighted)} of ${weight})`,
    );
  }
  // Another blind judge of some of the same findings: how far two judges agree says how much of a precision figure is
  // the judges' own disagreement. `second-judge.json`: one run's findings judged again without the labels.
  // `instruction-judge.json` (round 13, JUDGING-manual.md): the manual-confirmation findings judged against each
  // repository's own instructions on who checks manual items; with its labels in place of the first ones where it
  // judged, precision is printed again, so both readings stand side by side until the maintainers pick one.
  for (const [file, title] of [
    ['second-judge.json', 'second judge (blind)'],
    ['instruction-judge.json', "instruction judge (blind, the repository's own instructions on manual items)"],
  ]) {
    const other = new Map(
      JSON.parse(readFileSync(join(corpusDir, file), 'utf8')).map((l) => [
        keyOf({ ruleId: l.rule, file: l.file, line: l.line, commit: l.commit }) + `|${l.repo}`,
        l,
      ]),
    );
    lines.push(`\n${title}, on the findings both judged: real by each, and agreement on real / not real`);
    lines.push('| set | rule | judged by both | real (labels) | real (this judge) | agree |');
    lines.push('| --- | --- | --- | --- | --- | --- |');
    const instead = [];
    for (const set of SETS) {
      const rows = new Map();
      const whole = { real: 0, judged: 0 };
      for (const run of runs) {
        if (setOf(repos.find((r) => r.repo === run.repo)) !== set) continue;
        const labels = new Map(
          labelsOf(run.repo).map((l) => [keyOf({ ruleId: l.rule, file: l.file, line: l.line, commit: l.commit }), l]),
        );
        for (const f of run.report?.results ?? []) {
          if (f.severity !== 'error' && f.severity !== 'warning') continue;
          const first = labels.get(keyOf(f));
          const second = other.get(`${keyOf(f)}|${run.repo}`);
          const used = second ?? first;
          if (used) {
            whole.judged++;
            whole.real += used.label === 'real' ? 1 : 0;
          }
          if (!first || !second) continue;
          for (const id of [f.ruleId, '**all**']) {
            const row = rows.get(id) ?? { n: 0, first: 0, second: 0, agree: 0 };
            row.n++;
            row.first += first.label === 'real' ? 1 : 0;
            row.second += second.label === 'real' ? 1 : 0;
            row.agree += (first.label === 'real') === (second.label === 'real') ? 1 : 0;
            rows.set(id, row);
          }
        }
      }
      for (const [id, r] of [...rows.entries()].sort((a, b) => b[1].n - a[1].n))
        lines.push(`| ${set} | ${id} | ${r.n} | ${r.first} | ${r.second} | ${pct(r.agree, r.n)} |`);
      if (rows.size > 0) instead.push(`${set} ${pct(whole.real, whole.judged)} (${whole.real} of ${whole.judged})`);
    }
    if (instead.length > 0) lines.push(`\nprecision with this judge's labels where it judged: ${instead.join('; ')}`);
  }
  lines.push('\n| repository | set | exit | seconds | errors | warnings | real | misread | noise | unjudged |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of perRepo)
    lines.push(
      `| ${r.repo} | ${r.set} | ${r.exit} | ${r.seconds} | ${r.errors} | ${r.warnings} | ${r.real} | ${r.misread} | ${r.noise} | ${r.unjudged} |`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  const out = value('--unjudged');
  if (out) {
    // `--sample n`: at most n unjudged findings per repository and rule, evenly spread (enough for a precision
    // per rule; the table above weighs it by the rule's count).
    const n = Number(value('--sample') ?? Infinity);
    const groups = new Map();
    for (const f of unjudged) groups.set(`${f.repo}|${f.rule}`, [...(groups.get(`${f.repo}|${f.rule}`) ?? []), f]);
    const picked = [...groups.values()].flatMap((list) =>
      list.length <= n ? list : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]),
    );
    writeFileSync(out, `${JSON.stringify(picked, null, 1)}\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(2);
});
