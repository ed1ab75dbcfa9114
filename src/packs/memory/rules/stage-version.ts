import type { Rule, RawFinding } from '../../../rules/types.js';
import { memoryFiles } from '../model.js';

const STAGE_VERSION = /^(.+)@v(\d{4})(\d{2})(\d{2})-(\d{2})$/;

/** Why a stage version is malformed, or null when it is well formed (a real date, the unit's own scope). */
export function stageVersionProblem(version: string, scope: unknown): string | null {
  const m = STAGE_VERSION.exec(version);
  if (!m) return `"${version}" does not match scope@vYYYYMMDD-NN`;
  const [, s, y, mo, d] = m;
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d))
    return `"${version}" names no real date (${y}-${mo}-${d})`;
  if (typeof scope === 'string' && scope !== '' && s !== scope)
    return `"${version}" names scope "${s}" but the unit's scope is "${scope}"`;
  return null;
}

export const rule: Rule = {
  meta: {
    id: 'memory/stage-version',
    short: 'A stage version has the shape `scope@vYYYYMMDD-NN`.',
    severities: { recommended: 'error', strict: 'error' },
    formula: 'version = scope@vYYYYMMDD-NN',
    description:
      "A stage version (a `version` that names a scope with `@`) has the seed's shape `scope@vYYYYMMDD-NN`: the unit's own scope, a real date and a two-digit sequence number. Versions without `@` (plain numbers, validity ranges, which the seed also allows) are not stage versions and are not judged.",
    fix: 'Write the version as `<scope>@v<YYYYMMDD>-<NN>`, for example `combat@v20260115-02`.',
    messages: {
      malformed: 'Stage version `{{key}}` at line {{line}}: {{problem}}.',
    },
  },
  packSnapshot: (packs) => {
    const out: RawFinding[] = [];
    for (const { path, model } of memoryFiles(packs)) {
      for (const l of model.lines) {
        const v = l.value;
        if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
        const rec = v as Record<string, unknown>;
        for (const key of ['version', 'stage_version']) {
          const version = rec[key];
          if (typeof version !== 'string' || !version.includes('@')) continue;
          const problem = stageVersionProblem(version, rec.scope);
          if (problem)
            out.push({ file: path, line: l.line, messageId: 'malformed', data: { key, line: l.line, problem } });
        }
      }
    }
    return out;
  },
};
