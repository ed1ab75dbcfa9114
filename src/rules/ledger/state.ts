import type { Rule, RawFinding } from '../types.js';
import { positionOf } from '../../model/queries.js';
import { isAre, plural } from '../../shared/text.js';

export const rule: Rule = {
  meta: {
    id: 'ledger/state',
    short: 'The ledger state is consistent: one item in progress, none done twice.',
    severities: { recommended: 'error', strict: 'error' },
    formula: '<>(all_complete | abandoned)',
    description:
      'The ledger state is consistent: at most one item in progress (`[→]`), no item both done and pending, and none both in `Now` and in `Next`/`Remaining` (an item is known by its label: `Task N`, `Phase N`, `Step N`, or else its text); status `complete` only when every item is done. A state label such as `- Done:` repeated in one section is a warning, one per label listing its lines; every item done while the status is still `active` is an info.',
    fix: 'Keep one `[→]` item, one line per task, and set `status: complete` only when all are `[x]`.',
    messages: {
      secondInProgress:
        'Second item in progress ("{{item}}"); "{{first}}" (line {{firstLine}}) is already in progress.',
      conflictingStates: '{{item}} is {{state}} here but {{otherState}} at line {{otherLine}}.',
      labelRepeated:
        '`- {{label}}:` appears again in `{{section}}` (first at line {{first}}); one `{{label}}:` list per section is enough.',
      labelRepeatedMany:
        '`- {{label}}:` appears again in `{{section}}` at lines {{lines}} (first at line {{first}}); one `{{label}}:` list per section is enough.',
      labelRepeatedFix: 'Merge the items under the first `- {{label}}:` and delete the repeated label.',
      completeWithOpen:
        'Ledger status is complete but {{open}} {{be}} not done (first: "{{first}}", line {{firstLine}}).',
      allDoneStillActive: 'Every item is done but the ledger status is still active.',
      allDoneStillActiveFix: 'Set `status: complete`.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    for (const ledger of ws.ledgers.filter((l) => l.readable)) {
      const at = (line: number, column: number) => ({ file: ledger.path, line, column });
      const running = ledger.items.filter((i) => i.state === 'in-progress');
      for (const extra of running.slice(1)) {
        out.push({
          ...at(extra.line, extra.column),
          messageId: 'secondInProgress',
          data: { item: extra.text, first: running[0]!.text, firstLine: running[0]!.line },
        });
      }
      const byLabel = new Map<string, (typeof ledger.items)[number]>();
      for (const item of ledger.items) {
        const other = byLabel.get(item.label);
        const name = item.label === item.text.replace(/\s+/g, ' ').trim().toLowerCase() ? `"${item.text}"` : item.label;
        if (other && other.state !== item.state) {
          out.push({
            ...at(item.line, item.column),
            messageId: 'conflictingStates',
            data: { item: name, state: item.state, otherState: other.state, otherLine: other.line },
          });
        }
        if (!other) byLabel.set(item.label, item);
      }
      // One finding per repeated label, at its first repeat, listing every line (convention section 6: a repeated
      // ledger key is one cause).
      const byKey = new Map<string, (typeof ledger.labels)[number][]>();
      for (const l of ledger.labels) {
        const key = `${l.section}\0${l.label.toLowerCase()}`;
        byKey.set(key, [...(byKey.get(key) ?? []), l]);
      }
      for (const [first, ...again] of byKey.values()) {
        const repeat = again[0];
        if (!repeat) continue;
        // A lesser problem than a contradiction: a warning whatever the rule's severity (RawFinding.warn).
        out.push({
          ...at(repeat.line, repeat.column),
          warn: true,
          messageId: again.length > 1 ? 'labelRepeatedMany' : 'labelRepeated',
          fixId: 'labelRepeatedFix',
          data: {
            label: repeat.label,
            section: repeat.section,
            first: first!.line,
            lines: again.map((l) => l.line).join(', '),
          },
        });
      }
      const open = ledger.items.filter((i) => i.state !== 'done');
      const allDone = ledger.items.length > 0 && open.length === 0;
      // Asked only for a finding: a cached model decodes its positions when first read.
      const statusAt = () => {
        const { line, column } = positionOf(ledger.positions, '/status');
        return at(line, column);
      };
      // "complete only when every task is done" holds vacuously for an empty state; there is nothing open to name.
      if (ledger.status === 'complete' && open.length > 0) {
        out.push({
          ...statusAt(),
          messageId: 'completeWithOpen',
          data: {
            open: plural(open.length, 'item'),
            be: isAre(open.length),
            first: open[0]!.text,
            firstLine: open[0]!.line,
          },
        });
      }
      if (ledger.status === 'active' && allDone) {
        out.push({
          ...statusAt(),
          info: true,
          messageId: 'allDoneStillActive',
          fixId: 'allDoneStillActiveFix',
        });
      }
    }
    return out;
  },
};
