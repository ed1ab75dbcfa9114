// The repository's promise as the structure rules ask for it (convention section 4b): `strict` holds everyone to the
// canonical shape; `recommended` to what this repository promised (read/profile.ts). Learned once per workspace.
import type { Plan, Workspace } from '../model/types.js';
import type { RuleContext } from './types.js';
import { canonicalProfile, instructionSignals, learnProfile, type Profile } from '../read/profile.js';

const learned = new WeakMap<Workspace, Profile>();

/** The profile learned from this workspace's repository, whatever the preset (what `--print-config` shows). */
export function learnedProfile(ws: Workspace, ctx: Pick<RuleContext, 'config'>): Profile {
  let profile = learned.get(ws);
  if (!profile) {
    profile = learnProfile({
      protocol: ctx.config.protocol,
      configSource: ctx.config.source,
      signals: instructionSignals(ws.root),
      plans: ws.plans,
      handoffs: ws.handoffs,
      ledgers: ws.ledgers.length,
    });
    learned.set(ws, profile);
  }
  return profile;
}

/** What the structure rules hold this workspace to under the context's preset. */
export function promiseOf(ws: Workspace, ctx: Pick<RuleContext, 'config' | 'preset'>): Profile {
  return ctx.preset === 'strict' ? canonicalProfile() : learnedProfile(ws, ctx);
}

/**
 * Whether handoff/missing holds this plan to task handoffs: everywhere in `strict`; in `recommended` where the
 * repository writes them (it has some, or a session ledger, its instructions or config ask for them) or the plan
 * declares `mode: orchestration`. Elsewhere no handoff can be linked to the plan, and a check that needs a link the
 * tool cannot make is skipped (convention section 4): history/task-order asks the same of each commit.
 */
export function handoffsPromised(ws: Workspace, ctx: Pick<RuleContext, 'config' | 'preset'>, plan: Plan): boolean {
  return promiseOf(ws, ctx).taskHandoffs.value || plan.frontmatter?.mode === 'orchestration';
}
