// Each pack's docs index (docs/packs/<id>.md) is its Pack object rendered, and each of its rules has its page under
// docs/rules/<pack>/ (whose examples test/docs-examples.test.ts runs). To refresh the indexes after changing a pack:
// VW_WRITE_DOCS=1 npx vitest run test/packs/docs.test.ts
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKS } from '../../src/packs/registry.js';
import { renderPackPage } from '../../src/packs/docs.js';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

describe.each(PACKS.map((p) => [p.id, p] as const))('pack %s: docs', (id, pack) => {
  it('owns its rules: ids are <pack>/<rule>, each with its page', () => {
    expect(pack.rules.length).toBeGreaterThan(0);
    for (const rule of pack.rules) {
      expect(rule.meta.id.startsWith(`${id}/`), rule.meta.id).toBe(true);
      expect(existsSync(`${DOCS}rules/${rule.meta.id}.md`), `docs/rules/${rule.meta.id}.md`).toBe(true);
      expect(Object.keys(rule.meta.messages).length, `${rule.meta.id} declares its messages`).toBeGreaterThan(0);
    }
  });

  it('docs/packs/<id>.md is the pack rendered', () => {
    const file = `${DOCS}packs/${id}.md`;
    const page = renderPackPage(pack);
    if (process.env.VW_WRITE_DOCS) {
      mkdirSync(`${DOCS}packs`, { recursive: true });
      writeFileSync(file, page);
    }
    expect(
      existsSync(file),
      `docs/packs/${id}.md is missing: VW_WRITE_DOCS=1 npx vitest run test/packs/docs.test.ts`,
    ).toBe(true);
    expect(readFileSync(file, 'utf8'), 'stale: VW_WRITE_DOCS=1 npx vitest run test/packs/docs.test.ts').toBe(page);
  });
});
