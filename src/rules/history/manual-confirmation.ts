import type { Rule, RawFinding } from '../types.js';
import type { Event } from '../../model/history.js';
import { addedItemLines } from '../../history/events.js';
import { AFTER_THE_FACT, byFile, firstLine, listTexts } from './cause.js';
import { undoKey } from '../../model/finding.js';

type Checked = Extract<Event, { type: 'item-checked' }>;

function describe(e: Event): string {
  switch (e.type) {
    case 'item-checked':
      return `${e.checked ? 'checks' : 'unchecks'} the ${e.kind} item "${e.text}" (${e.file}:${e.line})`;
    case 'task-completed':
      return `${e.completed ? 'checks' : 'unchecks'} Task ${e.task} (${e.file}:${e.line})`;
    case 'trust-file-changed':
      return `changes ${e.file}`;
    default:
      return `changes ${e.file} (${e.type.replace(/-/g, ' ')})`;
  }
}

/** Placeholders of a finding about these items of one file: one item, or the count, the list and the first line. */
function about(file: string, items: readonly Checked[]): Record<string, string | number> {
  const first = items.find((i) => i.line === firstLine(items))!;
  return {
    file,
    item: first.text,
    items: listTexts(items.map((i) => i.text)),
    count: items.length,
    line: first.line,
    phase: first.phase,
  };
}

