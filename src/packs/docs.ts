// A pack's docs index (docs/packs/<id>.md), rendered from the Pack object itself: its description, the JSON Schema
// of its config key and its rules with their severities and pages (docs/rules/<pack>/<rule>.md). The pack tests
// hold the committed pages to this rendering, so the index cannot drift from the registry.
import type { Rule } from '../rules/types.js';
import type { Pack } from './types.js';

/** The page of a rule, relative to docs/packs/. */
export function rulePage(rule: Rule): string {
  return `../rules/${rule.meta.id}.md`;
}

/** The first sentence of a rule's description, for one table cell. */
function summary(rule: Rule): string {
  const text = rule.meta.description.replace(/\s+/g, ' ').trim();
  const end = text.search(/\.(\s|$)/);
  return (end === -1 ? text : text.slice(0, end + 1)).replace(/\|/g, '\\|');
}

export function renderPackPage(pack: Pack): string {
  const lines = [
    `# The \`${pack.id}\` pack`,
    '',
    `${pack.description.charAt(0).toUpperCase()}${pack.description.slice(1)}. Rule ids are \`${pack.id}/<rule>\`; configure the pack under`,
    `\`packs["${pack.id}"]\` in \`validate-workflow.config.json\` (\`false\` switches it off), and each rule under \`rules\`.`,
    '',
    '## Configuration',
    '',
    `The JSON Schema of \`packs["${pack.id}"]\`:`,
    '',
    '```json',
    JSON.stringify(pack.configSchema, null, 2),
    '```',
    '',
    '## Rules',
    '',
    '| rule | recommended / strict | checks |',
    '| --- | --- | --- |',
    ...pack.rules.map(
      (r) =>
        `| [\`${r.meta.id}\`](${rulePage(r)}) | ${r.meta.severities.recommended} / ${r.meta.severities.strict} | ${summary(r)} |`,
    ),
    '',
    `Generated from \`src/packs/${pack.id}/index.ts\` (test/packs/docs.test.ts keeps it in step).`,
    '',
  ];
  return lines.join('\n');
}
