// The ralph pack's model: a session's status.json as its parsed JSON with the position of every key, and its
// decisions.ndjson as lines.
import type { PositionMap } from '../../model/types.js';

export const PACK_ID = 'ralph';

export interface RalphStatusModel {
  kind: 'status';
  /** The parsed JSON document. */
  data: unknown;
  /** JSON pointer -> position (every key and list item). */
  positions: PositionMap;
}

export interface RalphDecisionLine {
  /** 1-based line number in the file. */
  line: number;
  text: string;
  /** The parsed line, or undefined when it is not valid JSON. */
  value: unknown;
}

export interface RalphDecisionsModel {
  kind: 'decisions';
  lines: RalphDecisionLine[];
}

export type RalphModel = RalphStatusModel | RalphDecisionsModel;
