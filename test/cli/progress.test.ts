// The progress line: drawn on a terminal's stderr after a second, at most every 200 ms, erased at the end; nothing
// with --quiet or when stderr is not a terminal (a CI log, a file).
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/cli/progress.js';
import type { Io } from '../../src/cli/io.js';

function io(tty: boolean): { io: Io; err: string[] } {
  const err: string[] = [];
  return { io: { cwd: '/', stdout: () => {}, stderr: (t) => err.push(t), color: false, env: {}, stderrTTY: tty }, err };
}

describe('progress line', () => {
  it('draws after a second, throttled, and erases itself', () => {
    const { io: out, err } = io(true);
    let t = 0;
    const line = progressLine(out, { quiet: false, now: () => t });
    line.update({ commits: 10, total: 100, parsed: 5 });
    t = 1100;
    line.update({ commits: 50, total: 100, parsed: 40 });
    t = 1150;
    line.update({ commits: 60, total: 100, parsed: 45 });
    t = 1400;
    line.update({ commits: 90, total: null, parsed: 80 });
    line.done();
    expect(err).toEqual([
      '\r\x1b[2Kvalidate-workflow: 50/100 commits folded, 40 file versions parsed, 1.1 s',
      '\r\x1b[2Kvalidate-workflow: 90 commits folded, 80 file versions parsed, 1.4 s',
      '\r\x1b[2K',
    ]);
  });

  it('says nothing when stderr is not a terminal, with --quiet, or for a run under a second', () => {
    for (const [tty, quiet, at] of [
      [false, false, 5000],
      [true, true, 5000],
      [true, false, 900],
    ] as const) {
      const { io: out, err } = io(tty);
      let t = 0;
      const line = progressLine(out, { quiet, now: () => t });
      t = at;
      line.update({ commits: 1, total: 1, parsed: 1 });
      line.done();
      expect(err).toEqual([]);
    }
  });
});
