import type { Rule, RawFinding } from '../types.js';
import { promiseOf } from '../promise.js';

export const rule: Rule = {
  meta: {
    id: 'layout/paths',
    short: 'Handoffs live in a session folder; nothing under `thoughts/searchable/`.',
    severities: { recommended: 'warn', strict: 'error' },
    formula: 'handoff_path: "thoughts/handoffs/<session>/..."',
    description:
      'Handoffs live in a session folder (`thoughts/handoffs/<session>/`), never directly in the handoffs folder, and nothing is written under `thoughts/searchable/` (a generated mirror in HumanLayer setups). In `recommended`, HumanLayer session handoffs written flat as `thoughts/shared/handoffs/YYYY-MM-DD_HH-MM-SS_<desc>.md` (what its own `create_handoff` prescribes) are fine, and so are flat handoffs in a repository that keeps them flat (its instructions write them so, or two thirds of its handoffs sit flat); `strict` asks for the session folder. A workflow file stored in this repository as a symbolic link is reported (it is read through the link when the link points at a file inside the repository); a `thoughts/` folder that links into another repository is fine.',
    fix: 'Move the file into a session folder, or out of thoughts/searchable/.',
    messages: {
      noSessionFolder: 'Handoff sits directly in {{root}}/ instead of a session folder {{root}}/<session>/.',
      searchable:
        'File is under thoughts/searchable/, a generated mirror; write the original under thoughts/shared/ instead.',
      searchableMany:
        '{{count}} files are committed under thoughts/searchable/, a generated mirror (this is the first); keep the originals under thoughts/shared/ and leave the mirror out of git.',
      symlink: 'Workflow file is stored as a symbolic link to {{target}}; commit the file itself.',
      symlinkNotRead:
        'Workflow file is stored as a symbolic link to {{target}}, which leaves the repository or points at another link, so it is not read; commit the file itself.',
      // The fix of a link: what the reader does with one, and how to replace it.
      symlinkFix:
        "Replace the link with the file: `git rm --cached <link>`, copy the target's content to the link's path, and commit it. A link is read through only while it points at a file inside the repository, and a reviewer sees the change under another path.",
    },
  },
  snapshot: (ws, ctx) => {
    const out: RawFinding[] = [];
    // A flat HumanLayer session handoff is that system's own layout; a task handoff still needs its session folder.
    const flatHumanLayer = (h: (typeof ws.handoffs)[number]) =>
      ctx.preset !== 'strict' && h.dialect === 'humanlayer' && !h.isTask;
    // A repository whose instructions (or two thirds of whose handoffs) keep handoffs flat promised that layout.
    const flat = promiseOf(ws, ctx).handoffLayout.value === 'flat';
    for (const h of ws.handoffs.filter((h) => h.session === null && !flat && !flatHumanLayer(h))) {
      out.push({ file: h.path, line: 1, column: 1, messageId: 'noSessionFolder', data: { root: h.root } });
    }
    for (const s of ws.strays) {
      if (s.reason === 'symlink')
        out.push({
          file: s.path,
          line: 1,
          column: 1,
          messageId: s.followed ? 'symlink' : 'symlinkNotRead',
          fixId: 'symlinkFix',
          data: { target: s.target ?? '' },
        });
    }
    // One cause, one finding: a committed mirror is one decision, however many files it holds.
    // A repository whose own commands work in `thoughts/searchable/` committed it on purpose (recommended).
    const mirror = promiseOf(ws, ctx).searchableLayout.value ? [] : ws.strays.filter((s) => s.reason === 'searchable');
    if (mirror.length === 1) out.push({ file: mirror[0]!.path, line: 1, column: 1, messageId: 'searchable' });
    else if (mirror.length > 1)
      out.push({
        file: mirror[0]!.path,
        line: 1,
        column: 1,
        messageId: 'searchableMany',
        data: { count: mirror.length },
      });
    return out;
  },
};
