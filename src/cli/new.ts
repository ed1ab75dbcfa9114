// `validate-workflow new plan|handoff|ledger`: files from templates/, with the next task number, the previous
// handoff and the session filled in. Never overwrites an existing file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { stringify } from 'yaml';
import { loadConfig } from '../config/config.js';
import { discover } from '../read/discover.js';
import { repositoryRoot } from '../shared/git.js';
import { readWorkspace } from '../read/workspace.js';
import { handoffTask, tasksOf } from '../model/queries.js';
import { RULE_IDS } from '../engine/catalog.js';
import type { Plan, Workspace } from '../model/types.js';
import { kebab } from '../shared/text.js';
import { EXIT, type Io } from './io.js';
import { UsageError } from '../shared/errors.js';
import { defineCommand } from './command.js';

export interface NewOptions {
  kind: string;
  title?: string;
  session?: string;
  plan?: string;
  desc?: string;
  out?: string;
  date?: string;
}

function template(name: string): string {
  return readFileSync(new URL(`../../templates/${name}.md`, import.meta.url), 'utf8');
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
}

/** The text as a YAML scalar, quoted only when YAML would otherwise read it as something else. */
function scalar(text: string): string {
  return stringify(text, { lineWidth: 0 }).trimEnd();
}

function pickPlan(ws: Workspace, ref: string | undefined, session: string | undefined): Plan | null {
  if (ref) return ws.plans.find((p) => p.path === ref || posix.basename(p.path) === posix.basename(ref)) ?? null;
  const ledger = session ? ws.ledgers.find((l) => l.session === session) : undefined;
  const linked = ledger ? ws.links.get(ledger.path) : undefined;
  if (linked) return ws.plans.find((p) => p.path === linked) ?? null;
  return ws.plans.length === 1 ? ws.plans[0]! : null;
}

function write(root: string, path: string, text: string, io: Io): number {
  const abs = join(root, path);
  if (existsSync(abs)) throw new UsageError(`${path} already exists; validate-workflow new never overwrites a file.`);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text, { flag: 'wx' });
  io.stdout(`created ${path}\n`);
  return EXIT.ok;
}

export function newFile(opts: NewOptions, io: Io): number {
  const root = repositoryRoot(io.cwd) ?? io.cwd;
  const config = loadConfig(root, undefined, RULE_IDS);
  const ws = readWorkspace(root, discover(root, config, true), config);
  const today = opts.date ?? new Date().toISOString().slice(0, 10);

  if (opts.kind === 'plan') {
    if (!opts.title) throw new UsageError('new plan needs a title: validate-workflow new plan "Auth flow"');
    const path = opts.out ?? `thoughts/shared/plans/${today}-${kebab(opts.title)}.md`;
    return write(root, path, fill(template('plan'), { title: opts.title }), io);
  }

  if (opts.kind === 'handoff') {
    if (!opts.session) throw new UsageError('new handoff needs --session <name> (the folder under thoughts/handoffs/)');
    const folder = `thoughts/handoffs/${opts.session}`;
    const mine = ws.handoffs.filter((h) => h.isTask && h.path.startsWith(`${folder}/`) && handoffTask(h) !== null);
    const last = mine.sort((a, b) => handoffTask(a)! - handoffTask(b)!).at(-1);
    const task = last ? handoffTask(last)! + 1 : 1;
    const plan = pickPlan(ws, opts.plan, opts.session);
    const planTask = plan ? tasksOf(plan).find((t) => t.number === task) : undefined;
    const desc = opts.desc ?? planTask?.title ?? 'TODO task description';
    const nn = String(task).padStart(2, '0');
    const path = opts.out ?? `${folder}/task-${nn}-${kebab(desc) || 'task'}.md`;
    return write(
      root,
      path,
      fill(template('handoff'), {
        task: String(task),
        task_total: String(plan ? Math.max(tasksOf(plan).length, task) : task),
        task_desc: scalar(desc),
        title: desc,
        plan: plan ? scalar(plan.path) : opts.plan ? scalar(opts.plan) : 'TODO path of the plan',
        previous_line: last ? `previous: ${posix.basename(last.path)}\n` : '',
      }),
      io,
    );
  }

  if (opts.kind === 'ledger') {
    if (!opts.session) throw new UsageError('new ledger needs --session <name>');
    const plan = pickPlan(ws, opts.plan, undefined);
    if (!plan)
      throw new UsageError(opts.plan ? `no plan found at ${opts.plan}` : 'new ledger needs --plan <path of the plan>');
    const tasks = tasksOf(plan);
    const state = tasks.length
      ? tasks.map((t) => `- [${t.checked ? 'x' : ' '}] Task ${t.number}: ${t.title}`).join('\n')
      : '- [ ] Task 1: TODO';
    const path = opts.out ?? `thoughts/ledgers/CONTINUITY_CLAUDE-${opts.session}.md`;
    return write(
      root,
      path,
      fill(template('ledger'), { session: scalar(opts.session), title: opts.session, plan: scalar(plan.path), state }),
      io,
    );
  }

  throw new UsageError(`new needs one of plan, handoff, ledger (got ${opts.kind || 'nothing'})`);
}

export const command = defineCommand({
  name: 'new',
  summary: 'a plan, handoff or ledger from the templates, with the next task number and links filled in',
  usage: `Usage: validate-workflow new plan "<title>" [--out <path>]
       validate-workflow new handoff --session <s> [--desc <d>] [--plan <p>] [--out <path>]
       validate-workflow new ledger --session <s> --plan <p> [--out <path>]

Writes a file from templates/ with the next task number, the previous handoff and the session filled in. Never
overwrites an existing file.

Options:
  --session <name>  the session (the folder under thoughts/handoffs/, the ledger's name)
  --plan <path>     the plan the handoff or ledger belongs to
  --desc <text>     the task's description (default: the task's title in the plan)
  --out <path>      where to write the file (default: the convention's path)
  -h, --help        show this help
`,
  options: {
    session: { type: 'string' },
    plan: { type: 'string' },
    desc: { type: 'string' },
    out: { type: 'string' },
  },
  action: ({ values, positionals }, io) =>
    newFile(
      {
        kind: positionals[0] ?? '',
        title: positionals.slice(1).join(' ') || undefined,
        session: values.session,
        plan: values.plan,
        desc: values.desc,
        out: values.out,
      },
      io,
    ),
});