export const rule: Rule = {
  meta: {
    id: 'history/manual-confirmation',
    short: "A commit that checks a manual item carries a human's `Confirmed-by`.",
    severities: { recommended: 'error', strict: 'error' },
    formula: 'F(checkoff_manual) <- not user_confirmed',
    description:
      "Every commit that checks a manual verification item (or adds one already checked) carries a human's confirmation: a `Confirmed-by: Name <email>` trailer whose identity is not an agent's, is listed in `confirmers` when set, and is the commit's author or committer; with `requireSignedConfirmations`, a good signature. A `Confirmed-items` digest, when present, covers every manual item checked. In `recommended` a person's own commit that changes only plans (manual checkboxes and prose, no task box, no handoff, no code) is an implicit confirmation (info); `strict` requires trailer and digest. In an audit (no config) only an agent's commit is judged, and a plan entering with a squashed pull request is noted. One finding per commit and plan. Where the repository's own instructions say manual items are not checked until the user confirms them, an unconfirmed check-off quotes that sentence (file and line); only the words change.",
    fix: 'Leave manual items to a human: `npx validate-workflow confirm <plan> --phase N` commits them with the trailer.',
    messages: {
      // {{reason}}: why the commit's confirmation does not count (src/history/trust.ts says it in one clause).
      // Marked `cite` below: each door adds the repository's own words before the closing stop where its
      // instructions say manual items wait for a person:
      // `; this repository's .claude/commands/implement_plan.md (line 87) says "..."`.
      unconfirmed: 'Manual item "{{item}}" is checked without a human\'s confirmation: {{reason}}.',
      unconfirmedMany:
        "{{count}} manual items are checked without a human's confirmation ({{reason}}): {{items}} (first at line {{line}}).",
      strictOtherChange:
        'Manual item "{{item}}" is checked without a human\'s confirmation: in `strict` a confirmation commit changes nothing but manual checkboxes, and this one also {{change}}.',
      strictOtherChangeMany:
        "{{count}} manual items are checked without a human's confirmation: in `strict` a confirmation commit changes nothing but manual checkboxes, and this one also {{change}}: {{items}} (first at line {{line}}).",
      implicit:
        'Manual item "{{item}}" checked by {{name}} <{{email}}> in a commit of their own that changes only plans (manual checkboxes and prose), with no agent taking part: counted as their own confirmation (implicit, `recommended` only).',
      implicitMany:
        '{{count}} manual items checked by {{name}} <{{email}}> in a commit of their own that changes only plans (manual checkboxes and prose), with no agent taking part: counted as their own confirmation (implicit, `recommended` only): {{items}} (first at line {{line}}).',
      relayed:
        'Manual item "{{item}}" confirmed by {{name}} <{{email}}> in a commit an agent co-authored (the agent relays the human\'s word).',
      relayedMany:
        "{{count}} manual items confirmed by {{name}} <{{email}}> in a commit an agent co-authored (the agent relays the human's word): {{items}} (first at line {{line}}).",
      noAgent:
        'Manual item "{{item}}" is checked in a commit by {{name}} <{{email}}> with no agent identity (author, committer or co-author); without the convention adopted, history cannot show that an agent checked it.',
      noAgentMany:
        '{{count}} manual items are checked in a commit by {{name}} <{{email}}> with no agent identity (author, committer or co-author): {{items}} (first at line {{line}}); without the convention adopted, history cannot show that an agent checked them.',
      // Audit of a history without the convention (TransitionContext.audit): nothing to judge, only to say.
      entered: 'Manual item "{{item}}" enters git already checked: history cannot show who checked it.',
      enteredMany:
        '{{count}} manual items enter git already checked: {{items}} (first at line {{line}}); history cannot show who checked them.',
      // The fix before the commit exists (pre-commit, commit-msg): the plan and phase are known, the command complete.
      leaveUnchecked:
        'Manual items are checked by a human, never by an agent: leave them unchecked and tell the user Phase {{phase}} is ready for manual verification (they confirm with `npx validate-workflow confirm {{file}} --phase {{phase}}`). An item a command can verify belongs under Automated Verification: ask the user to move it there (an agent that removes a manual item is history/self-exemption).',
      // The fix of a commit already made: what to do now.
      confirmNow: `Have a human verify Phase {{phase}} of {{file}} now and record it in a commit of their own (\`npx validate-workflow confirm {{file}} --phase {{phase}}\` makes it for items still unchecked); for this commit, ${AFTER_THE_FACT}. An item a command can verify belongs under Automated Verification, moved there by a human.`,
      adopt:
        'Nothing to undo: to judge only what comes after, commit validate-workflow.config.json (what `npx validate-workflow init` writes) or set `"history": { "since": "<commit>" }` in it.',
    },
  },
  transition: (ctx) => {
    // Pre-commit has no message yet; commit-msg judges the same change with its trailers.
    if (ctx.stage === 'staged') return [];
    const checked = ctx.events.filter(
      (e): e is Checked => e.type === 'item-checked' && e.kind === 'manual' && e.checked,
    );
    if (checked.length === 0) return [];
    const found: RawFinding[] = [];
    const fixId = ctx.stage === 'history' ? 'confirmNow' : 'leaveUnchecked';
    const name = (one: string, many: boolean) => (many ? `${one}Many` : one);
    const c = ctx.confirmation();
    // Strict: a confirmation commit changes nothing but manual checkboxes, so the human vouches for exactly that.
    const other =
      c.ok && ctx.preset === 'strict'
        ? ctx.events.find((e) => !(e.type === 'item-checked' && e.kind === 'manual'))
        : undefined;
    /** The finding about items checked in this commit (not entering git already checked in an audit). */
    const judged = (file: string, items: Checked[]): RawFinding | null => {
      const many = items.length > 1;
      const data = about(file, items);
      const line = firstLine(items);
      if (other)
        return {
          file,
          line,
          messageId: name('strictOtherChange', many),
          fixId,
          data: { ...data, change: describe(other) },
          // The maintainer's own rule, where the instructions state it: the same verdict, in their words, added by
          // each door as the files say it today (a cached finding keeps no words that may change).
          cite: 'manualConfirmation',
        };
      // An audit (no config: the repository never adopted the gate) sees who committed, not who checked: with no
      // agent identity on the commit, history shows a person's own commit, and the corpus shows maintainers
      // committing their finished plans with the work. Only an agent's commit is an unconfirmed check-off there.
      if (!c.ok && ctx.audit && ctx.stage === 'history' && ctx.agents.length === 0)
        return {
          file,
          line,
          info: true,
          messageId: name('noAgent', many),
          fixId: 'adopt',
          data: { ...data, name: ctx.commit.author.name, email: ctx.commit.author.email },
        };
      // Unchecked again by a later commit (a `git revert`), the violation was repaired: the runner says so.
      if (!c.ok)
        return {
          file,
          line,
          messageId: name('unconfirmed', many),
          fixId,
          data: { ...data, reason: c.reason },
          cite: 'manualConfirmation',
          undo: items.map((i) => undoKey('uncheck', file, i.text)),
        };
      if (c.implicit)
        return {
          file,
          line,
          info: true,
          messageId: name('implicit', many),
          data: { ...data, name: c.by!.name, email: c.by!.email },
        };
      if (ctx.agents.length > 0)
        return {
          file,
          line,
          info: true,
          messageId: name('relayed', many),
          data: { ...data, name: c.by!.name, email: c.by!.email },
        };
      return null;
    };
    for (const [file, all] of byFile(checked)) {
      const out: RawFinding[] = [];
      let items = all;
      // A pull request squashed before the repository adopted the convention (`... (#123)`) brings a plan whose
      // boxes were checked in commits this history no longer has: what enters with it cannot show who checked it.
      const squashed = ctx.audit && /\(#\d+\)\s*$/.test(ctx.commit.subject);
      if (
        (!c.ok || other) &&
        ctx.stage === 'history' &&
        ((ctx.agents.length === 0 && (ctx.audit || ctx.documentsOnly())) || squashed)
      ) {
        // Items that enter git already checked (a new plan, a new item) are judged by evidence (convention section
        // 6, round 3): with an agent identity on the commit they are an unconfirmed check-off, in an audit and after
        // adoption alike. Without one they are only noted: after adoption when the commit only adds or moves
        // documents (an import); in an audit also when it brings code, since a maintainer committing a finished
        // plan with the work is what the corpus shows (a human's commit, nothing shows an agent checked them).
        const plan = ctx.after.plan(file);
        const added = plan ? addedItemLines(ctx.before.plan(file), plan) : new Set<number>();
        const entered = all.filter((e) => added.has(e.line));
        items = all.filter((e) => !added.has(e.line));
        if (entered.length > 0)
          out.push({
            file,
            line: firstLine(entered),
            info: true,
            messageId: name('entered', entered.length > 1),
            fixId: 'adopt',
            data: about(file, entered),
          });
      }
      const finding = items.length > 0 ? judged(file, items) : null;
      if (finding) out.push(finding);
      found.push(...out.sort((a, b) => a.line! - b.line!));
    }
    return found;
  },
};
