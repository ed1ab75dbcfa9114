// What the history door reads from its own trace instead of asking git (engine/history.ts): the descendants of a
// commit of the trace, and that git's adoption walks would find nothing. On random histories with merges (some of
// them dropping the config), renames, deletions and package.json with and without the key, the trace's answers are
// git's: `rev-list --ancestry-path` for descendants, and an empty `log --diff-filter=A` / `log -S` wherever the trace
// says so.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE } from '../../src/config/config.js';
import { descendantsInTrace, traceTouches } from '../../src/engine/history.js';
import { readTrace } from '../../src/history/log.js';
import { TRUST_FILES } from '../../src/history/snapshot.js';
import { makeRepo } from '../helpers/repo.js';
import { propertyRuns } from '../helpers/runs.js';

const SEED = 2026_11_28;
const PLANS = 'thoughts/shared/plans';
const NAMES = [CONFIG_FILE, 'package.json', `${PLANS}/a.md`, 'README.md', 'src/x.ts'];

const files = fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 });
const step = fc.oneof(
  fc.record({ kind: fc.constant('commit' as const), write: files, remove: files, key: fc.boolean() }),
  fc.record({ kind: fc.constant('rename' as const) }),
  fc.record({ kind: fc.constant('merge' as const), side: files, main: files, dropConfig: fc.boolean() }),
);

function git(dir: string, ...args: string[]): string {
  const res = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
}

describe("the trace's answers", () => {
  it("are git's: descendants, and adoption walks that find nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), fc.nat(), async (steps, salt) => {
        const dir = makeRepo({});
        try {
          let n = 0;
          const write = (names: string[], key: boolean, tag: string) => {
            for (const f of names) {
              mkdirSync(dirname(join(dir, f)), { recursive: true });
              const text =
                f === 'package.json' ? JSON.stringify(key ? { validateWorkflow: { n } } : { n }) : `${f} ${tag} ${n}`;
              writeFileSync(join(dir, f), `${text}\n`);
            }
          };
          const commit = (message: string) => {
            git(dir, 'add', '-A');
            git(dir, 'commit', '-q', '--allow-empty', '-m', message);
          };
          for (const s of steps) {
            n++;
            if (s.kind === 'commit') {
              write(s.write, s.key, 'main');
              for (const f of s.remove) if (!s.write.includes(f)) rmSync(join(dir, f), { force: true });
              commit(`step ${n}`);
            } else if (s.kind === 'rename') {
              // The config moved onto from a traced file, or away to one.
              const from = (salt + n) % 2 ? `${PLANS}/a.md` : CONFIG_FILE;
              const to = from === CONFIG_FILE ? `${PLANS}/moved-${n}.md` : CONFIG_FILE;
              if (git(dir, 'ls-files', from).trim() && !git(dir, 'ls-files', to).trim()) {
                mkdirSync(dirname(join(dir, to)), { recursive: true });
                git(dir, 'mv', from, to);
              }
              commit(`rename ${n}`);
            } else {
              if (git(dir, 'rev-list', '--all').trim() === '') commit('root');
              const side = `side-${n}`;
              git(dir, 'checkout', '-q', '-b', side);
              write(s.side, (salt >> n) % 2 === 1, 'side');
              commit(`${side}`);
              git(dir, 'checkout', '-q', '-');
              write(
                s.main.filter((f) => !s.side.includes(f)),
                false,
                'main',
              );
              commit(`main ${n}`);
              git(dir, 'merge', '-q', '--no-commit', '--no-ff', side);
              if (s.dropConfig) git(dir, 'rm', '-q', '-f', '--ignore-unmatch', CONFIG_FILE);
              commit(`merge ${side}`);
            }
          }
          const trace = await readTrace(dir, ['HEAD'], [PLANS, ...TRUST_FILES]);
          const inTrace = new Set(trace.map((t) => t.commit.sha));
          // Three commits of the trace: its first, and two more the salt picks.
          const picks = new Set([0, salt % trace.length, (salt >> 3) % trace.length]);
          for (const i of trace.length ? picks : []) {
            const sha = trace[i]!.commit.sha;
            const walked = git(dir, 'rev-list', '--ancestry-path', `${sha}..HEAD`).split('\n').filter(Boolean);
            const expected = new Set([sha, ...walked.filter((s) => inTrace.has(s))]);
            expect(descendantsInTrace(trace, sha)).toEqual(expected);
          }
          expect(descendantsInTrace(trace, '0'.repeat(40))).toBeNull();
          const added = git(dir, 'log', '--format=%H', '--diff-filter=A', 'HEAD', '--', CONFIG_FILE).trim();
          if (!traceTouches(trace, CONFIG_FILE, ['A', 'R'])) expect(added).toBe('');
          const keyed = git(dir, 'log', '--format=%H', '-S"validateWorkflow"', 'HEAD', '--', 'package.json').trim();
          if (!traceTouches(trace, 'package.json')) expect(keyed).toBe('');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      {
        seed: SEED,
        numRuns: propertyRuns(8, 2),
        // Cases the random ones may miss: a plan renamed onto the config (git's walk of the config alone sees an
        // addition), and a merge that drops a config its side branch added, after a commit that adds the key.
        examples: [
          [[{ kind: 'commit', write: [`${PLANS}/a.md`], remove: [], key: false }, { kind: 'rename' }], 1],
          [
            [
              { kind: 'commit', write: [CONFIG_FILE, 'package.json'], remove: [], key: true },
              { kind: 'merge', side: [CONFIG_FILE], main: ['README.md'], dropConfig: true },
            ],
            0,
          ],
        ],
      },
    );
  });
});
