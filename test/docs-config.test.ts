// The README's table of config keys is written by hand: it must name every key the schema has, no other, and the
// default agent identities the code uses, so a key added to the schema cannot stay undocumented.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENTS } from '../src/config/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const schema = JSON.parse(readFileSync(new URL('../schemas/config.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, unknown>;
};
const section = readme.slice(
  readme.indexOf('## Configuration'),
  readme.indexOf('### The protocol a repository promised'),
);
const rows = section.split('\n').filter((l) => /^\| `[^`]+` \|/.test(l));
const keyOf = (row: string) => /^\| `([^`]+)`/.exec(row)![1]!;

describe('the README table of config keys', () => {
  it('names exactly the keys of schemas/config.schema.json, in its order', () => {
    expect(rows.map(keyOf)).toEqual(Object.keys(schema.properties));
  });

  it('lists the default agent identities the code uses', () => {
    const agents = rows.find((r) => keyOf(r) === 'agents')!;
    for (const id of DEFAULT_AGENTS) expect(agents).toContain(`\`${id}\``);
  });
});
