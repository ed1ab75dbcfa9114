// Reading a ralph file: `status.json` (the session state) and `decisions.ndjson` (the decision log next to it).
// Reading never throws: a file that does not parse is a problem with its line (a corrupt status.json is the seed's E010).
import type { PositionMap, ReadProblem } from '../../model/types.js';
import { parsers, ParsersNotLoaded, readYaml } from '../../read/lazy.js';
import type { PackFile } from '../types.js';
import {
  PACK_ID,
  type RalphDecisionLine,
  type RalphDecisionsModel,
  type RalphModel,
  type RalphStatusModel,
} from './model.js';

/** Where a JSON.parse error is: the message's offset or line (V8 says one or the other), else where yaml stops. */
function jsonErrorAt(text: string, err: Error): { line: number; column: number } {
  const lc = /line (\d+) column (\d+)/.exec(err.message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(err.message);
  const { LineCounter, parseDocument } = parsers();
  const counter = new LineCounter();
  if (pos) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) counter.addNewLine(i + 1);
    const p = counter.linePos(Number(pos[1]));
    return { line: p.line, column: p.col };
  }
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const p = counter.linePos(first.pos[0]);
    return { line: p.line, column: p.col };
  }
  return { line: 1, column: 1 };
}

function readStatus(path: string, text: string): PackFile<RalphStatusModel> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const at = jsonErrorAt(text, err as Error);
    return {
      pack: PACK_ID,
      path,
      model: null,
      problems: [{ ...at, message: `E010: status.json is not valid JSON: ${(err as Error).message}` }],
    };
  }
  // JSON is YAML's flow style: the yaml reader gives each key and item its line.
  let positions: PositionMap;
  try {
    positions = readYaml(text).positions;
  } catch (err) {
    if (err instanceof ParsersNotLoaded) throw err;
    positions = {};
  }
  return { pack: PACK_ID, path, model: { kind: 'status', data, positions }, problems: [] };
}

function readDecisions(path: string, text: string): PackFile<RalphDecisionsModel> {
  const lines: RalphDecisionLine[] = [];
  const problems: ReadProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problems.push({
        line: i + 1,
        column: 1,
        message: `line ${i + 1} of decisions.ndjson is not valid JSON: ${(err as Error).message}`,
      });
    }
    lines.push({ line: i + 1, text: line, value });
  });
  return { pack: PACK_ID, path, model: { kind: 'decisions', lines }, problems };
}

export function read(path: string, bytes: Uint8Array): PackFile<RalphModel> {
  const text = Buffer.from(bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return path.endsWith('.ndjson') ? readDecisions(path, text) : readStatus(path, text);
}
