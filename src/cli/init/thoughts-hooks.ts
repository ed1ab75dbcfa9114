// init's job for a thoughts repository that thoughts/ (or a folder in it) links into: hooks there that judge its
// commits with this repository's rules, its workflow globs mapped to where the files live there.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Paths } from '../../config/config.js';
import {
  chainsOf,
  git,
  MARK,
  OUR_HOOKS,
  posixRel,
  put,
  read,
  shQuote,
  STDIN_HOOKS,
  STDIN_LINES,
  unquote,
  workflowPaths,
  type Chain,
  type Report,
} from './common.js';

interface Link {
  /** The link in the code repository (`thoughts`, or `thoughts/shared` in HumanLayer's layout). */
  link: string;
  /** Where it points, relative to the top of the thoughts repository ('' for its top). */
  target: string;
}

/** thoughts/ itself, or its direct children, when they are symbolic links into another git repository. */
function thoughtsRepos(root: string): Map<string, Link[]> {
  const out = new Map<string, Link[]>();
  const base = join(root, 'thoughts');
  const candidates: string[] = [];
  try {
    if (lstatSync(base).isSymbolicLink()) candidates.push('thoughts');
    else
      for (const name of readdirSync(base).sort())
        if (lstatSync(join(base, name)).isSymbolicLink()) candidates.push(`thoughts/${name}`);
  } catch {
    return out;
  }
  const self = realpathSync(root);
  for (const link of candidates) {
    let real: string;
    try {
      real = realpathSync(join(root, link));
      if (!statSync(real).isDirectory()) continue;
    } catch {
      continue;
    }
    const top = git(real, ['rev-parse', '--show-toplevel']);
    if (!top.ok) continue;
    const repo = realpathSync(top.out);
    if (repo === self) continue;
    const list = out.get(repo) ?? [];
    list.push({ link, target: posixRel(repo, real) });
    out.set(repo, list);
  }
  return out;
}

/** A glob of the code repository as the thoughts repository spells it, or null when it does not reach there. */
function mapGlob(glob: string, links: Link[]): string | null {
  for (const { link, target } of links) {
    if (glob === link || glob.startsWith(`${link}/`)) {
      const rest = glob.slice(link.length).replace(/^\//, '');
      return target ? (rest ? `${target}/${rest}` : target) : rest || '**';
    }
  }
  return null;
}

function thoughtsConfig(raw: Record<string, unknown>, paths: Paths, links: Link[]): Record<string, unknown> {
  const mapAll = (globs: string[]) => globs.map((g) => mapGlob(g, links)).filter((g): g is string => g !== null);
  const out: Record<string, unknown> = {};
  // Everything but where files live carries over: preset, rules, agents, confirmers, signatures, size limit.
  for (const [k, v] of Object.entries(raw)) if (k !== '$schema' && k !== 'paths' && k !== 'ignore') out[k] = v;
  out.paths = {
    plans: mapAll(paths.plans),
    handoffs: mapAll(paths.handoffs),
    ledgers: mapAll(paths.ledgers),
    searchable: mapAll(paths.searchable),
  };
  if (Array.isArray(raw.ignore)) out.ignore = mapAll(raw.ignore.filter((g): g is string => typeof g === 'string'));
  return out;
}

function thoughtsWrapper(name: string, chains: Chain[], projects: { root: string; config: string }[]): string {
  const stdin = STDIN_HOOKS.has(name);
  const lines = [
    '#!/bin/sh',
    `# validate-workflow ${name} hook of a thoughts repository, ${MARK}.`,
    "# Each vw_project line is a code repository whose thoughts/ links here: that repository's installed",
    "# validate-workflow judges this repository's commits, with its workflow globs mapped to where the files live",
    '# here (the --config file named).',
  ];
  if (stdin) lines.push(...STDIN_LINES);
  if (chains.length) {
    lines.push(
      stdin
        ? 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then vw_feed | "$vw_h" "$@" || exit $?; fi; }'
        : 'vw_chain() { vw_h=$1; shift; if [ -x "$vw_h" ]; then "$vw_h" "$@" || exit $?; fi; }',
    );
  }
  lines.push(
    'vw_project() {',
    '  vw_root=$1; vw_config=$2; shift 2',
    `  vw_hook=$vw_root/node_modules/validate-workflow/hooks/${name}`,
    // A code repository that is gone (or not installed) must not lock every other project out of this repository.
    '  if [ ! -f "$vw_hook" ]; then echo "validate-workflow: $vw_hook is missing (npm install in $vw_root); its check is skipped here." >&2; return 0; fi',
    `  ${stdin ? 'vw_feed | ' : ''}VALIDATE_WORKFLOW_LINT_STAGED=0 sh "$vw_hook" --vw-config "$vw_config" "$@" || exit $?`,
    '}',
    ...chains.map((c) => `vw_chain ${c.word} "$@"`),
    ...projects.map((p) => `vw_project ${shQuote(p.root)} ${shQuote(p.config)} "$@"`),
    'exit 0',
  );
  return `${lines.join('\n')}\n`;
}

