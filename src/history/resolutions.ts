// Who wrote a blocked handoff's resolution (issue 12, bypass 10). `handoff/blocked-proceed` takes a resolution in the
// blocked handoff (`resolution:` or a `## Resolution` section) as the user's answer, and an agent can write one as
// easily as a human. So a resolution is the user's word only when the commit that wrote it has no agent in it, or
// carries the human's own `Guidance-by:` (or `Confirmed-by:`) that counts. What a commit writes is read from the
// handoff models before and after it, so a frontmatter key and a body section are the same thing.
import type { Change } from '../model/history.js';
import { positionOf, resolutionOf } from '../model/queries.js';
import type { Snapshot } from './snapshot.js';

export interface WrittenResolution {
  /** The blocked handoff. */
  file: string;
  line: number;
  /** The resolution as resolutionOf reads it. */
  text: string;
}

/** One resolution of one handoff, as the snapshot rule and the doors name it. */
export const resolutionKey = (file: string, text: string): string => `${file}\0${text}`;

/**
 * The resolutions a change writes: a blocked handoff (blocked before or after the change) whose resolution is new
 * or differs from the one it had. A resolution taken out writes nothing: without one the rule waits for guidance.
 */
export function writtenResolutions(changes: readonly Change[], before: Snapshot, after: Snapshot): WrittenResolution[] {
  const out: WrittenResolution[] = [];
  for (const c of changes) {
    if (c.status === 'D') continue;
    const now = after.model(c.path);
    if (now?.kind !== 'handoff' || !now.readable) continue;
    const text = resolutionOf(now);
    if (text === null) continue;
    const was = c.status === 'A' ? null : before.model(c.from ?? c.path);
    const old = was?.kind === 'handoff' && was.readable ? was : null;
    if (now.status !== 'blocked' && old?.status !== 'blocked') continue;
    if (old && resolutionOf(old) === text) continue;
    out.push({ file: c.path, line: positionOf(now.positions, '/resolution').line, text });
  }
  return out;
}
