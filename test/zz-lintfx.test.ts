import { it } from 'vitest';
import { join } from 'node:path';
import { lint, makeRepo, readTree } from '/work/main/test/helpers/repo.js';
it('show', () => {
  for (const name of (process.env.FX ?? '').split(',')) {
    const preset = (process.env.PRESET ?? 'recommended') as 'recommended';
    const f = lint(makeRepo(readTree(join('/work/main/test/fixtures/dialects', name), 'utf8')), { preset });
    console.log(name, JSON.stringify(f.map((x) => [x.ruleId, x.severity, x.file, x.line, x.message]), null, 1));
  }
});
