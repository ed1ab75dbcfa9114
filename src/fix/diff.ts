// A unified diff of one file's text before and after the fixes, for --fix-dry-run (git's format, so `git apply`
// and any diff viewer read it). Fixes change a few lines of small files: the common head and tail are cut first,
// and the rest is a plain longest-common-subsequence table.
type Op = { kind: ' ' | '-' | '+'; line: string };

/** Lines with their newline, so a last line without one differs from the same text with one (as in git). */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function printed(op: Op): string {
  return op.line.endsWith('\n')
    ? `${op.kind}${op.line.slice(0, -1)}`
    : `${op.kind}${op.line}\n\\ No newline at end of file`;
}

function ops(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  // lcs[i][j]: length of the longest common subsequence of x[i..] and y[j..].
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const middle: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      middle.push({ kind: ' ', line: x[i++]! });
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!))
      middle.push({ kind: '-', line: x[i++]! });
    else middle.push({ kind: '+', line: y[j++]! });
  }
  const same = (l: string): Op => ({ kind: ' ', line: l });
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

/** `--- a/<from>` / `+++ b/<to>` and hunks with three lines of context; empty when nothing differs. */
export function unifiedDiff(from: string, to: string, before: string, after: string, context = 3): string {
  if (before === after && from === to) return '';
  const all = ops(lines(before), lines(after));
  const header = [
    `diff --git a/${from} b/${to}`,
    ...(from !== to ? [`rename from ${from}`, `rename to ${to}`] : []),
    `--- a/${from}`,
    `+++ b/${to}`,
  ];
  const changed = all.flatMap((op, k) => (op.kind === ' ' ? [] : [k]));
  if (changed.length === 0)
    return `${[`diff --git a/${from} b/${to}`, `rename from ${from}`, `rename to ${to}`].join('\n')}\n`;
  const out = [...header];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - context);
    let end = changed[k]! + context + 1;
    while (k + 1 < changed.length && changed[k + 1]! - context <= end) end = changed[++k]! + context + 1;
    k++;
    end = Math.min(end, all.length);
    const hunk = all.slice(start, end);
    const oldStart = all.slice(0, start).filter((o) => o.kind !== '+').length;
    const newStart = all.slice(0, start).filter((o) => o.kind !== '-').length;
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(
      `@@ -${oldCount ? oldStart + 1 : oldStart},${oldCount} +${newCount ? newStart + 1 : newStart},${newCount} @@`,
    );
    for (const o of hunk) out.push(printed(o));
  }
  return `${out.join('\n')}\n`;
}
