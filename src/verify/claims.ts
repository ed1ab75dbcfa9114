// Which claims to verify: the automated items ticked in the range (or ticked and still checked at HEAD without one),
// each with the commit that ticked it and the trust settings of that commit's parent. The history fold already
// knows every check event and the snapshots on both sides of it; this module only keeps the last tick of each item
// and reads the item's commands from the plan as that commit wrote it.
import type { Config } from '../config/config.js';
import type { Event } from '../model/history.js';
import { foldHistory, type FoldResult } from '../history/fold.js';
import { trackedPacks } from '../engine/history.js';
import { trustOf } from '../engine/judge.js';
import { planItems } from './commands.js';

export interface Claim {
  plan: string;
  /** The item's line in the plan as the ticking commit wrote it. */
  line: number;
  phase: number;
  /** The item's text in the model (backticks dropped): with plan and phase, its identity. */
  text: string;
  /** The item as written, backticks kept. */
  written: string;
  commands: string[];
  commit: { sha: string; subject: string };
  /** The parent commit's settings: which commands may run, the set-up step, the limit, the rule's severity. */
  trust: Config;
}

export interface ClaimsOptions {
  /** The current config: where the workflow files are. */
  config: Config;
  from?: string | null;
  to?: string;
  /** Only this plan (repository-relative path). */
  plan?: string;
  /** Only this phase number. */
  phase?: number;
  onProgress?: (p: { commits: number; total: number; parsed: number }) => void;
}

export interface Claims {
  claims: Claim[];
  /** Why history could not be folded (history/incomplete's message name and ref), or null. */
  incomplete: FoldResult['incomplete'];
}

type ItemEvent = Extract<Event, { type: 'item-checked' | 'item-removed' | 'item-made-na' }>;
const isAutomated = (e: Event): e is ItemEvent =>
  (e.type === 'item-checked' || e.type === 'item-removed' || e.type === 'item-made-na') && e.kind === 'automated';
const identity = (e: { file: string; phase: number; text: string }) => JSON.stringify([e.file, e.phase, e.text]);

export async function findClaims(root: string, opts: ClaimsOptions): Promise<Claims> {
  let last = new Map<string, Claim | null>();
  const folded = await foldHistory(root, {
    config: opts.config,
    tracked: trackedPacks(opts.config),
    from: opts.from,
    to: opts.to,
    onProgress: opts.onProgress,
    onStep: (step) => {
      const parsed = new Map<string, ReturnType<typeof planItems> | null>();
      const itemsOf = (file: string) => {
        if (!parsed.has(file)) {
          const bytes = step.after.bytes(file);
          parsed.set(file, bytes ? planItems(Buffer.from(bytes).toString('utf8')) : null);
        }
        return parsed.get(file);
      };
      for (const e of step.events) {
        if (!isAutomated(e)) continue;
        if (opts.plan !== undefined && e.file !== opts.plan) continue;
        if (opts.phase !== undefined && e.phase !== opts.phase) continue;
        // Unticked, removed or made N/A again: the claim is withdrawn (a later tick makes a new one).
        if (e.type !== 'item-checked' || !e.checked) {
          last.set(identity(e), null);
          continue;
        }
        const source = itemsOf(e.file)?.find(e.line, e.text) ?? null;
        last.set(identity(e), {
          plan: e.file,
          line: e.line,
          phase: e.phase,
          text: e.text,
          written: source?.written ?? e.text,
          commands: source?.commands ?? [],
          commit: { sha: step.commit.sha, subject: step.commit.subject },
          trust: trustOf(step.before),
        });
      }
    },
    // The fold starts over when it learns of a plan outside its globs: what the steps so far said is said again.
    onRestart: () => {
      last = new Map();
    },
  });
  const claims = [...last.values()].filter((c): c is Claim => c !== null && c.commands.length > 0);
  return { claims, incomplete: folded.incomplete };
}
