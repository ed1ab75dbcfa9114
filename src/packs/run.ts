// Reading pack files and running pack rules: the snapshot of the working tree, and the history of pack files
// (one streamed `git log` over the packs' folders, blobs read in one batch).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import picomatch from 'picomatch';
import type { Config } from '../config/config.js';
import type { Finding } from '../engine/finding.js';
import { severityOf, toFinding } from '../engine/snapshot.js';
import { RULES, RULE_IDS } from '../engine/catalog.js';
import type { RuleContext } from '../rules/types.js';
import { gitSync, readBlobs } from '../shared/git.js';
import { readTrace } from '../history/log.js';
import type { PackChange, Pack, PackFile, PackWorkspace } from './types.js';
import { gitIgnored } from '../read/discover.js';
import { PACKS } from './registry.js';

function active(config: Config): { def: Pack; globs: string[] }[] {
  return PACKS.map((def) => ({ def, globs: def.globs(config) })).filter((p) => p.globs.length > 0);
}

/** The pack files of the working tree (git-ignored files are left out). */
export function readPackWorkspace(root: string, config: Config, inGit: boolean): PackWorkspace {
  const ws: PackWorkspace = new Map();
  for (const { def, globs } of active(config)) {
    const paths = fg.sync(globs, { cwd: root, dot: true, onlyFiles: true, followSymbolicLinks: true, ignore: ['**/node_modules/**', '**/.git/**'] }).sort();
    const ignored = inGit ? gitIgnored(root, paths) : new Set<string>();
    const files: PackFile[] = [];
    for (const path of paths) {
      if (ignored.has(path)) continue;
      try {
        files.push(def.read(path, readFileSync(join(root, path))));
      } catch (err) {
        files.push({ pack: def.id, path, model: null, problems: [{ line: 1, column: 1, message: `File could not be read: ${(err as Error).message}` }] });
      }
    }
    if (files.length) ws.set(def.id, files);
  }
  return ws;
}

function context(config: Config): RuleContext {
  return { preset: config.preset, config, knownRules: RULE_IDS };
}

export function runPackSnapshot(ws: PackWorkspace, config: Config): Finding[] {
  if (ws.size === 0) return [];
  const out: Finding[] = [];
  const ctx = context(config);
  for (const rule of RULES) {
    if (!rule.packSnapshot) continue;
    const level = severityOf(rule, config);
    if (level === 'off') continue;
    for (const raw of rule.packSnapshot(ws, ctx)) out.push(toFinding(rule, raw, level));
  }
  return out;
}

/** Judge every commit's changes to pack files (append-only and accumulate-only rules). */
export async function judgePackHistory(root: string, config: Config, revs: string[] = ['HEAD']): Promise<Finding[]> {
  const packs = active(config);
  if (packs.length === 0) return [];
  const matchers = packs.map(({ def, globs }) => ({ def, match: picomatch(globs, { dot: true }) }));
  const bases = [...new Set(packs.flatMap((p) => p.globs.map((g) => picomatch.scan(g).base).filter(Boolean)))];
  if (bases.length === 0) return [];
  // A repository without commits has no pack history yet (and git log would refuse the revision).
  if (!gitSync(root, ['rev-parse', '--verify', '-q', `${revs[0]}^{commit}`]).ok) return [];
  const trace = await readTrace(root, revs, bases);
  const wanted: string[] = [];
  for (const t of trace) for (const c of t.changes) for (const b of [c.oldBlob, c.newBlob]) if (b) wanted.push(b);
  const blobs = readBlobs(root, [...new Set(wanted)]);
  const ctx = context(config);
  const out: Finding[] = [];
  for (const { commit, changes } of trace) {
    for (const c of changes) {
      const m = matchers.find((x) => x.match(c.path) || (c.from !== null && x.match(c.from)));
      if (!m) continue;
      const oldBytes = c.oldBlob ? blobs.get(c.oldBlob) : undefined;
      const newBytes = c.newBlob ? blobs.get(c.newBlob) : undefined;
      const change: PackChange = {
        pack: m.def.id,
        path: c.path,
        before: oldBytes ? m.def.read(c.from ?? c.path, oldBytes) : null,
        after: newBytes && c.status !== 'D' ? m.def.read(c.path, newBytes) : null,
        beforeText: oldBytes ? oldBytes.toString('utf8') : null,
        afterText: newBytes && c.status !== 'D' ? newBytes.toString('utf8') : null,
        commit,
      };
      for (const rule of RULES) {
        if (!rule.packTransition) continue;
        const level = severityOf(rule, config);
        if (level === 'off') continue;
        for (const raw of rule.packTransition(change, ctx)) out.push(toFinding(rule, raw, level, commit));
      }
    }
  }
  return out;
}
