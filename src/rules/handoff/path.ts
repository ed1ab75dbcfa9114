import type { Rule, RawFinding } from '../types.js';
import { positionOf } from '../../model/queries.js';

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const rule: Rule = {
  meta: {
    id: 'handoff/path',
    short: 'A task handoff lives at `<handoffs>/<session>/task-NN-<desc>.md` (or `.yaml`).',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'handoff_path: "thoughts/handoffs/<session>/task-[NN]-[desc].md"',
    description:
      'A task handoff lives at `<handoffs>/<session>/task-NN-<desc>.md` (`.yaml` or `.yml` for a YAML handoff): NN zero-padded to two digits, desc in kebab-case, and NN equal to the `task` key.',
    fix: 'Rename the file to `task-NN-<kebab-case-desc>.md` (a YAML handoff keeps `.yaml`) with NN matching its `task` key.',
    fixable: 'problem',
    messages: {
      badName: 'Task handoff "{{name}}" is not named task-NN-<desc>.md (or .yaml).',
      notPadded: 'Task number "{{number}}" in "{{name}}" is not zero-padded to two digits.',
      notKebab: 'Description "{{desc}}" in "{{name}}" is not kebab-case (lower-case words joined by hyphens).',
      taskMismatch: 'File name says task {{fileTask}} but the `task` key says {{task}}.',
    },
  },
  snapshot: (ws) => {
    const out: RawFinding[] = [];
    // Handoffs outside a session folder are layout/paths' concern; one finding per mistake is enough.
    for (const h of ws.handoffs.filter((h) => h.isTask && h.session !== null)) {
      const name = h.path.slice(h.path.lastIndexOf('/') + 1);
      const at = { file: h.path, line: 1, column: 1 };
      const m = /^task-(\d+)-(.+)\.(?:md|ya?ml)$/.exec(name);
      if (!m) {
        out.push({ ...at, messageId: 'badName', data: { name } });
        continue;
      }
      const [, nn, desc] = m as unknown as [string, string, string];
      if (nn.length < 2 || (nn.length > 2 && nn.startsWith('0')))
        out.push({ ...at, messageId: 'notPadded', data: { number: nn, name } });
      if (!KEBAB.test(desc)) out.push({ ...at, messageId: 'notKebab', data: { desc, name } });
      if (h.task !== null && h.task !== Number(nn)) {
        out.push({
          file: h.path,
          ...positionOf(h.positions, '/task'),
          messageId: 'taskMismatch',
          data: { fileTask: Number(nn), task: h.task },
        });
      }
    }
    return out;
  },
};