function parseProjects(text: string): { root: string; config: string }[] {
  return [...text.matchAll(/^vw_project ('(?:[^']|'\\'')*') ('(?:[^']|'\\'')*') "\$@"$/gm)].map((m) => ({
    root: unquote(m[1]!),
    config: unquote(m[2]!),
  }));
}

export function installThoughtsHooks(
  root: string,
  commonDir: string,
  pkg: Record<string, unknown>,
  report: Report,
): void {
  const repos = thoughtsRepos(root);
  if (repos.size === 0) return;
  const { paths, raw } = workflowPaths(root, pkg);
  const self = realpathSync(root);
  for (const [repo, links] of repos) {
    const config = thoughtsConfig(raw, paths, links);
    const mapped = config.paths as Paths;
    if (mapped.plans.length + mapped.handoffs.length + mapped.ledgers.length === 0) {
      report.add(
        'note',
        repo,
        `thoughts repository: no workflow glob reaches it through ${links.map((l) => l.link).join(', ')}; no hooks installed there`,
      );
      continue;
    }
    const hooksDir = git(repo, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks']).out;
    if (!hooksDir || posixRel(repo, hooksDir).startsWith('.husky')) {
      report.add(
        'note',
        repo,
        'thoughts repository: its hooks are managed by husky; run `validate-workflow init` there instead',
      );
      continue;
    }
    const id = createHash('sha1').update(repo).digest('hex').slice(0, 12);
    const configPath = join(commonDir, 'validate-workflow', `thoughts-${id}.config.json`);
    const configStatus = put(configPath, `${JSON.stringify(config, null, 2)}\n`);
    if (configStatus !== 'unchanged')
      report.add(
        configStatus,
        configPath,
        `globs for ${repo} (${links.map((l) => `${l.link} -> ${l.target || '.'}`).join(', ')})`,
      );
    for (const name of OUR_HOOKS) {
      const path = join(hooksDir, name);
      const label = `${repo}: ${posixRel(repo, path)}`;
      const text = read(path);
      // The thoughts repository's own hook (any language) is moved aside and run first by our wrapper.
      const chains = chainsOf(path, name, label, text, report);
      if (chains === null) continue;
      const projects = text?.includes(MARK) ? parseProjects(text).filter((p) => p.root !== self) : [];
      projects.push({ root: self, config: configPath });
      projects.sort((a, b) => a.root.localeCompare(b.root));
      const want = thoughtsWrapper(name, chains, projects);
      const status = put(path, want, 0o755);
      report.add(
        status,
        label,
        status === 'unchanged'
          ? undefined
          : `judges commits there with this repository's rules${chains.length ? `; chains ${chains.map((c) => c.label).join(', ')}` : ''}`,
      );
    }
  }
}
